"""AM207: each signature parses as ``api(params)`` and names the API of its side."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.location import Path
from apimap.record.signature import SignatureError, parse_signature


def _paths(value: str | list[str] | None, field: str) -> list[tuple[Path, str]]:
    if value is None:
        return []
    if isinstance(value, str):
        return [((field,), value)]
    return [((field, index), text) for index, text in enumerate(value)]


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each overload parses and names its side's API."""
    record = ctx.record
    for path, text in _paths(record.torch_signature, "torch_signature"):
        yield from _one(ctx, path, text, record.torch_api)
    if record.paddle_api is not None:
        for path, text in _paths(record.paddle_signature, "paddle_signature"):
            yield from _one(ctx, path, text, record.paddle_api)


def _one(ctx: RecordContext, path: Path, text: str, api: str) -> Iterator[Finding]:
    try:
        signature = parse_signature(text)
    except SignatureError as exc:
        yield Finding(ctx.loc(*path), str(exc))
        return
    if signature.api != api:
        yield Finding(
            ctx.loc(*path),
            f"签名中的名称 `{signature.api}` 与 `{api}` 不同 (signature names another API)",
        )


RULE = Rule(
    "AM207",
    "签名无法解析 (signature does not parse)",
    Scope.RECORD,
    Severity.ERROR,
    "写成 `完整API名(参数, 参数=默认值, *, 仅关键字参数=默认值)`；`<RedOpType.SUM: 0>` "
    "这类默认值可以原样写 (write `full.api.name(params)`)",
    why="签名要能解析，参数映射、默认值比较与验证才能逐个参数地对照。",
    check=check,
)
