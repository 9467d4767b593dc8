"""AM703: the stamp says part of the record could not be verified (a warning)."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.stamped import stamp_of, verified_this_data
from apimap.files.stamps import StampFormatError


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A current stamp that lists what stayed unproven."""
    stamp = stamp_of(ctx)
    if stamp is None or isinstance(stamp, StampFormatError):
        return  # AM701 reports it
    if not verified_this_data(ctx, stamp) or stamp.complete:
        return
    yield Finding(ctx.loc("torch_api"), "；".join(stamp.proven.unproven))


RULE = Rule(
    "AM703",
    "记录只有部分内容经过验证 (record only partly verified)",
    Scope.RECORD,
    Severity.WARNING,
    "补上可以执行的调用或示例；库中读不出的签名会一直是部分验证 (prove what can be proven)",
    why="页面对部分验证的记录显示「部分验证」并列出未验证的内容，读者据此决定信任到什么程度。",
    check=check,
)
