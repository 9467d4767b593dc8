"""What an imported record carries about its source page until a person clears it.

Every violation and loss the import met (:mod:`apimap.publish.importer.problems`)
becomes an entry of the record's ``imported.findings``, with its source line
and the source text; ``apimap check`` reports each (AM704, AM705).
"""

from __future__ import annotations

from apimap.publish.importer.problems import Problem
from apimap.record.model import Imported, ImportFinding, Record


def _text(value: str | None) -> str | None:
    return value if value and value.strip() else None


def with_findings(record: Record, source: str, problems: list[Problem]) -> Record:
    """``record`` carrying the violations and losses of ``problems`` (read from ``source``)."""
    carried = sorted(
        (problem for problem in problems if problem.carried),
        key=lambda problem: (problem.line, problem.code),
    )
    if not carried:
        return record
    findings = [
        ImportFinding(
            line=problem.line,
            code=problem.code,
            detail=_text(problem.detail),
            text=_text(problem.kept),
        )
        for problem in carried
    ]
    return record.model_copy(update={"imported": Imported(source=source, findings=findings)})
