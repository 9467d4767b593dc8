"""A verification worker: ``python -m apimap.verify.worker``.

It imports numpy, torch and paddle once, says it is ready (with the installed
versions), then answers one job per line on stdin with one result per line on
its original stdout. Output the snippets print goes to stderr instead, so it
cannot corrupt the protocol. The network is switched off for the snippets, and
paddle's torch proxy is never enabled.
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Any, BinaryIO, NoReturn

from apimap.verify.apis import check_apis
from apimap.verify.execute import run_case
from apimap.verify.libraries import Libraries, import_libraries
from apimap.verify.protocol import decode, encode


def _no_network(*args: Any, **kwargs: Any) -> NoReturn:
    raise OSError("apimap verify: 示例不能访问网络 (network access is disabled)")


def disable_network() -> None:
    """Make every attempt to open a connection or resolve a name fail."""
    socket.socket.connect = _no_network  # type: ignore[method-assign]
    socket.socket.connect_ex = _no_network  # type: ignore[method-assign]
    socket.create_connection = _no_network
    socket.getaddrinfo = _no_network


def handle(job: dict[str, Any], libs: Libraries) -> dict[str, Any]:
    """The result of one job."""
    kind = job.get("kind")
    if kind == "signatures":
        issues = check_apis(job["payload"])
    elif kind == "case":
        issues = run_case(job["payload"], libs)
    else:
        raise ValueError(f"unknown job kind {kind!r}")
    return {"id": job["id"], "issues": [issue.to_json() for issue in issues]}


def _protocol_channel() -> BinaryIO:
    """Keep the real stdout for results; send fd 1 (prints of snippets) to stderr."""
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return channel


def main() -> int:
    """Serve jobs until stdin closes."""
    channel = _protocol_channel()
    try:
        libs = import_libraries()
    except Exception as exc:
        channel.write(encode({"ready": False, "error": f"{type(exc).__name__}: {exc}"}))
        return 1
    disable_network()
    channel.write(encode({"ready": True, "versions": libs.versions}))
    for line in sys.stdin.buffer:
        job = decode(line)
        try:
            result = handle(job, libs)
        except Exception as exc:  # a bug in apimap, reported for this job only
            result = {"id": job.get("id"), "error": f"{type(exc).__name__}: {exc}"}
        channel.write(encode(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
