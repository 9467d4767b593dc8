"""AM218: each torch parameter has exactly one row."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A torch name appears in one row only."""
    seen: set[str] = set()
    for index, row in enumerate(ctx.record.params):
        for name in derived.torch_names(row):
            if name in seen:
                yield Finding(ctx.loc("params", index, "torch"), f"`{name}`")
            seen.add(name)


RULE = Rule(
    "AM218",
    "同一 PyTorch 参数有多行 (torch parameter listed twice)",
    Scope.RECORD,
    Severity.ERROR,
    "合并为一行；一个参数对应多个 Paddle 参数时 paddle 写列表 (merge the rows)",
    why="同一参数出现两次，读者不知道该信哪一行；一对多的映射写成一行、Paddle 侧写列表。",
    check=check,
)
