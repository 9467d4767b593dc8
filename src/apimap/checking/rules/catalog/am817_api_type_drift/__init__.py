"""AM817: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM817",
    "API 类型与已安装的库不符 (API type differs from the library)",
    Scope.VERIFY,
    Severity.ERROR,
    "按库中的对象写 api_type：类、方法、属性、常量或上下文管理器 (write the object's type)",
    why="API 类型决定页面版式与调用方式，必须与库中的对象一致。",
)
