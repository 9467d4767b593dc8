"""AM206-AM207: signatures are present and parse as ``api(params)``."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.categories import Category
from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.rules.base import Finding, Rule, Scope
from apimap.signature import SignatureError, parse_signature


def check_present(ctx: RecordContext) -> Iterator[Finding]:
    """Every page shows the torch signature; a paddle API comes with its signature."""
    record = ctx.record
    if record.torch_signature is None and record.category is not Category.MISSING:
        yield Finding(ctx.loc("torch_api"), "缺少 `torch_signature` (missing torch_signature)")
    if ctx.has_paddle_side and record.paddle_signature is None:
        yield Finding(ctx.loc("paddle_api"), "缺少 `paddle_signature` (missing paddle_signature)")


PRESENT = Rule(
    "AM206",
    "缺少签名 (missing signature)",
    Scope.RECORD,
    Severity.ERROR,
    "从已安装的库读取签名，如 `apimap new` 生成的草稿 (read it from the installed library)",
    check_present,
)


def check_parse(ctx: RecordContext) -> Iterator[Finding]:
    """Each signature parses and names the API of its side."""
    record = ctx.record
    overloads = record.torch_overloads
    for index, text in enumerate(overloads):
        path = (
            ("torch_signature", index)
            if isinstance(record.torch_signature, list)
            else ("torch_signature",)
        )
        yield from _one(ctx, path, text, record.torch_api)
    if record.paddle_signature is not None and record.paddle_api is not None:
        yield from _one(ctx, ("paddle_signature",), record.paddle_signature, record.paddle_api)


def _one(ctx: RecordContext, path: tuple[str | int, ...], text: str, api: str) -> Iterator[Finding]:
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


PARSE = Rule(
    "AM207",
    "签名无法解析 (signature does not parse)",
    Scope.RECORD,
    Severity.ERROR,
    "写成 `完整API名(参数, 参数=默认值, *, 仅关键字参数=默认值)` (write `full.api.name(params)`)",
    check_parse,
)

RULES = [PRESENT, PARSE]
