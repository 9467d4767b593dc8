"""Records written to attack the site: every text field carries a payload, the page shows text.

``apimap render`` publishes records even when ``apimap check`` would reject them, so the
renderer itself must escape everything: these records load, but their text is HTML, MyST
roles and directives, code spans that close elsewhere, line breaks and table breakers.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from apimap.publish.site.build import SiteLayout, publish
from apimap.publish.site.site import render_site
from apimap.record.paths import record_path
from conftest import copy_corpus, corpus_layout, corpus_sources
from hostile import MARK, as_yaml, hostile_records, html_problems, markdown_problems, table_rows


def _hostile_mappings(target: Path) -> Path:
    mappings = copy_corpus(target)
    for api, data in hostile_records().items():
        path = mappings / record_path(api)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(as_yaml(data), encoding="utf-8")
    return mappings


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> SiteLayout:
    """The test corpus plus the hostile records, rendered and built as ``apimap build`` does
    after its check (which would refuse them), Sphinx with warnings as errors."""
    work = tmp_path_factory.mktemp("hostile")
    layout = corpus_layout(work, _hostile_mappings(work))
    out = io.StringIO()
    assert publish(layout, out) == 0, out.getvalue()
    return layout


def test_rendered_pages_and_sources_hold_nothing_live(tmp_path: Path) -> None:
    rendered = render_site(corpus_sources(_hostile_mappings(tmp_path)))
    hostile = [page for page in rendered.pages if "hostile" in page.docname]
    assert len(hostile) == 6
    assert all(MARK in page.body for page in hostile)  # the payloads are there, as text
    problems = {page.docname: html_problems(page.body) for page in rendered.pages}
    assert {name: found for name, found in problems.items() if found} == {}
    sources = {name: data.decode("utf-8") for name, data in rendered.sources.items()}
    assert not any(MARK in text for text in sources.values())  # Sphinx never sees record text
    markdown = {name: markdown_problems(text) for name, text in sources.items()}
    assert {name: found for name, found in markdown.items() if found} == {}


def test_built_pages_hold_no_script_handler_or_raw_markup(hostile_site: SiteLayout) -> None:
    pages = sorted(hostile_site.html.rglob("*.html"))
    hostile_pages = [page for page in pages if MARK in page.read_text(encoding="utf-8")]
    assert len(hostile_pages) >= 6  # the payloads are on the pages, as text
    problems = {
        str(page.relative_to(hostile_site.html)): html_problems(page.read_text(encoding="utf-8"))
        for page in pages
    }
    assert {name: found for name, found in problems.items() if found} == {}
    assert not (hostile_site.html / "_downloads").exists()


@pytest.mark.parametrize(
    "page",
    [
        "tables/basic.html",
        "tables/missing.html",
        "category/missing.html",
        "category/input_usage_diff.html",
        "api/torch.hostile0.html",
        "api/torch.hostile_missing0.html",
    ],
)
def test_table_rows_stay_intact(hostile_site: SiteLayout, page: str) -> None:
    rows = table_rows((hostile_site.html / page).read_text(encoding="utf-8"))
    assert rows
    widths: list[int] = []
    for kind, cells in rows:
        if kind == "th":
            widths.append(cells)
        else:
            assert cells == widths[-1], rows
