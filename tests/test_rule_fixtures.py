"""Every rule against its good and bad fixtures: the exact (code, line) list."""

from __future__ import annotations

from pathlib import Path

import pytest

from apimap.checking.allowlist import load_allowlist
from apimap.checking.rules.base import Rule, Scope
from apimap.checking.rules.registry import ALL_RULES, RECORD_RULES
from apimap.checking.runner import check_source, run_check
from apimap.record.paths import relative_to_mappings
from rule_fixtures import (
    CATALOG,
    code_of,
    fixture_entries,
    read_dir_expectations,
    read_file_fixture,
)

GENERATED_FIXTURES = {
    "AM000": "test_check.py::test_crashing_rule_becomes_a_diagnostic",
    "AM005": "test_loader.py::test_huge_file_is_refused",
}
"""Rules whose bad input is built by a test instead of a fixture file."""


CROSS_CUTTING = {"AM220", "AM255", "AM257", "AM301", "AM701", "AM703"}
"""Rules that would fire on nearly every fixture (a call, values written out for clarity,
the aliases the public-surface table knows, canonical formatting, a verification stamp): they
run only against their own fixtures, so that every other fixture lists exactly the problem it
shows."""


def reported_by_check(rule: Rule) -> bool:
    """Rules that ``apimap check`` reports (the verifier reports the others)."""
    return rule.scope is not Scope.VERIFY


CHECK_CODES = [rule.code for rule in ALL_RULES if reported_by_check(rule)]
FILE_FIXTURES = [
    entry
    for code in CHECK_CODES
    for entry in fixture_entries(code)
    if entry.is_file() and entry.suffix == ".yaml"
]
DIR_FIXTURES = [entry for code in CHECK_CODES for entry in fixture_entries(code) if entry.is_dir()]


def _id(path: Path) -> str:
    return str(path.relative_to(CATALOG))


@pytest.mark.parametrize("fixture_file", FILE_FIXTURES, ids=_id)
def test_file_fixture(fixture_file: Path) -> None:
    fixture = read_file_fixture(fixture_file)
    code = code_of(fixture_file)
    rules = [r for r in RECORD_RULES if r.code == code or r.code not in CROSS_CUTTING]
    result = check_source(
        str(fixture.virtual_path),
        fixture_file.read_bytes(),
        rules,
        relative_to_mappings(fixture.virtual_path),
    )
    got = sorted((d.code, d.line) for d in result.diagnostics)
    assert got == fixture.expected


@pytest.mark.parametrize("fixture_dir", DIR_FIXTURES, ids=_id)
def test_directory_fixture(fixture_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(fixture_dir)
    code = code_of(fixture_dir)
    result = run_check(
        [Path("mappings")],
        ignore=CROSS_CUTTING - {code},
        allowlist=load_allowlist(Path("allowlist.yaml")),
        cache_dir=None,
    )
    got = sorted((d.path, d.line, d.code) for d in result.diagnostics)
    assert got == read_dir_expectations(Path("."))


@pytest.mark.parametrize("code", [rule.code for rule in ALL_RULES])
def test_every_rule_has_good_and_bad_fixtures(code: str) -> None:
    if code in GENERATED_FIXTURES:
        return
    names = [entry.name for entry in fixture_entries(code)]
    assert any(name.startswith("bad") for name in names), f"{code} has no bad fixture"
    assert any(name.startswith("good") for name in names), f"{code} has no good fixture"


@pytest.mark.parametrize("fixture_file", FILE_FIXTURES, ids=_id)
def test_bad_fixture_reports_its_own_code(fixture_file: Path) -> None:
    fixture = read_file_fixture(fixture_file)
    code = code_of(fixture_file)
    if fixture_file.name.startswith("bad"):
        assert code in {c for c, _ in fixture.expected}
    else:
        assert code not in {c for c, _ in fixture.expected}
