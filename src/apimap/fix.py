"""``apimap check --fix``: apply the fixes that need no judgement, then the canonical form.

Only these change:

* AM240: meanings and conditions lose their final punctuation
  (``desc: 输入的 Tensor。`` -> ``desc: 输入的 Tensor``);
* AM241: notes, reasons and summaries get their final ``。`` (a final ``.``,
  ``，`` or ``；`` becomes ``。``; a final ``？``, ``！``, ``：`` or ``、`` is left
  for a person to decide);
* AM243: look-alike characters become the ordinary ones;
* AM244: half-width ``,;:!?`` next to Chinese become full-width;
* AM301: the file is rewritten in canonical form, comments kept.

Files that do not load are left alone; ``apimap check`` reports them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from apimap import loader
from apimap.canonical import NotFormattable, render_checked
from apimap.check import iter_record_files, relative_to_mappings
from apimap.context import RecordContext
from apimap.fmt import write_atomically
from apimap.location import Path as DataPath
from apimap.rules.hygiene import (
    _FINAL_PUNCTUATION,
    _FULL_WIDTH,
    _HALF_WIDTH,
    _LOOKALIKE,
    _strings,
    lookalike_replacement,
)
from apimap.rules.text import INLINE_PROSE, SENTENCE_PROSE, prose
from apimap.validate import validate

_TRAILING_PUNCTUATION = re.compile(f"[\\s{re.escape(_FINAL_PUNCTUATION)}]+$")
_BECOMES_FULL_STOP = ".．，,；;"


def without_lookalikes(text: str) -> str:
    """AM243: ``⼀`` -> ``一``, NBSP -> space, zero-width characters removed."""
    return _LOOKALIKE.sub(lambda match: lookalike_replacement(match.group()), text)


def full_width(text: str) -> str:
    """AM244: ``,;:!?`` next to a Chinese character become ``，；：！？``."""
    return _HALF_WIDTH.sub(lambda match: _FULL_WIDTH[match.group()], text)


def without_final_punctuation(text: str) -> str:
    """AM240: text that a generated phrase continues ends without punctuation."""
    stripped = _TRAILING_PUNCTUATION.sub("", text)
    return stripped or text


def _ending(allowed: str) -> Callable[[str], str]:
    def end(text: str) -> str:
        body = text.rstrip()
        last = body[-1:]
        if not last or last in allowed:
            return text
        if last in _BECOMES_FULL_STOP:
            return body[:-1] + "。"
        if last in _FINAL_PUNCTUATION:
            return text
        return body + "。"

    return end


with_full_stop = _ending("。")
"""AM241: a note, a reason or a remark sentence ends with ``。``."""
summary_ending = _ending("。：")
"""AM241: a summary ends with ``。`` or ``：``."""


def _end_fix(field_name: str) -> tuple[str, Callable[[str], str]] | None:
    if field_name in INLINE_PROSE:
        return "AM240", without_final_punctuation
    if field_name in SENTENCE_PROSE:
        return "AM241", with_full_stop
    if field_name == "summary":
        return "AM241", summary_ending
    return None


@dataclass(frozen=True)
class Fix:
    """One change: the rule it satisfies, where, and the value before and after."""

    code: str
    path: DataPath
    before: str
    after: str


def text_fixes(ctx: RecordContext) -> list[Fix]:
    """Every mechanical text fix of a record, in field order."""
    fixes: list[Fix] = []
    prose_paths = set()
    for path, text in prose(ctx):
        prose_paths.add(path)
        steps: list[tuple[str, Callable[[str], str]]] = [
            ("AM243", without_lookalikes),
            ("AM244", full_width),
        ]
        end = _end_fix(str(path[-1]))
        if end is not None:
            steps.append(end)
        fixes += _apply_steps(path, text, steps)
    for path, text in _strings(ctx):
        if path not in prose_paths:
            fixes += _apply_steps(path, text, [("AM243", without_lookalikes)])
    return fixes


def _apply_steps(
    path: DataPath, text: str, steps: list[tuple[str, Callable[[str], str]]]
) -> list[Fix]:
    fixes = []
    for code, step in steps:
        fixed = step(text)
        if fixed != text and fixed.strip():
            fixes.append(Fix(code, path, text, fixed))
            text = fixed
    return fixes


def _set(data: Any, path: DataPath, value: str) -> None:
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


@dataclass
class FixedFile:
    """The new text of one file and the fixes in it (``AM301`` for the canonical form)."""

    text: str
    codes: list[str]


def fix_text(text: str, relpath: PurePosixPath | None) -> FixedFile | None:
    """The fixed text, or ``None`` when nothing changes or the file does not load."""
    doc, _problems = loader.parse(text)
    if doc is None:
        return None
    record, _findings = validate(doc)
    fixes: list[Fix] = []
    if record is not None:
        ctx = RecordContext(path="", relpath=relpath, doc=doc, record=record, text=text)
        fixes = text_fixes(ctx)
    try:
        reformatted = render_checked(text, doc.data, relpath) != text
        for fix in fixes:
            _set(doc.data, fix.path, fix.after)
        result = render_checked(text, doc.data, relpath)
    except NotFormattable:
        return None
    if result == text:
        return None
    return FixedFile(result, [fix.code for fix in fixes] + (["AM301"] if reformatted else []))


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
        fixed = fix_text(text, relative_to_mappings(file.resolve()))
        if fixed is None:
            continue
        try:
            write_atomically(file, fixed.text)
        except OSError as exc:
            result.failed.append((file, f"无法写入 (cannot write)：{exc.strerror}"))
            continue
        result.fixed[file] = fixed.codes
    return result
