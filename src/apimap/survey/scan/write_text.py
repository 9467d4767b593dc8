"""``--format text``: a summary and the most used APIs, for a terminal."""

from __future__ import annotations

from typing import TextIO

from apimap.survey.scan.classify import Bucket
from apimap.survey.scan.report import ScanReport, Usage
from apimap.survey.scan.tensor_methods import CONFIDENCE_NOTE


def printable(text: str) -> str:
    """Untrusted text (paths, messages) without control characters that a terminal would obey."""
    return "".join(char if char.isprintable() else f"\\x{ord(char):02x}" for char in text)


def files_line(report: ScanReport) -> str:
    """How many files were scanned, use torch, could not be read."""
    return (
        f"扫描了 {report.files} 个文件，{report.files_using_torch} 个使用 torch/torchvision，"
        f"{len(report.problems)} 个无法分析 (scanned {report.files} files, "
        f"{report.files_using_torch} use torch, {len(report.problems)} problems)"
    )


def flag(usage: Usage) -> str:
    """A short warning for 功能缺失, unknown and non-public names."""
    parts = []
    if usage.bucket is Bucket.MISSING:
        parts.append("⚠ 功能缺失 (no counterpart)")
    elif usage.bucket is Bucket.UNKNOWN:
        parts.append("? 知识库未收录 (no record)")
    if not usage.classification.public:
        parts.append("非公开 API (not public)")
    return "; ".join(parts)


def _summary(out: TextIO, title: str, usages: list[Usage]) -> None:
    out.write(f"\n{title}\n     API  使用 uses  调用 calls\n")
    for bucket, count in ScanReport.summary(usages).items():
        out.write(f"  {count.apis:6d} {count.uses:10d} {count.calls:11d}  {bucket.label}\n")


def _table(out: TextIO, report: ScanReport, usages: list[Usage], limit: int) -> None:
    shown = usages[:limit] if limit else usages
    for usage in shown:
        record = usage.classification.record
        category = record.label if record else "-"
        path, line = usage.first
        extra = flag(usage)
        if usage.confidence:
            extra = "; ".join(part for part in (f"confidence {usage.confidence}", extra) if part)
        page = report.page(usage)
        out.write(
            f"  {usage.uses:6d} {usage.calls:6d}  {usage.api}  [{category}]  {printable(path)}:{line}"
            + (f"  {page}" if page else "")
            + (f"  ({extra})" if extra else "")
            + "\n"
        )
    if len(shown) < len(usages):
        out.write(
            f"  …另有 {len(usages) - len(shown)} 个，用 --limit 0 或其他格式查看全部 "
            f"({len(usages) - len(shown)} more: --limit 0)\n"
        )


def write_text(report: ScanReport, out: TextIO, limit: int = 40) -> None:
    """Summary per bucket, then the APIs and Tensor methods by uses, then problems."""
    out.write(files_line(report) + "\n")
    _summary(out, "迁移工作量：torch API (migration work: resolved APIs)", report.apis)
    _summary(out, "迁移工作量：Tensor 方法，启发式 (Tensor methods, heuristic)", report.methods)
    out.write("\nAPI（按使用次数；使用 调用 API [分类] 首次出现）(APIs by uses)\n")
    _table(out, report, report.apis, limit)
    out.write(f"\nTensor 方法（启发式）(Tensor methods): {CONFIDENCE_NOTE}\n")
    _table(out, report, report.methods, limit)
    if report.problems:
        out.write("\n无法分析的文件 (files that could not be scanned)\n")
        for path, problem in report.problems:
            out.write(
                f"  {printable(path)}:{problem.line}:{problem.col}: {problem.kind}: "
                f"{printable(problem.message)}\n"
            )
