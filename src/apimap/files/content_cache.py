"""Results kept by file content between runs, so that a rebuild redoes only what changed.

Parsing every YAML record and rendering every page is most of what ``apimap render``
costs; a one-record rebuild of a large corpus should not pay for that. Entries are keyed
by the record file's bytes. A cache is dropped whole when its salt changes: the record
model and loader for records, those plus the templates and the renderer for pages.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from apimap.files import loader, validate
from apimap.files.atomic import write_cache_file
from apimap.record import categories, model

_FORMAT = 1


def content_key(raw: bytes) -> str:
    """The key of a file's bytes."""
    return hashlib.blake2b(raw, digest_size=20).hexdigest()


def _digest(files: Iterable[Path]) -> str:
    digest = hashlib.blake2b(str(_FORMAT).encode(), digest_size=16)
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def record_salt() -> str:
    """Changes when the record model or the loader changes."""
    return _digest(Path(str(module.__file__)) for module in (model, categories, loader, validate))


def files_salt(files: Iterable[Path]) -> str:
    """Changes when the record model or any of ``files`` changes."""
    return record_salt() + _digest(files)


class ContentCache:
    """Text by content key, read from and written to ``file`` (``None``: remember nothing).

    With ``shards`` above one the entries are spread over that many files beside ``file``
    (``rendered.json`` -> ``rendered.00.json`` …, by a hash of the key), and a run rewrites only
    the files whose entries changed: a one-record rebuild of a large site writes one small file
    instead of every rendered page again.
    """

    def __init__(self, file: Path | None, salt: str, shards: int = 1) -> None:
        self.file = file
        self.salt = salt
        self.shards = shards
        self.entries: dict[str, str] = {}
        self.used: dict[str, str] = {}
        self.changed: set[str] = set()
        """The keys a run put a text for that the files do not hold yet."""
        for path in self._files():
            self.entries.update(self._read(path))

    def _files(self) -> list[Path]:
        if self.file is None:
            return []
        if self.shards == 1:
            return [self.file]
        name, suffix = self.file.stem, self.file.suffix
        return [self.file.with_name(f"{name}.{i:02x}{suffix}") for i in range(self.shards)]

    def _shard(self, key: str) -> int:
        if self.shards == 1:
            return 0
        return hashlib.blake2b(key.encode("utf-8"), digest_size=4).digest()[0] % self.shards

    def _read(self, path: Path) -> dict[str, str]:
        if not path.is_file():
            return {}
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if isinstance(stored, dict) and stored.get("salt") == self.salt:
            entries = stored.get("entries")
            if isinstance(entries, dict):
                return {str(k): str(v) for k, v in entries.items()}
        return {}

    def get(self, key: str) -> str | None:
        """The text stored under ``key``, if any."""
        text = self.entries.get(key)
        if text is not None:
            self.used[key] = text
        return text

    def put(self, key: str, text: str) -> None:
        """Remember ``text`` under ``key``."""
        if self.file is not None:
            self.used[key] = text
            if self.entries.get(key) != text:
                self.changed.add(key)

    def save(self) -> None:
        """Write the entries of this run (atomically, file by file); entries no file needed are
        dropped. A file whose entries the run used exactly as stored is left alone (a large
        cache takes seconds to write)."""
        files = self._files()
        if not files:
            return
        used: list[dict[str, str]] = [{} for _ in files]
        stored: list[set[str]] = [set() for _ in files]
        touched: set[int] = {self._shard(key) for key in self.changed}
        for key, text in self.used.items():
            used[self._shard(key)][key] = text
        for key in self.entries:
            stored[self._shard(key)].add(key)
        for index, path in enumerate(files):
            if index in touched or used[index].keys() != stored[index]:
                self._write(path, used[index])

    def _write(self, path: Path, entries: dict[str, str]) -> None:
        data = {"salt": self.salt, "entries": dict(sorted(entries.items()))}
        write_cache_file(path, json.dumps(data, ensure_ascii=False))
