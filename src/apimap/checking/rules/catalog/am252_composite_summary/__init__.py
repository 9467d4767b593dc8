"""AM252: a composite page explains what the API computes."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.categories import Category


def check(ctx: RecordContext) -> Iterator[Finding]:
    """组合替代实现 has a summary (the formula or the behaviour)."""
    if ctx.category is Category.COMPOSITE and ctx.record.summary is None:
        yield Finding(ctx.loc("category"))


RULE = Rule(
    "AM252",
    "组合替代实现缺少功能说明 (composite record has no summary)",
    Scope.RECORD,
    Severity.ERROR,
    "在 summary 中说明该 API 的功能或公式 (describe what the API computes)",
    why="没有对应 API 时，读者要先知道这个 API 做什么，才能看懂组合出来的替代代码。",
    check=check,
)
