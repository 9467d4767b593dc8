"""``apimap verify --matrix``: other paddle releases judged against the pinned one."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from apimap.checking.rules.catalog.am810_example_raises import RULE as RAISES
from apimap.checking.rules.catalog.am815_probe_difference import RULE as PROBE_DIFFERENCE
from apimap.files.stamps import NOT_RUN, ProbeOutcome, ProbeResult, parse_stamp, stamp_file
from apimap.record.model import Record
from apimap.record.pins import PADDLE_VERSION
from apimap.verify import run as run_module
from apimap.verify.environments import Environment
from apimap.verify.evaluate import Finding, Judgement, release_facts
from rule_fixtures import fixture_entries

PROBE = ProbeResult("dtype:float16", ("calls", 0), "float16", "float16", False)
RECORD = Record.model_validate(
    {
        "torch_api": "torch.abs",
        "zh_name": "绝对值",
        "torch_signature": "torch.abs(input, *, out=None)",
        "paddle_api": "paddle.abs",
        "paddle_signature": "paddle.abs(x, name=None)",
        "paddle_accepts": {"input": "x"},
        "params": [{"torch": "input", "desc": "输入"}],
    }
)


def test_a_release_that_behaves_the_same_holds() -> None:
    pinned = Judgement(behaviour=[PROBE], outcomes={"calls[0]": "ok"})
    other = Judgement(behaviour=[PROBE], outcomes={"calls[0]": "ok"})
    facts = release_facts(RECORD, other, pinned)
    assert facts.holds and facts.probes == {} and facts.runs == {"calls[0]": "ok"}


def test_new_errors_and_other_probe_results_make_a_release_differ() -> None:
    known = Finding(RAISES, ("examples", 0, "cases", 0, "paddle"), "known on every release")
    pinned = Judgement(findings=[known], behaviour=[PROBE])
    other = Judgement(
        findings=[
            known,
            Finding(RAISES, ("calls", 0, "torch"), "TypeError: abs() got an unexpected keyword"),
            Finding(PROBE_DIFFERENCE, ("calls", 0), "covered by the probe comparison"),
        ],
        behaviour=[ProbeResult("dtype:float16", ("calls", 0), "float16", "✗ RuntimeError", True)],
        outcomes={"calls[0]": "raises:TypeError", "calls[0]:portable": "ok"},
        paddle_facts={
            "exists": {"paddle.abs": True},
            "params": ["x", "name"],
            "accepts": {"input": False},
        },
    )
    facts = release_facts(RECORD, other, pinned)
    assert not facts.holds
    assert facts.api and facts.params == ["x", "name"] and facts.accepts == {"input": False}
    assert facts.runs == {"calls[0]": "raises:TypeError", "calls[0]:portable": "ok"}
    assert facts.probes == {"dtype:float16@calls[0]": ProbeOutcome("✗ RuntimeError", True)}


def test_a_probe_that_did_not_run_is_a_difference() -> None:
    facts = release_facts(RECORD, Judgement(), Judgement(behaviour=[PROBE]))
    assert not facts.holds
    assert facts.probes == {"dtype:float16@calls[0]": ProbeOutcome(NOT_RUN, True)}


def test_a_missing_api_is_a_fact_not_a_message() -> None:
    other = Judgement(paddle_facts={"exists": {"paddle.abs": False}})
    assert not release_facts(RECORD, other, Judgement()).api


def _release(version: str) -> Environment:
    """An "older release" that is the pinned paddle itself, so the test needs no download."""
    return Environment(
        f"paddle=={version}", sys.executable, "paddle", {"paddle": PADDLE_VERSION}, ""
    )


def test_matrix_stamps_each_release_and_a_plain_run_keeps_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = next(e for e in fixture_entries("AM811") if e.name.startswith("good"))
    record = tmp_path / "mappings" / "torch" / good.name
    record.parent.mkdir(parents=True)
    shutil.copy(good, record)
    monkeypatch.setattr(run_module, "older_releases", lambda: ["9.0.0"])
    monkeypatch.setattr(run_module, "create_release_environment", _release)
    result = run_module.run_verify([record.parent], workers=1, update=True, matrix=True)
    assert not result.diagnostics, result.diagnostics
    assert result.releases == ["9.0.0"] and result.differing == {"9.0.0": 0}
    figures = result.figures()  # what `apimap verify --format json` reports
    assert figures["records"] == 1 and figures["differing_by_release"] == {"9.0.0": 0}
    assert figures["differing_records"] == {}
    location = stamp_file(record)
    assert location is not None
    stamp = parse_stamp(location.read_bytes())
    assert stamp.releases["9.0.0"].holds and stamp.releases["9.0.0"].probes == {}
    assert set(stamp.releases) == {"9.0.0", PADDLE_VERSION}
    assert all(outcome == "ok" for outcome in stamp.releases[PADDLE_VERSION].runs.values())
    run_module.run_verify([record.parent], workers=1, update=True)  # no --matrix: kept
    assert parse_stamp(location.read_bytes()).releases == stamp.releases


def test_a_release_that_differs_is_said_why_in_one_line() -> None:
    # what `apimap verify --matrix` prints (and reports in JSON) for each record that does
    # not hold on an older release
    facts = release_facts(
        RECORD,
        Judgement(
            outcomes={"calls[0]": "raises:TypeError", "calls[0]:portable": "ok"},
            behaviour=[ProbeResult("dtype:float16", ("calls", 0), "float16", "✗ X", True)],
            paddle_facts={"exists": {"paddle.abs": True}, "accepts": {"input": False}},
        ),
        Judgement(behaviour=[PROBE]),
    )
    assert run_module.how_it_differs(facts) == (
        "不接受参数名 input (refuses the torch-style names)；calls[0] raises:TypeError；"
        "1 个探测的结果不同 (probes differ)"
    )
    missing = release_facts(
        RECORD, Judgement(paddle_facts={"exists": {"paddle.abs": False}}), Judgement()
    )
    assert run_module.how_it_differs(missing).startswith("没有该 API (API missing)")
