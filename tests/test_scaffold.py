"""``apimap new``: drafts written from the installed libraries."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from apimap import loader
from apimap.check import check_source
from apimap.cli import main
from apimap.paths import record_path
from apimap.rules.registry import RECORD_RULES
from apimap.validate import validate


def _new(tmp_path: Path, *args: str) -> int:
    return main(["new", *args, "--mappings", str(tmp_path / "mappings")])


def _draft(tmp_path: Path, api: str) -> tuple[str, dict[str, object]]:
    relpath = record_path(api)
    text = (tmp_path / "mappings" / relpath).read_text(encoding="utf-8")
    doc, problems = loader.parse(text)
    assert doc is not None, problems
    record, findings = validate(doc)
    assert record is not None and not findings
    return text, doc.data


def _codes(tmp_path: Path, api: str) -> set[str]:
    relpath = record_path(api)
    raw = (tmp_path / "mappings" / relpath).read_bytes()
    result = check_source(f"mappings/{relpath}", raw, RECORD_RULES, PurePosixPath(relpath))
    return {d.code for d in result.diagnostics}


def _rows(data: dict[str, object]) -> list[tuple[object, ...]]:
    params = data["params"]
    assert isinstance(params, list)
    return [(r.get("torch"), r.get("paddle"), r["kind"]) for r in params]


def test_python_signature(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _new(tmp_path, "torch.nn.BatchNorm1d") == 0
    text, data = _draft(tmp_path, "torch.nn.BatchNorm1d")
    assert text.startswith("# yaml-language-server: $schema=../../../schema/mapping.schema.json\n")
    assert data["torch_signature"] == (
        "torch.nn.BatchNorm1d(num_features, eps=1e-05, momentum=0.1, affine=True, "
        "track_running_stats=True, device=None, dtype=None, *, bias=True)"
    )
    assert data["paddle_api"] == "paddle.nn.BatchNorm1D"
    rows = _rows(data)
    assert rows[:4] == [
        ("num_features", "num_features", "same"),
        ("eps", "epsilon", "rename"),
        ("momentum", "momentum", "default_diff"),
        ("affine", None, "torch_only"),
    ]
    assert (None, "weight_attr", "paddle_only") in rows
    assert data["category"] == "torch_more"
    assert {"AM702", "AM216"} <= _codes(tmp_path, "torch.nn.BatchNorm1d")
    out = capsys.readouterr().out
    assert "paddle.nn.BatchNorm1D" in out and "desc" in out


def test_builtin_signature_from_stubs_with_aliases(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.sum") == 0
    _, data = _draft(tmp_path, "torch.sum")
    overloads = data["torch_signature"]
    assert isinstance(overloads, list)
    assert "torch.sum(input, *, dtype=None)" in overloads
    assert data["paddle_param_aliases"] == {"input": "x", "dim": "axis"}
    assert _rows(data) == [
        ("input", "input", "same"),
        ("dim", "dim", "same"),
        ("keepdim", "keepdim", "same"),
        ("dtype", "dtype", "same"),
        ("out", "out", "same"),
    ]
    assert data["category"] == "identical"


def test_paddle_aliases_make_an_identical_mapping(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.abs") == 0
    _, data = _draft(tmp_path, "torch.abs")
    assert data["torch_signature"] == "torch.abs(input, *, out=None)"
    assert data["paddle_param_aliases"] == {"input": "x"}
    assert data["category"] == "identical"
    assert _rows(data) == [("input", "input", "same"), ("out", "out", "same")]
    # Only the TODO markers (and the missing verification stamp of a fresh draft) remain.
    assert _codes(tmp_path, "torch.abs") == {"AM701", "AM702"}


def test_named_paddle_api_pairs_required_parameters_by_position(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.lerp", "--paddle", "paddle.lerp") == 0
    _, data = _draft(tmp_path, "torch.lerp")
    assert _rows(data) == [
        ("input", "x", "rename"),
        ("end", "y", "rename"),
        ("weight", "weight", "same"),
        ("out", None, "torch_only"),
    ]
    assert data["examples"] == [{"param": "out", "cases": [{"torch": "TODO", "paddle": "TODO"}]}]


def test_no_paddle_counterpart_drafts_a_missing_feature(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.nn.utils.rnn.pack_padded_sequence") == 0
    _, data = _draft(tmp_path, "torch.nn.utils.rnn.pack_padded_sequence")
    assert data["category"] == "missing"
    assert data["reason"] == "TODO"


def test_nonexistent_api_exits_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _new(tmp_path, "torch.no_such_api") == 2
    err = capsys.readouterr().err
    assert "torch.no_such_api" in err and "Traceback" not in err
    assert not (tmp_path / "mappings").exists()
    assert _new(tmp_path, "torch.abs", "--paddle", "paddle.no_such_api") == 2


def test_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "mappings" / record_path("torch.abs")
    target.parent.mkdir(parents=True)
    target.write_text("kept\n", encoding="utf-8")
    assert _new(tmp_path, "torch.abs") == 2
    assert target.read_text(encoding="utf-8") == "kept\n"
    assert "已存在" in capsys.readouterr().err
