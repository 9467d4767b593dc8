"""AM204: a 功能缺失 record says why, and has nothing to compare or run."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.categories import Category


def check(ctx: RecordContext) -> Iterator[Finding]:
    """功能缺失 has a ``missing`` block and no rows, calls or examples; only it has the block."""
    record = ctx.record
    if ctx.category is Category.MISSING:
        if record.missing is None:
            yield Finding(ctx.loc("category"), "缺少 `missing` (no reason given)")
        elif record.missing.reason is None:
            yield Finding(
                ctx.loc("missing"),
                "缺少原因分类 `missing.reason` (the reason is not classified)",
                "从 cheap、needs_kernels、design_differs、deprecated、experimental 中选一个 "
                "(choose one of the five classes)",
            )
        for name in ("params", "calls", "examples"):
            if getattr(record, name):
                yield Finding(
                    ctx.key_loc(name),
                    f"「功能缺失」不应有 `{name}` (category missing has no {name})",
                )
    elif record.missing is not None:
        yield Finding(
            ctx.key_loc("missing"),
            "只有「功能缺失」需要 `missing` (missing is only for category missing)",
            "删除 missing，或把说明写进 summary 或 notes (move it to summary or notes)",
        )


RULE = Rule(
    "AM204",
    "功能缺失的字段不符 (fields of a missing-feature record)",
    Scope.RECORD,
    Severity.ERROR,
    "功能缺失写 missing（reason、detail、instead），不写参数映射、调用与示例 "
    "(a reason, no rows, calls or examples)",
    why="功能缺失没有差异页面，只在表中列出原因；原因按上游文档的五类归类，并写明可以怎么做。",
    check=check,
)
