"""The migration guide is generated from the records' notes."""

from __future__ import annotations

import re

import yaml

from conftest import CORPUS


def test_migration_guide_lists_every_record_with_notes_and_only_those(
    rendered: dict[str, bytes],
) -> None:
    page = rendered["migration.md"].decode("utf-8").replace("\\_", "_")
    headed = set(re.findall(r"^## \[?`?([\w.]+)", page, flags=re.MULTILINE))
    with_notes = set()
    texts = []
    for file in CORPUS.rglob("*.yaml"):
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        if data.get("notes"):
            with_notes.add(data["torch_api"])
            texts += [note["text"] for note in data["notes"]]
    assert with_notes, "the test corpus must carry notes"
    assert headed == with_notes
    for text in texts:
        assert text.split("`")[0][:20] in page


def test_home_page_links_the_migration_guide(rendered: dict[str, bytes]) -> None:
    assert "(migration.md)" in rendered["index.md"].decode("utf-8")
