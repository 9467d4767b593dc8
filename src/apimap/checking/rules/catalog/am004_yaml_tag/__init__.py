"""AM004: no tags, anchors, aliases or complex keys (reported by the loader)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import LoadProblemKind

RULE = Rule(
    "AM004",
    "不允许使用 YAML 标签、锚点、别名或复杂键 (tags, anchors, aliases and complex keys are not allowed)",
    Scope.FILE,
    Severity.ERROR,
    "直接写出取值；记录只使用普通的映射、列表与字符串 (write plain values)",
    why="记录只需要普通的映射、列表与字符串；别名可以指数级展开，标签会让不同读取器得到不同的数据。",
    reports=LoadProblemKind.TAG,
)
