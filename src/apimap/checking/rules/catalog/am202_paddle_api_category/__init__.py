"""AM202: composite and missing records have no paddle API; every other category has one."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.categories import Category

_NO_PADDLE_API = {Category.COMPOSITE, Category.MISSING}
_PADDLE_FIELDS = ("paddle_api", "paddle_signature", "paddle_url", "paddle_accepts", "self_param")


def check(ctx: RecordContext) -> Iterator[Finding]:
    """One finding per record, naming every field that does not fit."""
    record = ctx.record
    category = ctx.category
    if category in _NO_PADDLE_API:
        present = [name for name in _PADDLE_FIELDS if getattr(record, name)]
        if present:
            listed = "、".join(f"`{name}`" for name in present)
            yield Finding(
                ctx.key_loc(present[0]),
                f"「{category.label}」不应有 {listed} (must not name a paddle API)",
            )
    elif record.paddle_api is None:
        yield Finding(
            ctx.loc("category"),
            f"「{category.label}」需要 `paddle_api` (requires paddle_api)",
            "填写对应的 Paddle API；若无对应 API，分类应为 composite 或 missing "
            "(name the paddle API, or use composite / missing)",
        )


RULE = Rule(
    "AM202",
    "Paddle API 与分类不符 (paddle API does not fit the category)",
    Scope.RECORD,
    Severity.ERROR,
    "组合替代实现与功能缺失不写 paddle_api，其余分类必须写 (only composite and missing omit it)",
    why="组合替代实现与功能缺失的含义就是 Paddle 没有对应的 API；其余分类都在对照一个 Paddle API。",
    check=check,
)
