"""Round trip: ``render(import(page)) == page`` for pages written from the specification."""

from __future__ import annotations

from pathlib import Path

import pytest
from import_support import FIXTURES, normalise, render_page

from apimap.publish.importer.page import read_page
from apimap.record.categories import Category

SPEC_PAGES = sorted((FIXTURES / "spec").glob("*.md"))


@pytest.mark.parametrize("path", SPEC_PAGES, ids=lambda p: p.stem)
def test_spec_page_round_trips_through_the_site_renderer(path: Path) -> None:
    page = path.read_text(encoding="utf-8")
    result = read_page(page)
    assert result.record is not None
    assert result.problems == []
    assert normalise(render_page(result.record)) == normalise(page)


@pytest.mark.parametrize("path", SPEC_PAGES, ids=lambda p: p.stem)
def test_rendered_page_round_trips_exactly(path: Path) -> None:
    first = read_page(path.read_text(encoding="utf-8")).record
    assert first is not None
    rendered = render_page(first)
    again = read_page(rendered)
    assert again.problems == []
    assert again.record == first
    assert again.record is not None and render_page(again.record) == rendered


def test_the_spec_pages_cover_every_category_that_has_a_page() -> None:
    categories = set()
    for path in SPEC_PAGES:
        record = read_page(path.read_text(encoding="utf-8")).record
        assert record is not None
        categories.add(record.category)
    assert categories == set(Category) - {Category.MISSING}
