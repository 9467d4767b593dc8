"""What checking one file produced."""

from __future__ import annotations

from dataclasses import dataclass

from apimap.checking.context import RecordSummary
from apimap.checking.diagnostics import Diagnostic


@dataclass
class FileResult:
    """The diagnostics of one file, and the summary the corpus rules read (``None`` when the
    file is no record)."""

    diagnostics: list[Diagnostic]
    summary: RecordSummary | None
