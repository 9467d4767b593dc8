"""The rule registry: every rule of the catalog, by stable code, found by looking.

A rule is a package ``apimap.checking.rules.catalog.<code>_<slug>`` whose ``RULE`` is a
:class:`~apimap.checking.rules.base.Rule`; its good and bad fixtures sit in the same
folder. Adding a rule is adding such a package: no list to keep.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from pathlib import Path

from apimap.checking.rules import catalog
from apimap.checking.rules.base import FileProblemKind, Rule, Scope
from apimap.files.problems import LoadProblemKind, SchemaProblemKind


def _discover() -> tuple[list[Rule], dict[str, Path]]:
    rules: list[Rule] = []
    homes: dict[str, Path] = {}
    for info in pkgutil.iter_modules(catalog.__path__):
        module = importlib.import_module(f"{catalog.__name__}.{info.name}")
        rule = module.RULE
        if not isinstance(rule, Rule) or not info.name.startswith(rule.code.lower() + "_"):
            raise RuntimeError(f"{info.name}: RULE must be the rule its folder is named after")
        rules.append(rule)
        homes[rule.code] = Path(module.__file__ or "").parent
    return sorted(rules, key=lambda rule: rule.code), homes


ALL_RULES, HOMES = _discover()
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}
RECORD_RULES = [r for r in ALL_RULES if r.scope is Scope.RECORD and r.check is not None]
CORPUS_RULES = [r for r in ALL_RULES if r.scope is Scope.CORPUS and r.check is not None]
FIXABLE_RULES = [r for r in RECORD_RULES if r.fix is not None]
VERIFIER_RULES = [r for r in ALL_RULES if r.scope is Scope.VERIFY]
INTERNAL_ERROR = RULES_BY_CODE["AM000"]
FILE_PROBLEM_RULES: dict[FileProblemKind, Rule] = {
    rule.reports: rule for rule in ALL_RULES if rule.reports is not None
}
"""The rule that reports each kind of problem the loader and the schema stage find."""

if len(RULES_BY_CODE) != len(ALL_RULES):
    raise RuntimeError("rule codes must be unique")
_REPORTED_KINDS = [rule.reports for rule in ALL_RULES if rule.reports is not None]
if sorted(_REPORTED_KINDS, key=str) != sorted([*LoadProblemKind, *SchemaProblemKind], key=str):
    raise RuntimeError("each kind of file problem must be reported by exactly one rule")


def fixtures(code: str) -> list[Path]:
    """The good and bad fixtures (files and folders) of one rule, by name."""
    home = HOMES.get(code)
    if home is None:
        return []
    return sorted(
        entry
        for entry in home.iterdir()
        if entry.name.startswith(("good", "bad")) and entry.name != "__pycache__"
    )


def is_selected(code: str, select: set[str] | None, ignore: set[str] | None) -> bool:
    """Whether ``--select``/``--ignore`` (code prefixes) keep ``code``; AM000 always shows."""
    if code == INTERNAL_ERROR.code:
        return True
    if select and not any(code.startswith(prefix) for prefix in select):
        return False
    return not (ignore and any(code.startswith(prefix) for prefix in ignore))


def selected(rules: Sequence[Rule], select: set[str] | None, ignore: set[str] | None) -> list[Rule]:
    """The rules that ``--select``/``--ignore`` keep."""
    return [rule for rule in rules if is_selected(rule.code, select, ignore)]
