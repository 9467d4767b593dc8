"""The migration guide is generated from the records' notes, a page per section."""

from __future__ import annotations

import html
import re

import pytest
import yaml

from apimap.publish.site import site
from apimap.publish.site.site import Rendered, render_site
from conftest import CORPUS, body, corpus_sources


def test_migration_guide_lists_every_record_with_notes_and_only_those(rendered: Rendered) -> None:
    pages = [page for page in rendered.pages if page.docname.startswith("migration/")]
    assert pages
    text = "".join(page.body for page in pages)
    headed = set(re.findall(r'<section id="([\w.]+)">\n<h2>', text))
    with_notes = set()
    notes = []
    for file in CORPUS.rglob("*.yaml"):
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        if data.get("notes"):
            with_notes.add(data["torch_api"])
            notes += [note["text"] for note in data["notes"]]
    assert with_notes, "the test corpus must carry notes"
    assert headed == with_notes
    shown = html.unescape(text)
    for note in notes:
        assert note.split("`")[0][:20] in shown
    overview = body(rendered, "migration")
    for page in pages:
        assert f'href="{page.docname}.html"' in overview


def test_home_page_links_the_migration_guide(rendered: Rendered) -> None:
    assert 'href="migration.html"' in body(rendered, "index")


def test_a_section_larger_than_the_page_budget_is_split_into_linked_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = {page.docname: page.body for page in render_site(corpus_sources()).pages}
    monkeypatch.setattr(site, "PAGE_BUDGET", 1)  # every API's notes a part of their own
    split = render_site(corpus_sources())
    bodies = {page.docname: page.body for page in split.pages}
    basic = sorted(name for name in bodies if re.fullmatch(r"migration/basic(-\d+)?", name))
    assert basic == ["migration/basic", "migration/basic-2", "migration/basic-3"]
    assert "migration/basic-2" not in whole
    second = bodies["migration/basic-2"]
    assert "<h1>迁移注意事项：基础操作类（第 2 部分）" in second
    assert '<a class="reference internal" href="basic.html">第 1 部分</a>、第 2 部分、' in second
    assert '<a class="reference internal" href="basic-3.html">第 3 部分</a>' in second
    # the parts hold the same notes as the whole page, once each and in the same order
    sections = re.compile(r'<section id="([\w.]+)">\n<h2>')
    parts = [sections.findall(bodies[name]) for name in basic]
    assert all(len(found) == 1 for found in parts)
    assert [name for found in parts for name in found] == sections.findall(whole["migration/basic"])
    # each part is a page in the guide's table of contents
    toctree = split.sources["migration.md"].decode().splitlines()
    assert all(name in toctree for name in basic)
