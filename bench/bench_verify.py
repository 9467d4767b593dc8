"""Benchmark ``apimap verify`` on the real corpus (``mappings/``), side by side.

Usage: python bench/bench_verify.py [PATH]

Runs ``apimap verify PATH`` (default ``mappings``) in a fresh process, as CI
does, with one worker per environment and with the default number, and prints
the wall times, their ratio and verify's own summary line (records, calls,
runs, probes, start-up time).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(path: str, jobs: int | None) -> tuple[float, str]:
    """Seconds of ``apimap verify PATH`` in a fresh process, and its summary line."""
    command = [sys.executable, "-m", "apimap", "verify", path]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    summary = [line for line in done.stdout.splitlines() if line.startswith("(verified")]
    return seconds, (summary or [done.stderr.strip()[-200:]])[-1]


def main(path: str = "mappings") -> None:
    """Measure and print the figures."""
    one, one_summary = run(path, 1)
    default, default_summary = run(path, None)
    print(f"apimap verify {path} --jobs 1: {one:.1f} s wall")
    print(f"  {one_summary}")
    print(f"apimap verify {path} (default jobs): {default:.1f} s wall")
    print(f"  {default_summary}")
    print(f"ratio jobs=1 / default: {one / default:.2f}x")


if __name__ == "__main__":
    main(*sys.argv[1:2])
