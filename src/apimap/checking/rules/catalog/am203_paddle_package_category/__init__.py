"""AM203: only 对应 API 不在主框架 names the package that holds the counterpart."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.categories import Category


def check(ctx: RecordContext) -> Iterator[Finding]:
    """对应 API 不在主框架 names the package; no other category does."""
    record = ctx.record
    if ctx.category is Category.OTHER_PACKAGE and record.paddle_package is None:
        yield Finding(ctx.loc("category"), "缺少 `paddle_package` (missing paddle_package)")
    if ctx.category is not Category.OTHER_PACKAGE and record.paddle_package is not None:
        yield Finding(
            ctx.key_loc("paddle_package"),
            "只有「对应 API 不在主框架」需要 `paddle_package` (only for other_package)",
        )


RULE = Rule(
    "AM203",
    "paddle_package 与分类不符 (paddle_package does not fit the category)",
    Scope.RECORD,
    Severity.ERROR,
    "category: other_package 时写明所在的包，如 `paddle_package: paddlenlp` (name the package)",
    why="读者需要知道去哪个包里找对应的 API；主框架内的 API 不需要这个字段。",
    check=check,
)
