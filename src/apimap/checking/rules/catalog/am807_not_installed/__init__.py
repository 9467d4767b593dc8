"""AM807: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM807",
    "API 所在的包未安装，记录未经验证 (package not installed: record not verified)",
    Scope.VERIFY,
    Severity.WARNING,
    "创建对应的验证环境后再运行 apimap verify (create the environment, then verify)",
    why="没有安装的包无法运行；这样的记录不能得到完整的验证标记。",
)
