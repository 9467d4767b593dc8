"""AM251: aliases are other names of the same torch API, each listed once."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.packages import package_of


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Not the API itself, not twice, not from another package."""
    record = ctx.record
    seen: set[str] = set()
    for index, alias in enumerate(record.torch_aliases):
        where = ctx.loc("torch_aliases", index)
        if alias == record.torch_api:
            yield Finding(where, f"`{alias}` 就是本 API (the API itself)")
        elif alias in seen:
            yield Finding(where, f"`{alias}` 重复 (listed twice)")
        elif package_of(alias) != package_of(record.torch_api):
            yield Finding(where, f"`{alias}` 与 `{record.torch_api}` 不在同一个包 (other package)")
        seen.add(alias)


RULE = Rule(
    "AM251",
    "别名无效 (invalid alias)",
    Scope.RECORD,
    Severity.ERROR,
    "torch_aliases 只列出同一 PyTorch API 的其他名称，如 torch.mul 的 torch.multiply "
    "(other names only)",
    why="别名在映射表中各占一行、指向同一页面；列错的别名会让读者找到错误的页面。",
    check=check,
)
