"""AM216: torch-only and inconsistent rows say what to do; other rows do not."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import Action, RowKind


def check(ctx: RecordContext) -> Iterator[Finding]:
    """The action fits the row's kind."""
    for index, row in enumerate(ctx.record.params):
        kind = derived.row_kind(row)
        actions = derived.row_actions(row)
        where = ctx.loc("params", index)
        if row.action is not None and row.actions:
            yield Finding(where, "`action` 与 `actions` 只能写一个 (write action or actions)")
        elif len(row.actions) == 1:
            yield Finding(where, "只有一个条件时写 `action` (a single condition is an action)")
        elif kind.needs_action and not actions:
            yield Finding(where, f"kind: {kind} 需要 `action` (needs action)")
        elif not kind.needs_action and actions:
            yield Finding(where, f"kind: {kind} 不应有 `action` (must not have action)")
        elif Action.DELETE in actions and kind is not RowKind.TORCH_ONLY:
            yield Finding(
                where, "只有 torch_only 的参数可直接删除 (only torch_only rows can be deleted)"
            )


RULE = Rule(
    "AM216",
    "action 与 kind 不符 (action does not fit the kind)",
    Scope.RECORD,
    Severity.ERROR,
    "torch_only：rewrite / none / delete；type_diff、usage_diff、return_diff：rewrite / none；"
    "取决于条件时写 actions（每个条件一项）(torch-only and inconsistent rows need an action; "
    "actions when it depends on a condition)",
    why="规范要求这几类行写明需要转写、暂无转写方式或可直接删除，三者只能选一；"
    "处理方式取决于条件时（相同时需要转写，不同时暂无转写方式），每个条件写一项。",
    check=check,
)
