"""AM811: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM811",
    "两侧的结果不一致 (results differ)",
    Scope.VERIFY,
    Severity.ERROR,
    "修正转写或参数映射；随机结果用 shape_only 说明原因并比较统计量 (fix the rewrite or the rows)",
    why="转写前后结果一致是转写示例的承诺，由执行来证明，而不是由记忆来保证。",
)
