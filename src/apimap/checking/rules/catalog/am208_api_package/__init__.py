"""AM208: the torch API belongs to a known package; the paddle API to paddle or its package."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.categories import Category
from apimap.record.packages import PADDLE, THIRD_PARTY, TORCH_FAMILY, package_of


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Torch APIs come from PyTorch or a listed ecosystem package; paddle APIs from paddle."""
    record = ctx.record
    package = package_of(record.torch_api)
    if package not in TORCH_FAMILY and package not in THIRD_PARTY:
        yield Finding(
            ctx.loc("torch_api"),
            f"`{package}` 不是 PyTorch 或已登记的第三方包 (not a known package)",
            "检查拼写；新的第三方包先加入 apimap/packages.py 的 THIRD_PARTY (register it)",
        )
    if record.paddle_api is None or (ctx.category is Category.OTHER_PACKAGE) != bool(
        record.paddle_package
    ):
        return  # AM203 reports a package that does not fit the category
    expected = record.paddle_package or PADDLE
    if package_of(record.paddle_api) != package_of(expected):
        yield Finding(
            ctx.loc("paddle_api"),
            f"`{record.paddle_api}` 应属于 `{expected}` (should be in {expected})",
        )


RULE = Rule(
    "AM208",
    "API 名称不属于对应的包 (API name outside its package)",
    Scope.RECORD,
    Severity.ERROR,
    "写完整的 API 名称，如 `torch.nn.Conv2d`、`paddle.nn.Conv2D` (write the full name)",
    why="完整的名称才能被查找、链接与验证；第三方包的 API 也可以收录，但包名要登记，以免拼写错误混进来。",
    check=check,
)
