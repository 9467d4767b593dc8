"""Pools of worker processes: one pool per library environment, each worker importing once.

Every worker runs in its own temporary directory, on the CPU, with one OpenMP
thread, a fixed hash seed, no network, and the limits of
:mod:`apimap.verify.sandbox`. A job that outlives its timeout, or kills its
interpreter, costs that worker: it is stopped and a fresh one starts for the
next job. Jobs are submitted one by one and answered through futures, so the
paddle side of a record can start as soon as its torch side is done.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import os
import queue
import re
import select
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import apimap
from apimap.record import phrases
from apimap.verify.protocol import decode, encode
from apimap.verify.sandbox import Sandbox
from apimap.verify.weight_files import (
    FILES_KEY,
    SIZES_KEY,
    SpilledWeights,
    WeightFiles,
    remove,
)

STARTUP_TIMEOUT = 300.0
"""Seconds a worker may take to import its library (slow disks, busy machines)."""
STDERR_TAIL = 400
WATCHDOG = re.compile(rb"Timeout \((\d+):(\d+):(\d+)(?:\.\d+)?\)!")
"""What faulthandler's watchdog writes before it ends a worker whose run hung in native code
(:data:`apimap.verify.runtime.HANG_GRACE`)."""
CHUNK = 1 << 20
"""The most bytes read from a worker's output at a time."""
WATCHDOG_TAIL = 64 * 1024
"""How much of a worker's stderr to search for it (the tracebacks of every thread follow)."""


@dataclass
class Job:
    """One unit of work: ``kind`` is ``check`` or ``runs``."""

    id: int
    kind: str
    payload: dict[str, Any]
    timeout: float | None = None
    """Seconds the job may take (``None``: the pool's timeout)."""


@dataclass
class JobResult:
    """What became of a job: the worker's answer, or why there is none."""

    id: int
    data: dict[str, Any] = field(default_factory=dict)
    timed_out: bool = False
    crashed: str | None = None
    """How the worker ended, when it died."""
    error: str | None = None
    """An exception inside apimap's own job code."""
    seconds: float = 0.0


class WorkerStartError(RuntimeError):
    """A worker could not import its library or did not answer."""


PASSED_VARIABLES = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "PYTHONPATH")
"""The only variables a worker inherits: record code must not read tokens or secrets from
the environment of CI and print them in a mismatch message."""


def apimap_pythonpath(inherited: str | None) -> str:
    """``PYTHONPATH`` for another interpreter that must import this apimap: its source first,
    then what ``inherited`` holds."""
    source_root = str(Path(apimap.__file__).resolve().parents[1])
    return os.pathsep.join(filter(None, [source_root, inherited]))


def worker_environment(home: str) -> dict[str, str]:
    """The environment of a worker: CPU only, deterministic, able to import apimap, its own
    folder as home, never installing packages, and none of the caller's other variables."""
    env = {name: os.environ[name] for name in PASSED_VARIABLES if name in os.environ}
    env["HOME"] = home
    env["PYTHONPATH"] = apimap_pythonpath(env.get("PYTHONPATH"))
    env.update(
        CUDA_VISIBLE_DEVICES="",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1",
        PYTHONHASHSEED="0",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONWARNINGS="ignore",
        GLOG_minloglevel="2",
        FLAGS_call_stack_level="0",
        # paddle2onnx turns on Polygraphy's installing of missing packages; in a worker the
        # install fails at once instead of waiting on a network the sandbox does not have
        POLYGRAPHY_INSTALL_CMD="false",
    )
    return env


class Worker:
    """One worker process and the pipes to it."""

    def __init__(
        self, python: str, side: str, sandbox: Sandbox, weights: WeightFiles | None = None
    ) -> None:
        self.weights = weights
        """Where the weights a result carries are written (``None``: kept in the result)."""
        self.directory = tempfile.TemporaryDirectory(prefix="apimap-verify-")
        self.stderr_path = Path(self.directory.name) / "stderr.log"
        self.stderr: IO[bytes] = self.stderr_path.open("wb")
        self.sandboxed = sandbox.start(
            [python, "-m", "apimap.verify.worker", side],
            self.directory.name,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=worker_environment(self.directory.name),
        )
        self.process = self.sandboxed.process
        self._buffer = bytearray()
        """What was read after the last complete line."""

    def wait_ready(self, timeout: float) -> dict[str, str]:
        """The installed versions, once the worker has imported its library."""
        line = self._read_line(time.monotonic() + timeout)
        if not line:
            reason = "超时 (timed out)" if line is None else self.stderr_tail()
            raise WorkerStartError(f"验证进程未能启动 (worker did not start)：{reason}")
        message = decode(line)
        if not message.get("ready"):
            raise WorkerStartError(
                f"验证进程无法导入所需的库 (cannot import the library)：{message.get('error')}"
            )
        versions = message["versions"]
        assert isinstance(versions, dict)
        return {str(k): str(v) for k, v in versions.items()}

    def run(self, job: Job, timeout: float) -> JobResult:
        """Send one job and wait for its result (or the timeout, or the worker's death)."""
        started = time.monotonic()
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(
                encode({"id": job.id, "kind": job.kind, "payload": job.payload})
            )
            self.process.stdin.flush()
        except OSError:
            return JobResult(job.id, crashed=self.stderr_tail())
        line = self._read_line(started + timeout)
        seconds = time.monotonic() - started
        if line is None:
            return JobResult(job.id, timed_out=True, seconds=seconds)
        if not line:
            hung = self._watchdog_seconds()
            if hung is not None:
                return JobResult(job.id, timed_out=True, seconds=hung)
            return JobResult(job.id, crashed=self.stderr_tail(), seconds=seconds)
        message = decode(line)
        sizes = message.pop(SIZES_KEY, None)
        if isinstance(sizes, dict) and sizes:
            received = self._receive(sizes, started + timeout)
            seconds = time.monotonic() - started
            if received is None:
                return JobResult(job.id, timed_out=True, seconds=seconds)
            if not isinstance(received, dict):
                return JobResult(job.id, crashed=self.stderr_tail(), seconds=seconds)
            message.update(received)
        if "error" in message:
            return JobResult(job.id, error=str(message["error"]), seconds=seconds)
        return JobResult(job.id, message, seconds=seconds)

    def _receive(self, sizes: dict[str, Any], deadline: float) -> dict[str, Any] | bool | None:
        """The raw weights that follow a result's line (:mod:`weight_files`), streamed into
        files (``{FILES_KEY: ...}``) or, without a directory for them, kept as base64
        (``{"blobs": ...}``); ``None`` at the deadline, ``False`` at the end of the output."""
        files: dict[str, str] = {}
        kept: dict[str, str] = {}
        for label, size in sizes.items():
            if not isinstance(size, int) or size < 0:
                return False
            if self.weights is None:
                data = bytearray()
                done = self._read_exact(size, deadline, data.extend)
                kept[str(label)] = base64.b64encode(data).decode("ascii")
            else:
                path = self.weights.new_file()
                with open(path, "wb") as sink:
                    done = self._read_exact(size, deadline, sink.write)
                files[str(label)] = path
            if done is not True:
                remove(list(files.values()))
                return done
        return {FILES_KEY: SpilledWeights(files)} if self.weights is not None else {"blobs": kept}

    def _read_exact(
        self, size: int, deadline: float, write: Callable[[bytes], object]
    ) -> bool | None:
        """Pass the next ``size`` bytes of the output to ``write``; ``None`` at the deadline,
        ``False`` at the end of the output."""
        ahead = bytes(self._buffer[:size])
        del self._buffer[: len(ahead)]
        write(ahead)
        remaining = size - len(ahead)
        while remaining > 0:
            chunk = self._next_chunk(deadline, min(remaining, CHUNK))
            if chunk is None:
                return None
            if not chunk:
                return False
            write(chunk)
            remaining -= len(chunk)
        return True

    def _next_chunk(self, deadline: float, most: int = CHUNK) -> bytes | None:
        """What the worker writes next (at most ``most`` bytes); ``b""`` at the end of its
        output, ``None`` at the deadline."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        readable, _, _ = select.select([fd], [], [], remaining)
        return os.read(fd, most) if readable else None

    def _read_line(self, deadline: float) -> bytes | None:
        """The next line; ``b""`` at end of file; ``None`` at the deadline.

        A result may be hundreds of megabytes (a large layer's weights) arriving in pipe-sized
        chunks: only each new chunk is searched for the end of the line, and the chunks are
        appended to one growing buffer, so reading stays linear in the line's length."""
        end = self._buffer.find(b"\n")
        while end < 0:
            chunk = self._next_chunk(deadline)
            if not chunk:
                return chunk  # the deadline (None) or the end of the output (b"")
            found = chunk.find(b"\n")
            if found >= 0:
                end = len(self._buffer) + found
            self._buffer += chunk
        line = bytes(self._buffer[: end + 1])
        del self._buffer[: end + 1]
        return line

    def stderr_tail(self) -> str:
        """How the worker ended: its exit status and the last of its stderr, on one line."""
        status = self._ended()
        text = self._stderr_end(STDERR_TAIL).decode("utf-8", "replace")
        ending = (
            phrases.WORKER_STILL_RUNNING
            if status is None
            else phrases.WORKER_EXITED.format(status=status)
        )
        tail = " ".join(text.split())
        return f"{ending}；{tail}" if tail else ending

    def _watchdog_seconds(self) -> float | None:
        """The watchdog's limit if it ended the worker (a run hung in native code)."""
        if self._ended() is None:
            return None
        found = list(WATCHDOG.finditer(self._stderr_end(WATCHDOG_TAIL)))
        if not found:
            return None
        hours, minutes, seconds = (int(part) for part in found[-1].groups())
        return float(hours * 3600 + minutes * 60 + seconds)

    def _ended(self) -> int | None:
        """The exit status of a worker that stopped answering (given a few seconds to end),
        ``None`` while it still runs; its stderr is written out either way."""
        try:
            status: int | None = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = None
        self.stderr.flush()
        return status

    def _stderr_end(self, size: int) -> bytes:
        """The last ``size`` bytes the worker wrote to stderr (nothing if it cannot be read)."""
        try:
            with self.stderr_path.open("rb") as log:
                log.seek(max(0, self.stderr_path.stat().st_size - size))
                return log.read()
        except OSError:
            return b""

    def close(self) -> None:
        """Stop the process and remove its directory."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None and not pipe.closed:
                with contextlib.suppress(OSError):
                    pipe.close()
        self.stderr.close()
        self.sandboxed.release()
        self.directory.cleanup()

    def kill(self) -> None:
        """Stop a worker that hangs."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.close()


_STOP = None
_URGENT, _NORMAL, _LAST = 0, 1, 2
"""Queue priorities: jobs a caller is waiting for right now, the rest, then the stop signals."""


class WorkerPool:
    """``size`` workers of one environment serving submitted jobs."""

    def __init__(
        self,
        python: str,
        side: str,
        size: int,
        timeout: float,
        sandbox: Sandbox,
        startup_timeout: float = STARTUP_TIMEOUT,
        weights: WeightFiles | None = None,
        slots: threading.Semaphore | None = None,
    ) -> None:
        self.python = python
        self.side = side
        self.weights = weights
        self.slots = slots
        """Shared by the pools of one run: how many jobs run at once in all of them (their
        workers share the CPUs; a run's time limit is wall-clock time)."""
        self.size = max(1, size)
        self.timeout = timeout
        self.sandbox = sandbox
        self.startup_timeout = startup_timeout
        self.versions: dict[str, str] = {}
        self.started = 0
        """Workers started so far (replacements included)."""
        self._jobs: queue.PriorityQueue[tuple[int, int, tuple[Job, Future[JobResult]] | None]] = (
            queue.PriorityQueue()
        )
        self._order = itertools.count()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def _start_worker(self) -> Worker:
        worker = Worker(self.python, self.side, self.sandbox, self.weights)
        with self._lock:
            self.started += 1
        try:
            self.versions = worker.wait_ready(self.startup_timeout)
        except Exception:
            worker.kill()
            raise
        return worker

    def start(self) -> dict[str, str]:
        """Start the workers (in parallel) and return the installed versions."""
        workers: list[Worker] = []
        errors: list[Exception] = []

        def start_one() -> None:
            try:
                worker = self._start_worker()
            except Exception as exc:
                errors.append(exc)
                return
            with self._lock:
                workers.append(worker)

        starters = [threading.Thread(target=start_one, daemon=True) for _ in range(self.size)]
        for thread in starters:
            thread.start()
        for thread in starters:
            thread.join()
        if errors:
            for worker in workers:
                worker.kill()
            raise WorkerStartError(str(errors[0]))
        for worker in workers:
            thread = threading.Thread(target=self._serve, args=(worker,), daemon=True)
            thread.start()
            self._threads.append(thread)
        return self.versions

    def submit(self, job: Job, urgent: bool = False) -> Future[JobResult]:
        """Queue a job; its future holds the result. An ``urgent`` job goes before every job
        that is not (jobs of the same priority run in the order they came)."""
        future: Future[JobResult] = Future()
        self._jobs.put((_URGENT if urgent else _NORMAL, next(self._order), (job, future)))
        return future

    def _serve(self, worker: Worker | None) -> None:
        while True:
            _priority, _order, item = self._jobs.get()
            if item is _STOP:
                if worker is not None:
                    worker.close()
                return
            job, future = item
            try:
                if worker is None:
                    worker = self._start_worker()
                with self.slots or contextlib.nullcontext():
                    result = worker.run(job, job.timeout or self.timeout)
                if result.timed_out or result.crashed is not None:
                    worker.kill()
                    worker = None
                future.set_result(result)
            except Exception as exc:
                future.set_exception(exc)

    def close(self) -> None:
        """Stop every worker once the queued jobs are done."""
        for _ in self._threads:
            self._jobs.put((_LAST, next(self._order), _STOP))
        for thread in self._threads:
            thread.join()
        self._threads = []

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
