"""AM602: the allowlist is well-formed (reported by the allowlist stage)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM602",
    "例外清单格式错误 (malformed allowlist)",
    Scope.CORPUS,
    Severity.ERROR,
    "格式：exceptions: [{code: AM2xx, api: torch.xxx, reason: 原因}] (code, api, reason)",
    why="每个例外都要写明针对哪条规则、哪个 API 以及原因，审阅者才能判断它是否合理。",
)
