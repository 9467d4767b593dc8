"""AM216: torch-only and inconsistent rows say what to do; other rows do not.

A context change (category 5, or a scheduler, initializer or gradient clip mapped onto the
paddle object that replaces it) moves a torch-only parameter elsewhere in the code; its row
says where instead of naming an action, as the specification's category-5 template does.
"""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import Action, RowKind
from apimap.record.model import ParamRow


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
        elif kind.needs_action and not actions and not _explained_context(ctx, row, kind):
            yield Finding(where, f"kind: {kind} 需要 `action` (needs action)")
        elif not kind.needs_action and actions:
            yield Finding(where, f"kind: {kind} 不应有 `action` (must not have action)")
        elif Action.DELETE in actions and kind is not RowKind.TORCH_ONLY:
            yield Finding(
                where, "只有 torch_only 的参数可直接删除 (only torch_only rows can be deleted)"
            )


def _explained_context(ctx: RecordContext, row: ParamRow, kind: RowKind) -> bool:
    """A context change's torch-only parameter (the tensor an initializer fills) moves to
    another place in the code: the row explains where, as the specification's category-5
    template does, instead of naming an action."""
    return (
        kind is RowKind.TORCH_ONLY
        and derived.changes_context(ctx.record)
        and (row.note is not None or row.desc is not None)
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
