"""Benchmark ``apimap import`` of generated pages and ``apimap export`` of generated records.

Usage: python bench/bench_import.py [COUNT] [REPEAT]

COUNT realistic records (``bench/realistic.py``: the real ones, cloned) are rendered to pages by the
site renderer, together with the mapping table. Timings are the median of
REPEAT runs in this one process:

* import: read every page and the table, merge, write one record per page;
* export: load the records (``load_entries``) and build the JSON document.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from apimap.checking.corpus import load_entries
from apimap.publish.export import export_text
from apimap.publish.importer.run import Outcome, run_import
from apimap.publish.site.site import SiteSources, render_site

sys.path.insert(0, str(Path(__file__).parent))
from realistic import write_corpus

ROOT = Path(__file__).resolve().parents[1]


def _median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _write_pages(mappings: Path, pages: Path) -> int:
    site = render_site(SiteSources.in_project(ROOT, mappings))
    count = 0
    for name, content in site.items():
        if name.startswith("api/") or name == "tables.md":
            target = pages / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            count += name.startswith("api/")
    return count


def main(count: int = 2000, repeat: int = 3) -> None:
    """Generate the corpus and pages, then print the timings."""
    workdir = Path(tempfile.mkdtemp(prefix="apimap-bench-import-"))
    try:
        write_corpus(workdir, count)
        pages = workdir / "pages"
        page_count = _write_pages(workdir / "mappings", pages)
        runs = iter(range(repeat + 1))

        def import_pages() -> None:
            out = workdir / f"imported-{next(runs)}" / "mappings"
            result = run_import([pages], out)
            failed = [unit for unit in result.units if unit.outcome is Outcome.FAILED]
            assert not failed, failed[:3]

        def export_records() -> None:
            export_text(load_entries(workdir / "mappings"))

        records = load_entries(workdir / "mappings")
        import_pages()  # warm up imports and caches of the interpreter itself
        import_s = _median_seconds(import_pages, repeat)
        export_s = _median_seconds(export_records, repeat)
        build_s = _median_seconds(lambda: export_text(records), repeat)
        print(
            f"pages: {page_count} (+ tables.md), records: {len(records)}, median of {repeat} runs"
        )
        print(
            f"import (read, merge, write): {import_s:.3f} s  ({page_count / import_s:.0f} pages/s)"
        )
        print(
            f"export (load + JSON):        {export_s:.3f} s  ({len(records) / export_s:.0f} records/s)"
        )
        print(
            f"export (JSON only):          {build_s:.3f} s  ({len(records) / build_s:.0f} records/s)"
        )
    finally:
        shutil.rmtree(workdir)


if __name__ == "__main__":
    arguments = [int(a) for a in sys.argv[1:]]
    main(*arguments)
