"""``apimap check``'s results kept between runs, by file content, path and apimap's own code.

A pre-commit hook checks one or two changed files against a cache that a whole-corpus run
filled; it must neither pay for the whole cache nor throw it away. So the entries are spread
over :data:`SHARDS` files by a hash of the record's path: a one-file run reads and rewrites one
small shard, and keeps every other file's entry.

The code the entries were made by is named by a manifest (``code.json``): the digest of every
apimap module the run that wrote it had imported, and of the package's data files. A later
run hashes exactly those files (not all of apimap) and uses the entries only if they are
unchanged. That is sound: a module that was not imported can only come into play through one
that was, which then changed too, or as a new rule package, which changes the rule codes the
entries are keyed with.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from apimap.checking.context import RecordSummary
from apimap.checking.diagnostics import Diagnostic
from apimap.checking.results import FileResult
from apimap.files.atomic import write_cache_file

SHARDS = 32
_FORMAT = 1
_PACKAGE = Path(__file__).resolve().parents[1]
"""All of apimap, not only this layer: a rule reads the record model, the loader, the data."""


def _digest(path: Path) -> str | None:
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
    except OSError:
        return None


def _salt(digests: dict[str, str | None], rules_key: str) -> str:
    digest = hashlib.blake2b(f"{_FORMAT}\0{rules_key}".encode(), digest_size=16)
    for name in sorted(digests):
        digest.update(f"\0{name}\0{digests[name]}".encode())
    return digest.hexdigest()


def _loaded_code() -> dict[str, str | None]:
    """Relative path -> digest of the apimap modules this process imported, and of the data."""
    files = {Path(file) for file in _apimap_module_files()}
    files.update((_PACKAGE / "data").glob("*.json"))
    return {
        str(path.relative_to(_PACKAGE)): _digest(path)
        for path in files
        if path.is_relative_to(_PACKAGE)
    }


def _apimap_module_files() -> list[str]:
    return [
        file
        for name, module in list(sys.modules.items())
        if name == "apimap" or name.startswith("apimap.")
        if (file := getattr(module, "__file__", None))
    ]


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class CheckCache:
    """Per-file results keyed by the file's content, its path and apimap's code.

    ``directory`` ``None`` remembers nothing. ``rules_key`` names the rules that ran (a
    ``--select`` run must not serve a full run).
    """

    def __init__(self, directory: Path | None, rules_key: str) -> None:
        self.directory = None if directory is None else directory / "check"
        self.rules_key = rules_key
        self._listed: dict[str, str | None] = {}
        """The files the stored manifest names, with their digests (when they are unchanged)."""
        self.salt = self._stored_salt()
        self._shards: dict[int, dict[str, dict[str, object]]] = {}
        self._fresh: dict[int, dict[str, dict[str, object]]] = {}
        self._checked: set[str] = set()

    def _stored_salt(self) -> str | None:
        """The salt of the code the stored entries were made by, if that code is unchanged."""
        if self.directory is None:
            return None
        manifest = _read_json(self.directory / "code.json")
        if not isinstance(manifest, dict) or manifest.get("format") != _FORMAT:
            return None
        listed = manifest.get("files")
        if not isinstance(listed, dict) or manifest.get("rules") != self.rules_key:
            return None
        now = {str(name): _digest(_PACKAGE / str(name)) for name in listed}
        if now != listed:
            return None
        self._listed = now
        return _salt(now, self.rules_key)

    @staticmethod
    def shard(path: str) -> int:
        """The shard that holds the entries of the file at ``path``."""
        return hashlib.blake2b(path.encode("utf-8"), digest_size=4).digest()[0] % SHARDS

    def _shard_file(self, index: int) -> Path:
        assert self.directory is not None
        return self.directory / f"{index:02x}.json"

    def _stored(self, index: int) -> dict[str, dict[str, object]]:
        if index not in self._shards:
            entries: dict[str, dict[str, object]] = {}
            if self.salt is not None:
                stored = _read_json(self._shard_file(index))
                if isinstance(stored, dict) and stored.get("salt") == self.salt:
                    found = stored.get("entries")
                    if isinstance(found, dict):
                        entries = {str(key): entry for key, entry in found.items() if _valid(entry)}
            self._shards[index] = entries
        return self._shards[index]

    @staticmethod
    def key(path: str, content: bytes) -> str:
        """The key of one file: its path and content (the record's bytes and its stamp's)."""
        digest = hashlib.blake2b(content, digest_size=20)
        digest.update(b"\0" + path.encode("utf-8"))
        return digest.hexdigest()

    def get(self, path: str, key: str) -> FileResult | None:
        """The stored result of the file at ``path`` with this ``key``, if any."""
        if self.directory is None:
            return None
        index = self.shard(path)
        self._checked.add(path)
        entry = self._stored(index).get(key)
        if entry is None:
            return None
        try:
            summary = entry["summary"]
            found = FileResult(
                [Diagnostic.from_json(d) for d in entry["diagnostics"]],  # type: ignore[attr-defined]
                None if summary is None else RecordSummary.from_json(summary),  # type: ignore[arg-type]
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            return None  # an entry this code cannot read is a miss, never a crash
        self._fresh.setdefault(index, {})[key] = entry
        return found

    def put(self, path: str, key: str, result: FileResult) -> None:
        """Remember the result of the file at ``path``."""
        if self.directory is None:
            return
        self._checked.add(path)
        self._fresh.setdefault(self.shard(path), {})[key] = {
            "path": path,
            "diagnostics": [d.to_json() for d in result.diagnostics],
            "summary": None if result.summary is None else result.summary.to_json(),
        }

    def save(self, below: Iterable[Path]) -> None:
        """Write what this run used or made. A checked file keeps only its current entry; a
        file under one of the folders in ``below`` that the run did not meet was deleted and
        loses its entry; every other file's entry stays. Each shard file is replaced whole
        (atomically); shards the run did not touch are left as they are."""
        if self.directory is None:
            return
        folders = ["" if str(folder) == "." else f"{folder}/" for folder in below]
        # the stored entries' code, unchanged, and whatever more of apimap this run imported
        # (a module they did not import had no part in them, so they stay good)
        code = {**self._listed, **_loaded_code()}
        salt = _salt(code, self.rules_key)
        rewrite_all = salt != self.salt
        for index in range(SHARDS):
            if not rewrite_all and index not in self._fresh and not folders:
                continue
            stored = self._stored(index)
            kept = {
                key: entry
                for key, entry in stored.items()
                if entry["path"] not in self._checked
                and not any(str(entry["path"]).startswith(folder) for folder in folders)
            }
            entries = {**kept, **self._fresh.get(index, {})}
            if not rewrite_all and entries == stored:
                continue
            # a shard written under a new salt holds every entry it keeps, even if unchanged
            self._write(self._shard_file(index), {"salt": salt, "entries": entries})
        if rewrite_all:
            self._write(
                self.directory / "code.json",
                {"format": _FORMAT, "rules": self.rules_key, "files": code},
            )

    def _write(self, path: Path, data: dict[str, object]) -> None:
        write_cache_file(path, json.dumps(data, ensure_ascii=False, sort_keys=True))


def _valid(entry: object) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("path"), str)
        and isinstance(entry.get("diagnostics"), list)
    )
