"""AM263: example code reaches no system module or interpreter internal through attributes."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.example_code import Concern, findings


def check(ctx: RecordContext) -> Iterator[Finding]:
    """``torch.serialization.os``, ``tempfile._os``, ``x.__class__``, ``__builtins__`` …"""
    yield from findings(ctx, Concern.INTERNAL)


RULE = Rule(
    "AM263",
    "示例经由属性访问系统模块或解释器内部 (example code reaches system modules or internals)",
    Scope.RECORD,
    Severity.ERROR,
    "只使用 API 的公开接口；不要经由其他模块的属性访问 os、sys 等，也不要访问 __class__ 等内部属性 "
    "(use public APIs only)",
    why="不导入 os 也能经由 torch.serialization.os 或 tempfile._os 拿到它，"
    "经由 __class__、__globals__ 等内部属性能拿到任何对象；示例从来不需要这些路径。",
    check=check,
)
