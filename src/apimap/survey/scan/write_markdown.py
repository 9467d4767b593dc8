"""``--format markdown``: the report as tables for a pull request or a wiki page."""

from __future__ import annotations

import re
from typing import TextIO

from apimap.survey.scan.report import ScanReport, Usage
from apimap.survey.scan.tensor_methods import CONFIDENCE_NOTE
from apimap.survey.scan.write_text import files_line, flag

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~>-])")


def md(text: str) -> str:
    """Text safe in a Markdown table cell: HTML and Markdown syntax escaped, one line."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = " ".join(text.split())
    return _SPECIAL.sub(r"\\\1", text)


def _summary(out: TextIO, title: str, usages: list[Usage]) -> None:
    out.write(f"\n## {title}\n\n| 迁移工作量 | API | 使用 | 调用 |\n| --- | ---: | ---: | ---: |\n")
    for bucket, count in ScanReport.summary(usages).items():
        out.write(f"| {md(bucket.label)} | {count.apis} | {count.uses} | {count.calls} |\n")


def _table(out: TextIO, report: ScanReport, usages: list[Usage], limit: int) -> None:
    shown = usages[:limit] if limit else usages
    out.write(
        "\n| API | 使用 | 调用 | 分类 | 首次出现 | 说明 |\n| --- | ---: | ---: | --- | --- | --- |\n"
    )
    for usage in shown:
        record = usage.classification.record
        page = report.page(usage)
        name = md(usage.api)
        api = f"[{name}]({md(page)})" if page else name
        category = md(record.label) if record else "-"
        path, line = usage.first
        notes = [flag(usage)] if flag(usage) else []
        if usage.confidence:
            notes.append(f"confidence {usage.confidence}")
        if usage.classification.via:
            notes.append(f"记录 (record): {usage.classification.via}")
        out.write(
            f"| {api} | {usage.uses} | {usage.calls} | {category} | {md(path)}:{line} "
            f"| {md('; '.join(notes))} |\n"
        )
    if len(shown) < len(usages):
        out.write(f"\n另有 {len(usages) - len(shown)} 个 ({len(usages) - len(shown)} more).\n")


def write_markdown(report: ScanReport, out: TextIO, limit: int = 0) -> None:
    """Summary tables, the API and Tensor-method tables, and the problems."""
    out.write(f"# apimap scan\n\n{md(files_line(report))}\n")
    _summary(out, "torch API", report.apis)
    _summary(out, "Tensor 方法（启发式）", report.methods)
    out.write("\n## API\n")
    _table(out, report, report.apis, limit)
    out.write(f"\n## Tensor 方法（启发式）\n\n{md(CONFIDENCE_NOTE)}\n")
    _table(out, report, report.methods, limit)
    if report.problems:
        out.write("\n## 无法分析的文件 (problems)\n\n")
        for path, problem in report.problems:
            out.write(
                f"- {md(path)}:{problem.line}:{problem.col}: {md(problem.kind)}: "
                f"{md(problem.message)}\n"
            )
