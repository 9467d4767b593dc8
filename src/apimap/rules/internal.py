"""The diagnostic for a rule that crashed: the run goes on."""

from apimap.diagnostics import Severity
from apimap.rules.base import Rule, Scope

INTERNAL_ERROR = Rule(
    "AM000",
    "规则内部错误 (internal rule error)",
    Scope.RECORD,
    Severity.ERROR,
    "这是 apimap 的缺陷，请附上该记录提交 issue (this is a bug in apimap; please report it)",
)
