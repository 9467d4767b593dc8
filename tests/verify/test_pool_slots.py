"""The pools of one run share the CPUs: no more jobs run at once in all of them together than
the slots they share (a matrix run has five pools)."""

from __future__ import annotations

import threading
import time
from typing import Any

from apimap.verify.pool import Job, JobResult, WorkerPool
from apimap.verify.sandbox import Sandbox


class _Busy:
    """A stand-in worker whose jobs take a little while and count how many run at once."""

    running = 0
    most = 0
    lock = threading.Lock()

    def run(self, job: Job, timeout: float) -> JobResult:
        with _Busy.lock:
            _Busy.running += 1
            _Busy.most = max(_Busy.most, _Busy.running)
        time.sleep(0.05)
        with _Busy.lock:
            _Busy.running -= 1
        return JobResult(job.id, {"runs": []})

    def close(self) -> None:
        pass


def _serving(pool: WorkerPool, workers: int) -> None:
    for _ in range(workers):
        worker: Any = _Busy()
        thread = threading.Thread(target=pool._serve, args=(worker,), daemon=True)
        thread.start()
        pool._threads.append(thread)


def test_jobs_running_at_once_in_all_pools_stay_within_the_shared_slots() -> None:
    slots = threading.Semaphore(2)
    pools = [
        WorkerPool("python", "paddle", size=2, timeout=60, sandbox=Sandbox(), slots=slots)
        for _ in range(5)
    ]
    for pool in pools:
        _serving(pool, 2)
    futures = [pool.submit(Job(n, "runs", {})) for n in range(6) for pool in pools]
    assert all(future.result(timeout=60).data == {"runs": []} for future in futures)
    for pool in pools:
        pool.close()
    assert _Busy.most == 2  # ten workers, two jobs at a time
