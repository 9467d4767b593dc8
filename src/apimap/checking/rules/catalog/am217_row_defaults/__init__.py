"""AM217: rows that claim equal usage have equal defaults; default_diff rows really differ.

A number and a tuple that repeats it (``stride=1`` and ``stride=(1, 1)``) are equal for a
row that claims equal usage (per-dimension parameters take either); a default_diff row may
still write down that the two sides spell the default differently.
"""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived, wording
from apimap.record.categories import RowKind
from apimap.record.defaults import same_default_text, shown


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Defaults are compared by value: ``1e-05`` and ``1e-5``, ``()`` and ``torch.Size([])``."""
    if not ctx.paddle_signatures:
        return
    for index, row in enumerate(ctx.record.params):
        kind = derived.row_kind(row)
        torch_side, paddle_side = derived.torch_names(row), derived.paddle_names(row)
        if len(torch_side) != 1 or len(paddle_side) != 1:
            continue
        torch_param = ctx.torch_find(torch_side[0])
        paddle_param = ctx.paddle_find(paddle_side[0])
        if torch_param is None or paddle_param is None or torch_param.default is None:
            continue
        same = same_default_text(torch_param.default, paddle_param.default)
        equivalent = same_default_text(torch_param.default, paddle_param.default, repeated=True)
        where = ctx.loc("params", index, "kind") if row.kind else ctx.loc("params", index)
        if kind in {RowKind.SAME, RowKind.RENAME} and not equivalent:
            yield Finding(
                where,
                f"`{torch_side[0]}` "
                f"{wording.defaults_clause(torch_param.default, paddle_param.default)} "
                "(defaults differ)",
                "改为 kind: default_diff，并用 setting 或 paddle_value 说明 Paddle 应如何设置 "
                "(use default_diff)",
            )
        if kind is RowKind.DEFAULT_DIFF and same:
            yield Finding(
                where,
                f"`{torch_side[0]}` 两侧默认值都是 {shown(torch_param.default)} "
                "(defaults are equal)",
                "删除 kind，按 same 或 rename 处理 (drop the kind)",
            )


RULE = Rule(
    "AM217",
    "默认值与 kind 不符 (defaults do not fit the kind)",
    Scope.RECORD,
    Severity.ERROR,
    "默认值不同的参数用 kind: default_diff (use default_diff where defaults differ)",
    why="默认值不同，不传该参数的代码在两边行为就不同；这正是读者需要在表中看到的。",
    check=check,
)
