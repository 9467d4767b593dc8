"""AM233: an example's ``param`` names a row that can be rewritten.

The row may be a paddle-only one (the example shows how to set the paddle parameter) or a
deletable one (it shows the call without it); one that says 暂无转写方式 cannot have an
example.
"""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import Action, RowKind


def _paddle_only(ctx: RecordContext, param: str) -> bool:
    """A paddle-only row names ``param``."""
    return any(
        derived.row_kind(row) is RowKind.PADDLE_ONLY and param in derived.paddle_names(row)
        for row in ctx.record.params
    )


def check(ctx: RecordContext) -> Iterator[Finding]:
    """The example's parameter has a row, and that row is not marked 暂无转写方式."""
    for index, example in enumerate(ctx.record.examples):
        if example.param is None:
            continue
        row = derived.row_for(ctx.record, example.param)
        where = ctx.loc("examples", index, "param")
        actions = derived.row_actions(row) if row is not None else []
        if row is None and not _paddle_only(ctx, example.param):
            yield Finding(where, f"参数映射中没有 `{example.param}` (no such row)")
        elif actions and not {Action.REWRITE, Action.DELETE} & set(actions):
            phrase = "、".join(action.phrase for action in actions)
            yield Finding(
                where,
                f"`{example.param}` 标注为 {phrase}，却给出了示例 "
                "(the row says it is not rewritten)",
                "若可以转写，把该行 action 改为 rewrite (set action: rewrite)",
            )


RULE = Rule(
    "AM233",
    "示例指向的参数不存在或无需转写 (example refers to no rewritable row)",
    Scope.RECORD,
    Severity.ERROR,
    "param 写参数映射中某行的 torch 名称 (use the torch name of a row)",
    why="示例的标题是「参数名：功能」，参数必须是表中那一行；说暂无转写方式却给出示例是自相矛盾。",
    check=check,
)
