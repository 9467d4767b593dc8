"""The canonical form of a record file: its data written by :mod:`apimap.files.emit`, with its comments.

A record below ``mappings/`` carries the line that names its schema for the editor
(``# yaml-language-server: $schema=...``), by the path relative to the file: the line is
added where it is missing, mended where it is broken and rewritten when a file moves.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from apimap.files import loader
from apimap.files.emit import render
from apimap.files.migrate import is_format_one, migrate
from apimap.files.schema_export import SCHEMA_PATH
from apimap.files.yamlcomments import Comments, find_comments
from apimap.record.location import Path as DataPath

SCHEMA_COMMENT = "# yaml-language-server: $schema="
_SCHEMA_LINE = re.compile(r"^#\s*yaml-language-server:")


class NotFormattable(Exception):
    """The file cannot be brought into canonical form: it does not load, or its canonical form
    would not load back to the same data. Nothing may be written; ``line:col`` says where.

    When a load problem is the cause, it is ``problem``: the checker names its rule
    (:func:`apimap.checking.runner.refusal`)."""

    def __init__(
        self, line: int, col: int, reason: str, problem: loader.LoadProblem | None = None
    ) -> None:
        super().__init__(f"{line}:{col}: {reason}")
        self.line = line
        self.col = col
        self.reason = reason
        self.problem = problem


def schema_comment(relpath: PurePosixPath) -> str:
    """The schema line of a record at ``mappings/<relpath>``."""
    return SCHEMA_COMMENT + "../" * len(relpath.parts) + SCHEMA_PATH


def _with_schema_path(comments: Comments, relpath: PurePosixPath | None) -> Comments:
    """The comments with the record's schema line, where the file has one, else first (files
    outside ``mappings/`` as they are)."""
    if relpath is None:
        return comments
    line = schema_comment(relpath)
    if not any(_SCHEMA_LINE.match(c) for c in comments.head):
        return Comments([line, *comments.head], comments.leading, comments.eol, comments.tail)
    head = [line if _SCHEMA_LINE.match(c) else c for c in comments.head]
    return Comments(head, comments.leading, comments.eol, comments.tail)


def _head_comments(text: str) -> list[str]:
    """Comment lines before the first content line (all a comment-free body can have)."""
    head = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        if stripped:
            head.append(stripped)
    return head


def canonical_text(text: str, data: dict[str, Any], relpath: PurePosixPath | None) -> str:
    """The canonical form of a file whose text is ``text`` and parsed data ``data``."""
    return render(data, _with_schema_path(find_comments(text), relpath))


def first_difference(text: str, data: dict[str, Any], relpath: PurePosixPath | None) -> int | None:
    """The first line (1-based) where ``text`` leaves the canonical form, or ``None``.

    Most files carry comments only at the top; for them the canonical form is
    built from the parsed data without another pass over the text.
    """
    quick = render(data, _with_schema_path(Comments(head=_head_comments(text)), relpath))
    if quick == text:
        return None
    canonical = canonical_text(text, data, relpath)
    if canonical == text:
        return None
    have, want = text.splitlines(keepends=True), canonical.splitlines(keepends=True)
    for number, (got, expected) in enumerate(zip(have, want, strict=False), start=1):
        if got != expected:
            return number
    return max(1, min(len(want) + 1, len(have)))


def first_changed_path(old: Any, new: Any, path: DataPath = ()) -> DataPath | None:
    """The first path at which ``new`` differs from ``old`` (``None`` when they are equal)."""
    if type(old) is not type(new):
        return path
    if isinstance(old, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            if key not in old or key not in new:
                return (*path, key)
            found = first_changed_path(old[key], new[key], (*path, key))
            if found is not None:
                return found
        return None
    if isinstance(old, list):
        for index, (a, b) in enumerate(zip(old, new, strict=False)):
            found = first_changed_path(a, b, (*path, index))
            if found is not None:
                return found
        return None if len(old) == len(new) else (*path, min(len(old), len(new)))
    return None if old == new else path


def render_checked(text: str, data: dict[str, Any], relpath: PurePosixPath | None) -> str:
    """``data`` in canonical form with the comments of ``text``, checked before it is returned.

    The result is read back exactly as ``apimap check`` reads a file (size, encoding,
    control characters, YAML); it must give ``data`` again and carry the same comments.
    Otherwise :class:`NotFormattable` is raised, located in ``text``, and nothing may be
    written.
    """
    comments = _with_schema_path(find_comments(text), relpath)
    result = render(data, comments)
    again, problems = loader.load(result.encode("utf-8"))
    if again is None:
        reason = "规范格式无法读回，未写入 (canonical form would not load)"
        raise NotFormattable(1, 1, reason, problems[-1])
    changed = first_changed_path(data, again.data)
    if changed is not None:
        source, _ = loader.parse(text)
        line, col = source.loc(changed) if source is not None else (1, 1)
        shown = ".".join(map(str, changed)) or "/"
        raise NotFormattable(
            line, col, f"规范格式会改变 `{shown}` 的值，未写入 (canonical form would change it)"
        )
    if find_comments(result).texts() != comments.texts():
        raise NotFormattable(1, 1, "无法确定注释的位置，未写入 (cannot place every comment)")
    return result


def format_text(text: str, relpath: PurePosixPath | None) -> str:
    """The canonical form of ``text`` (a record of format 1 is migrated to format 2 on the way);
    raises :class:`NotFormattable` when it does not load."""
    doc, problems = loader.parse(text)
    if doc is None:
        problem = problems[0]
        raise NotFormattable(problem.line, problem.col, "无法解析 (cannot parse)", problem)
    data = doc.data
    if isinstance(data, dict) and is_format_one(data):
        data = migrate(data)
    return render_checked(text, data, relpath)


def format_source(raw: bytes, relpath: PurePosixPath | None) -> str:
    """The canonical form of a file's bytes (see :func:`format_text`)."""
    text, problems = loader.decode(raw)
    if text is None:
        problem = problems[-1]
        raise NotFormattable(problem.line, problem.col, "无法读取 (cannot read)", problem)
    return format_text(text, relpath)
