"""AM803: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM803",
    "默认值与已安装的库不符 (default differs from the library)",
    Scope.VERIFY,
    Severity.ERROR,
    "写出库中的默认值；对象默认值可写其名称，如 `default_generator` (write the library's default)",
    why="默认值不同会改变不传该参数时的行为，记录中的默认值必须与库一致。",
)
