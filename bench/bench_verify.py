"""Benchmark ``apimap verify`` on the real corpus (``mappings/``).

Usage: python bench/bench_verify.py [REPEAT] [WORKERS]

Prints:

* the wall time of a full ``apimap verify mappings`` as CI runs it (a fresh
  process: start-up of the worker pool included);
* worker start-up: the time from spawning a worker to its importing torch and
  paddle (paid once per worker, not per example);
* steady-state throughput: every example case of the corpus run REPEAT times on
  already started workers, as examples per second.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from apimap.check import iter_record_files
from apimap.pins import VISION_PREFIX
from apimap.verify.pool import Job, WorkerPool
from apimap.verify.run import DEFAULT_TIMEOUT, build_jobs, load_record

ROOT = Path(__file__).resolve().parent.parent


def full_run() -> tuple[float, str]:
    """Seconds of ``apimap verify mappings`` in a fresh process, and its last stderr line."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "apimap", "verify", "mappings"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    return seconds, (done.stderr.strip().splitlines() or [""])[-1]


def corpus_cases() -> list[Job]:
    """Every example case of every record that loads and runs in the main environment
    (torchvision records run in their own interpreter; the full run above includes them)."""
    records = [
        loaded
        for file in iter_record_files([ROOT / "mappings"])
        if (loaded := load_record(file)[0])
        and not loaded.record.torch_api.startswith(VISION_PREFIX)
    ]
    jobs, _ = build_jobs(records)
    return [job for job in jobs if job.kind == "case"]


def main(repeat: int = 5, workers: int = 2) -> None:
    """Measure and print the figures."""
    seconds, summary = full_run()
    print(f"full `apimap verify mappings`: {seconds:.1f} s wall")
    print(f"  {summary}")

    cases = corpus_cases()
    jobs = [Job(i, job.kind, job.payload) for i, job in enumerate(cases * repeat)]
    with WorkerPool(workers, DEFAULT_TIMEOUT) as pool:
        start = time.perf_counter()
        pool.start()
        startup = time.perf_counter() - start
        start = time.perf_counter()
        results = pool.run(jobs)
        elapsed = time.perf_counter() - start
        started = pool.started
    failed = sum(1 for r in results if r.issues or r.timed_out or r.crashed or r.error)
    print(
        f"worker start-up (import torch + paddle): {startup:.1f} s for {workers} workers in parallel"
    )
    print(
        f"steady state: {len(jobs)} examples ({len(cases)} cases x {repeat}) in {elapsed:.2f} s "
        f"= {len(jobs) / elapsed:.1f} examples/s on {started} workers ({failed} failed)"
    )
    per_example = elapsed * workers / len(jobs)
    print(
        f"importing per example instead would cost ~{startup:.1f} s each, "
        f"{startup / per_example:.0f}x the {per_example * 1000:.0f} ms an example takes"
    )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
