"""AM601: every allowlist entry still matches a diagnostic (reported by the allowlist stage)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM601",
    "例外清单中的条目已不再需要 (allowlist entry no longer matches anything)",
    Scope.CORPUS,
    Severity.ERROR,
    "问题已修复：从 allowlist.yaml 删除该条目 (the problem is fixed: delete the entry)",
    why="例外清单只能缩短：问题修好后条目必须删掉，否则它会悄悄放过将来的同类问题。",
)
