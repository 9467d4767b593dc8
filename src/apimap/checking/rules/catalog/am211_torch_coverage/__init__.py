"""AM211: every torch parameter has a row.

Except ``*args`` and ``**kwargs`` of a signature that has nothing else (``torch.nn.Module``'s
constructor): they forward to a base class and take nothing a caller would pass; or
``**kwargs`` whose keywords the rows name one by one.
"""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.signature import Param, ParamKind


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Pages with a paddle API show every torch parameter in the table."""
    if not ctx.has_paddle_side or not ctx.record.torch_overloads or not ctx.signatures_complete:
        return
    covered = {name for row in ctx.record.params for name in derived.torch_names(row)}
    named = set(ctx.torch_params())
    if any(name not in named for name in covered):  # keywords **kwargs takes, row by row
        covered |= {p.spelled for sig in ctx.torch_signatures for p in sig.params if _var(p)}
    for sig in ctx.torch_signatures:
        if sig.params and all(_var(p) for p in sig.params):
            covered |= {p.spelled for p in sig.params}
    where = ctx.key_loc("params") if ctx.record.params else ctx.loc("torch_signature")
    for name in ctx.torch_params():
        if name not in covered:
            yield Finding(where, f"`{name}`")


def _var(param: Param) -> bool:
    return param.kind in (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD)


RULE = Rule(
    "AM211",
    "PyTorch 参数缺少映射行 (torch parameter has no row)",
    Scope.RECORD,
    Severity.ERROR,
    "为每个 PyTorch 参数写一行：无对应时 kind: torch_only (add a row for every torch parameter)",
    why="漏掉的参数正是迁移时会出问题的地方：读者无从知道它在 Paddle 中如何处理。",
    check=check,
)
