"""Benchmark ``apimap build`` on realistic corpora: a full build and a one-record rebuild.

Usage: python bench/bench_site.py [COUNT ...]     (default: 500 2000)

For each COUNT a corpus is generated with ``bench/realistic.py`` (the real records, cloned) into
``bench/_corpus-COUNT`` (gitignored). The full build starts from nothing: no generated
Markdown, no HTML, no doctrees and no check cache. The rebuild then changes the meaning
of one parameter in one record and runs ``apimap build`` again. Both run the command as
a user does (a new ``apimap`` process each time) and report wall-clock and CPU seconds.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from realistic import write_corpus

ROOT = Path(__file__).resolve().parent.parent
APIMAP = Path(sys.executable).parent / "apimap"


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_build(work: Path) -> tuple[float, float]:
    """Run ``apimap build`` on the corpus in ``work``; wall and CPU seconds."""
    command = [
        str(APIMAP),
        "build",
        "--mappings",
        str(work / "mappings"),
        "--generated",
        str(work / "generated"),
        "--html",
        str(work / "html"),
        "--cache-dir",
        str(work / "cache"),
    ]
    cpu = _cpu_seconds()
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"apimap build failed:\n{done.stdout}\n{done.stderr}")
    return wall, _cpu_seconds() - cpu


def edit_one_record(paths: list[Path]) -> Path:
    """Change the meaning text of the first parameter row of one record."""
    for path in paths[len(paths) // 2 :]:
        text = path.read_text(encoding="utf-8")
        if "    desc: " in text:
            path.write_text(text.replace("    desc: ", "    desc: 修改后的", 1), encoding="utf-8")
            return path
    raise SystemExit("no record with a parameter row")


def bench(count: int) -> None:
    """Full build and one-record rebuild of a ``count``-record corpus."""
    work = ROOT / "bench" / f"_corpus-{count}"
    shutil.rmtree(work, ignore_errors=True)
    paths = write_corpus(work, count)
    load = os.getloadavg()[0]
    full_wall, full_cpu = timed_build(work)
    edited = edit_one_record(paths)
    again_wall, again_cpu = timed_build(work)
    print(
        f"{count:>5} records  full build {full_wall:6.1f} s (CPU {full_cpu:6.1f} s)   "
        f"rebuild after editing {edited.name}: {again_wall:5.1f} s (CPU {again_cpu:5.1f} s)   "
        f"load average before: {load:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    for argument in sys.argv[1:] or ["500", "2000"]:
        bench(int(argument))
