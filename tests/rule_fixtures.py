"""Reading the rule fixtures under ``tests/fixtures/rules/<CODE>/``.

A file fixture starts with ``# expect: CODE:LINE ...`` (empty for a good fixture) and may name
the path it pretends to live at with ``# path: mappings/...``. A directory fixture holds a small
``mappings/`` tree, optionally an ``allowlist.yaml``, and ``expect.txt`` with one
``relative/path:LINE CODE`` per expected diagnostic.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from apimap.paths import record_path

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
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
    folder = FIXTURES / code
    return sorted(folder.iterdir()) if folder.is_dir() else []


CLEAN_RECORD = FIXTURES / "AM501" / "good" / "mappings" / "torch" / "torch.abs.yaml"
"""A record that passes every rule (a copy of the real torch.abs record)."""


def copy_clean_record(root: Path) -> Path:
    """Put the clean record at ``root/mappings/torch/torch.abs.yaml`` and return its path."""
    target = root / "mappings" / "torch" / "torch.abs.yaml"
    target.parent.mkdir(parents=True)
    shutil.copy(CLEAN_RECORD, target)
    return target
