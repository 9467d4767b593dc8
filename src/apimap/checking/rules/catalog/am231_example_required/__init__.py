"""AM231: categories 2 to 5 show an example for every row to rewrite; 4 and 5 the whole API."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import Action, Category, RowKind


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each row marked rewrite has an example naming it (the return value for return_diff)."""
    record = ctx.record
    if not 2 <= ctx.category.group <= 5:
        return
    by_param = {example.param for example in record.examples}
    for index, row in enumerate(record.params):
        if Action.REWRITE not in derived.row_actions(row):
            continue
        kind = derived.row_kind(row)
        torch_side = derived.torch_names(row)
        if kind is not RowKind.RETURN_DIFF and not torch_side:
            continue  # a row without its torch parameter: AM215 reports it
        wanted = None if kind is RowKind.RETURN_DIFF else torch_side[0]
        if wanted not in by_param:
            name = "返回值" if wanted is None else f"`{wanted}`"
            yield Finding(
                ctx.loc("params", index),
                f"{name} 标注为需要转写，但没有示例 (marked rewrite but has no example)",
            )
    whole_api = ctx.category in {Category.COMPOSITE, Category.CONTEXT_CHANGE}
    if whole_api and not record.examples:
        yield Finding(
            ctx.loc("category"),
            f"「{ctx.category.label}」需要整体的转写示例 (needs a whole-API example)",
        )


RULE = Rule(
    "AM231",
    "缺少转写示例 (missing rewrite example)",
    Scope.RECORD,
    Severity.ERROR,
    "为该参数写 examples（param: 参数名），或把 action 改为 none（暂无转写方式）"
    "(add an example, or mark the row action: none)",
    why="规范要求对每个需要转写的参数给出转写示例，否则需说明 Paddle 暂无转写方式。",
    check=check,
)
