"""What the text rules share: the record's texts by role, and every string a reader sees."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.record import derived
from apimap.record.location import Path
from apimap.record.model import PROSE_ROLES, TextRole

CONTINUED_ROLES = frozenset({TextRole.NAME, TextRole.INLINE})
"""Texts a phrase, a colon or nothing follows: they end without punctuation."""


def texts(ctx: RecordContext) -> list[tuple[Path, TextRole, str]]:
    """Every text value of the record with its path and role (computed once per record)."""
    return ctx.memo("texts", lambda: derived.texts(ctx.record))


def prose(ctx: RecordContext) -> list[tuple[Path, TextRole, str]]:
    """Every prose value of the record with its path and role (computed once per record)."""
    return ctx.memo("prose", lambda: [item for item in texts(ctx) if item[1] in PROSE_ROLES])


SOURCE_TEXT = "imported"
"""The field that carries the source page's text as it stood: AM704 and AM705 report it, the
text rules do not judge it again."""


def strings(ctx: RecordContext) -> Iterator[tuple[Path, str]]:
    """Every string value of the record (prose, code, names, signatures, settings), except
    the source text an imported record carries."""
    for key, value in ctx.doc.data.items():
        if key != SOURCE_TEXT:
            yield from _strings(value, (key,))


def _strings(value: object, path: Path) -> Iterator[tuple[Path, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))
