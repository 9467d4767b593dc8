"""AM705: an imported record still carries source text it has no field for."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.catalog.am704_import_violation import findings


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each piece of source text the record could not hold."""
    yield from findings(ctx, losses=True)


RULE = Rule(
    "AM705",
    "导入的原文没有放进记录字段 (source text the record does not hold)",
    Scope.RECORD,
    Severity.WARNING,
    "把原文（text）中有用的内容写进合适的字段（如 notes），然后删除该条 "
    "(move what matters into a field such as notes, then delete the entry)",
    why="原页面可以有记录格式容纳不下的文字（签名代码块中的注释、更具体的返回值标签）；"
    "它们不违反规范，所以只是警告，但不应在无人过目的情况下丢掉。",
    check=check,
)
