"""AM262: example code does not run code it builds at run time, nor reach objects by name."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.example_code import Concern, findings


def check(ctx: RecordContext) -> Iterator[Finding]:
    """``exec``, ``eval``, ``compile``, ``__import__``, ``globals`` …; ``getattr`` by a name
    that is not a literal."""
    yield from findings(ctx, Concern.DYNAMIC)


RULE = Rule(
    "AM262",
    "示例动态执行代码或按名称取得对象 (example code runs code or reaches objects dynamically)",
    Scope.RECORD,
    Severity.ERROR,
    "直接写出要调用的 API；getattr 的属性名写成字符串字面量 (write the call itself)",
    why="exec、eval、__import__ 与按计算出的名称调用的 getattr 能绕过对导入与属性的检查，"
    "示例从来不需要它们。",
    check=check,
)
