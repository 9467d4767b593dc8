"""AM250-AM252: where a record lives, its aliases, and what each page must say."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.categories import Category
from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.paths import record_path
from apimap.rules.base import Finding, Rule, Scope

_E = Severity.ERROR


def check_path(ctx: RecordContext) -> Iterator[Finding]:
    """The file path is derived from the API name."""
    expected = record_path(ctx.record.torch_api)
    if ctx.relpath is None:
        yield Finding(
            ctx.loc("torch_api"),
            "记录不在 mappings/ 目录下 (record is outside mappings/)",
            f"移动到 mappings/{expected} (move it there)",
        )
    elif ctx.relpath != expected:
        yield Finding(
            ctx.loc("torch_api"),
            f"应为 mappings/{expected} (expected path)",
            f"git mv 到 mappings/{expected}；大写字母前加 ^ (uppercase letters get a ^ prefix)",
        )


PATH = Rule(
    "AM250",
    "文件路径与 API 名称不符 (file path does not match the API)",
    Scope.RECORD,
    _E,
    "按 API 名称放置文件 (place the file by its API name)",
    check_path,
)


def check_aliases(ctx: RecordContext) -> Iterator[Finding]:
    """Aliases are other names of the same torch API, listed once."""
    record = ctx.record
    seen: set[str] = set()
    for index, alias in enumerate(record.aliases):
        where = ctx.loc("aliases", index)
        if alias == record.torch_api:
            yield Finding(where, f"`{alias}` 就是本 API (the API itself)")
        elif alias in seen:
            yield Finding(where, f"`{alias}` 重复 (listed twice)")
        elif alias.split(".")[0] != record.torch_api.split(".")[0]:
            yield Finding(where, f"`{alias}` 与 `{record.torch_api}` 不在同一个包 (other package)")
        seen.add(alias)


ALIASES = Rule(
    "AM251",
    "别名无效 (invalid alias)",
    Scope.RECORD,
    _E,
    "aliases 只列出同一 PyTorch API 的其他名称，如 torch.mul 的 torch.multiply (other names only)",
    check_aliases,
)


def check_composite_summary(ctx: RecordContext) -> Iterator[Finding]:
    """A composite page explains what the API computes."""
    if ctx.record.category is Category.COMPOSITE and ctx.record.summary is None:
        yield Finding(ctx.loc("category"))


COMPOSITE_SUMMARY = Rule(
    "AM252",
    "组合替代实现缺少功能说明 (composite record has no summary)",
    Scope.RECORD,
    _E,
    "在 summary 中说明该 API 的功能或公式 (describe what the API computes)",
    check_composite_summary,
)

RULES = [PATH, ALIASES, COMPOSITE_SUMMARY]
