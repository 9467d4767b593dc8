"""AM816: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM816",
    "记录说明的差异没有被探测到 (acknowledged difference not observed)",
    Scope.VERIFY,
    Severity.WARNING,
    "删除 notes 中的该 probes 项或 accepted 条目；若差异只在某些输入下出现，补一个能体现它的调用 (remove it, or add a call that shows it)",
    why="说明里写着的差异若在固定版本上已不存在，页面就在误导读者。",
)
