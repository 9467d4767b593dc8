"""AM003: no key appears twice in one mapping (reported by the loader)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import LoadProblemKind

RULE = Rule(
    "AM003",
    "重复的键 (duplicate key)",
    Scope.FILE,
    Severity.ERROR,
    "每个键只能出现一次，删除或合并重复的键 (keep one occurrence of each key)",
    why="大多数 YAML 读取器静默保留最后一个值，前面写的内容会无声地丢失。",
    reports=LoadProblemKind.DUPLICATE_KEY,
)
