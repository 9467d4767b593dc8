"""A verification worker: ``python -m apimap.verify.worker torch|paddle``.

It imports NumPy and one library once, says it is ready (with the installed
versions), then answers one job per line on stdin with one result per line on
its original stdout. Output the code prints goes to stderr instead, so it
cannot corrupt the protocol. The network is switched off for the code, and
paddle's torch proxy is never enabled. It imports nothing that needs the
record model, so that an environment with only paddle and NumPy can run it.

Jobs: ``check`` (the side's API checks, see :mod:`apimap.verify.apis`) and
``runs`` (a record's calls, probes and examples on this side, see
:mod:`apimap.verify.runtime`).
"""

from __future__ import annotations

import os
import sys
from typing import Any, BinaryIO

from apimap.verify import apis, ranked, runtime
from apimap.verify.network import disable_network
from apimap.verify.protocol import decode, encode
from apimap.verify.sides import Side, load
from apimap.verify.weight_files import FILES_KEY, raw_blobs


def handle(job: dict[str, Any], side: Side) -> dict[str, Any]:
    """The result of one job."""
    kind = job.get("kind")
    payload = job["payload"]
    if kind == "check":
        result = apis.check(payload)
    elif kind == "runs":
        store = runtime.WeightStore(payload.get("blobs"), payload.get(FILES_KEY))
        cache = runtime.BuildCache()
        result = {
            "runs": [
                ranked.run(spec, side, store)
                if spec.get("ranks")
                else runtime.run(spec, side, store, cache)
                for spec in payload["runs"]
            ]
        }
        made = store.made
        if made:
            result["blobs"] = made
    else:
        raise ValueError(f"unknown job kind {kind!r}")
    return {"id": job["id"], **result}


def _protocol_channel() -> BinaryIO:
    """Keep the real stdout for results; send fd 1 (prints of the code) to stderr."""
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return channel


def main(argv: list[str]) -> int:
    """Serve jobs until stdin closes."""
    channel = _protocol_channel()
    try:
        side = load(argv[0] if argv else "")
    except Exception as exc:
        _write_all(channel, encode({"ready": False, "error": f"{type(exc).__name__}: {exc}"}))
        return 1
    disable_network()
    _write_all(channel, encode({"ready": True, "versions": side.versions}))
    for line in sys.stdin.buffer:
        job = decode(line)
        try:
            result = handle(job, side)
        except Exception as exc:  # a bug in apimap, reported for this job only
            result = {"id": job.get("id"), "error": f"{type(exc).__name__}: {exc}"}
        raw = raw_blobs(result)
        _write_all(channel, encode(result))
        for data in raw:  # the weights follow their result's line, raw (see weight_files)
            _write_all(channel, data)
    return 0


def _write_all(channel: BinaryIO, data: bytes) -> None:
    """Write every byte: an unbuffered write to a pipe may take only part of a large one."""
    view = memoryview(data)
    while view:
        written = channel.write(view)
        view = view[written or 0 :]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
