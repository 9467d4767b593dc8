"""Benchmark ``apimap build`` on realistic corpora: a full build and a one-record rebuild, against
the targets (3,000 pages in at most 30 s, a one-record rebuild in at most 3 s), side by side with
an earlier revision's pipeline when ``--baseline`` names one.

Usage: python bench/bench_site.py [COUNT ...] [--baseline REV]     (default: 3000)

For each COUNT a corpus is generated with ``bench/realistic.py`` (the real records, cloned) into
``bench/_corpus-COUNT`` (gitignored). The full build starts from nothing: no generated sources,
no HTML, no frames, no doctrees and no check cache. The rebuild then changes the meaning of one
parameter in one record and runs ``apimap build`` again. Both run the command as a user does (a
new process each time) and report wall-clock and CPU seconds, and the load average before.

``--baseline REV`` exports that revision of the repository (``git archive``) into a temporary
folder and runs its ``apimap build`` on the same corpus in the same way: the pipeline before a
change, measured in the same run and on the same machine state. The corpus is the real records
as they are; records that the public-surface table gives aliases they do not list yet fail
AM257, which the new pipeline is told to ignore (``--ignore AM257``) until ``apimap check --fix``
lists them; the baseline has no such rule.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from realistic import write_corpus

ROOT = Path(__file__).resolve().parent.parent
PYTHON = Path(sys.executable)
FULL_TARGET = 30.0
"""Seconds for a full build of 3,000 pages on two cores."""
REBUILD_TARGET = 3.0
"""Seconds for a rebuild after one record changed."""


@dataclass(frozen=True)
class Pipeline:
    """A checkout to run ``apimap build`` from."""

    name: str
    root: Path
    arguments: tuple[str, ...] = ()


@dataclass(frozen=True)
class Timing:
    """One run: wall-clock and CPU seconds (this process's children)."""

    wall: float
    cpu: float
    pages: int


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_build(pipeline: Pipeline, work: Path) -> Timing:
    """Run ``apimap build`` of ``pipeline`` on the corpus in ``work``."""
    command = [
        str(PYTHON),
        "-m",
        "apimap",
        "build",
        "--mappings",
        str(work / "mappings"),
        "--generated",
        str(work / f"generated-{pipeline.name}"),
        "--html",
        str(work / f"html-{pipeline.name}"),
        "--cache-dir",
        str(work / f"cache-{pipeline.name}"),
        *pipeline.arguments,
    ]
    environment = {**os.environ, "PYTHONPATH": str(pipeline.root / "src")}
    cpu = _cpu_seconds()
    start = time.perf_counter()
    done = subprocess.run(
        command, cwd=pipeline.root, env=environment, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"apimap build ({pipeline.name}) failed:\n{done.stdout}\n{done.stderr}")
    pages = sum(1 for _ in (work / f"html-{pipeline.name}").rglob("*.html"))
    return Timing(wall, _cpu_seconds() - cpu, pages)


def edit_one_record(paths: list[Path]) -> Path:
    """Change the meaning text of the first parameter row of one record."""
    for path in paths[len(paths) // 2 :]:
        text = path.read_text(encoding="utf-8")
        if "    desc: " in text:
            path.write_text(text.replace("    desc: ", "    desc: 修改后的", 1), encoding="utf-8")
            return path
    raise SystemExit("no record with a parameter row")


def _verdict(seconds: float, target: float) -> str:
    return f"{'≤' if seconds <= target else '>'} {target:.0f} s {'✓' if seconds <= target else '✗'}"


def bench(count: int, pipelines: list[Pipeline]) -> None:
    """Full build and one-record rebuild of a ``count``-record corpus, per pipeline."""
    work = ROOT / "bench" / f"_corpus-{count}"
    shutil.rmtree(work, ignore_errors=True)
    paths = write_corpus(work, count)
    full: dict[str, Timing] = {}
    for pipeline in pipelines:
        load = os.getloadavg()[0]
        full[pipeline.name] = timed_build(pipeline, work)
        timing = full[pipeline.name]
        print(
            f"{count:>5} records  {pipeline.name:<9} full build {timing.wall:6.1f} s "
            f"(CPU {timing.cpu:6.1f} s, {timing.pages} pages)  "
            f"{_verdict(timing.wall, FULL_TARGET * timing.pages / 3000)}  load before {load:.1f}",
            flush=True,
        )
    edited = edit_one_record(paths)
    again: dict[str, Timing] = {}
    for pipeline in pipelines:
        load = os.getloadavg()[0]
        timing = again[pipeline.name] = timed_build(pipeline, work)
        print(
            f"{count:>5} records  {pipeline.name:<9} rebuild after editing {edited.name}: "
            f"{timing.wall:5.1f} s (CPU {timing.cpu:5.1f} s)  {_verdict(timing.wall, REBUILD_TARGET)}"
            f"  load before {load:.1f}",
            flush=True,
        )
    if len(pipelines) == 2:
        for what, timings in (("full build", full), ("rebuild", again)):
            new, old = (timings[pipeline.name] for pipeline in pipelines)
            print(
                f"{count:>5} records  {what}: {old.wall / new.wall:.1f}× faster than the baseline "
                f"(CPU {old.cpu / new.cpu:.1f}×)",
                flush=True,
            )


def baseline(revision: str, folder: Path) -> Pipeline:
    """``revision`` of this repository, exported into ``folder``."""
    archive = folder / "baseline.tar"
    subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), revision],
        check=True,
    )
    target = folder / "baseline"
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return Pipeline("baseline", target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("counts", nargs="*", type=int, default=[3000])
    parser.add_argument("--baseline", help="a git revision whose pipeline to measure beside")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        pipelines = [Pipeline("new", ROOT, ("--ignore", "AM257"))]
        if args.baseline:
            pipelines.append(baseline(args.baseline, Path(folder)))
        for count in args.counts:
            bench(count, pipelines)


if __name__ == "__main__":
    main()
