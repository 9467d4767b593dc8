"""Whether a call written in example code fits the installed library's signature, without
running it.

Legacy examples use inputs they never define (``torch.addmm(input, x, y, beta, alpha)``), so
they cannot run; the calls of library APIs in them can still be checked against the real
signatures: does the API exist, are there too many positional arguments, is every keyword
a parameter, is every required parameter given. A call with ``*args`` or ``**kwargs`` is
judged only on what it spells out. Runs in a worker (:mod:`apimap.verify.apis` passes the
``calls`` of a check job here).
"""

from __future__ import annotations

from typing import Any

from apimap.checking.rules.catalog.am810_example_raises import RULE as RAISES
from apimap.record.signature import ParamKind
from apimap.verify.libraries import ApiNotFound, resolve
from apimap.verify.protocol import Issue
from apimap.verify.readers import RealSignature, Unreadable, read

_POSITIONAL = (ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD)


def check(call: dict[str, Any]) -> list[Issue]:
    """The issue of one call (``callee``, ``positional``, ``keywords``, ``star``,
    ``starstar``, ``where``, ``line``), or none when it fits an overload or cannot be read."""
    callee = str(call["callee"])
    where = tuple(call["where"])
    line = call.get("line")
    try:
        resolved = resolve(callee)
    except ApiNotFound as missing:
        if missing.found is None:
            return []
        name = callee[len(missing.found) + 1 :].split(".", 1)[0]
        detail = f"第 {line} 行：`{missing.found}` 中没有 `{name}` (no {name} in {missing.found})"
        return [Issue(RAISES.code, where, detail, line)]
    if not callable(resolved.obj) or resolved.owner_is_class:
        return []  # a method looked up on its class is called with its object first
    try:
        overloads = read(resolved).overloads
    except Unreadable:
        return []
    problems = [_misfit(overload, call) for overload in overloads if not _scalar_first(overload)]
    if not problems or any(problem is None for problem in problems):
        return []
    detail = f"第 {line} 行：`{callee}` 不接受这样的调用 (the call does not fit)：{problems[0]}"
    return [Issue(RAISES.code, where, detail, line)]


def _scalar_first(overload: RealSignature) -> bool:
    """A deprecated form the stubs keep (``addmm(beta, self, alpha, mat1, mat2)``): a scalar
    before the tensor ``self``; it accepts only numbers in those places, so it would excuse
    a call that passes tensors there."""
    return any(param.name == "self" for param in overload.params[1:])


def _misfit(overload: RealSignature, call: dict[str, Any]) -> str | None:
    """Why the call does not fit ``overload``; ``None`` when it does."""
    params = overload.params
    kinds = {param.kind for param in params}
    positional = [param for param in params if param.kind in _POSITIONAL]
    given = int(call["positional"])
    if given > len(positional) and ParamKind.VAR_POSITIONAL not in kinds:
        return (
            f"最多 {len(positional)} 个位置参数，传入了 {given} 个 "
            f"(takes {len(positional)} positional arguments, {given} given)"
        )
    by_name = {param.name: param for param in params}
    bound = {param.name for param in positional[:given]}
    for keyword in call["keywords"]:
        param = by_name.get(keyword)
        named = param is not None and param.kind is not ParamKind.POSITIONAL_ONLY
        if not named and ParamKind.VAR_KEYWORD not in kinds:
            return f"没有参数 `{keyword}` (no parameter {keyword})"
        if keyword in bound:
            return f"`{keyword}` 已按位置传入 (given twice)"
        bound.add(keyword)
    if call.get("star") or call.get("starstar"):
        return None
    for param in params:
        required = param.default is None and param.kind in (*_POSITIONAL, ParamKind.KEYWORD_ONLY)
        if required and param.name not in bound:
            return f"缺少必需参数 `{param.name}` (missing {param.name})"
    return None
