"""``apimap new``: drafts written from the installed libraries."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from apimap.checking.rules.registry import RECORD_RULES
from apimap.checking.runner import check_source
from apimap.cli import main
from apimap.files import loader
from apimap.files.validate import validate
from apimap.record import derived
from apimap.record.model import Record
from apimap.record.paths import record_path


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
    """(torch, paddle, kind) of every row, with the derived values filled in."""
    record = Record.model_validate(data)
    return [
        (row.torch, (derived.paddle_names(row) or [None])[0], str(derived.row_kind(row)))
        for row in record.params
    ]


def _category(data: dict[str, object]) -> str:
    return str(derived.category(Record.model_validate(data)))


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
    assert data["api_type"] == "class" and data["zh_name"] == "TODO"
    assert data["category"] == _category(data) == "torch_more"
    assert data["calls"] == [
        {
            "torch": "layer = torch.nn.BatchNorm1d(num_features=TODO)\nresult = layer(x)",
            "inputs": {"x": "TODO"},
        }
    ]
    assert "torch_url" not in data and "paddle_url" not in data  # derived from the names
    assert {"AM702", "AM216"} <= _codes(tmp_path, "torch.nn.BatchNorm1d")
    out = capsys.readouterr().out
    assert "paddle.nn.BatchNorm1D" in out and "desc" in out


def test_builtin_signature_from_stubs_with_aliases(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.sum") == 0
    _, data = _draft(tmp_path, "torch.sum")
    overloads = data["torch_signature"]
    assert isinstance(overloads, list)
    assert "torch.sum(input, *, dtype=None)" in overloads
    assert data["paddle_accepts"] == {"input": "x", "dim": "axis"}
    assert _rows(data) == [
        ("input", "input", "same"),
        ("dim", "dim", "same"),
        ("keepdim", "keepdim", "same"),
        ("dtype", "dtype", "same"),
        ("out", "out", "same"),
    ]
    assert _category(data) == "identical"


def test_paddle_aliases_make_an_identical_mapping(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.abs") == 0
    _, data = _draft(tmp_path, "torch.abs")
    assert data["torch_signature"] == "torch.abs(input, *, out=None)"
    assert data["torch_aliases"] == ["torch.absolute"]  # from the public-surface table
    assert data["paddle_accepts"] == {"input": "x"}
    assert data["inplace"] == {"torch": "torch.abs_", "paddle": "paddle.abs_"}
    assert data["calls"] == [{"torch": "result = torch.abs(input)", "inputs": {"input": "TODO"}}]
    assert _category(data) == "identical"
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
    missing = data["missing"]
    assert isinstance(missing, dict) and "reason" not in missing  # a person picks the class
    assert missing["detail"] == "TODO" and missing["instead"] == "TODO"
    assert {"AM204", "AM702"} <= _codes(tmp_path, "torch.nn.utils.rnn.pack_padded_sequence")


def test_tensor_method_mapped_to_a_function_names_the_receiving_parameter(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.Tensor.lerp", "--paddle", "paddle.lerp") == 0
    _, data = _draft(tmp_path, "torch.Tensor.lerp")
    assert data["api_type"] == "method"
    assert data["self_param"] == "x"
    assert _rows(data)[0] == ("end", "y", "rename")
    calls = data["calls"]
    assert isinstance(calls, list) and calls[0]["torch"] == "result = x.lerp(end, weight)"


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


def test_values_get_no_signature_and_a_call_that_reads_them(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.float32") == 0
    _, data = _draft(tmp_path, "torch.float32")
    assert data["api_type"] == "constant" and data["paddle_api"] == "paddle.float32"
    assert "paddle_signature" not in data and "params" not in data
    assert data["calls"] == [{"torch": "result = torch.float32"}]
    assert _new(tmp_path, "torch.Tensor.shape") == 0
    _, data = _draft(tmp_path, "torch.Tensor.shape")
    assert data["api_type"] == "attribute"
    assert data["calls"] == [{"torch": "result = x.shape", "inputs": {"x": "TODO"}}]


def test_context_managers_get_a_with_block(tmp_path: Path) -> None:
    assert _new(tmp_path, "torch.autograd.no_grad") == 0
    _, data = _draft(tmp_path, "torch.autograd.no_grad")
    assert data["api_type"] == "context_manager"
    assert data["calls"] == [
        {"torch": "with torch.autograd.no_grad():\n    result = x * 2", "inputs": {"x": "TODO"}}
    ]
