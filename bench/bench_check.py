"""Benchmark ``apimap check`` against a bare ``yaml.load(CSafeLoader)`` of the same files.

Usage: python bench/bench_check.py [COUNT] [REPEAT]

The corpus is ``bench/realistic.py``: the real records cloned to COUNT, so sizes and
features are those users check. All timings are taken in this one process, side by side, as the median of REPEAT runs:

* bare parse: read every file and ``yaml.load(..., Loader=yaml.CSafeLoader)``;
* floor: the least any check must do once: the bare parse plus ``ast.parse`` of every code
  snippet and every signature (issue 33's target for a cold check is 2x the floor);
* cold check: ``run_check`` without a cache (load, validate, every rule, corpus rules), with
  the default worker processes (one per core) and with a single process;
* warm check: ``run_check`` again with the cache filled by a previous run.
"""

from __future__ import annotations

import ast
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.catalog.am232_example_python import parsed_code
from apimap.checking.runner import iter_record_files, run_check
from apimap.record.signature import parse_signature

sys.path.insert(0, str(Path(__file__).parent))
import contextlib

from realistic import write_corpus


def _median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


CODE_KEYS = frozenset({"torch", "paddle", "setup"})
SIGNATURE_KEYS = frozenset({"torch_signature", "paddle_signature"})


def _parse_code_and_signatures(node: object, key: object = None) -> None:
    """``ast.parse`` every code snippet (a string under a code key) and signature in ``node``."""
    if isinstance(node, dict):
        for name, value in node.items():
            _parse_code_and_signatures(value, name)
    elif isinstance(node, list):
        for item in node:
            _parse_code_and_signatures(item, key)
    elif isinstance(node, str) and key in SIGNATURE_KEYS and "(" in node:
        with contextlib.suppress(SyntaxError):
            ast.parse("def f" + node[node.index("(") :] + ": pass")
    elif isinstance(node, str) and key in CODE_KEYS:
        with contextlib.suppress(SyntaxError):
            ast.parse(node)


def main(count: int = 2500, repeat: int = 5) -> None:
    """Generate ``count`` records and print the timings and their ratios."""
    workdir = Path(tempfile.mkdtemp(prefix="apimap-bench-"))
    try:
        write_corpus(workdir, count)
        mappings = workdir / "mappings"
        files = list(iter_record_files([mappings]))
        cache = workdir / "cache"

        def bare() -> None:
            for file in files:
                yaml.load(file.read_bytes(), Loader=yaml.CSafeLoader)

        def floor() -> None:
            for file in files:
                _parse_code_and_signatures(yaml.load(file.read_bytes(), Loader=yaml.CSafeLoader))

        def cold(jobs: int | None = None) -> None:
            parse_signature.cache_clear()
            parsed_code.cache_clear()
            result = run_check([mappings], cache_dir=None, jobs=jobs)
            assert not result.count(Severity.ERROR), result.diagnostics[:3]

        def warm() -> None:
            result = run_check([mappings], cache_dir=cache)
            assert result.cached == len(files)

        run_check([mappings], cache_dir=cache)  # fill the cache
        cold()  # warm up imports and caches of the interpreter itself
        bare_s = _median_seconds(bare, repeat)
        floor_s = _median_seconds(floor, repeat)
        cold_s = _median_seconds(cold, repeat)
        serial_s = _median_seconds(lambda: cold(jobs=1), repeat)
        warm_s = _median_seconds(warm, repeat)
        size = sum(file.stat().st_size for file in files)
        print(
            f"records: {len(files)} ({size / len(files) / 1024:.1f} KiB each), median of {repeat} runs"
        )
        print(f"bare yaml.load(CSafeLoader): {bare_s:.3f} s")
        print(f"floor (parse + ast.parse):   {floor_s:.3f} s  ({floor_s / bare_s:.2f} x bare)")
        print(
            f"apimap check, cold:          {cold_s:.3f} s  ({cold_s / bare_s:.2f} x bare, "
            f"{cold_s / floor_s:.2f} x floor)"
        )
        print(
            f"apimap check, cold, 1 job:   {serial_s:.3f} s  ({serial_s / bare_s:.2f} x bare, "
            f"{serial_s / floor_s:.2f} x floor)"
        )
        print(f"apimap check, warm cache:    {warm_s:.3f} s  ({warm_s / bare_s:.2f} x bare)")
    finally:
        shutil.rmtree(workdir)


if __name__ == "__main__":
    arguments = [int(a) for a in sys.argv[1:]]
    main(*arguments)
