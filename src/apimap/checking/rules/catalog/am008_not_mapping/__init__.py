"""AM008: the top level of a record is a mapping (reported by the loader)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import LoadProblemKind

RULE = Rule(
    "AM008",
    "顶层必须是映射 (top level must be a mapping)",
    Scope.FILE,
    Severity.ERROR,
    "记录以 `torch_api: ...` 等字段开头，而不是列表或标量 (start with fields such as torch_api)",
    why="记录由字段组成；顶层是列表或标量的文件不是记录。",
    reports=LoadProblemKind.NOT_MAPPING,
)
