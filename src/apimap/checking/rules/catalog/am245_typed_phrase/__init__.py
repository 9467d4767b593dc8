"""AM245: the fixed phrases come from kind, action and category, never typed by hand."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.text import prose
from apimap.record import phrases


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A row's prose never holds a remark phrase; a summary never holds a page's lead phrase."""
    for path, _role, text in prose(ctx):
        found: tuple[str, ...]
        if path[0] == "params":
            found = phrases.GENERATED_PHRASES
        elif path[0] == "summary":
            found = phrases.SUMMARY_PHRASES
        else:
            continue
        for phrase in found:
            if phrase in text:
                yield Finding(ctx.loc(*path), f"「{phrase}」")
                break


RULE = Rule(
    "AM245",
    "手写了应由 kind/action 生成的固定短语 (typed a phrase that kind/action generate)",
    Scope.RECORD,
    Severity.ERROR,
    "删除该短语，用 kind 与 action 表达 (express it with kind and action)",
    why="固定短语由 kind 与 action 生成，才能保证措辞统一；手写的短语会和生成的重复，或与 kind 矛盾。",
    check=check,
)
