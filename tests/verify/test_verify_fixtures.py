"""``apimap verify`` end to end: every AM8xx fixture gets exactly its diagnostics.

The bad fixtures are deliberately broken records: a wrong parameter name, a
wrong default, an example whose outputs differ, one that hangs, one that
raises, one that kills its interpreter. All of them run in one verification,
which must report each with its code and line and carry on.
"""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from apimap.cli import main
from apimap.rules.stamp import VERIFIER_RULES
from apimap.verify.run import EnvironmentMismatch, VerifyResult, check_versions, run_verify
from rule_fixtures import fixture_entries, read_file_fixture

FIXTURES = [entry for rule in VERIFIER_RULES for entry in fixture_entries(rule.code)]
TIMEOUT = 8.0


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    """Each fixture copied to a scratch folder (the run stamps the passing ones)."""
    root = tmp_path_factory.mktemp("fixtures")
    out = {}
    for fixture in FIXTURES:
        copy = root / fixture.parent.name / fixture.name
        copy.parent.mkdir(exist_ok=True)
        shutil.copy(fixture, copy)
        out[fixture] = copy
    return out


@pytest.fixture(scope="module")
def verified(copies: dict[Path, Path]) -> VerifyResult:
    return run_verify(sorted(copies.values()), workers=2, timeout=TIMEOUT, update=True)


@pytest.mark.parametrize("fixture_file", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture(verified: VerifyResult, copies: dict[Path, Path], fixture_file: Path) -> None:
    got = defaultdict(list)
    for d in verified.diagnostics:
        got[d.path].append((d.code, d.line))
    expected = read_file_fixture(fixture_file).expected
    assert sorted(got[str(copies[fixture_file])]) == expected


@pytest.mark.parametrize("fixture_file", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_only_records_without_errors_are_stamped(
    verified: VerifyResult, copies: dict[Path, Path], fixture_file: Path
) -> None:
    errors = [code for code, _ in read_file_fixture(fixture_file).expected if code != "AM806"]
    text = copies[fixture_file].read_text(encoding="utf-8")
    original = fixture_file.read_text(encoding="utf-8")
    if errors:
        assert text == original
    else:
        assert text == original + "verified:\n  torch: 2.13.0\n  paddle: 3.3.1\n"


def test_every_verifier_code_has_a_bad_and_a_good_fixture() -> None:
    for rule in VERIFIER_RULES:
        names = [entry.name for entry in fixture_entries(rule.code)]
        assert any(n.startswith("bad") for n in names), rule.code
        assert any(n.startswith("good") for n in names), rule.code


def test_run_reports_figures(verified: VerifyResult) -> None:
    assert verified.records == len(FIXTURES)
    assert verified.cases == 14
    assert verified.versions == {"torch": "2.13.0", "paddle": "3.3.1"}


def test_failing_case_shows_both_sides(verified: VerifyResult) -> None:
    [message] = [d.message for d in verified.diagnostics if d.path.endswith("bad_values.yaml")]
    assert "torch float32 [3]，paddle float32 [3]" in message
    assert "[0]: torch 0.09573627 / paddle 0.3829451" in message


def test_one_worker_imports_the_libraries_once(tmp_path: Path) -> None:
    good = [f for f in fixture_entries("AM811") if f.name.startswith("good")]
    result = run_verify(good, workers=1, timeout=TIMEOUT)
    assert result.cases == 2
    assert result.workers == 1


def test_command_exit_code_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(fixture_entries("AM802")[0].read_bytes())
    assert main(["verify", "--update", str(bad)]) == 1
    captured = capsys.readouterr()
    assert f"{bad}:5:19: AM802 " in captured.out
    assert "examples/s" in captured.err


def test_usage_errors_exit_two(tmp_path: Path) -> None:
    assert main(["verify", str(tmp_path / "missing")]) == 2
    assert main(["verify", "--timeout", "0", str(tmp_path)]) == 2


def test_versions_other_than_the_pins_are_refused() -> None:
    check_versions({"torch": "2.13.0", "paddle": "3.3.1"})
    with pytest.raises(EnvironmentMismatch, match=r"torch 2\.12\.0"):
        check_versions({"torch": "2.12.0", "paddle": "3.3.1"})
