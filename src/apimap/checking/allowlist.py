"""Accepted exceptions: (code, API, reason) entries that must shrink over time.

An entry that no longer matches a diagnostic is itself an error (AM601), so
that fixed problems leave the list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from apimap.checking.diagnostics import Diagnostic
from apimap.checking.rules.base import Finding, Rule
from apimap.checking.rules.catalog.am601_allowlist_stale import RULE as STALE
from apimap.checking.rules.catalog.am602_allowlist_malformed import RULE as MALFORMED
from apimap.files import loader
from apimap.record.location import Loc


@dataclass(frozen=True)
class Entry:
    """One accepted exception."""

    code: str
    api: str
    reason: str
    loc: Loc


@dataclass
class Allowlist:
    """The parsed allowlist file."""

    path: str
    entries: list[Entry]
    problems: list[Diagnostic]


def _problem(rule: Rule, path: str, loc: Loc, detail: str) -> Diagnostic:
    finding = Finding(loc, detail)
    return Diagnostic(
        path,
        finding.loc.line,
        finding.loc.col,
        rule.code,
        rule.message(detail),
        rule.hint,
        rule.severity,
    )


def load_allowlist(path: Path) -> Allowlist:
    """Read ``path``; a missing file is an empty allowlist."""
    shown = str(path)
    if not path.is_file():
        return Allowlist(shown, [], [])
    doc, problems = loader.load(path.read_bytes())
    if doc is None:
        first = problems[0] if problems else None
        loc = Loc(first.line, first.col) if first else Loc(1, 1)
        return Allowlist(shown, [], [_problem(MALFORMED, shown, loc, "无法解析 (cannot parse)")])
    entries: list[Entry] = []
    out: list[Diagnostic] = []
    items = doc.data.get("exceptions")
    if set(doc.data) != {"exceptions"} or not isinstance(items, list):
        return Allowlist(
            shown, [], [_problem(MALFORMED, shown, doc.loc(()), "顶层应只有 `exceptions:` 列表")]
        )
    for index, item in enumerate(items):
        loc = doc.loc(("exceptions", index))
        fields = {"code", "api", "reason"}
        if (
            not isinstance(item, dict)
            or set(item) != fields
            or not all(isinstance(item[key], str) and item[key].strip() for key in fields)
        ):
            out.append(_problem(MALFORMED, shown, loc, "每项需要 code、api、reason 三个非空字符串"))
            continue
        entries.append(Entry(item["code"], item["api"], item["reason"], loc))
    return Allowlist(shown, entries, out)


def apply_allowlist(
    diagnostics: list[Diagnostic],
    allowlist: Allowlist,
    checked_apis: set[str],
    is_selected: Callable[[str], bool],
) -> list[Diagnostic]:
    """Drop accepted diagnostics; report entries that accept nothing any more."""
    accepted = {(entry.code, entry.api) for entry in allowlist.entries}
    used: set[tuple[str, str]] = set()
    kept: list[Diagnostic] = []
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.api or "")
        if key in accepted:
            used.add(key)
        else:
            kept.append(diagnostic)
    for entry in allowlist.entries:
        key = (entry.code, entry.api)
        if key in used or entry.api not in checked_apis or not is_selected(entry.code):
            continue
        kept.append(_problem(STALE, allowlist.path, entry.loc, f"{entry.code} `{entry.api}`"))
    return kept + allowlist.problems
