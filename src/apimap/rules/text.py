"""Helpers shared by the text rules: which fields hold prose, which hold code."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.context import RecordContext
from apimap.location import Path

ROW_PROSE = ("desc", "diff", "setting", "note")
"""Prose fields of a parameter row."""

INLINE_PROSE = ("desc", "diff", "setting", "when", "purpose")
"""Fields that the remark or a heading continues after: no final punctuation."""

SENTENCE_PROSE = ("note", "text", "reason")
"""Fields that are full sentences: they end with 。"""


def prose(ctx: RecordContext) -> list[tuple[Path, str]]:
    """Every prose value of the record with its path (computed once per record)."""
    return ctx.memo("prose", lambda: list(_prose(ctx)))


def _prose(ctx: RecordContext) -> Iterator[tuple[Path, str]]:
    record = ctx.record
    for name in ("summary", "reason"):
        value = getattr(record, name)
        if value is not None:
            yield (name,), value
    for index, row in enumerate(record.params):
        for name in ROW_PROSE:
            value = getattr(row, name)
            if value is not None:
                yield ("params", index, name), value
    for index, example in enumerate(record.examples):
        if example.purpose is not None:
            yield ("examples", index, "purpose"), example.purpose
        for case_index, case in enumerate(example.cases):
            if case.when is not None:
                yield ("examples", index, "cases", case_index, "when"), case.when
    for index, note in enumerate(record.notes):
        yield ("notes", index, "text"), note.text
        if note.example is not None and note.example.when is not None:
            yield ("notes", index, "example", "when"), note.example.when


def code(ctx: RecordContext) -> Iterator[tuple[Path, str, str]]:
    """Every code snippet with its path and its side (``torch`` or ``paddle``)."""
    for index, example in enumerate(ctx.record.examples):
        for case_index, case in enumerate(example.cases):
            base: Path = ("examples", index, "cases", case_index)
            yield (*base, "torch"), case.torch, "torch"
            yield (*base, "paddle"), case.paddle, "paddle"
    for index, note in enumerate(ctx.record.notes):
        if note.example is not None:
            base = ("notes", index, "example")
            yield (*base, "torch"), note.example.torch, "torch"
            yield (*base, "paddle"), note.example.paddle, "paddle"
