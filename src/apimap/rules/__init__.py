"""The rule registry: every rule of the specification, by stable code."""

from __future__ import annotations

from collections.abc import Sequence

from apimap.rules import (
    allowlist_rules,
    category,
    category_fields,
    context_category,
    corpus,
    draft,
    examples,
    hygiene,
    identity,
    load,
    names,
    rows,
    signatures,
    stamp,
    style,
)
from apimap.rules.base import Rule, Scope
from apimap.rules.internal import INTERNAL_ERROR

ALL_RULES: list[Rule] = sorted(
    [
        INTERNAL_ERROR,
        *load.RULES,
        category.RULE,
        *category_fields.RULES,
        context_category.RULE,
        *signatures.RULES,
        *names.RULES,
        *rows.RULES,
        *examples.RULES,
        *hygiene.RULES,
        *identity.RULES,
        *corpus.RULES,
        *allowlist_rules.RULES,
        *draft.RULES,
        *stamp.RULES,
        *stamp.VERIFIER_RULES,
        *style.RULES,
    ],
    key=lambda rule: rule.code,
)
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}
RECORD_RULES = [r for r in ALL_RULES if r.scope is Scope.RECORD and r.check is not None]
CORPUS_RULES = [r for r in ALL_RULES if r.scope is Scope.CORPUS and r.check is not None]

assert len(RULES_BY_CODE) == len(ALL_RULES), "rule codes must be unique"


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
