"""AM501: one record per torch API, aliases and in-place variants included."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import CorpusContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.location import Loc


def check(ctx: CorpusContext) -> Iterator[Finding]:
    """Every torch API name (record, alias or variant) belongs to one record only."""
    owner: dict[str, tuple[str, Loc]] = {}
    for summary in sorted(ctx.records, key=lambda s: s.path):
        for name, loc in [(summary.api, summary.api_loc), *summary.aliases]:
            first = owner.get(name)
            if first is None:
                owner[name] = (summary.path, loc)
            elif first[0] != summary.path:
                yield Finding(
                    loc,
                    f"`{name}` 已在 {first[0]}:{first[1].line} 中 (already in)",
                    path=summary.path,
                    api=summary.api,
                )


RULE = Rule(
    "AM501",
    "同一 API 有多条记录 (API listed more than once)",
    Scope.CORPUS,
    Severity.ERROR,
    "一个 API 只有一条记录；别名写在主记录的 torch_aliases 中 (merge into one record)",
    why="一个 API 的事实只在一个地方；两条记录迟早会互相矛盾，读者不知道该信哪一条。",
    check=check,
)
