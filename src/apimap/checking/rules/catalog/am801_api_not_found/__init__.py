"""AM801: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM801",
    "已安装的库中没有该 API (API not found in the installed library)",
    Scope.VERIFY,
    Severity.ERROR,
    "检查 API 全称的拼写与大小写；已删除或改名的 API 请更新记录 (check the name)",
    why="记录里的 API 名称必须在固定版本的库中真实存在，否则页面描述的是一个不存在的东西。",
)
