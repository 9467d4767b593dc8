"""AM221: every call can be derived into paddle code from the rows."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.calls import CallError, derived_calls


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each call uses the API, binds to the torch signature and maps through the rows."""
    calls = ctx.memo("derived_calls", lambda: derived_calls(ctx.record))
    for index, found in enumerate(calls):
        if isinstance(found, CallError):
            path = ("calls", index, "torch")
            where = ctx.doc.text_loc(path, found.line) if found.line else ctx.loc(*path)
            yield Finding(where, found.detail)


RULE = Rule(
    "AM221",
    "调用无法按参数映射推导 (call cannot be derived from the rows)",
    Scope.RECORD,
    Severity.ERROR,
    "调用只使用本 API 与 dtype；需要转写的参数不在调用中传入，或为该行写 convert "
    "(use only this API; pass no argument that needs a rewrite)",
    why="Paddle 一侧的调用不是手写的，而是由参数映射推导出来的；推导不出来说明映射不完整。",
    check=check,
)
