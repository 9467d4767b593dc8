"""AM230: category 1 needs no rewrite example (a warning)."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope


def check(ctx: RecordContext) -> Iterator[Finding]:
    """An example on a category-1 page usually means the category is wrong."""
    if ctx.category.group == 1 and ctx.record.examples:
        yield Finding(ctx.key_loc("examples"), f"「{ctx.category.label}」")


RULE = Rule(
    "AM230",
    "第 1 类映射不需要转写示例 (category 1 needs no rewrite examples)",
    Scope.RECORD,
    Severity.WARNING,
    "删除 examples；要演示的行为写进 notes 的 example，若确有差异，说明分类有误 "
    "(delete them, move a demonstration into a note, or fix the category)",
    why="规范说第 1 类「无需」转写示例，并没有禁止；所以这是警告而不是错误。第 1 类页面上出现转写"
    "示例，多半是分类有误或示例其实是注意事项，调用（calls）已经证明了映射本身。",
    check=check,
)
