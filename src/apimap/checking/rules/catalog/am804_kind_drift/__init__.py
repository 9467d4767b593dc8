"""AM804: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM804",
    "仅关键字或可变参数标记与已安装的库不符 (keyword-only or varargs marker differs)",
    Scope.VERIFY,
    Severity.ERROR,
    "按库中的签名放置 `*`、`*args`、`**kwargs` (place the markers as the library does)",
    why="参数能否按位置传入决定了代码能否原样迁移。",
)
