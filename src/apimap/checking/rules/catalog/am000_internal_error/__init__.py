"""AM000: a rule (or the verifier) crashed; the run goes on."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM000",
    "规则内部错误 (internal rule error)",
    Scope.RECORD,
    Severity.ERROR,
    "这是 apimap 的缺陷，请附上该记录提交 issue (this is a bug in apimap; please report it)",
    why="一条规则出错不应让整个检查中断；报告出错的规则，其余规则照常运行。",
)
