"""AM212: every paddle parameter has a row (except ``name`` and the one ``self_param`` names)."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Paddle-only parameters are listed, so readers know how to set them."""
    if not ctx.has_paddle_side or not ctx.paddle_signatures:
        return
    covered = {
        ctx.paddle_canonical(name)
        for row in ctx.record.params
        for name in derived.paddle_names(row)
    }
    where = ctx.key_loc("params") if ctx.record.params else ctx.loc("paddle_signature")
    for name in ctx.paddle_params():
        if name not in covered:
            yield Finding(where, f"`{name}`")


RULE = Rule(
    "AM212",
    "Paddle 参数缺少映射行 (paddle parameter has no row)",
    Scope.RECORD,
    Severity.ERROR,
    "PyTorch 没有的 Paddle 参数写 kind: paddle_only (add a paddle_only row)",
    why="Paddle 多出的参数可能需要设置成特定值才与 PyTorch 一致，表中要逐个说明。",
    check=check,
)
