"""Golden pages: one diff page per category, the tables and the home page, byte for byte.

Regenerate after an intended change with ``APIMAP_REGEN_GOLDEN=1 pytest tests/site`` and
review the diff of ``tests/site/golden/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apimap.checking.corpus import load_entries
from apimap.record import derived
from apimap.record.categories import Category
from apimap.record.pages import api_docname, has_page
from conftest import CORPUS

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("APIMAP_REGEN_GOLDEN") == "1"
ENTRIES = load_entries(CORPUS)
PAGES = [f"{api_docname(entry.api)}.md" for entry in ENTRIES if has_page(entry.record)]
GOLDEN_FILES = [*PAGES, "tables.md", "index.md", "category/index.md"]


def test_corpus_has_every_category() -> None:
    assert {derived.category(entry.record) for entry in ENTRIES} == set(Category)


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_page_matches_golden(name: str, rendered: dict[str, bytes]) -> None:
    golden = GOLDEN / name
    if REGENERATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(rendered[name])
    assert golden.is_file(), f"no golden file {golden}: run with APIMAP_REGEN_GOLDEN=1"
    assert rendered[name] == golden.read_bytes()


def test_no_stale_golden_files() -> None:
    present = {path.relative_to(GOLDEN).as_posix() for path in GOLDEN.rglob("*.md")}
    assert present == set(GOLDEN_FILES)
