"""A pool of worker processes, each importing torch and paddle once.

Every worker runs in its own temporary directory, on the CPU, with one OpenMP
thread, a fixed hash seed and no network. A job that outlives its timeout, or
kills its interpreter, costs that worker: it is stopped and a fresh one starts
for the next job.
"""

from __future__ import annotations

import os
import queue
import select
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import apimap
from apimap.verify.protocol import Issue, decode, encode

STARTUP_TIMEOUT = 300.0
"""Seconds a worker may take to import the libraries (slow disks, busy machines)."""
STDERR_TAIL = 400


@dataclass
class Job:
    """One unit of work: ``kind`` is ``signatures`` or ``case``."""

    id: int
    kind: str
    payload: dict[str, Any]


@dataclass
class JobResult:
    """What became of a job."""

    id: int
    issues: list[Issue] = field(default_factory=list)
    timed_out: bool = False
    crashed: str | None = None
    """The end of the worker's stderr when the worker died."""
    error: str | None = None
    """An exception inside apimap's own job code."""
    seconds: float = 0.0


class WorkerStartError(RuntimeError):
    """A worker could not import the libraries or did not answer."""


def worker_environment() -> dict[str, str]:
    """The environment of a worker: CPU only, deterministic, able to import apimap."""
    env = dict(os.environ)
    source_root = str(Path(apimap.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source_root, env.get("PYTHONPATH")]))
    env.update(
        CUDA_VISIBLE_DEVICES="",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        PYTHONHASHSEED="0",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONWARNINGS="ignore",
        GLOG_minloglevel="2",
    )
    return env


class Worker:
    """One worker process and the pipes to it."""

    def __init__(self, python: str = sys.executable) -> None:
        self.directory = tempfile.TemporaryDirectory(prefix="apimap-verify-")
        self.stderr_path = Path(self.directory.name) / "stderr.log"
        self.stderr: IO[bytes] = self.stderr_path.open("wb")
        self.process = subprocess.Popen(
            [python, "-m", "apimap.verify.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            cwd=self.directory.name,
            env=worker_environment(),
        )
        self._buffer = b""

    def wait_ready(self, timeout: float) -> dict[str, str]:
        """The installed versions, once the worker has imported everything."""
        line = self._read_line(time.monotonic() + timeout)
        if not line:
            reason = "超时 (timed out)" if line is None else self.stderr_tail()
            raise WorkerStartError(f"验证进程未能启动 (worker did not start)：{reason}")
        message = decode(line)
        if not message.get("ready"):
            raise WorkerStartError(
                f"验证进程无法导入 torch/paddle (cannot import the libraries)：{message.get('error')}"
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
            return JobResult(job.id, crashed=self.stderr_tail(), seconds=seconds)
        message = decode(line)
        if "error" in message:
            return JobResult(job.id, error=str(message["error"]), seconds=seconds)
        issues = [Issue.from_json(item) for item in message["issues"]]
        return JobResult(job.id, issues, seconds=seconds)

    def _read_line(self, deadline: float) -> bytes | None:
        """The next line; ``b""`` at end of file; ``None`` at the deadline."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return b""
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line + b"\n"

    def stderr_tail(self) -> str:
        """How the worker ended: its exit status and the last of its stderr, on one line."""
        try:
            status = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = None
        self.stderr.flush()
        try:
            text = self.stderr_path.read_bytes()[-STDERR_TAIL:].decode("utf-8", "replace")
        except OSError:
            text = ""
        ending = "仍在运行 (still running)" if status is None else f"退出码 {status} (exit status)"
        tail = " ".join(text.split())
        return f"{ending}；{tail}" if tail else ending

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
                pipe.close()
        self.stderr.close()
        self.directory.cleanup()

    def kill(self) -> None:
        """Stop a worker that hangs."""
        self.process.kill()
        self.process.wait()
        self.close()


class WorkerPool:
    """Run jobs on ``size`` workers; the first worker reports the versions."""

    def __init__(
        self,
        size: int,
        timeout: float,
        startup_timeout: float = STARTUP_TIMEOUT,
        python: str = sys.executable,
    ) -> None:
        self.size = max(1, size)
        self.python = python
        """The interpreter the workers run (a separate one for torchvision records)."""
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self._idle: queue.SimpleQueue[Worker] = queue.SimpleQueue()
        self.versions: dict[str, str] = {}
        self.started = 0
        """Workers started so far (replacements included)."""

    def _start(self) -> Worker:
        worker = Worker(self.python)
        self.started += 1
        try:
            self.versions = worker.wait_ready(self.startup_timeout)
        except Exception:
            worker.kill()
            raise
        return worker

    def start(self) -> dict[str, str]:
        """Start the workers (in parallel) and return the installed versions."""
        errors: list[Exception] = []

        def start_one() -> None:
            try:
                self._idle.put(self._start())
            except Exception as exc:
                errors.append(exc)

        threads = [threading.Thread(target=start_one, daemon=True) for _ in range(self.size)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            self.close()
            raise WorkerStartError(str(errors[0]))
        return self.versions

    def run(self, jobs: list[Job]) -> list[JobResult]:
        """Every job's result, in job order."""
        pending: queue.SimpleQueue[Job] = queue.SimpleQueue()
        for job in jobs:
            pending.put(job)
        results: dict[int, JobResult] = {}
        errors: list[Exception] = []

        def serve() -> None:
            worker: Worker | None
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                worker = None
            try:
                while True:
                    try:
                        job = pending.get_nowait()
                    except queue.Empty:
                        return
                    if worker is None:
                        worker = self._start()
                    result = worker.run(job, self.timeout)
                    results[job.id] = result
                    if result.timed_out or result.crashed is not None:
                        worker.kill()
                        worker = None
            except Exception as exc:
                errors.append(exc)
            finally:
                if worker is not None:
                    self._idle.put(worker)

        threads = [threading.Thread(target=serve, daemon=True) for _ in range(self.size)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise WorkerStartError(str(errors[0]))
        return [results[job.id] for job in jobs]

    def close(self) -> None:
        """Stop every idle worker."""
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                return
            worker.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
