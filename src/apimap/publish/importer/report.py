"""The import report: every problem with its source line, then a summary with counts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from apimap.publish.importer.problems import Problem
from apimap.publish.importer.run import ImportResult, Kind, Outcome, Unit
from apimap.record.import_codes import ALL_REASONS
from apimap.record.textchars import one_line

_MESSAGES = {reason.code: reason.message for reason in ALL_REASONS}


def summary(result: ImportResult) -> dict[str, Any]:
    """Counts: files, pages and table rows by outcome, problems by code."""
    outcomes: dict[Kind, Counter[Outcome]] = {kind: Counter() for kind in Kind}
    reasons: Counter[str] = Counter()
    for unit in result.units:
        outcomes[unit.kind][unit.outcome] += 1
        reasons.update(problem.code for problem in unit.problems)
    return {
        "files": result.files,
        "table_files": result.table_files,
        "pages": {outcome.value: outcomes[Kind.PAGE][outcome] for outcome in Outcome},
        "rows": {outcome.value: outcomes[Kind.ROW][outcome] for outcome in Outcome},
        "written": sum(1 for unit in result.units if unit.written is not None),
        "reasons": dict(sorted(reasons.items())),
    }


def _problems(result: ImportResult) -> list[tuple[Unit, Problem]]:
    """Every problem with its unit, by source file and line."""
    found = [(unit, problem) for unit in result.units for problem in unit.problems]
    return sorted(found, key=lambda item: (item[0].source, item[1].line, item[1].code))


def write_text(result: ImportResult, out: TextIO, destination: Path) -> None:
    """One line per problem (whatever the page text it quotes holds), then the summary."""
    for unit, problem in _problems(result):
        out.write(
            f"{one_line(unit.source)}:{problem.line}: {problem.code} {problem.severity}: "
            f"{one_line(problem.message())}\n"
        )
    counts = summary(result)
    pages, rows = counts["pages"], counts["rows"]
    out.write("导入摘要 (import summary)\n")
    out.write(
        f"  读取文件 (files read): {counts['files']}，其中映射表 (tables): {counts['table_files']}\n"
    )
    out.write(
        f"  差异页面 (pages): 导入 (imported) {pages['imported']}，"
        f"原页面违反规范 (with violations) {pages['violations']}，"
        f"有损导入 (with losses) {pages['lossy']}，失败 (failed) {pages['failed']}\n"
    )
    out.write(
        f"  映射表行 (table rows): 生成记录 (imported) {rows['imported']}，"
        f"原页面违反规范 (with violations) {rows['violations']}，"
        f"有损导入 (with losses) {rows['lossy']}，并入页面 (merged) {rows['merged']}，"
        f"失败 (failed) {rows['failed']}\n"
    )
    out.write(f"  写入记录 (records written): {counts['written']} → {destination}\n")
    if counts["reasons"]:
        out.write("  按原因 (by reason):\n")
        for code, count in counts["reasons"].items():
            out.write(f"    {code} {_MESSAGES[code]}: {count}\n")
    if counts["written"]:
        out.write(f"  下一步 (next): apimap check {destination}\n")


def write_json(result: ImportResult, out: TextIO, destination: Path) -> None:
    """The summary and every problem as one JSON document."""
    problems = [
        {
            "source": unit.source,
            "kind": unit.kind.value,
            "api": unit.record.torch_api if unit.record else None,
            "line": problem.line,
            "code": problem.code,
            "severity": problem.severity.value,
            "message": problem.message(),
            "kept": problem.kept,
        }
        for unit, problem in _problems(result)
    ]
    document = {"destination": str(destination), "summary": summary(result), "problems": problems}
    out.write(json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
