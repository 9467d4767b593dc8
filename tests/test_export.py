"""``apimap export``: content per API, indexes, schema, determinism."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from apimap.checking.corpus import Entry, load_entries
from apimap.cli import main
from apimap.files.stamps import Proven, Stamp
from apimap.publish.export import (
    EXPORT_SCHEMA_PATH,
    export_document,
    export_schema_text,
    export_text,
)
from apimap.record.model import ParamRow, Record

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "site" / "corpus" / "mappings"

SOFTMAX = Record.model_validate(
    {
        "torch_api": "torch.nn.functional.softmax",
        "zh_name": "Softmax 函数",
        "torch_signature": "torch.nn.functional.softmax(input, dim=None, _stacklevel=3, dtype=None)",
        "paddle_api": "paddle.nn.functional.softmax",
        "paddle_signature": "paddle.nn.functional.softmax(x, axis=-1, dtype=None, name=None)",
        "category": "input_usage_diff",
        "section": "组网类",
        "params": [
            {"torch": "input", "paddle": "x", "desc": "输入"},
            {"torch": "dim", "paddle": "axis", "kind": "default_diff", "desc": "维度"},
            {"torch": "_stacklevel", "kind": "torch_only", "desc": "警告层级", "action": "delete"},
            {
                "torch": "dtype",
                "kind": "usage_diff",
                "desc": "类型",
                "diff": "不同",
                "convert": "value",
                "action": "rewrite",
            },
            {"paddle": "out", "kind": "paddle_only", "desc": "输出", "setting": "Paddle 不设置"},
        ],
        "torch_aliases": ["torch.special.softmax"],
    }
)
STAMP = Stamp(
    record="0" * 32,
    verifier=1,
    versions={"paddle": "3.3.1", "torch": "2.13.0"},
    date="2026-11-23",
    proven=Proven(signatures={"torch": "read", "paddle": "read"}, calls=1, probes=12),
)
SVD = Record.model_validate(
    {
        "torch_api": "torch.linalg.svd",
        "zh_name": "奇异值分解",
        "torch_signature": "torch.linalg.svd(A, full_matrices=True)",
        "paddle_api": "paddle.linalg.svd",
        "paddle_signature": "paddle.linalg.svd(x, full_matrices=False, name=None)",
        "category": "defaults_differ",
        "params": [
            {"torch": "A", "paddle": "x", "desc": "输入"},
            {"torch": "full_matrices", "kind": "default_diff", "desc": "是否完整"},
        ],
    }
)
ALIAS_TARGET = Record.model_validate(
    {
        "torch_api": "torch.linalg.svd_other",
        "zh_name": "奇异值分解",
        "paddle_api": "paddle.linalg.svd",
        "category": "identical",
        "torch_aliases": ["torch.svd_alias"],
        "inplace": {"torch": "torch.linalg.svd_other_", "paddle": "paddle.linalg.svd_"},
    }
)
MISSING = Record.model_validate(
    {
        "torch_api": "torch.missing_op",
        "zh_name": "缺失的算子",
        "category": "missing",
        "missing": {"reason": "needs_kernels", "detail": "Paddle 没有。", "instead": "自己实现。"},
    }
)


def entry(record: Record, stamp: Stamp | None = None) -> Entry:
    raw = None if stamp is None else stamp.to_json().encode("utf-8")
    return Entry(record, f"{record.torch_api}.yaml", "key", stamp_bytes=raw)


def test_an_api_entry_holds_what_a_converter_needs() -> None:
    document = export_document([entry(SOFTMAX, STAMP)])
    exported = document.apis["torch.nn.functional.softmax"].model_dump(mode="json")
    assert exported == {
        "api_type": "function",
        "zh_name": "Softmax 函数",
        "paddle_api": "paddle.nn.functional.softmax",
        "paddle_package": None,
        "category": {"id": "input_usage_diff", "label": "输入参数用法不一致", "group": 3},
        "section": "组网类",
        "torch_signatures": [
            "torch.nn.functional.softmax(input, dim=None, _stacklevel=3, dtype=None)"
        ],
        "paddle_signatures": ["paddle.nn.functional.softmax(x, axis=-1, dtype=None, name=None)"],
        "renames": {"input": ["x"], "dim": ["axis"]},
        "torch_only": [{"param": "_stacklevel", "action": "delete", "conditional": []}],
        "paddle_only": [{"param": "out", "setting": "Paddle 不设置", "value": None}],
        "inject_defaults": {"axis": "None"},
        "default_settings": [],
        "differences": [
            {
                "torch": ["dtype"],
                "paddle": ["dtype"],
                "kind": "usage_diff",
                "action": "rewrite",
                "conditional": [],
                "diff": "不同",
                "convert": "value",
            }
        ],
        "paddle_accepts": {},
        "self_param": None,
        "aliases": ["torch.special.softmax"],
        "inplace": None,
        "missing": None,
        "verified": {
            "versions": {"paddle": "3.3.1", "torch": "2.13.0"},
            "complete": True,
            "unproven": [],
            "date": "2026-11-23",
            "paddle_releases": {},  # a stamp without the release matrix measured none
        },
    }


def test_a_conditional_action_is_exported_per_condition() -> None:
    row = {
        "torch": "non_blocking",
        "kind": "torch_only",
        "desc": "是否异步拷贝",
        "actions": [
            {"when": "源与目标设备相同", "action": "delete"},
            {"when": "设备不同", "action": "none"},
        ],
    }
    record = SVD.model_copy(update={"params": [*SVD.params, ParamRow.model_validate(row)]})
    exported = export_document([entry(record)]).apis["torch.linalg.svd"]
    assert [p.model_dump(mode="json") for p in exported.torch_only] == [
        {
            "param": "non_blocking",
            "action": None,
            "conditional": [
                {"when": "源与目标设备相同", "action": "delete"},
                {"when": "设备不同", "action": "none"},
            ],
        }
    ]


def test_defaults_to_inject_come_from_the_torch_signature() -> None:
    exported = export_document([entry(SVD)]).apis["torch.linalg.svd"]
    assert exported.inject_defaults == {"full_matrices": "True"}
    assert exported.verified is None
    with_setting = SVD.model_copy(
        update={
            "params": [
                SVD.params[0],
                SVD.params[1].model_copy(update={"setting": "Paddle 按需设置"}),
            ]
        }
    )
    exported = export_document([entry(with_setting)]).apis["torch.linalg.svd"]
    assert exported.inject_defaults == {}
    assert [s.model_dump() for s in exported.default_settings] == [
        {"torch": "full_matrices", "paddle": "full_matrices", "setting": "Paddle 按需设置"}
    ]


def test_alias_and_reverse_indexes() -> None:
    document = export_document([entry(r) for r in (SVD, ALIAS_TARGET, MISSING, SOFTMAX)])
    assert document.aliases == {
        "torch.special.softmax": "torch.nn.functional.softmax",
        "torch.svd_alias": "torch.linalg.svd_other",
    }
    assert document.reverse == {
        "paddle.linalg.svd": ["torch.linalg.svd", "torch.linalg.svd_other", "torch.svd_alias"],
        "paddle.linalg.svd_": ["torch.linalg.svd_other_"],
        "paddle.nn.functional.softmax": ["torch.nn.functional.softmax", "torch.special.softmax"],
    }
    missing = document.apis["torch.missing_op"]
    assert missing.paddle_api is None
    assert missing.missing is not None
    assert (missing.missing.reason, missing.missing.instead) == ("needs_kernels", "自己实现。")
    assert list(document.apis) == sorted(document.apis)


def test_export_of_the_test_corpus_follows_its_json_schema() -> None:
    document = json.loads(export_text(load_entries(CORPUS)))
    schema = json.loads(export_schema_text())
    Draft202012Validator.check_schema(schema)
    assert sorted(str(e.message) for e in Draft202012Validator(schema).iter_errors(document)) == []
    assert document["schema_version"] == "3.0"
    broken = dict(document, schema_version="1.0")
    assert list(Draft202012Validator(schema).iter_errors(broken))


def test_committed_export_schema_is_current() -> None:
    assert (ROOT / EXPORT_SCHEMA_PATH).read_text(encoding="utf-8") == export_schema_text()


def test_export_does_not_depend_on_record_order() -> None:
    records = load_entries(CORPUS)
    shuffled = records[:]
    random.Random(7).shuffle(shuffled)
    assert shuffled != records
    assert export_text(shuffled) == export_text(records)


def test_cli_writes_the_same_bytes_twice(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["export", "--mappings", str(CORPUS), "--output", str(first)]) == 0
    assert main(["export", "--mappings", str(CORPUS), "--output", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert first.read_text(encoding="utf-8") == export_text(load_entries(CORPUS))


def test_cli_refuses_broken_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mappings = tmp_path / "mappings"
    shutil.copytree(CORPUS, mappings)
    (mappings / "torch" / "torch.abs.yaml").write_text("torch_api: [\n", encoding="utf-8")
    target = tmp_path / "export.json"
    assert main(["export", "--mappings", str(mappings), "--output", str(target)]) == 1
    assert not target.exists()
    assert "torch.abs.yaml" in capsys.readouterr().err


def test_cli_writes_the_schema(tmp_path: Path) -> None:
    target = tmp_path / "schema.json"
    assert main(["export", "--schema", "--output", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == export_schema_text()
