"""Results kept by file content between runs, so that a rebuild redoes only what changed.

Parsing every YAML record and rendering every page is most of what ``apimap render``
costs; a one-record rebuild of a large corpus should not pay for that. Entries are keyed
by the record file's bytes. A cache is dropped whole when its salt changes: the record
model and loader for records, those plus the templates and the renderer for pages.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from apimap.files import loader, validate
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
    """Text by content key, read from and written to ``file`` (``None``: remember nothing)."""

    def __init__(self, file: Path | None, salt: str) -> None:
        self.file = file
        self.salt = salt
        self.entries: dict[str, str] = {}
        self.used: dict[str, str] = {}
        self.changed = False
        """Whether a run put a text the file does not hold yet."""
        if file is None or not file.is_file():
            return
        try:
            stored = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(stored, dict) and stored.get("salt") == salt:
            entries = stored.get("entries")
            if isinstance(entries, dict):
                self.entries = {str(k): str(v) for k, v in entries.items()}

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
            self.changed = self.changed or self.entries.get(key) != text

    def save(self) -> None:
        """Write the entries of this run (atomically); entries no file needed are dropped. A run
        that used exactly the stored entries leaves the file alone (a large cache takes seconds
        to write)."""
        if self.file is None or (not self.changed and self.used.keys() == self.entries.keys()):
            return
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.file.with_name(f".{self.file.name}.{os.getpid()}.tmp")
            data = {"salt": self.salt, "entries": dict(sorted(self.used.items()))}
            temporary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            temporary.replace(self.file)
        except OSError:
            pass  # a cache that cannot be written only costs time
