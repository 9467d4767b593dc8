"""``apimap verify`` end to end: every verifier rule's fixtures get exactly their diagnostics.

The bad fixtures are deliberately wrong records: a wrong parameter name, a wrong default, a
rename to the wrong paddle parameter, an example whose outputs differ, one that hangs, one that
raises, one that kills its interpreter, differences only a probe finds (positional order, a
missing dtype kernel, a Python scalar paddle rejects). Each good fixture beside them is the
corrected record. All of them run in one verification, which must report each with its code
and line, carry on, and stamp exactly the records without errors.
"""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from apimap.checking.rules.registry import VERIFIER_RULES
from apimap.cli import main
from apimap.files import loader
from apimap.files.stamps import digest, parse_stamp
from apimap.verify.environments import (
    VISION_PYTHON_VARIABLE,
    EnvironmentMismatch,
    check_versions,
    environments,
)
from apimap.verify.run import VerifyResult, run_verify
from rule_fixtures import code_of, fixture_entries, read_file_fixture

ENVIRONMENT_MISSING = "AM819"
FIXTURES = [
    entry
    for rule in VERIFIER_RULES
    if rule.code != ENVIRONMENT_MISSING
    for entry in fixture_entries(rule.code)
]
TIMEOUT = 12.0


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    """Each fixture copied below a scratch ``mappings/`` folder (the run stamps passing ones)."""
    root = tmp_path_factory.mktemp("fixtures") / "mappings"
    out = {}
    for fixture in FIXTURES:
        copy = root / code_of(fixture) / fixture.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(fixture, copy)
        out[fixture] = copy
    return out


@pytest.fixture(scope="module")
def verified(copies: dict[Path, Path]) -> VerifyResult:
    return run_verify(sorted(copies.values()), workers=2, timeout=TIMEOUT, update=True)


def _stamp_of(record: Path) -> Path:
    mappings = next(p for p in record.parents if p.name == "mappings")
    return mappings.parent / "stamps" / record.relative_to(mappings).with_suffix(".json")


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
    warnings = {"AM806", "AM807", "AM816"}
    errors = [code for code, _ in read_file_fixture(fixture_file).expected if code not in warnings]
    copy = copies[fixture_file]
    assert copy.read_bytes() == fixture_file.read_bytes()
    stamp = _stamp_of(copy)
    if errors:
        assert not stamp.exists()
        return
    written = parse_stamp(stamp.read_bytes())
    doc, _ = loader.load(copy.read_bytes())
    assert doc is not None
    assert written.record == digest(doc.data)
    assert written.versions["paddle"] == "3.3.1"


def test_examples_that_break_the_sandbox_are_stopped_each_where_it_is(
    verified: VerifyResult, copies: dict[Path, Path]
) -> None:
    # One example per limit (memory, file size, a write outside the work folder, the network,
    # too many processes): each is reported at its own line with what stopped it, nothing is
    # left on the host, and the other records of the run are still verified and stamped.
    hostile = next(f for f in FIXTURES if f.name == "bad_sandbox_limits.yaml")
    found = {d.line: d.message for d in verified.diagnostics if d.path == str(copies[hostile])}
    assert "MemoryError" in found[11]
    assert "written" in found[17]  # the write stopped at the file size limit
    assert "Read-only file system" in found[23]
    assert "not found" in found[29]
    assert "Resource temporarily unavailable" in found[36]
    assert not Path("/var/tmp/apimap-verify-escape.pt").exists()
    assert len(verified.stamped) >= sum(1 for f in FIXTURES if f.name.startswith("good"))


def test_static_rules_keep_verify_from_running_forbidden_code(tmp_path: Path) -> None:
    record = tmp_path / "mappings" / "torch" / "torch.abs.yaml"
    record.parent.mkdir(parents=True)
    marker = tmp_path / "ran"
    bad = next(f for f in fixture_entries("AM814") if f.name == "bad_segfault.yaml")
    record.write_text(
        bad.read_text(encoding="utf-8").replace(
            "          view = np.lib.stride_tricks.as_strided(np.zeros(1), shape=(2,), "
            "strides=(1 << 44,))\n",
            f"          import os\n          os.system('touch {marker}')\n          view = 0\n",
        ),
        encoding="utf-8",
    )
    result = run_verify([record], workers=1, timeout=TIMEOUT)
    assert [(d.code, d.line) for d in result.diagnostics] == [("AM261", 13)]
    assert result.records == 0
    assert not marker.exists()


def test_partial_proof_is_stated(verified: VerifyResult, copies: dict[Path, Path]) -> None:
    unreadable = next(f for f in FIXTURES if f.name == "good_docstring_only.yaml")
    stamp = parse_stamp(_stamp_of(copies[unreadable]).read_bytes())
    assert stamp.proven.signatures["torch"] == "read"
    not_installed = next(f for f in FIXTURES if f.name == "bad_not_installed.yaml")
    partial = parse_stamp(_stamp_of(copies[not_installed]).read_bytes())
    assert not partial.complete
    assert any("torchaudio" in item for item in partial.proven.unproven)


def test_code_needing_what_the_machine_lacks_is_named_in_the_stamp(
    verified: VerifyResult, copies: dict[Path, Path]
) -> None:
    # rpc: torch ran in a group of two, paddle's CPU package refused; network: both sides
    # refused the download; foreign_code: the hub call never ran (nothing to refuse);
    # cuda_toolkit: paddle built the extension's description, torch asked for CUDA_HOME
    stamps = {
        name: parse_stamp(_stamp_of(copies[f]).read_bytes())
        for f in FIXTURES
        if (name := f.name)
        in {
            "good_needs_rpc.yaml",
            "good_needs_network_foreign_code.yaml",
            "good_needs_cuda_toolkit.yaml",
        }
    }
    rpc, hub = stamps["good_needs_rpc.yaml"], stamps["good_needs_network_foreign_code.yaml"]
    toolkit = stamps["good_needs_cuda_toolkit.yaml"]
    assert not rpc.complete and not hub.complete and not toolkit.complete
    assert toolkit.proven.unproven == [
        f"{where}需要 CUDA 工具包（CUDA_HOME）：验证的机器上没有，"
        "只确认了 Paddle 一侧能运行、PyTorch 一侧因此报错，结果没有比较"
        for where in ("第 1 个调用", "第 1 组转写示例的第 1 个")
    ]
    assert rpc.proven.unproven == [
        "第 1 个调用需要 Paddle 安装包中的 RPC 支持：验证的机器上没有，只确认了 PyTorch 一侧能运行、"
        "Paddle 一侧因此报错，结果没有比较"
    ]
    assert hub.proven.unproven == [
        "第 1 个调用会运行记录之外的代码（下载的仓库或编译的 C++ 扩展）：验证从不执行这类代码，"
        "结果没有比较",
        "第 1 条注意事项的示例需要 网络：验证的机器上没有，只确认了两侧都因此报错，结果没有比较",
    ]


def test_a_missing_record_without_code_is_fully_proven(
    verified: VerifyResult, copies: dict[Path, Path]
) -> None:
    # its claim is an absence: the API checks and the search for paddle candidates prove it
    considered = next(f for f in FIXTURES if f.name == "good_considered.yaml")
    stamp = parse_stamp(_stamp_of(copies[considered]).read_bytes())
    assert (stamp.proven.calls, stamp.proven.cases) == (0, 0)
    assert stamp.complete, stamp.proven.unproven


def test_every_verifier_code_has_a_bad_and_a_good_fixture() -> None:
    for rule in VERIFIER_RULES:
        names = [entry.name for entry in fixture_entries(rule.code)]
        assert any(n.startswith("bad") for n in names), rule.code
        assert any(n.startswith("good") for n in names), rule.code


def test_run_reports_figures(verified: VerifyResult) -> None:
    assert verified.records == len(FIXTURES)
    assert verified.environments["torch"] == {"torch": "2.13.0"}
    assert verified.environments["paddle"] == {"paddle": "3.3.1"}
    calls = 0
    for fixture in FIXTURES:
        doc, _ = loader.load(fixture.read_bytes())
        calls += len(doc.data.get("calls", [])) if doc is not None else 0
    assert verified.derived_calls == calls == 28
    assert verified.probes > 0
    expected = sum(
        code == "AM815" for fixture in FIXTURES for code, _ in read_file_fixture(fixture).expected
    )
    assert verified.unacknowledged == expected == 16


def test_failing_case_shows_both_sides(verified: VerifyResult) -> None:
    [message] = [d.message for d in verified.diagnostics if d.path.endswith("bad_values.yaml")]
    assert "torch float32 [3]，paddle float32 [3]" in message
    assert "[0]: torch 0.09573627 / paddle 0.3829451" in message


def test_probe_difference_says_what_differs(verified: VerifyResult) -> None:
    found = [d.message for d in verified.diagnostics if d.path.endswith("bad_positional.yaml")]
    assert found == [
        next(m for m in found if "`positional`：torch float32，paddle ✗ AssertionError" in m)
    ]


def test_one_worker_per_environment(tmp_path: Path) -> None:
    good = [f for f in fixture_entries("AM811") if f.name.startswith("good")]
    result = run_verify(good, workers=1, timeout=TIMEOUT)
    assert result.workers == 2
    assert result.diagnostics == []


def test_missing_environment_is_said_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VISION_PYTHON_VARIABLE, str(tmp_path / "no-such-python"))
    records = fixture_entries(ENVIRONMENT_MISSING)
    result = run_verify(records, workers=1, timeout=TIMEOUT)
    assert [(d.code, d.path) for d in result.diagnostics] == [(ENVIRONMENT_MISSING, "<verify>")]
    assert "make .venv-vision/.installed" in result.diagnostics[0].message


def test_command_exit_code_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(fixture_entries("AM802")[0].read_bytes())
    assert main(["verify", "--update", str(bad)]) == 1
    captured = capsys.readouterr()
    assert f"{bad}:6:19: AM802 " in captured.out
    assert "derived calls" in captured.err


def test_usage_errors_exit_two(tmp_path: Path) -> None:
    assert main(["verify", str(tmp_path / "missing")]) == 2
    assert main(["verify", "--timeout", "0", str(tmp_path)]) == 2


def test_versions_other_than_the_pins_are_refused() -> None:
    torch = environments()["torch"]
    check_versions(torch, {"torch": "2.13.0"})
    with pytest.raises(EnvironmentMismatch, match=r"torch 2\.12\.0"):
        check_versions(torch, {"torch": "2.12.0"})


def test_the_time_of_each_record_is_measured(verified: VerifyResult) -> None:
    """Every record that ran has the seconds its jobs took; the slowest are named."""
    assert len(verified.worker_seconds) == verified.records
    assert all(seconds > 0 for seconds in verified.worker_seconds.values())
    slowest = verified.slowest()
    assert len(slowest) == 5
    assert [seconds for _, seconds in slowest] == sorted(
        (seconds for _, seconds in slowest), reverse=True
    )
    assert slowest[0][1] == max(verified.worker_seconds.values())
    assert verified.figures()["slowest"] == [[path, round(s, 1)] for path, s in slowest]


def test_the_slowest_records_tie_by_path() -> None:
    result = VerifyResult(worker_seconds={"b.yaml": 2.0, "a.yaml": 2.0, "c.yaml": 3.0})
    assert result.slowest(2) == [("c.yaml", 3.0), ("a.yaml", 2.0)]
