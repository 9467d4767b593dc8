"""Golden pages: every API page of the corpus (one per category), the tables and the home page,
byte for byte (the article HTML apimap renders).

Regenerate after an intended change with ``APIMAP_REGEN_GOLDEN=1 pytest tests/site`` and
review the diff of ``tests/site/golden/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apimap.checking.corpus import load_entries
from apimap.publish.site.site import Rendered
from apimap.record import derived
from apimap.record.categories import Category
from apimap.record.pages import api_docname
from conftest import CORPUS, body

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("APIMAP_REGEN_GOLDEN") == "1"
ENTRIES = load_entries(CORPUS)
PAGES = [api_docname(entry.api) for entry in ENTRIES]
GOLDEN_PAGES = [*PAGES, "tables", "tables/network", "tables/missing", "index", "category/index"]


def test_corpus_has_every_category() -> None:
    assert {derived.category(entry.record) for entry in ENTRIES} == set(Category)


@pytest.mark.parametrize("docname", GOLDEN_PAGES)
def test_page_matches_golden(docname: str, rendered: Rendered) -> None:
    golden = GOLDEN / f"{docname}.html"
    text = body(rendered, docname).encode("utf-8")
    if REGENERATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(text)
    assert golden.is_file(), f"no golden file {golden}: run with APIMAP_REGEN_GOLDEN=1"
    assert text == golden.read_bytes()


def test_no_stale_golden_files() -> None:
    present = {path.relative_to(GOLDEN).as_posix() for path in GOLDEN.rglob("*") if path.is_file()}
    assert present == {f"{docname}.html" for docname in GOLDEN_PAGES}
