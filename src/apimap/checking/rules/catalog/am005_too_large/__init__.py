"""AM005: the file is small and shallow enough to be a record (reported by the loader)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import LoadProblemKind

RULE = Rule(
    "AM005",
    "文件过大或嵌套过深 (file too large or nested too deeply)",
    Scope.FILE,
    Severity.ERROR,
    "一条记录只描述一个 API；请拆分或精简 (one record describes one API)",
    why="一条记录只描述一个 API，几 KB 就够了；过大或嵌套过深的输入会拖慢甚至压垮解析器。",
    reports=LoadProblemKind.TOO_LARGE,
)
