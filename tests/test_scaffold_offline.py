"""``apimap new`` without torch or paddle: a draft from the public-surface table and the paddle
signatures of the records whose stamps are current."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from apimap.cli import main
from rule_fixtures import copy_clean_record, restamp

ABSOLUTE_RECORD = "mappings/torch/torch.absolute.yaml"


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Records of an installation without the libraries: the clean ``torch.abs`` record moved
    to ``torch.absolute`` (it maps to ``paddle.abs``) with its stamp made current again."""
    import apimap.verify.sides

    def unavailable(side: str) -> None:
        raise ImportError(f"No module named {side!r}")

    monkeypatch.setattr(apimap.verify.sides, "load", unavailable)
    record = copy_clean_record(tmp_path)
    moved = tmp_path / ABSOLUTE_RECORD
    moved.write_text(
        record.read_text(encoding="utf-8").replace("torch.abs", "torch.absolute"),
        encoding="utf-8",
    )
    record.unlink()
    stamps = tmp_path / "stamps" / "torch"
    shutil.move(stamps / "torch.abs.json", stamps / "torch.absolute.json")
    restamp(moved)
    return tmp_path


def _new(root: Path, *args: str) -> int:
    return main(["new", *args, "--mappings", str(root / "mappings")])


def _text(root: Path, relative: str) -> str:
    return (root / "mappings" / relative).read_text(encoding="utf-8")


def test_a_function_gets_the_paddle_signature_a_verified_record_states(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _new(corpus, "torch.abs") == 0  # paddle.abs guessed: a verified record maps to it
    assert _text(corpus, "torch/torch.abs.yaml") == (
        "# yaml-language-server: $schema=../../schema/mapping.schema.json\n"
        "torch_api: torch.abs\n"
        "zh_name: TODO\n"
        "torch_signature: torch.abs(TODO)\n"
        "paddle_api: paddle.abs\n"
        "paddle_signature: paddle.abs(x, name=None, *, out=None)\n"
    )
    out = capsys.readouterr().out
    assert "草稿来自公开 API 表与已验证记录中的 Paddle 签名" in out
    assert "按名称推测为 `paddle.abs`" in out
    assert "照 PyTorch 文档写出" in out and "照 Paddle 文档写出" not in out
    assert out.endswith(
        "然后提交 Pull Request，由 CI 验证并给出验证标记 (then open a pull request: CI verifies it)\n"
    )


def test_a_method_mapped_to_a_function_names_the_receiving_parameter(corpus: Path) -> None:
    assert _new(corpus, "torch.Tensor.abs", "--paddle", "paddle.abs") == 0
    text = _text(corpus, "torch/tensor/torch.^Tensor.abs.yaml")
    assert "api_type: method\n" in text
    assert "paddle_signature: paddle.abs(x, name=None, *, out=None)\nself_param: x\n" in text


def test_a_stale_stamp_is_no_source_of_a_signature(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = corpus / ABSOLUTE_RECORD
    record.write_text(
        record.read_text(encoding="utf-8").replace("randn(3)", "randn(4)"), encoding="utf-8"
    )
    assert _new(corpus, "torch.abs") == 2
    assert "请用 --paddle 指定" in capsys.readouterr().err
    assert not (corpus / "mappings/torch/torch.abs.yaml").exists()
    assert _new(corpus, "torch.abs", "--paddle", "paddle.abs") == 0
    assert "paddle_signature: paddle.abs(TODO)\n" in _text(corpus, "torch/torch.abs.yaml")
    assert "已验证的记录中没有 `paddle.abs`，照 Paddle 文档写出" in capsys.readouterr().out


def test_a_constant_is_drafted_all_but_its_chinese_name(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _new(corpus, "torch.pi", "--paddle", "paddle.pi") == 0
    assert _text(corpus, "torch/torch.pi.yaml") == (
        "# yaml-language-server: $schema=../../schema/mapping.schema.json\n"
        "torch_api: torch.pi\n"
        "api_type: constant\n"
        "zh_name: TODO\n"
        "paddle_api: paddle.pi\n"
        "category: no_params\n"
        "calls:\n"
        "  - torch: result = torch.pi\n"
    )
    draft = str(corpus / "mappings/torch/torch.pi.yaml")
    capsys.readouterr()
    assert (
        main(["check", "--no-cache", "--pending-stamps", "notice", "--format", "json", draft]) == 1
    )
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["line"], d["severity"]) for d in found] == [
        ("AM701", 2, "notice"),  # pending: CI's verify job stamps it
        ("AM702", 4, "error"),  # zh_name: the one thing left for a person
    ]


def test_what_the_data_cannot_tell_exits_two_without_a_file(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _new(corpus, "torch.no_such_api") == 2
    assert "公开 API 表中没有 `torch.no_such_api`" in capsys.readouterr().err
    assert _new(corpus, "torch.nn.Conv2d") == 2  # no verified record maps to paddle.nn.Conv2D
    assert "(no verified record maps to a paddle API named like it: give --paddle)" in (
        capsys.readouterr().err
    )
    assert _new(corpus, "torch.abs", "--paddle", "paddle abs") == 2
    assert "不是合法的 API 名称" in capsys.readouterr().err
    assert sorted(p.name for p in (corpus / "mappings").rglob("*.yaml")) == ["torch.absolute.yaml"]


def test_a_module_variable_is_drafted_as_a_constant(corpus: Path) -> None:
    # the surface table calls torch.backends.cudnn.benchmark an attribute; it is a module's
    # value, which verify reads as a constant (an attribute belongs to a class)
    assert _new(corpus, "torch.backends.cudnn.benchmark", "--paddle", "paddle.pi") == 0
    text = _text(corpus, "torch/backends/cudnn/torch.backends.cudnn.benchmark.yaml")
    assert "api_type: constant\n" in text
