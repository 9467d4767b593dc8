"""AM220: records of categories 1 to 3 carry at least one executable call."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A one-to-one mapping is proven by running it: a torch call and its derived paddle call."""
    if ctx.category.group <= 3 and ctx.has_paddle_side and not ctx.record.calls:
        yield Finding(
            ctx.loc("category"),
            f"「{ctx.category.label}」没有 calls (no executable call)",
        )


RULE = Rule(
    "AM220",
    "第 1–3 类映射缺少可执行的调用 (category 1-3 record has no call)",
    Scope.RECORD,
    Severity.ERROR,
    "写 calls：一段调用本 API 的 PyTorch 代码与 inputs，Paddle 调用由参数映射推导 "
    "(add a torch call with inputs; verify derives the paddle call)",
    why="参数映射是一组可以执行的断言：按映射推导出 Paddle 调用并与 PyTorch 比较结果，映射写错就会失败。",
    check=check,
)
