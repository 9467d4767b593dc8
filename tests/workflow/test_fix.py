"""``apimap check --fix`` changes exactly the mechanical problems, and nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from workflow_helpers import write

from apimap.cli import main
from apimap.fix import fix_text, full_width, summary_ending, with_full_stop, without_lookalikes

HEAD = """\
torch_api: torch.dist
torch_signature: torch.dist(input, other, p=2)
torch_url: https://docs.pytorch.org/docs/stable/generated/torch.dist.html
paddle_api: paddle.dist
paddle_signature: paddle.dist(x, y, p=2, name=None)
paddle_url: https://www.paddlepaddle.org.cn/documentation/docs/zh/api/paddle/dist_cn.html
category: names_differ
"""

BROKEN = (
    HEAD
    + """\
params:
  - torch: input
    paddle: x
    kind: rename
    desc: 输入的 Tensor。  # AM240
  - torch: other
    paddle: y
    kind: rename
    desc: 另\u2f00个输入的 Tensor
  - torch: p
    paddle: p
    kind: same
    desc: 范数的阶,即 p
notes:
  - text: 两者结果相同
  - text: 结果是否相同?
  - text: 设置 <b>p</b> 时结果相同。
summary: 两者功能一致,具体如下：
"""
)

FIXED = (
    HEAD
    + """\
summary: 两者功能一致，具体如下：
params:
  - torch: input
    paddle: x
    kind: rename
    desc: 输入的 Tensor  # AM240
  - torch: other
    paddle: y
    kind: rename
    desc: 另一个输入的 Tensor
  - torch: p
    paddle: p
    kind: same
    desc: 范数的阶，即 p
notes:
  - text: 两者结果相同。
  - text: 结果是否相同？
  - text: 设置 <b>p</b> 时结果相同。
"""
)


def test_fix_text_changes_exactly_the_fixable_problems() -> None:
    fixed = fix_text(BROKEN, None)
    assert fixed is not None
    assert fixed.text == FIXED
    assert sorted(fixed.codes) == ["AM240", "AM241", "AM243", "AM244", "AM244", "AM244", "AM301"]


def test_check_fix_leaves_only_what_needs_a_person(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    record = write(tmp_path, "mappings/torch/torch.dist.yaml", BROKEN)
    options = ["--no-cache", "--format", "json", "--ignore", "AM7"]  # AM7xx: verification stamps
    assert main(["check", *options]) == 1
    before = {d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]}
    assert before == {"AM240", "AM241", "AM242", "AM243", "AM244", "AM301"}

    assert main(["check", "--fix", *options]) == 1
    captured = capsys.readouterr()
    after = [(d["code"], d["line"]) for d in json.loads(captured.out)["diagnostics"]]
    assert after == [("AM241", 24), ("AM242", 25)]  # 结果是否相同？ and <b>: for a person
    assert "已修复 (fixed) mappings/torch/torch.dist.yaml: " in captured.err
    assert record.read_text(encoding="utf-8") == FIXED

    assert main(["check", "--fix", *options]) == 1
    assert "已修复" not in capsys.readouterr().err  # nothing left to fix
    assert record.read_text(encoding="utf-8") == FIXED


def test_fix_keeps_files_that_do_not_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    broken = write(tmp_path, "mappings/torch/torch.x.yaml", "torch_api: [x\n")
    assert main(["check", "--fix", "--no-cache"]) == 1
    assert broken.read_text(encoding="utf-8") == "torch_api: [x\n"


def test_invalid_record_only_gets_the_canonical_form() -> None:
    text = "category: identical\ntorch_api: torch.x\nunknown: 值。\nnotes:\n  - text: 没有句号\n"
    fixed = fix_text(text, None)
    assert fixed is not None
    assert fixed.codes == ["AM301"]
    assert fixed.text == (
        "torch_api: torch.x\ncategory: identical\nnotes:\n  - text: 没有句号\nunknown: 值。\n"
    )


def test_fixed_text_needs_no_further_fix() -> None:
    assert fix_text(FIXED, None) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("两者结果相同", "两者结果相同。"),
        ("两者结果相同.", "两者结果相同。"),
        ("两者结果相同，", "两者结果相同。"),
        ("两者结果相同；  ", "两者结果相同。"),
        ("两者结果相同。", "两者结果相同。"),
        ("是否相同？", "是否相同？"),
        ("如下：", "如下："),
        ("见 `paddle.abs`", "见 `paddle.abs`。"),
    ],
)
def test_sentence_ending(text: str, expected: str) -> None:
    assert with_full_stop(text) == expected


def test_summary_may_end_with_a_colon() -> None:
    assert summary_ending("具体如下：") == "具体如下："
    assert summary_ending("两者功能一致") == "两者功能一致。"


def test_full_width_only_next_to_chinese() -> None:
    assert full_width("取值为 a,b,即 c:d") == "取值为 a,b，即 c:d"
    assert full_width("如下:") == "如下："


def test_lookalikes_become_ordinary_characters() -> None:
    assert without_lookalikes("\u2f00个\u00a0Tensor\u200b，ｄｉｍ＝１") == "一个 Tensor，dim＝1"
