"""AM219: ``self_param`` only for a class member mapped to a free function, naming its first
parameter."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import ApiType


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Compare from the second paddle parameter, as specification note 3 says."""
    record = ctx.record
    if record.self_param is None:
        return
    where = ctx.loc("self_param")
    member = record.api_type in {ApiType.METHOD, ApiType.ATTRIBUTE}
    if not member or record.paddle_api is None or derived.is_class_member(record.paddle_api):
        yield Finding(
            where,
            "只有类成员映射为 Paddle 非成员函数时才写 self_param "
            "(only for a class member mapped to a free function)",
        )
        return
    first = [sig.params[0].spelled for sig in ctx.paddle_signatures if sig.params]
    if first and ctx.paddle_canonical(record.self_param) not in first:
        yield Finding(
            where,
            f"`{record.self_param}` 不是 Paddle 的第一个参数 `{first[0]}` (not the first parameter)",
        )
    for index, row in enumerate(record.params):
        if record.self_param in derived.paddle_names(row):
            yield Finding(
                ctx.loc("params", index),
                f"`{record.self_param}` 接收调用对象，不应出现在参数映射中 (it is not a row)",
            )


RULE = Rule(
    "AM219",
    "self_param 与映射不符 (self_param does not fit the mapping)",
    Scope.RECORD,
    Severity.ERROR,
    "torch.Tensor.outer(vec2) → paddle.outer(x, y)：写 self_param: x，从 vec2 ↔ y 开始对比 "
    "(name the paddle parameter that receives the tensor)",
    why="类成员映射为函数时，调用对象成为 Paddle 的第一个参数；规范要求跳过它，从下一个参数开始对比。",
    check=check,
)
