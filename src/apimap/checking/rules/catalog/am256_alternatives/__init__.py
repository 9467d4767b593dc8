"""AM256: an alternative is another paddle API, and verify can run it."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each alternative names a paddle API other than ``paddle_api`` and the others, and is run
    by verify: a name-only alternative through the record's calls, a rewrite through its cases."""
    record = ctx.record
    seen = {record.paddle_api}
    for index, alternative in enumerate(record.alternatives):
        if alternative.paddle in seen:
            yield Finding(
                ctx.loc("alternatives", index, "paddle"),
                f"`{alternative.paddle}` 已经写过 (already named)",
            )
        seen.add(alternative.paddle)
        if not alternative.paddle.startswith("paddle."):
            yield Finding(
                ctx.loc("alternatives", index, "paddle"),
                "其他写法只能是 Paddle 主框架的 API (an alternative is a paddle API)",
            )
        if not alternative.cases and not record.calls:
            yield Finding(
                ctx.loc("alternatives", index),
                "只改名的写法由记录的 calls 验证，记录没有 calls：写 cases "
                "(a name-only alternative needs the record's calls, or write cases)",
            )


RULE = Rule(
    "AM256",
    "其他写法无法验证或重复 (an alternative cannot be verified, or repeats)",
    Scope.RECORD,
    Severity.ERROR,
    "只改名的写法需要记录有 calls；改写的写法写 cases；每个 API 只写一次 "
    "(name-only needs calls; a rewrite writes cases; each API once)",
    why="页面按版本推荐改动最少的写法，每一种写法都必须在每个 Paddle 版本上运行过，才能说它适用于哪些版本。",
    check=check,
)
