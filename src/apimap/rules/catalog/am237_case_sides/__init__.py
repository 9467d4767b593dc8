"""AM237: every example case shows both the PyTorch and the Paddle code."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.location import Path
from apimap.model import Case
from apimap.rules.base import Finding, Rule, Scope


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
    Severity.ERROR,
    "补上另一侧：`torch` 写 PyTorch 写法，`paddle` 写 Paddle 写法 (write both sides)",
    why="规范的转写示例先写「# PyTorch 写法」再写「# Paddle 写法」；只有一侧的代码说明不了怎样转写，"
    "也无法运行比较。旧页面中这样的代码块导入后保留在记录里，由本规则报告。",
    check=check,
)
