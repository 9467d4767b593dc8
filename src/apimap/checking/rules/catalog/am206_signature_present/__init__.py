"""AM206: callable APIs show their signatures; attributes and constants have none.

An enumeration class (``torch.distributed.ReduceOp``) is shown by its name: its rows map
its members (``SUM``, ``MAX``), not parameters of a call.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import ApiType, Category


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A callable torch API has a torch signature and, with a paddle side, a paddle one."""
    record = ctx.record
    if not record.api_type.callable:
        if record.torch_signature is not None:
            yield Finding(
                ctx.key_loc("torch_signature"),
                f"「{record.api_type.label}」没有调用签名 (an {record.api_type.value} has none)",
                "删除 torch_signature；属性与常量的页面只显示名称 (delete it)",
            )
        return
    if _enumeration(ctx):
        return
    if record.torch_signature is None and ctx.category is not Category.MISSING:
        yield Finding(ctx.loc("torch_api"), "缺少 `torch_signature` (missing torch_signature)")
    if ctx.has_paddle_side and record.paddle_signature is None:
        yield Finding(ctx.loc("paddle_api"), "缺少 `paddle_signature` (missing paddle_signature)")


_MEMBER = re.compile(r"^[A-Z][A-Z0-9_]*$")


def _enumeration(ctx: RecordContext) -> bool:
    """A class without a signature whose rows all name upper-case members."""
    record = ctx.record
    names = [name for row in record.params for name in derived.torch_names(row)]
    return (
        record.api_type is ApiType.CLASS
        and record.torch_signature is None
        and bool(names)
        and all(_MEMBER.match(name) for name in names)
    )


RULE = Rule(
    "AM206",
    "签名缺失或多余 (signature missing or superfluous)",
    Scope.RECORD,
    Severity.ERROR,
    "从已安装的库读取签名，如 `apimap new` 生成的草稿 (read it from the installed library)",
    why="签名是读者对照两个 API 的起点；属性与常量没有参数，页面也就不显示签名与参数表。",
    check=check,
)
