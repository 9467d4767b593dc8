"""The shape every rule has: a code, a title, a scope, a severity, a check, its reason and its fix.

Each rule lives in its own package under :mod:`apimap.checking.rules.catalog`, with its
good and bad fixtures beside it (``good*.yaml``, ``bad*.yaml``, or folders
``good*/``, ``bad*/`` holding a small ``mappings/`` tree). The registry finds
the rules by looking at the catalog; nobody keeps a list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from apimap.checking.diagnostics import Severity
from apimap.files.problems import LoadProblemKind, SchemaProblemKind
from apimap.record.location import Loc
from apimap.record.location import Path as DataPath

if TYPE_CHECKING:
    from apimap.checking.context import CorpusContext, RecordContext


FileProblemKind = LoadProblemKind | SchemaProblemKind
"""A problem found while reading a file: by the loader, or by the schema stage."""


class Scope(StrEnum):
    """What a rule looks at."""

    FILE = "file"
    """The raw file: reported while reading and parsing it."""
    RECORD = "record"
    """One parsed record."""
    CORPUS = "corpus"
    """All records together."""
    VERIFY = "verify"
    """The record against the installed libraries: reported by ``apimap verify``."""


@dataclass(frozen=True)
class Finding:
    """What a check yields: where, the specific detail, and optionally a better hint."""

    loc: Loc
    detail: str = ""
    hint: str | None = None
    path: str | None = None
    """For corpus rules: the file the finding belongs to."""
    api: str | None = None


@dataclass(frozen=True)
class Edit:
    """One change a fix makes to the record data: set ``path`` to ``value`` (``None`` deletes)."""

    path: DataPath
    value: Any


class Applicability(StrEnum):
    """How safe a fix is, in ruff's sense."""

    SAFE = "safe"
    """Changes no meaning: ``apimap check --fix`` applies it."""


@dataclass(frozen=True)
class Fix:
    """How a rule repairs what it finds."""

    description: str
    """What the fix does, in Chinese with an English gloss."""
    edits: Callable[[RecordContext], list[Edit]]
    """The changes for one record (empty when nothing needs fixing)."""
    applicability: Applicability = Applicability.SAFE


RecordCheck = Callable[["RecordContext"], Iterable[Finding]]
CorpusCheck = Callable[["CorpusContext"], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    """One rule of the specification (or of the file format, or of verification)."""

    code: str
    title: str
    """Chinese title with an English gloss in parentheses."""
    scope: Scope
    severity: Severity
    hint: str
    why: str
    """Why the rule exists, in one or two Chinese sentences (shown on the rules page)."""
    check: Any = None
    """A :data:`RecordCheck` or :data:`CorpusCheck`; ``None`` for rules that the loader,
    the schema stage or the verifier report."""
    fix: Fix | None = None
    reports: FileProblemKind | None = None
    """For a rule that the loader or the schema stage reports: the kind of problem it names.
    The loader and the schema stage know only the kind; this rule gives it a code and words."""
    pending: str | None = None
    """For a rule whose findings CI's verification of a pull request resolves (AM701): the
    hint they carry as notices under ``apimap check --pending-stamps notice``."""

    def message(self, detail: str) -> str:
        """The diagnostic message: the title, then the detail."""
        return f"{self.title}：{detail}" if detail else self.title

    @property
    def fixable(self) -> bool:
        """Whether ``apimap check --fix`` repairs what the rule finds."""
        return self.fix is not None
