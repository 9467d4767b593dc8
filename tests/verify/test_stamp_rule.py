"""AM701 against its fixtures, and the version helpers it relies on."""

from __future__ import annotations

from pathlib import Path

import pytest

from apimap.check import check_source, relative_to_mappings
from apimap.pins import PINS, public_version, release
from apimap.rules import RECORD_RULES
from apimap.rules.stamp import STAMP
from rule_fixtures import fixture_entries, read_file_fixture

RULES = list({rule.code: rule for rule in [*RECORD_RULES, STAMP]}.values())


@pytest.mark.parametrize("fixture_file", fixture_entries("AM701"), ids=lambda p: p.name)
def test_stamp_fixture(fixture_file: Path) -> None:
    fixture = read_file_fixture(fixture_file)
    result = check_source(
        str(fixture.virtual_path),
        fixture_file.read_bytes(),
        RULES,
        relative_to_mappings(fixture.virtual_path),
    )
    assert sorted((d.code, d.line) for d in result.diagnostics) == fixture.expected


def test_newer_stamp_is_fine() -> None:
    assert release("3.10.0") > release(PINS["paddle"])
    assert release("2.13.0rc1") == (2, 13, 0)


def test_public_version_drops_local_build() -> None:
    assert public_version("2.13.0+cpu") == "2.13.0"
