"""AM253: the API type fits the record: members are class members; attributes take no rows."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import ApiType, RowKind

_MEMBERS = {ApiType.METHOD, ApiType.ATTRIBUTE}


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Methods and attributes belong to a class; attributes and constants have no parameters."""
    record = ctx.record
    where = ctx.loc("api_type") if "api_type" in ctx.doc.data else ctx.loc("torch_api")
    if record.api_type in _MEMBERS and not derived.is_class_member(record.torch_api):
        yield Finding(
            where,
            f"`{record.torch_api}` 不是类的成员，不能是「{record.api_type.label}」(not a class member)",
        )
    if not record.api_type.callable:
        for index, row in enumerate(record.params):
            if derived.row_kind(row) is not RowKind.RETURN_DIFF:
                yield Finding(
                    ctx.loc("params", index),
                    f"「{record.api_type.label}」没有参数，只能有 return_diff 行 (no parameters)",
                )


RULE = Rule(
    "AM253",
    "API 类型与记录不符 (API type does not fit the record)",
    Scope.RECORD,
    Severity.ERROR,
    "api_type 写库中对象的类型；属性与常量只能有说明返回值差异的 return_diff 行 "
    "(write the object's type; attributes have no parameter rows)",
    why="API 类型决定页面的版式与验证时如何调用它：属性的页面没有参数表，上下文管理器要放在 with 中调用。",
    check=check,
)
