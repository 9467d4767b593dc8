"""AM601-AM602: the allowlist of accepted exceptions."""

from apimap.diagnostics import Severity
from apimap.rules.base import Rule, Scope

STALE = Rule(
    "AM601",
    "例外清单中的条目已不再需要 (allowlist entry no longer matches anything)",
    Scope.CORPUS,
    Severity.ERROR,
    "问题已修复：从 allowlist.yaml 删除该条目 (the problem is fixed: delete the entry)",
)
MALFORMED = Rule(
    "AM602",
    "例外清单格式错误 (malformed allowlist)",
    Scope.CORPUS,
    Severity.ERROR,
    "格式：exceptions: [{code: AM2xx, api: torch.xxx, reason: 原因}] (code, api, reason)",
)

RULES = [STALE, MALFORMED]
