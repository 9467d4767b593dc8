"""AM254: the in-place variant is the API's name with a trailing underscore, on both sides."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope


def check(ctx: RecordContext) -> Iterator[Finding]:
    """``torch.Tensor.add`` -> ``torch.Tensor.add_``; the paddle variant also ends with ``_``."""
    record = ctx.record
    variant = record.inplace
    if variant is None:
        return
    if variant.torch != record.torch_api + "_":
        yield Finding(
            ctx.loc("inplace", "torch"),
            f"应为 `{record.torch_api}_` (the in-place name of the API)",
        )
    if not variant.paddle.endswith("_") or (
        record.paddle_api is not None and variant.paddle != record.paddle_api + "_"
    ):
        expected = f"{record.paddle_api}_" if record.paddle_api else "以 _ 结尾的 API"
        yield Finding(ctx.loc("inplace", "paddle"), f"应为 `{expected}` (the paddle in-place API)")


RULE = Rule(
    "AM254",
    "原位版本的名称不符 (in-place variant misnamed)",
    Scope.RECORD,
    Severity.ERROR,
    "inplace 只写映射方式与本 API 相同的原位版本，如 add → add_ (the same API with _)",
    why="原位版本与原 API 参数相同、映射相同时，合并在一条记录中；名称不对应说明它其实是另一个 API。",
    check=check,
)
