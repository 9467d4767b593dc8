"""Diagnostics: what ``apimap check`` reports."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How bad a finding is. Errors fail the run; warnings fail it with ``--strict``; notices
    are shown and never fail it (no rule has them: a pending finding becomes one, see
    :class:`Pending`)."""

    ERROR = "error"
    WARNING = "warning"
    NOTICE = "notice"


class Pending(StrEnum):
    """How ``apimap check --pending-stamps`` reports a finding that CI's verification of a
    pull request resolves (a missing or stale stamp, AM701)."""

    ERROR = "error"
    """As the rule says: main, where every record carries a current stamp."""
    NOTICE = "notice"
    """A notice, pending verification: a pull request, whose verify job writes the stamps."""


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem at one place."""

    path: str
    line: int
    col: int
    code: str
    message: str
    hint: str
    severity: Severity
    api: str | None = None

    def to_json(self) -> dict[str, object]:
        """A plain dict for the JSON output and the cache."""
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "hint": self.hint,
            "api": self.api,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Diagnostic:
        """Inverse of :meth:`to_json`."""
        api = data["api"]
        return cls(
            path=str(data["path"]),
            line=int(str(data["line"])),
            col=int(str(data["col"])),
            code=str(data["code"]),
            message=str(data["message"]),
            hint=str(data["hint"]),
            severity=Severity(str(data["severity"])),
            api=None if api is None else str(api),
        )
