"""AM237: every example case shows both the PyTorch and the Paddle code (a warning)."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.location import Path
from apimap.record.model import Case


def _cases(ctx: RecordContext) -> Iterator[tuple[Path, Case]]:
    for index, example in enumerate(ctx.record.examples):
        for case_index, case in enumerate(example.cases):
            yield ("examples", index, "cases", case_index), case
    for index, note in enumerate(ctx.record.notes):
        if note.example is not None:
            yield ("notes", index, "example"), note.example


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A case imported from a code block with one side only."""
    for path, case in _cases(ctx):
        if case.torch is None and case.paddle is None:
            yield Finding(ctx.loc(*path), "没有代码 (no code)")
        elif case.torch is None:
            yield Finding(ctx.loc(*path), "缺少 PyTorch 写法 (no torch code)")
        elif case.paddle is None:
            yield Finding(ctx.loc(*path), "缺少 Paddle 写法 (no paddle code)")


RULE = Rule(
    "AM237",
    "示例只有一侧的代码 (example shows one side only)",
    Scope.RECORD,
    Severity.WARNING,
    "补上另一侧：`torch` 写 PyTorch 写法，`paddle` 写 Paddle 写法 (write both sides)",
    why="转写示例通常先写「# PyTorch 写法」再写「# Paddle 写法」，但规范自己的模板 6 就有只写一侧的"
    "代码块，所以这不算违反规范，是警告而不是错误。只有一侧的示例无法运行比较（verify 跳过它），"
    "能补上另一侧时应当补上。旧页面中这样的代码块导入后保留在记录里，由本规则报告。",
    check=check,
)
