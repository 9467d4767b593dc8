"""The migration guide is generated from the records' notes, a page per section."""

from __future__ import annotations

import html
import re

import yaml

from apimap.publish.site.site import Rendered
from conftest import CORPUS, body


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
