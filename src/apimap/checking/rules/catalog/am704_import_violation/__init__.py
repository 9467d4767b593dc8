"""AM704: an imported record still carries a violation of its source page."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.import_codes import REASONS_BY_CODE
from apimap.record.import_codes import Severity as ImportSeverity


def findings(ctx: RecordContext, losses: bool) -> Iterator[Finding]:
    """The record's import findings of one class: losses, or everything else."""
    imported = ctx.record.imported
    if imported is None:
        return
    for index, found in enumerate(imported.findings):
        reason = REASONS_BY_CODE.get(found.code)
        if (reason is not None and reason.severity is ImportSeverity.LOSS) is not losses:
            continue
        message = reason.message if reason else "未知的导入代码 (unknown import code)"
        detail = f"：{found.detail}" if found.detail else ""
        yield Finding(
            ctx.loc("imported", "findings", index),
            f"{imported.source} 第 {found.line} 行 (line {found.line}) {found.code} "
            f"{message}{detail}",
        )


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each violation the import normalised, until a person has dealt with it."""
    yield from findings(ctx, losses=False)


RULE = Rule(
    "AM704",
    "导入的原页面有不符合规范之处 (the imported page breaks the specification here)",
    Scope.RECORD,
    Severity.ERROR,
    "对照原文（text）确认记录无误后删除该条；全部处理完后删除 imported "
    "(check the record against the source text, then delete the entry)",
    why="导入器不悄悄修正原页面：缺少的句号、半角标点、旧分类名、代码块中的说明文字等，"
    "导入时规范化了，但原页面的问题要有人看过才算处理完。",
    check=check,
)
