"""AM814: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM814",
    "验证进程意外退出 (verification process crashed)",
    Scope.VERIFY,
    Severity.ERROR,
    "代码导致解释器崩溃或超出资源限制，请简化示例 (the code crashed the interpreter)",
    why="崩溃的示例在读者机器上同样会崩溃；报告它，其余记录继续验证。",
)
