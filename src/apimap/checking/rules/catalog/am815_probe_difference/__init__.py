"""AM815: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM815",
    "探测发现的差异没有写进记录 (a probe difference the record does not acknowledge)",
    Scope.VERIFY,
    Severity.ERROR,
    "用参数映射行、带 probes 的 notes 或 accepted（写明原因）说明这一差异 (acknowledge it in a row, a note or accepted)",
    why="记录要说出两个库实际运行时的每一处差异；读者最容易在没人想到去测的地方出错，这些差异由机器找出来。",
)
