"""``apimap xcheck``: the records against a small PaConvert-style ``api_mapping.json``."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from apimap.cli import main
from apimap.contrib.xcheck import (
    MAPPING_MEMBER,
    Difference,
    Kind,
    RulesError,
    cross_check,
    read_rules,
)
from apimap.record.model import Record

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "site" / "corpus" / "mappings"

RECORDS = [
    Record.model_validate(data)
    for data in [
        {
            "torch_api": "torch.dist",
            "zh_name": "示例",
            "torch_signature": "torch.dist(input, other, p=2)",
            "paddle_api": "paddle.dist",
            "category": "names_differ",
            "params": [
                {"torch": "input", "paddle": "x", "kind": "rename", "desc": "输入"},
                {"torch": "other", "paddle": "y", "kind": "rename", "desc": "另一个输入"},
                {"torch": "p", "paddle": "p", "kind": "same", "desc": "阶数"},
            ],
        },
        {
            "torch_api": "torch.abs",
            "zh_name": "示例",
            "torch_signature": "torch.abs(input, *, out=None)",
            "paddle_api": "paddle.abs",
            "paddle_accepts": {"input": "x"},
            "category": "identical",
            "params": [
                {"torch": "input", "paddle": "x", "kind": "rename", "desc": "输入"},
                {"torch": "out", "paddle": "out", "kind": "same", "desc": "输出"},
            ],
            "torch_aliases": ["torch.absolute"],
        },
        {
            "torch_api": "torch.nn.Softmax",
            "zh_name": "示例",
            "torch_signature": "torch.nn.Softmax(dim=None)",
            "paddle_api": "paddle.nn.Softmax",
            "paddle_signature": "paddle.nn.Softmax(axis=-1, name=None)",
            "category": "defaults_differ",
            "params": [{"torch": "dim", "paddle": "axis", "kind": "default_diff", "desc": "维度"}],
        },
        {
            "torch_api": "torch.load",
            "zh_name": "示例",
            "torch_signature": "torch.load(f, map_location=None, *, mmap=None)",
            "paddle_api": "paddle.load",
            "category": "torch_more",
            "params": [
                {"torch": "f", "paddle": "path", "kind": "rename", "desc": "文件"},
                {"torch": "map_location", "kind": "torch_only", "desc": "位置", "action": "none"},
                {"torch": "mmap", "kind": "torch_only", "desc": "映射", "action": "delete"},
            ],
        },
        {
            "torch_api": "torch.only_ours",
            "zh_name": "示例",
            "paddle_api": "paddle.only_ours",
            "category": "identical",
        },
        {
            "torch_api": "torch.fmod",
            "zh_name": "示例",
            "category": "composite",
            "summary": "组合。",
        },
        {
            "torch_api": "torch.gone",
            "zh_name": "示例",
            "paddle_api": "paddle.gone",
            "category": "identical",
        },
    ]
]

RULES: dict[str, dict[str, Any]] = {
    "torch.dist": {
        "Matcher": "GenericMatcher",
        "paddle_api": "paddle.dist",
        "args_list": ["input", "other", "p"],
        "kwargs_change": {"input": "x", "other": "other_tensor"},
    },
    "torch.absolute": {"Matcher": "ChangePrefixMatcher"},
    "torch.abs": {"Matcher": "ChangePrefixMatcher"},
    "torch.nn.Softmax": {
        "Matcher": "SoftmaxMatcher",
        "paddle_api": "paddle.nn.Softmax",
        "args_list": ["dim"],
        "kwargs_change": {"dim": "axis"},
        "paddle_default_kwargs": {"axis": 0},
    },
    "torch.load": {
        "Matcher": "GenericMatcher",
        "paddle_api": "paddle.load",
        "args_list": ["f", "map_location", "pickle_module", "*", "weights_only", "mmap"],
        "kwargs_change": {"f": "path", "mmap": ""},
        "unsupport_args": ["mmap"],
    },
    "torch.fmod": {"Matcher": "FModMatcher", "paddle_api": "paddle.mod"},
    "torch.gone": {},
    "torch.only_theirs": {"Matcher": "ChangePrefixMatcher"},
    "transformers.AutoModel": {"Matcher": "GenericMatcher", "paddle_api": "paddlenlp.AutoModel"},
}


def test_every_kind_of_difference_is_found() -> None:
    assert cross_check(RECORDS, RULES) == [
        Difference(Kind.ONLY_OURS, "torch.only_ours", "`paddle.only_ours`", "-"),
        Difference(Kind.ONLY_THEIRS, "torch.only_theirs", "-", "`paddle.only_theirs`"),
        Difference(Kind.NO_RULE, "torch.gone", "`paddle.gone`", "无 Matcher (no matcher)"),
        Difference(Kind.TARGET, "torch.absolute", "`paddle.abs`", "`paddle.absolute`"),
        Difference(Kind.TARGET, "torch.fmod", "无 (none)", "`paddle.mod`"),
        Difference(Kind.RENAME, "torch.dist", "`other` → `y`", "`other` → `other_tensor`"),
        Difference(
            Kind.ARGS,
            "torch.load",
            "(f, map_location, mmap)",
            "(f, map_location, pickle_module, weights_only, mmap)",
        ),
        Difference(
            Kind.UNSUPPORTED, "torch.load", "`map_location` 暂无转写方式", "照常转换 (converted)"
        ),
        Difference(
            Kind.UNSUPPORTED, "torch.load", "`mmap` 可转换 (torch_only)", "不支持 (unsupported)"
        ),
        Difference(Kind.DEFAULT, "torch.nn.Softmax", "`axis=None`", "`axis=0`"),
    ]


def test_a_rename_paddle_accepts_under_the_torch_name_agrees() -> None:
    abs_record = RECORDS[1]
    assert not [d for d in cross_check([abs_record], RULES) if d.api == "torch.abs"]
    without_alias = abs_record.model_copy(update={"paddle_accepts": {}})
    assert [d for d in cross_check([without_alias], RULES) if d.api == "torch.abs"] == [
        Difference(Kind.RENAME, "torch.abs", "`input` → `x`", "`input` → `input`")
    ]


def _write_rules(folder: Path) -> Path:
    path = folder / "api_mapping.json"
    path.write_text(json.dumps(RULES), encoding="utf-8")
    return path


def test_rules_are_read_from_json_or_from_the_wheel(tmp_path: Path) -> None:
    path = _write_rules(tmp_path)
    wheel = tmp_path / "paconvert-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.write(path, MAPPING_MEMBER)
    assert read_rules(path) == RULES == read_rules(wheel)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "不是 JSON"),
        (b"[1, 2]", "应为 API"),
        (b"\xff\xfe", "不是 JSON"),
    ],
)
def test_unreadable_rules_are_reported(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "api_mapping.json"
    path.write_bytes(content)
    with pytest.raises(RulesError, match=message):
        read_rules(path)


def test_a_wheel_without_the_rules_is_reported(tmp_path: Path) -> None:
    wheel = tmp_path / "other.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("other/file.txt", "x")
    with pytest.raises(RulesError, match="压缩包中没有"):
        read_rules(wheel)


def test_cli_reports_and_fails_only_when_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write_rules(tmp_path)
    args = ["xcheck", "--paconvert", str(path), "--mappings", str(CORPUS)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "Paddle API 不同 (different paddle targets): 1" in text
    assert "  torch.addcmul: apimap 无 (none) / PaConvert `paddle.addcmul`" not in text
    assert main([*args, "--strict"]) == 1
    capsys.readouterr()
    assert main([*args, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["counts"]["target"] == 1
    assert report["differences"][0]["kind"] == "only_apimap"
    assert main(["xcheck", "--paconvert", str(tmp_path / "missing.json")]) == 2
