"""The precision harness's join and scoring logic (bench/precision/score.py), on small inputs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "precision"))
from score import (
    Diagnostic,
    Judgement,
    Known,
    field_path,
    format_score,
    load_judged,
    place,
    score,
)

RECORD = """\
torch_api: torch.demo
category: torch_more
params:
  - torch: a
    desc: first
  - torch: b
    kind: torch_only
    desc: second
  - paddle: c
    kind: paddle_only
examples:
  - param: b
    cases:
      - torch: |
          y = f(b=1)
        paddle: |
          y = g()
imported:
  source: /pages/demo.md
  findings:
    - line: 12
      code: IM202
      text: row text
"""


def test_field_path_names_rows_by_parameter_and_findings_by_code_and_line() -> None:
    assert field_path(RECORD, 1) == "torch_api"
    assert field_path(RECORD, 2) == "category"
    assert field_path(RECORD, 3) == "params"
    assert field_path(RECORD, 5) == "params[a].desc"
    assert field_path(RECORD, 7) == "params[b].kind"
    assert field_path(RECORD, 10) == "params[-/c].kind"
    assert field_path(RECORD, 14) == "examples[0].cases[0].torch"
    assert field_path(RECORD, 16) == "examples[0].cases[0].paddle"
    assert field_path(RECORD, 21) == "imported.findings[IM202@L12].line"
    assert field_path(RECORD, 22) == "imported.findings[IM202@L12].code"
    assert field_path("not: [valid", 1) == "."


def _raw(code: str, line: int, message: str = "m") -> dict[str, object]:
    return {
        "path": "m/demo.yaml",
        "line": line,
        "code": code,
        "api": "torch.demo",
        "message": message,
    }


def _place(raw: list[dict[str, object]], text: str = RECORD) -> list[Diagnostic]:
    return place(raw, {"m/demo.yaml": text}, {"m/demo.yaml": "ns/demo.md"})


def test_keys_survive_a_line_shift_and_repeats_get_ordinals() -> None:
    before = _place([_raw("AM216", 7), _raw("AM244", 5), _raw("AM244", 5), _raw("AM701", 1)])
    shifted = "# a comment line\n" + RECORD
    after = _place([_raw("AM216", 8), _raw("AM244", 6), _raw("AM244", 6)], shifted)
    assert (
        [d.key for d in before]
        == [d.key for d in after]
        == [
            ("ns/demo.md", "AM216", "torch.demo:params[b].kind"),
            ("ns/demo.md", "AM244", "torch.demo:params[a].desc"),
            ("ns/demo.md", "AM244", "torch.demo:params[a].desc#2"),
        ]
    )


def test_importer_findings_carry_their_code() -> None:
    [diag] = _place([_raw("AM704", 21)])
    assert diag.code == "AM704/IM202"
    assert diag.anchor == "torch.demo:imported.findings[IM202@L12].line"


def test_score_counts_verdicts_pages_unjudged_stale_and_recall() -> None:
    diags = _place([_raw("AM216", 7), _raw("AM244", 5), _raw("AM704", 21), _raw("AM237", 16)])
    judged = {
        ("ns/demo.md", "AM216", "torch.demo:params[b].kind"): Judgement("true", "T-x", "r"),
        ("ns/demo.md", "AM244", "torch.demo:params[a].desc"): Judgement("false", "F-y", "r"),
        ("ns/demo.md", "AM704/IM202", "torch.demo:imported.findings[IM202@L12].line"): Judgement(
            "artifact", "A-z", "r"
        ),
        ("ns/demo.md", "AM999", "torch.demo:gone"): Judgement("true", "T-x", "r"),
        ("other.md", "AM999", "x:y"): Judgement("true", "T-x", "r"),
    }
    known = [
        Known("ns/demo.md", 7, ("AM216",), "params[b]", "found by a true diagnostic"),
        Known("ns/demo.md", 5, ("AM244",), "params[a]", "only a false diagnostic there"),
        Known("ns/demo.md", 12, ("IM202",), "*", "only an artifact there"),
        Known("ns/demo.md", 16, ("AM237",), "examples", "unjudged diagnostic counts"),
        Known("ns/demo.md", 1, ("NEW:thing",), "*", "no rule yet"),
    ]
    result = score(diags, judged, ["ns/demo.md", "clean.md"], known)
    assert result.total() == {"true": 1, "false": 1, "artifact": 1, "unjudged": 1}
    assert result.pages_flagged == 1 and result.pages_all_true == 0
    assert result.pages_with_unjudged == 1
    assert [d.code for d in result.unjudged] == ["AM237"]
    assert result.stale == [("ns/demo.md", "AM999", "torch.demo:gone")]
    assert [k.what for k in result.known_found] == [
        "found by a true diagnostic",
        "unjudged diagnostic counts",
    ]
    report = format_score(result, sample_size=2)
    assert "recall of known violations: 2/5" in report
    assert report == format_score(
        score(diags, judged, ["clean.md", "ns/demo.md"], known), sample_size=2
    )


def test_a_page_with_only_true_diagnostics_counts() -> None:
    diags = _place([_raw("AM216", 7)])
    judged = {("ns/demo.md", "AM216", "torch.demo:params[b].kind"): Judgement("true", "T", "r")}
    result = score(diags, judged, ["ns/demo.md"], [])
    assert (result.pages_flagged, result.pages_all_true) == (1, 1)


def test_judged_list_rejects_bad_verdicts_and_duplicates(tmp_path: Path) -> None:
    header = "page\tcode\tanchor\tverdict\tclass\treason\n"
    good = tmp_path / "good.tsv"
    good.write_text("# comment\n" + header + "p.md\tAM1\ta:b\ttrue\tT\twhy\n", encoding="utf-8")
    assert load_judged(good) == {("p.md", "AM1", "a:b"): Judgement("true", "T", "why")}
    bad = tmp_path / "bad.tsv"
    bad.write_text(header + "p.md\tAM1\ta:b\tmaybe\tT\twhy\n", encoding="utf-8")
    with pytest.raises(ValueError, match="verdict"):
        load_judged(bad)
    twice = tmp_path / "twice.tsv"
    twice.write_text(header + "p.md\tAM1\ta:b\ttrue\tT\tx\n" * 2, encoding="utf-8")
    with pytest.raises(ValueError, match="twice"):
        load_judged(twice)
