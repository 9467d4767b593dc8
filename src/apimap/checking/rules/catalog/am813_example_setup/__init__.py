"""AM813: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM813",
    "输入或输出设置有误 (inputs or outputs are wrong)",
    Scope.VERIFY,
    Severity.ERROR,
    "inputs 写 NumPy 表达式；outputs 只列张量、数值、字符串及其列表 (fix inputs/outputs)",
    why="没有比较任何结果的示例什么也没有证明。",
)
