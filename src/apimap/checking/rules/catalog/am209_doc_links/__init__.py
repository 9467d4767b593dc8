"""AM209: both APIs link to their official documentation.

An API that no official page shows (a private name, a paddle internal module's member, a
counterpart from paddlenlp) may link to its source in the library's own repository instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import Category
from apimap.record.links import is_source_link, undocumented
from apimap.record.packages import is_torch_family

_TORCH_HOSTS = ("pytorch.org",)
_PADDLE_HOSTS = ("paddlepaddle.org.cn",)


def _official(url: str, hosts: tuple[str, ...]) -> bool:
    host = urlsplit(url).hostname or ""
    return any(host == h or host.endswith("." + h) for h in hosts)


def _source_of_undocumented(api: str, url: str) -> bool:
    return undocumented(api) and is_source_link(url)


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A link exists (written or derived) and points at the official site."""
    record = ctx.record
    if ctx.category is Category.MISSING:
        return
    url = derived.torch_url(record)
    if url is None:
        yield Finding(ctx.loc("torch_api"), "缺少 `torch_url` (missing torch_url)")
    elif (
        is_torch_family(record.torch_api)
        and not _official(url, _TORCH_HOSTS)
        and not _source_of_undocumented(record.torch_api, url)
    ):
        yield Finding(ctx.loc("torch_url"), f"`{url}` 不是 PyTorch 官方文档 (not pytorch.org)")
    if not ctx.has_paddle_side:
        return
    url = derived.paddle_url(record)
    if url is None:
        yield Finding(ctx.loc("paddle_api"), "缺少 `paddle_url` (missing paddle_url)")
    elif (
        ctx.category is not Category.OTHER_PACKAGE
        and not _official(url, _PADDLE_HOSTS)
        and not _source_of_undocumented(record.paddle_api or "", url)
    ):
        yield Finding(
            ctx.loc("paddle_url"), f"`{url}` 不是 Paddle 官方文档 (not paddlepaddle.org.cn)"
        )


RULE = Rule(
    "AM209",
    "文档链接缺失或不是官方文档 (documentation link missing or unofficial)",
    Scope.RECORD,
    Severity.WARNING,
    "链接按 API 名称生成；只有不在默认位置的文档才需要写 torch_url / paddle_url "
    "(links are derived; write one only where the default is wrong)",
    why="读者从页面跳到两边的官方文档核对细节；链接按名称生成，只有例外需要手写。",
    check=check,
)
