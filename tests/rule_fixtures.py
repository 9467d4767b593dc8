"""Reading the rule fixtures that live beside each rule in ``apimap/checking/rules/catalog/<code>_<slug>/``.

A file fixture starts with ``# expect: CODE:LINE ...`` (empty for a good fixture) and may name
the path it pretends to live at with ``# path: mappings/...``. A directory fixture holds a small
``mappings/`` tree, optionally an ``allowlist.yaml``, and ``expect.txt`` with one
``relative/path:LINE CODE`` per expected diagnostic.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from apimap.checking.rules.registry import HOMES, fixtures
from apimap.files import loader
from apimap.files.stamps import digest, parse_stamp, stamp_file
from apimap.record.paths import record_path

CATALOG = Path(next(iter(HOMES.values()))).parent
"""The folder holding every rule's package (and its fixtures)."""
_API = re.compile(r"^torch_api:\s*(\S+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class FileFixture:
    """One fixture file and what it expects."""

    file: Path
    virtual_path: PurePosixPath
    expected: list[tuple[str, int]]


def _header(raw: bytes) -> list[str]:
    text = raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    return text.splitlines()[:2]


def read_file_fixture(file: Path) -> FileFixture:
    """Parse a fixture's header lines."""
    raw = file.read_bytes()
    lines = _header(raw)
    if not lines or not lines[0].startswith("# expect:"):
        raise ValueError(f"{file}: first line must be '# expect: CODE:LINE ...'")
    expected = []
    for item in lines[0].removeprefix("# expect:").split():
        code, line = item.split(":")
        expected.append((code, int(line)))
    if len(lines) > 1 and lines[1].startswith("# path:"):
        virtual = PurePosixPath(lines[1].removeprefix("# path:").strip())
    else:
        match = _API.search(raw.decode("utf-8", errors="replace"))
        api = match.group(1) if match else "torch.fixture"
        virtual = PurePosixPath("mappings") / record_path(api)
    return FileFixture(file, virtual, sorted(expected))


def read_dir_expectations(directory: Path) -> list[tuple[str, int, str]]:
    """``expect.txt`` of a directory fixture as (path, line, code)."""
    out = []
    for line in (directory / "expect.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        place, code = line.split()
        path, lineno = place.rsplit(":", 1)
        out.append((path, int(lineno), code))
    return sorted(out)


def fixture_entries(code: str) -> list[Path]:
    """The good and bad fixtures (files and directories) of one rule."""
    return fixtures(code)


def code_of(entry: Path) -> str:
    """The rule code a fixture belongs to (from its rule's folder name)."""
    return entry.parent.name.split("_", 1)[0].upper()


CLEAN = HOMES["AM701"] / "good"
CLEAN_RECORD = CLEAN / "mappings" / "torch" / "torch.abs.yaml"
"""A record that passes every rule, with its current stamp beside it."""


def copy_clean_record(root: Path) -> Path:
    """Put the clean record (and its stamp) below ``root`` and return the record's path."""
    for folder in ("mappings", "stamps"):
        shutil.copytree(CLEAN / folder, root / folder, dirs_exist_ok=True)
    return root / "mappings" / "torch" / "torch.abs.yaml"


def restamp(record: Path, unproven: list[str] | None = None) -> None:
    """Bind the record's stamp to its current data, as ``apimap verify --update`` would after a
    successful run (``unproven``: what the new stamp says stayed unverified)."""
    stamp_path = stamp_file(record)
    assert stamp_path is not None
    old = parse_stamp(stamp_path.read_bytes())
    doc, _ = loader.load(record.read_bytes())
    assert doc is not None
    proven = replace(old.proven, unproven=list(unproven or []))
    stamp_path.write_text(
        replace(old, record=digest(doc.data), proven=proven).to_json(), encoding="utf-8"
    )
