"""AM201: the declared category equals the one the parameter rows imply."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.categories import computed_category
from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.rules.base import Finding, Rule, Scope


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Categories 1-3 are computed from the rows with the specification's priority order."""
    declared = ctx.record.category
    if not declared.computable:
        return
    computed = computed_category([row.kind for row in ctx.record.params])
    if computed is not declared:
        yield Finding(
            ctx.loc("category"),
            f"声明为「{declared.label}」，参数映射推导为「{computed.label}」"
            f"(declared {declared.value}, rows imply {computed.value})",
            f"改为 `category: {computed.value}`，或修正参数映射行的 kind "
            "(change the category or fix the rows)",
        )


RULE = Rule(
    "AM201",
    "分类与参数映射不符 (category does not match the parameter rows)",
    Scope.RECORD,
    Severity.ERROR,
    "分类按优先级从参数映射推导：后出现的分类优先 (the later category in priority order wins)",
    check,
)
