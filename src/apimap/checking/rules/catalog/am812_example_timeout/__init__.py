"""AM812: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM812",
    "代码运行超时 (code timed out)",
    Scope.VERIFY,
    Severity.ERROR,
    "示例应在几秒内完成；使用小的输入 (use small inputs)",
    why="验证要在 CI 中跑完整个知识库，单个示例不能拖住全部。",
)
