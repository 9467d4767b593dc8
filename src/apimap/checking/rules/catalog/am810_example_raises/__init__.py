"""AM810: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM810",
    "代码运行时出错 (code raised an exception)",
    Scope.VERIFY,
    Severity.ERROR,
    "示例与调用应能直接运行；所需输入写在 inputs 中 (code must run as written)",
    why="读者会照抄示例；跑不通的示例比没有示例更糟。",
)
