"""AM002: the file is valid YAML (reported by the loader)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import LoadProblemKind

RULE = Rule(
    "AM002",
    "YAML 语法错误 (YAML syntax error)",
    Scope.FILE,
    Severity.ERROR,
    "检查缩进、冒号与引号；含 `: ` 或 `#` 的文本请加引号或使用 `|` 块 (check indentation and quoting)",
    why="无法解析的文件什么都表达不了；报告出错的行与列，方便直接修改。",
    reports=LoadProblemKind.SYNTAX,
)
