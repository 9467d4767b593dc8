"""The rules page: every rule of the registry with its first bad (and good) fixture."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Scope
from apimap.checking.rules.registry import ALL_RULES, fixtures
from apimap.files import loader

SEVERITY_LABELS = {Severity.ERROR: "错误", Severity.WARNING: "警告"}
SCOPE_LABELS = {
    Scope.FILE: "文件",
    Scope.RECORD: "记录",
    Scope.CORPUS: "全部记录",
    Scope.VERIFY: "验证",
}
_IDEOGRAPH = re.compile(r"[\u3400-\u9fff]")


def without_gloss(text: str) -> str:
    """The Chinese text of a title or hint without the English gloss that ends it
    (`` (invalid alias)``): the page is Chinese, the command line keeps the gloss."""
    start = text.rfind("(")
    while start > 0:
        gloss, before = text[start + 1 :], text[start - 1]
        if (
            text.endswith(")")
            and gloss[:1].isascii()
            and gloss[:1].isalpha()
            and not _IDEOGRAPH.search(gloss)
            and not (before.isascii() and before.isalnum())
        ):
            return text[:start].rstrip()
        start = text.rfind("(", 0, start)
    return text


@dataclass(frozen=True)
class Fixture:
    """An example file: its name, its text (``None`` if not text) and the lines it flags."""

    name: str
    text: str | None
    lines: list[int]
    loads: bool
    """Whether the file is YAML that apimap can load (otherwise it is shown as plain text)."""

    @property
    def language(self) -> str:
        """How the file is highlighted."""
        return "yaml" if self.loads else "text"


@dataclass(frozen=True)
class RuleView:
    """One rule as the page shows it."""

    code: str
    title: str
    severity: str
    scope: str
    hint: str
    why: str
    fix: str | None
    """What ``apimap check --fix`` does, for fixable rules."""
    bad: Fixture | None
    good: Fixture | None


def _expected_lines(text: str, code: str) -> list[int]:
    first = text.splitlines()[0] if text else ""
    if not first.startswith("# expect:"):
        return []
    lines = []
    for item in first.removeprefix("# expect:").split():
        name, _, line = item.partition(":")
        if name == code and line.isdigit():
            lines.append(int(line))
    return sorted(set(lines))


def read_fixture(path: Path, code: str) -> Fixture:
    """A fixture file as text; files that are not clean UTF-8 text show none."""
    text, _ = loader.decode(path.read_bytes())
    loads = text is not None and loader.parse(text)[0] is not None
    count = len(text.splitlines()) if text else 0
    lines = [line for line in _expected_lines(text or "", code) if line <= count]
    return Fixture(path.name, text, lines, loads)


def _first(code: str, prefix: str) -> Fixture | None:
    files = [
        path
        for path in fixtures(code)
        if path.is_file() and path.name.startswith(prefix) and path.suffix == ".yaml"
    ]
    return read_fixture(files[0], code) if files else None


def rule_views() -> list[RuleView]:
    """Every registered rule, by code, with the first bad and good fixture beside it."""
    return [
        RuleView(
            code=rule.code,
            title=without_gloss(rule.title),
            severity=SEVERITY_LABELS[rule.severity],
            scope=SCOPE_LABELS[rule.scope],
            hint=without_gloss(rule.hint),
            why=rule.why,
            fix=without_gloss(rule.fix.description) if rule.fix else None,
            bad=_first(rule.code, "bad"),
            good=_first(rule.code, "good"),
        )
        for rule in ALL_RULES
    ]
