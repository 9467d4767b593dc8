"""AM202-AM204: fields that a category requires or forbids."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.categories import Category
from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.rules.base import Finding, Rule, Scope

_NO_PADDLE_API = {Category.COMPOSITE, Category.MISSING}


def check_paddle_api(ctx: RecordContext) -> Iterator[Finding]:
    """组合替代实现 and 功能缺失 have no paddle API; every other category has one."""
    record = ctx.record
    if record.category in _NO_PADDLE_API:
        for name in ("paddle_api", "paddle_signature", "paddle_url"):
            if getattr(record, name) is not None:
                yield Finding(
                    ctx.key_loc(name),
                    f"「{record.category.label}」不应有 `{name}` (must not have {name})",
                )
    elif record.paddle_api is None:
        yield Finding(
            ctx.loc("category"),
            f"「{record.category.label}」需要 `paddle_api` (requires paddle_api)",
            "填写对应的 Paddle API；若无对应 API，分类应为 composite 或 missing "
            "(name the paddle API, or use composite / missing)",
        )


PADDLE_API = Rule(
    "AM202",
    "Paddle API 与分类不符 (paddle API does not fit the category)",
    Scope.RECORD,
    Severity.ERROR,
    "组合替代实现与功能缺失不写 paddle_api，其余分类必须写 (only composite and missing omit it)",
    check_paddle_api,
)


def check_package(ctx: RecordContext) -> Iterator[Finding]:
    """对应 API 不在主框架 names the package; no other category does."""
    record = ctx.record
    if record.category is Category.OTHER_PACKAGE and record.paddle_package is None:
        yield Finding(ctx.loc("category"), "缺少 `paddle_package` (missing paddle_package)")
    if record.category is not Category.OTHER_PACKAGE and record.paddle_package is not None:
        yield Finding(
            ctx.key_loc("paddle_package"),
            "只有「对应 API 不在主框架」需要 `paddle_package` (only for other_package)",
        )


PACKAGE = Rule(
    "AM203",
    "paddle_package 与分类不符 (paddle_package does not fit the category)",
    Scope.RECORD,
    Severity.ERROR,
    "category: other_package 时写明所在的包，如 `paddle_package: paddlenlp` (name the package)",
    check_package,
)


def check_missing(ctx: RecordContext) -> Iterator[Finding]:
    """功能缺失 has a reason and nothing to compare; only it has a reason."""
    record = ctx.record
    if record.category is Category.MISSING:
        if record.reason is None:
            yield Finding(ctx.loc("category"), "缺少 `reason` (missing reason)")
        for name in ("params", "examples"):
            if getattr(record, name):
                yield Finding(
                    ctx.key_loc(name),
                    f"「功能缺失」不应有 `{name}` (category missing has no {name})",
                )
    elif record.reason is not None:
        yield Finding(
            ctx.key_loc("reason"),
            "只有「功能缺失」需要 `reason` (reason is only for category missing)",
            "删除 reason，或把说明写进 summary 或 notes (move it to summary or notes)",
        )


MISSING = Rule(
    "AM204",
    "功能缺失的字段不符 (fields of a missing-feature record)",
    Scope.RECORD,
    Severity.ERROR,
    "功能缺失只写 torch_api、category、reason 等，不写参数映射与示例 (reason, no rows, no examples)",
    check_missing,
)

RULES = [PADDLE_API, PACKAGE, MISSING]
