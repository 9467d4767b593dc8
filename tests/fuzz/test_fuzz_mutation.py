"""Mutation fuzzing of check, fmt, check --fix, import, render and scan.

Real records, rule fixtures, legacy pages and Python files are mutated a few
times each (see :mod:`fuzz_support`) and fed to each command's core in two
forked worker processes: a worker killed by a signal (a stack overflow in C
code) breaks the pool and fails the test with the batch it was running. Set
``APIMAP_FUZZ_SCALE`` to run more (or fewer) inputs, ``APIMAP_FUZZ_SEED`` for
other inputs, and ``APIMAP_FUZZ_BATCH=target:number`` to run one batch in this
process, saving each input before it runs.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path

import pytest
from fuzz_support import (
    COUNTS,
    FAILURES,
    Batch,
    check_property,
    fix_property,
    fmt_property,
    import_property,
    keep,
    mutated_page,
    mutated_python,
    mutated_record,
    mutated_valid_record,
    page_seeds,
    python_seeds,
    record_seeds,
    render_property,
    scan_property,
)

RECORDS = record_seeds()
PAGES = page_seeds()
PYTHON = python_seeds(RECORDS)
SCALE = float(os.environ.get("APIMAP_FUZZ_SCALE", "1"))
PLAN = {"check": (4000, 250), "fmt": (2000, 250), "fix": (1500, 150), "import": (800, 80)}
PLAN |= {"render": (1500, 150), "scan": (1500, 250)}
"""Inputs per target and per batch (one batch runs in one worker)."""
MINIMUM = 10_000


def _records(
    prop: Callable[[str, bytes], list[str]],
) -> Callable[[Batch, Path], tuple[int, list[str]]]:
    def run(batch: Batch, work: Path) -> tuple[int, list[str]]:
        failures = []
        for index in range(batch.size):
            relpath, raw = mutated_record(batch.rng(index), RECORDS)
            failures += keep(batch, index, raw, prop(relpath, raw))
        return batch.size, failures

    return run


def _render(batch: Batch, work: Path) -> tuple[int, list[str]]:
    records = []
    for index in range(batch.size):
        records.append(mutated_valid_record(batch.rng(index), RECORDS))
    rendered, problems = render_property(records)
    saved = b"\n---\n".join(raw for _, raw in records)
    return rendered, keep(batch, 0, saved, problems)


def _import(batch: Batch, work: Path) -> tuple[int, list[str]]:
    failures = []
    for index in range(batch.size):
        page = mutated_page(batch.rng(index), PAGES)
        folder = work / str(index)
        data = page.encode("utf-8", errors="surrogatepass")
        failures += keep(batch, index, data, import_property(page, folder))
        shutil.rmtree(folder, ignore_errors=True)
    return batch.size, failures


def _scan(batch: Batch, work: Path) -> tuple[int, list[str]]:
    failures = []
    for index in range(batch.size):
        source = mutated_python(batch.rng(index), PYTHON)
        failures += keep(batch, index, source, scan_property(source, work))
    return batch.size, failures


RUNNERS = {
    "check": _records(check_property),
    "fmt": _records(fmt_property),
    "fix": _records(fix_property),
    "import": _import,
    "render": _render,
    "scan": _scan,
}


def run_batch(batch: Batch) -> tuple[str, int, list[str]]:
    """Run one batch in a scratch folder of its own."""
    work = Path(tempfile.mkdtemp(prefix="apimap-fuzz-"))
    try:
        count, failures = RUNNERS[batch.target](batch, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return batch.target, count, failures


def batches() -> list[Batch]:
    """Every batch of the run, the slow targets first so that both workers stay busy."""
    planned = []
    for target, (inputs, size) in PLAN.items():
        count = max(1, round(inputs * SCALE / size))
        planned += [Batch(target, number, size) for number in range(count)]
    slow = {"fix": 0, "import": 1, "render": 2}
    return sorted(planned, key=lambda batch: slow.get(batch.target, 3))


def test_mutated_inputs_break_nothing() -> None:
    only = os.environ.get("APIMAP_FUZZ_BATCH")
    if only:
        target, number = only.split(":")
        size = PLAN[target][1]
        _, count, failures = run_batch(Batch(target, int(number), size))
        COUNTS[target] += count
        assert failures == []
        return
    began = time.monotonic()
    failures: list[str] = []
    planned = batches()
    context = get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        running = {pool.submit(run_batch, batch): batch for batch in planned}
        for future in as_completed(running):
            try:
                target, count, found = future.result()
            except BrokenProcessPool:
                pytest.fail(
                    f"a fuzz worker died of a signal during {running[future]}; run it alone with "
                    f"APIMAP_FUZZ_BATCH={running[future].target}:{running[future].number} "
                    f"(inputs are saved to {FAILURES} before they run)"
                )
            COUNTS[target] += count
            failures += found
    COUNTS["seconds"] += round(time.monotonic() - began)
    assert failures == [], "\n".join(failures[:20])
    tried = sum(COUNTS[target] for target in PLAN)
    assert tried >= MINIMUM * min(SCALE, 1)
