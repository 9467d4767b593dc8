"""What the importer reports about one source file: a reason of the IM code table
(:mod:`apimap.record.import_codes`) at a line, with its detail and the source text kept.

Violations and losses are carried by the imported record (``imported.findings``) until a
person has dealt with them: ``apimap check`` reports each violation as AM704 (an error) and
each loss as AM705 (a warning).
"""

from __future__ import annotations

from dataclasses import dataclass

from apimap.record.import_codes import Reason, Severity


@dataclass(frozen=True)
class Problem:
    """One reported problem of a source file."""

    reason: Reason
    line: int
    detail: str = ""
    kept: str | None = None
    """The source text, carried by the record's ``imported.findings``."""

    @property
    def code(self) -> str:
        """The stable code, e.g. ``IM101``."""
        return self.reason.code

    @property
    def severity(self) -> Severity:
        """Failure, loss or note."""
        return self.reason.severity

    @property
    def carried(self) -> bool:
        """A violation or a loss: the imported record carries it until a person clears it."""
        return self.severity is not Severity.FAILURE

    def message(self) -> str:
        """The message with its detail."""
        return f"{self.reason.message}: {self.detail}" if self.detail else self.reason.message
