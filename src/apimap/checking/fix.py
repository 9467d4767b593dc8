"""``apimap check --fix``: apply every fix the rules carry, then write the canonical form.

Each fixable rule says how to repair what it finds (:class:`apimap.checking.rules.base.Fix`);
this module only applies those edits, one rule after another on fresh data,
until nothing changes, migrates records of format 1 on the way, and writes the
result atomically in canonical form. Files that do not load are left alone;
``apimap check`` reports them. A result that would not load back to the fixed
data is never written: the file stays as it was and the run reports where.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from apimap.checking.context import RecordContext
from apimap.checking.rules.base import Edit
from apimap.checking.rules.registry import FIXABLE_RULES
from apimap.checking.runner import iter_record_files, refusal
from apimap.files import loader
from apimap.files.atomic import write_atomically
from apimap.files.canonical import NotFormattable, render_checked
from apimap.files.migrate import is_format_one, migrate
from apimap.files.validate import validate
from apimap.record.location import Path as DataPath
from apimap.record.paths import relative_to_mappings

MAX_ROUNDS = 4
"""Fixes settle in one or two rounds; the bound keeps a pathological record from looping."""


def apply_edit(data: Any, edit: Edit) -> None:
    """Set (or with ``None`` delete) the value at the edit's path."""
    *parents, last = edit.path
    for part in parents:
        data = data[part]
    if edit.value is None:
        del data[last]
    else:
        data[last] = edit.value


def _fixes_once(doc_data: Any, text: str, relpath: PurePosixPath | None) -> list[str]:
    """Apply each fixable rule once, in code order; return the codes that changed something."""
    codes: list[str] = []
    for rule in FIXABLE_RULES:
        assert rule.fix is not None
        doc, _ = loader.parse(text)
        if doc is None:
            break
        doc.data = doc_data
        record, _findings = validate(doc)
        if record is None:
            break
        ctx = RecordContext(path="", relpath=relpath, doc=doc, record=record, text=text)
        edits = rule.fix.edits(ctx)
        for edit in _deepest_first(edits):
            apply_edit(doc_data, edit)
        codes += [rule.code] * len(edits)
    return codes


def _deepest_first(edits: list[Edit]) -> list[Edit]:
    """Deleting list items from the end keeps the other paths valid."""
    return sorted(edits, key=lambda edit: _sort_key(edit.path), reverse=True)


def _sort_key(path: DataPath) -> tuple[tuple[int, str], ...]:
    return tuple((part, "") if isinstance(part, int) else (-1, part) for part in path)


@dataclass
class FixedFile:
    """The new text of one file and the fixes in it (``AM301`` for the canonical form)."""

    text: str
    codes: list[str]


def fix_text(text: str, relpath: PurePosixPath | None) -> FixedFile | None:
    """The fixed text, or ``None`` when nothing changes or the file does not load; raises
    :class:`~apimap.files.canonical.NotFormattable` when the fixed record cannot be written safely."""
    doc, _problems = loader.parse(text)
    if doc is None or not isinstance(doc.data, dict):
        return None
    codes: list[str] = []
    data: dict[str, Any] = doc.data
    if is_format_one(data):
        data = migrate(data)
        codes.append("migrate")
    for _ in range(MAX_ROUNDS):
        changed = _fixes_once(data, text, relpath)
        codes += changed
        if not changed:
            break
    result = render_checked(text, data, relpath)
    if result == text:
        return None
    if not codes:
        codes.append("AM301")
    return FixedFile(result, codes)


@dataclass
class FixResult:
    """Which files changed and how."""

    fixed: dict[Path, list[str]] = field(default_factory=dict)
    failed: list[tuple[Path, str]] = field(default_factory=list)


def run_fix(paths: Sequence[Path]) -> FixResult:
    """Fix every record file below ``paths`` in place."""
    result = FixResult()
    for file in iter_record_files(paths):
        try:
            text, _problems = loader.decode(file.read_bytes())
        except OSError:
            continue  # apimap check reports unreadable files
        if text is None:
            continue
        try:
            fixed = fix_text(text, relative_to_mappings(file.resolve()))
        except NotFormattable as exc:
            result.failed.append((file, refusal(exc)))
            continue
        if fixed is None:
            continue
        try:
            write_atomically(file, fixed.text)
        except OSError as exc:
            result.failed.append((file, f"1:1: 无法写入 (cannot write)：{exc.strerror}"))
            continue
        result.fixed[file] = fixed.codes
    return result
