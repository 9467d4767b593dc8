"""The content cache keeps what a run used, and writes its file only when that changed."""

from __future__ import annotations

import json
from pathlib import Path

from apimap.files.content_cache import ContentCache


def _run(file: Path, puts: dict[str, str], gets: list[str]) -> ContentCache:
    cache = ContentCache(file, "salt")
    for key in gets:
        cache.get(key)
    for key, text in puts.items():
        cache.put(key, text)
    cache.save()
    return cache


def test_entries_survive_a_run_that_uses_them_and_are_dropped_otherwise(tmp_path: Path) -> None:
    file = tmp_path / "cache.json"
    _run(file, {"a": "1", "b": "2"}, [])
    assert json.loads(file.read_text())["entries"] == {"a": "1", "b": "2"}
    assert ContentCache(file, "other salt").get("a") is None
    _run(file, {}, ["a"])
    assert json.loads(file.read_text())["entries"] == {"a": "1"}


def test_a_run_that_changes_nothing_does_not_write(tmp_path: Path) -> None:
    file = tmp_path / "cache.json"
    _run(file, {"a": "1", "b": "2"}, [])
    file.write_text(file.read_text() + " ")  # a mark that a rewrite would remove
    _run(file, {"b": "2"}, ["a"])  # the same entries, one put again with the same text
    assert file.read_text().endswith(" ")
    _run(file, {"b": "3"}, ["a"])  # a changed text is written
    assert json.loads(file.read_text())["entries"] == {"a": "1", "b": "3"}


def test_a_sharded_cache_rewrites_only_the_file_of_a_changed_entry(tmp_path: Path) -> None:
    file = tmp_path / "rendered.json"
    texts = {f"page{n}": f"text {n}" for n in range(40)}
    first = ContentCache(file, "salt", shards=8)
    for key, text in texts.items():
        first.put(key, text)
    first.save()
    shards = sorted(tmp_path.glob("rendered.*.json"))
    assert len(shards) == 8 and not file.exists()
    for shard in shards:
        shard.write_text(shard.read_text() + " ")  # a mark that a rewrite would remove
    second = ContentCache(file, "salt", shards=8)
    assert all(second.get(key) == text for key, text in texts.items())
    second.put("page7", "new text")
    second.save()
    rewritten = [shard for shard in shards if not shard.read_text().endswith(" ")]
    assert len(rewritten) == 1
    assert ContentCache(file, "salt", shards=8).get("page7") == "new text"
