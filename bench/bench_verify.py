"""Benchmark ``apimap verify`` on the real corpus (``mappings/``), side by side.

Usage: python bench/bench_verify.py [PATH ...] [--matrix] [--baseline REV]

Without ``--baseline``: runs ``apimap verify PATH...`` (default ``mappings``) in a fresh
process, as CI does, with one worker per environment and with the default number, and prints
the wall times, their ratio and verify's own summary line (records, calls, runs, probes,
start-up time).

With ``--baseline REV``: exports that revision's ``src`` (``git archive``) and runs its
``apimap verify`` and this checkout's on the same records, the same way (default jobs, with
``--matrix`` on the four paddle releases), one after the other, and prints each one's wall
time, the peak memory of the verifying process itself (its workers aside) and the ratio.
Neither run writes a stamp.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _peak_kib(pid: int) -> int:
    """The process's peak resident memory so far (``VmHWM``), 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def run(
    paths: list[str], jobs: int | None, matrix: bool = False, source: Path | None = None
) -> tuple[float, str, int]:
    """Seconds of ``apimap verify PATHS`` in a fresh process (``source``: another revision's
    ``src``), its summary line and the verifying process's peak memory in MiB."""
    command = [sys.executable, "-m", "apimap", "verify", *paths]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    if matrix:
        command.append("--matrix")
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=err)
        peak = 0
        while process.poll() is None:
            peak = max(peak, _peak_kib(process.pid))
            time.sleep(0.2)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    summary = [line.strip() for line in stdout.splitlines() if "(verified" in line]
    if process.returncode < 0:
        summary = [f"ended by signal {-process.returncode} (out of memory?)"]
    return seconds, (summary or [stderr.strip()[-200:]])[-1], peak // 1024


def _export(revision: str, folder: Path) -> Path:
    archive = folder / "baseline.tar"
    subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), revision, "src"],
        check=True,
    )
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "baseline", filter="data")
    return folder / "baseline" / "src"


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=["mappings"])
    parser.add_argument("--matrix", action="store_true", help="also the older paddle releases")
    parser.add_argument("--baseline", help="a git revision whose verify to measure beside")
    args = parser.parse_args()
    shown = " ".join(args.paths) + (" --matrix" if args.matrix else "")
    if args.baseline:
        with tempfile.TemporaryDirectory() as folder:
            source = _export(args.baseline, Path(folder))
            old, old_summary, old_peak = run(args.paths, None, args.matrix, source)
        new, new_summary, new_peak = run(args.paths, None, args.matrix)
        print(f"apimap verify {shown} at {args.baseline}: {old:.1f} s wall, {old_peak} MiB")
        print(f"  {old_summary}")
        print(f"apimap verify {shown} now: {new:.1f} s wall, {new_peak} MiB")
        print(f"  {new_summary}")
        print(f"ratio baseline / now: {old / new:.2f}x")
        return
    one, one_summary, _ = run(args.paths, 1, args.matrix)
    default, default_summary, _ = run(args.paths, None, args.matrix)
    print(f"apimap verify {shown} --jobs 1: {one:.1f} s wall")
    print(f"  {one_summary}")
    print(f"apimap verify {shown} (default jobs): {default:.1f} s wall")
    print(f"  {default_summary}")
    print(f"ratio jobs=1 / default: {one / default:.2f}x")


if __name__ == "__main__":
    main()
