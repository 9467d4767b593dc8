"""AM208-AM209: API names and documentation links."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

from apimap.categories import Category
from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.rules.base import Finding, Rule, Scope

TORCH_PACKAGES = ("torch.", "torchvision.", "torchaudio.", "torchtext.")


def check_prefix(ctx: RecordContext) -> Iterator[Finding]:
    """Torch APIs live in a torch package; paddle APIs in paddle or the named package."""
    record = ctx.record
    if not record.torch_api.startswith(TORCH_PACKAGES):
        yield Finding(
            ctx.loc("torch_api"),
            f"`{record.torch_api}` 不属于 torch 系列包 (not a torch package API)",
        )
    if record.paddle_api is None:
        return
    package = record.paddle_package if record.category is Category.OTHER_PACKAGE else "paddle"
    if package is not None and not record.paddle_api.startswith(package + "."):
        yield Finding(
            ctx.loc("paddle_api"),
            f"`{record.paddle_api}` 应以 `{package}.` 开头 (should start with {package}.)",
        )


PREFIX = Rule(
    "AM208",
    "API 名称不属于对应的包 (API name outside its package)",
    Scope.RECORD,
    Severity.ERROR,
    "写完整的 API 名称，如 `torch.nn.Conv2d`、`paddle.nn.Conv2D` (write the full name)",
    check_prefix,
)

_HOSTS = {
    "torch_url": ("pytorch.org", "docs.pytorch.org"),
    "paddle_url": ("www.paddlepaddle.org.cn", "paddlepaddle.org.cn"),
}


def check_urls(ctx: RecordContext) -> Iterator[Finding]:
    """Pages link both APIs to their official documentation."""
    record = ctx.record
    if record.category is Category.MISSING:
        return
    wanted = ["torch_url"] + (["paddle_url"] if ctx.has_paddle_side else [])
    for name in wanted:
        url = getattr(record, name)
        if url is None:
            yield Finding(ctx.loc("torch_api"), f"缺少 `{name}` (missing {name})")
            continue
        host = urlsplit(url).hostname or ""
        official = _HOSTS[name]
        if record.category is Category.OTHER_PACKAGE and name == "paddle_url":
            continue
        if not any(host == h or host.endswith("." + h) for h in official):
            yield Finding(
                ctx.loc(name),
                f"`{host}` 不是官方文档站点 {official} (not the official documentation)",
            )


URLS = Rule(
    "AM209",
    "文档链接缺失或不是官方文档 (documentation link missing or unofficial)",
    Scope.RECORD,
    Severity.WARNING,
    "链接到 pytorch.org 与 paddlepaddle.org.cn 上该 API 的文档 (link the official docs)",
    check_urls,
)

RULES = [PREFIX, URLS]
