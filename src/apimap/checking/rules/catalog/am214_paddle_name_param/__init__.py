"""AM214: paddle's generated ``name`` parameter is ignored, never listed as paddle-only."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A row may map a torch parameter onto a real ``name`` (``register_buffer(name, ...)``)."""
    for index, row in enumerate(ctx.record.params):
        if not derived.torch_names(row) and "name" in derived.paddle_names(row):
            yield Finding(ctx.loc("params", index, "paddle"))


RULE = Rule(
    "AM214",
    "参数映射中列出了 Paddle 的 name 参数 (paddle's name parameter is listed)",
    Scope.RECORD,
    Severity.ERROR,
    "删除该行：Paddle API 自动生成的 name 参数直接忽略；只有 PyTorch 也有的 name（如 "
    "register_buffer 的 name）才写进表中 (delete the row)",
    why="规范规定所有 Paddle API 的 name 参数无需关注；列出它只会让表格变长。",
    check=check,
)
