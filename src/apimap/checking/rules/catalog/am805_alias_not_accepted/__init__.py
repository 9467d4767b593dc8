"""AM805: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM805",
    "Paddle 不接受该参数名 (paddle does not accept this parameter name)",
    Scope.VERIFY,
    Severity.ERROR,
    "只列出 Paddle 文档写明（或调用可证实）接受的参数名 (list only names paddle accepts)",
    why="记录声称 Paddle 接受某个 PyTorch 风格的参数名，读者会直接这样写；这必须是真的。",
)
