"""The shape every rule has: a code, a title, a scope, a severity and a check."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from apimap.diagnostics import Severity
from apimap.location import Loc

if TYPE_CHECKING:
    from apimap.context import CorpusContext, RecordContext


class Scope(StrEnum):
    """What a rule looks at."""

    FILE = "file"
    """The raw file: reported while reading and parsing it."""
    RECORD = "record"
    """One parsed record."""
    CORPUS = "corpus"
    """All records together."""


@dataclass(frozen=True)
class Finding:
    """What a check yields: where, the specific detail, and optionally a better hint."""

    loc: Loc
    detail: str = ""
    hint: str | None = None
    path: str | None = None
    """For corpus rules: the file the finding belongs to."""
    api: str | None = None


RecordCheck = Callable[["RecordContext"], Iterable[Finding]]
CorpusCheck = Callable[["CorpusContext"], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    """One rule of the specification (or of the file format)."""

    code: str
    title: str
    """Chinese title with an English gloss in parentheses."""
    scope: Scope
    severity: Severity
    hint: str
    check: Any = None
    """A :data:`RecordCheck` or :data:`CorpusCheck`; ``None`` for file rules,
    which the loader and the schema stage report."""

    def message(self, detail: str) -> str:
        """The diagnostic message: the title, then the detail."""
        return f"{self.title}：{detail}" if detail else self.title
