"""Benchmark ``apimap scan`` on a real library against a bare ``ast.parse`` of the same files.

Usage: python bench/bench_scan.py [DIR | NAME==VERSION] [REPEAT]

Without a folder, the wheel of NAME==VERSION (default transformers==5.23.0, about 2,900
Python files) is fetched once with ``pip download --no-deps`` into the system's temporary
folder and unpacked there. All timings are taken in this one process, side by side, as the
median of REPEAT runs (default 3):

* bare parse: read every file and ``ast.parse`` it, in one process;
* scan, 1 process: ``scan_paths`` (parse, resolve, re-exports, classification, report);
* scan, N processes: the same with one worker per CPU, as ``apimap scan`` runs by default.
"""

from __future__ import annotations

import ast
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

from apimap.files.surface import load_surface
from apimap.survey.scan.classify import Classifier
from apimap.survey.scan.files import discover
from apimap.survey.scan.knowledge import default_mappings, load_knowledge
from apimap.survey.scan.runner import default_jobs, scan_paths

DEFAULT = "transformers==5.23.0"


def _library(spec: str) -> Path:
    if Path(spec).is_dir():
        return Path(spec)
    folder = Path(tempfile.gettempdir()) / "apimap-bench-scan" / spec.replace("==", "-")
    if not folder.is_dir():
        wheels = folder.with_name(folder.name + "-wheel")
        pip = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
        subprocess.run([*pip, "-q", "-d", str(wheels), spec], check=True)
        with zipfile.ZipFile(next(wheels.glob("*.whl"))) as wheel:
            wheel.extractall(folder)
    return folder


def _median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(spec: str = DEFAULT, repeat: int = 3) -> None:
    """Print the timings and files per second of each way of reading the library."""
    folder = _library(spec)
    files = discover([folder])
    size = sum(Path(f.path).stat().st_size for f in files)
    surface = load_surface()
    classifier = Classifier(surface, load_knowledge(default_mappings()))
    jobs = default_jobs()

    def bare() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for source in files:
                ast.parse(Path(source.path).read_bytes())

    timings = {
        "bare ast.parse, 1 process": _median_seconds(bare, repeat),
        "apimap scan, 1 process": _median_seconds(
            lambda: scan_paths([folder], surface, classifier, jobs=1), repeat
        ),
        f"apimap scan, {jobs} processes": _median_seconds(
            lambda: scan_paths([folder], surface, classifier, jobs=jobs), repeat
        ),
    }
    report = scan_paths([folder], surface, classifier, jobs=jobs)
    print(f"{folder}: {len(files)} files, {size / 1e6:.1f} MB, median of {repeat} runs")
    print(
        f"found {sum(u.uses for u in report.apis)} uses of {len(report.apis)} APIs and "
        f"{sum(u.uses for u in report.methods)} Tensor-method calls"
    )
    base = timings["bare ast.parse, 1 process"]
    for name, seconds in timings.items():
        print(
            f"  {name:28s} {seconds:7.2f} s  {len(files) / seconds:8.0f} files/s  "
            f"{seconds / base:5.2f}x bare parse"
        )


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(arguments[0] if arguments else DEFAULT, int(arguments[1]) if len(arguments) > 1 else 3)
