"""AM223: every rename, default_diff and paddle_only row with a value is exercised by a call."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.calls import CallError, derived_calls
from apimap.record.categories import RowKind


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A row that claims a rename or a setting is proven by a call that passes or sets it."""
    record = ctx.record
    if not record.calls or ctx.category.group > 3:
        return
    passed: set[str] = set()
    set_rows: set[int] = set()
    for found in ctx.memo("derived_calls", lambda: derived_calls(record)):
        if isinstance(found, CallError):
            return  # AM221 reports it
        passed |= found.passed
        set_rows |= found.set_rows
    for index, row in enumerate(record.params):
        kind = derived.row_kind(row)
        torch_side = derived.torch_names(row)
        if kind is RowKind.RENAME and torch_side and not set(torch_side) & passed:
            yield Finding(
                ctx.loc("params", index),
                f"没有调用传入 `{torch_side[0]}` (no call passes it)",
            )
        elif (
            kind is RowKind.DEFAULT_DIFF
            and torch_side
            and index not in set_rows
            and not set(torch_side) & passed
        ):
            yield Finding(ctx.loc("params", index), f"没有调用用到 `{torch_side[0]}` (unexercised)")
        elif kind is RowKind.PADDLE_ONLY and row.setting is not None and row.paddle_value is None:
            yield Finding(
                ctx.loc("params", index, "setting"),
                "说明了 Paddle 应如何设置，却没有 paddle_value (setting without paddle_value)",
                "写 paddle_value（Python 表达式），验证时会按它设置 Paddle (write paddle_value)",
            )


RULE = Rule(
    "AM223",
    "参数映射行没有被调用验证 (row not exercised by any call)",
    Scope.RECORD,
    Severity.ERROR,
    "在 calls 中传入该参数；Paddle 需要设置的值写成 paddle_value (exercise the row in a call)",
    why="改名与默认值差异是最容易记错的地方；每一行都要有一次调用实际走过它。",
    check=check,
)
