"""Runs in a process group: the code of a run with ``ranks`` set, in that many processes.

A distributed API needs a process group. The worker forks ``ranks`` processes
(each has the library the worker imported), inside the same sandbox, with the
environment variables a launcher sets — ``torchrun`` (``MASTER_ADDR``,
``MASTER_PORT``, ``RANK``, ``WORLD_SIZE``) or ``paddle.distributed.launch``
(``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``, ``PADDLE_TRAINER_ENDPOINTS``, …
with the gloo backend; ``PADDLE_MASTER_ENDPOINT`` and ``PADDLE_WORKER_ENDPOINT`` as its
``--run_mode rpc`` sets them) — so the record's setup code initialises the group the
way a user's script does, over the loopback interface (the only network a rank
may reach). Each rank runs the code as :func:`apimap.verify.runtime.run` does
(its inputs may use ``rank``) and answers with its outcome; the run's results
are the ranks', rank by rank, compared as lists.
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
import select
import signal
import socket
import time
import traceback
from typing import Any

from apimap.verify import network
from apimap.verify.protocol import decode, encode

HOST = "127.0.0.1"
SPARE_SECONDS = 30.0
"""What a rank may take beyond its code's own limit: joining the group, leaving it."""
ATTEMPTS = 3
"""How often a group that failed to connect is formed again (on new ports)."""
CONNECTION_FAILURES = re.compile(
    r"Connection reset|Connection refused|Address already in use|DistNetworkError|"
    r"TCP receive error|gloo/transport/tcp/pair\.cc:\d+\] TIMEOUT|Socket Timeout"
)
"""How a rank fails when its group could not connect over loopback (another run took a port,
or a peer gave up while the machine was busy): not the code's doing, so it is tried again."""


def _free_ports(count: int) -> list[int]:
    """Ports on the loopback interface that nothing listens on now."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((HOST, 0))
            sockets.append(sock)
        return [int(sock.getsockname()[1]) for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def launcher_environment(side: str, rank: int, world: int, ports: list[int]) -> dict[str, str]:
    """The variables a launcher sets for ``rank`` of ``world`` processes on this machine."""
    if side == "torch":
        return {
            "MASTER_ADDR": HOST,
            "MASTER_PORT": str(ports[0]),
            "RANK": str(rank),
            "LOCAL_RANK": str(rank),
            "WORLD_SIZE": str(world),
            "LOCAL_WORLD_SIZE": str(world),
        }
    endpoints = [f"{HOST}:{port}" for port in ports[1 : world + 1]]
    return {
        "PADDLE_MASTER": f"{HOST}:{ports[0]}",
        # what `paddle.distributed.launch --run_mode rpc` sets for paddle.distributed.rpc
        "PADDLE_MASTER_ENDPOINT": f"{HOST}:{ports[0]}",
        "PADDLE_WORKER_ENDPOINT": endpoints[rank],
        "PADDLE_TRAINER_ID": str(rank),
        "PADDLE_RANK_IN_NODE": str(rank),
        "PADDLE_TRAINERS_NUM": str(world),
        "PADDLE_LOCAL_SIZE": str(world),
        "PADDLE_TRAINER_ENDPOINTS": ",".join(endpoints),
        "PADDLE_CURRENT_ENDPOINT": endpoints[rank],
        "PADDLE_DISTRI_BACKEND": "gloo",
    }


def run(spec: dict[str, Any], side: Any, store: Any) -> dict[str, Any]:
    """Run ``spec`` in ``spec["ranks"]`` processes of this side; one outcome for the run:
    each result a list of the ranks' values, or the first rank's failure. ``side`` is the
    worker's loaded :class:`~apimap.verify.sides.Side`, ``store`` the job's
    :class:`~apimap.verify.runtime.WeightStore`: the ranks get its weights, and the weights
    rank 0 records join it. A group that could not connect is formed again, up to
    :data:`ATTEMPTS` times."""
    for _attempt in range(ATTEMPTS - 1):
        outcome = _run_once(spec, side, store)
        if outcome.get("ok") or not CONNECTION_FAILURES.search(str(outcome.get("error", ""))):
            return outcome
    return _run_once(spec, side, store)


def _run_once(spec: dict[str, Any], side: Any, store: Any) -> dict[str, Any]:
    world = int(spec["ranks"])
    ports = _free_ports(world + 1)
    seconds = float(spec.get("seconds") or 30.0) + SPARE_SECONDS
    children: list[tuple[int, int]] = []
    for rank in range(world):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            _rank(spec, side, store, rank, world, ports, write)
        os.close(write)
        children.append((pid, read))
    outcomes = _collect(children, time.monotonic() + seconds)
    store.adopt(outcomes[0].pop("blobs", None) or {})
    failed = next((outcome for outcome in outcomes if not outcome.get("ok")), None)
    if failed is not None:
        return failed
    merged: dict[str, Any] = {}
    for name in spec.get("outputs") or []:
        values = [outcome["values"].get(name) for outcome in outcomes]
        if all(value is not None for value in values):
            merged[name] = {"t": "list", "v": values}
    missing = sorted({name for outcome in outcomes for name in outcome.get("missing", [])})
    return {"ok": True, "values": merged, "missing": missing, "weights": outcomes[0]["weights"]}


def _rank(
    spec: dict[str, Any],
    side: Any,
    store: Any,
    rank: int,
    world: int,
    ports: list[int],
    channel: int,
) -> None:
    """A forked rank: the launcher's variables, the run, its outcome on ``channel``. It never
    returns: a rank must not go on serving the worker's jobs."""
    from apimap.verify import runtime

    status = 1
    try:
        os.environ.update(launcher_environment(side.name, rank, world, ports))
        network.loopback_only()
        outcome = runtime.run({**spec, "rank": rank}, side, store)
        if rank:
            outcome.pop("weights", None)  # rank 0 records the layers' weights for paddle
        elif store.made:  # in base64, like the rest of the rank's outcome line
            outcome["blobs"] = {
                label: base64.b64encode(data).decode("ascii") for label, data in store.made.items()
            }
        view = memoryview(encode(outcome))
        while view:
            view = view[os.write(channel, view) :]
        status = 0
    except BaseException as exc:  # apimap's own code failed in the rank: say how
        traceback.print_exc()
        failure = {"ok": False, "stage": "internal", "error": runtime.error_text(exc)}
        with contextlib.suppress(OSError):
            os.write(channel, encode(failure))
    finally:
        os._exit(status)


def _collect(children: list[tuple[int, int]], deadline: float) -> list[dict[str, Any]]:
    """Each rank's outcome, in rank order; ranks still running at ``deadline`` are stopped
    (all of them: a process group waits for every rank)."""
    outcomes: list[dict[str, Any] | None] = [None] * len(children)
    buffers = [b""] * len(children)
    pending = {fd: index for index, (_pid, fd) in enumerate(children)}
    while pending and time.monotonic() < deadline:
        ready, _, _ = select.select(list(pending), [], [], max(0.0, deadline - time.monotonic()))
        for fd in ready:
            index = pending[fd]
            chunk = os.read(fd, 1 << 20)
            if chunk:
                buffers[index] += chunk
                continue
            del pending[fd]
            line = buffers[index].split(b"\n", 1)[0]
            try:
                outcomes[index] = decode(line) if line else None
            except ValueError:
                outcomes[index] = None
    timed_out = bool(pending)
    for pid, fd in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        os.close(fd)
    found: list[dict[str, Any]] = []
    for rank, outcome in enumerate(outcomes):
        if outcome is not None:
            found.append(outcome)
        elif timed_out:
            found.append(
                {"ok": False, "stage": "timeout", "error": f"进程 {rank} 超时 (rank timed out)"}
            )
        else:
            found.append(
                {"ok": False, "stage": "crash", "error": f"进程 {rank} 异常退出 (rank died)"}
            )
    return found
