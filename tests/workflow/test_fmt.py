"""``apimap fmt``: the canonical form, comments, ``--check`` and atomic writes."""

from __future__ import annotations

import os
import random
from pathlib import Path, PurePosixPath

import pytest
import yaml
from workflow_helpers import CANONICAL_DIST, write

from apimap.checking.runner import refusal
from apimap.cli import main
from apimap.contrib import fmt
from apimap.files import canonical, loader
from apimap.files.atomic import write_atomically
from apimap.files.canonical import NotFormattable, format_text
from apimap.files.emit import inline_scalar, render
from apimap.files.problems import LoadProblemKind
from apimap.files.yamlcomments import Comments

ROOT = Path(__file__).resolve().parents[2]
DIST = PurePosixPath("torch/torch.dist.yaml")

SHUFFLED_WITH_COMMENTS = """\
# yaml-language-server: $schema=../schema/mapping.schema.json
# Reviewed against the 3.3.1 docs.

category: names_differ   # rows imply it
# The torch side comes first.
torch_api: torch.dist
zh_name: 两个张量之差的范数
paddle_api: "paddle.dist"
torch_signature: torch.dist(input, other, p=2)
params:
- kind: rename  # input is x in paddle
  torch: input
  desc: 输入的 Tensor
  paddle: x
# a flow row
- {torch: other, paddle: y, kind: rename, desc: 另一个输入的 Tensor}
examples:
  - cases:
      - paddle: >-
          y = paddle.dist(a, b)
        torch: |  # two lines
          y = torch.dist(a, b)
          z = y
    param: p
# kept at the end
"""

EXPECTED = """\
# yaml-language-server: $schema=../../schema/mapping.schema.json
# Reviewed against the 3.3.1 docs.
# The torch side comes first.
torch_api: torch.dist
zh_name: 两个张量之差的范数
torch_signature: torch.dist(input, other, p=2)
paddle_api: paddle.dist
category: names_differ  # rows imply it
params:
  - torch: input
    paddle: x
    kind: rename  # input is x in paddle
    desc: 输入的 Tensor
  # a flow row
  - torch: other
    paddle: y
    kind: rename
    desc: 另一个输入的 Tensor
examples:
  - param: p
    cases:
      - torch: |  # two lines
          y = torch.dist(a, b)
          z = y
        paddle: y = paddle.dist(a, b)
# kept at the end
"""


def test_key_order_comments_and_styles() -> None:
    assert format_text(SHUFFLED_WITH_COMMENTS, DIST) == EXPECTED


def test_canonical_form_is_idempotent() -> None:
    once = format_text(SHUFFLED_WITH_COMMENTS, DIST)
    assert format_text(once, DIST) == once
    assert format_text(CANONICAL_DIST, DIST) == CANONICAL_DIST


def test_every_committed_record_and_fixture_formats_idempotently() -> None:
    files = sorted((ROOT / "mappings").rglob("*.yaml")) + sorted(
        (ROOT / "tests" / "fixtures").rglob("*.yaml")
    )
    formatted = 0
    for file in files:
        text, _ = loader.decode(file.read_bytes())
        if text is None or loader.parse(text)[0] is None:
            continue
        once = format_text(text, None)
        assert format_text(once, None) == once, file
        formatted += 1
    assert formatted > 50


def test_schema_line_follows_the_file_location() -> None:
    deeper = PurePosixPath("torch/nn/utils/torch.nn.utils.dist.yaml")
    first_line = format_text(CANONICAL_DIST, deeper).splitlines()[0]
    assert first_line == "# yaml-language-server: $schema=../../../../schema/mapping.schema.json"
    outside = format_text(CANONICAL_DIST, None).splitlines()[0]
    assert outside == CANONICAL_DIST.splitlines()[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("输入的 Tensor", "输入的 Tensor"),
        ("*size", "'*size'"),
        ("`dim` 的取值", "'`dim` 的取值'"),
        ("no", "'no'"),
        ("3.10", "'3.10'"),
        ("1e-5", "'1e-5'"),
        ("2.13.0", "2.13.0"),
        ("null", "'null'"),
        ("a: b", "'a: b'"),
        ("a #b", "'a #b'"),
        ("x#y", "x#y"),
        ("it's", "it's"),
        ("'quoted'", "'''quoted'''"),
        ("trailing ", "'trailing '"),
        ("tab\there", "'tab\there'"),
        ("bell\x07", '"bell\\x07"'),
        ("", "''"),
    ],
)
def test_scalar_quoting(text: str, expected: str) -> None:
    assert inline_scalar(text) == expected


def test_random_strings_survive_the_round_trip() -> None:
    pieces = [
        "a", "中", " ", "  ", ":", ": ", "#", " #", "-", "'", '"', "\\", "\t", "\n", "\n\n",
        "\r", "\x85", "\u2028", "\xa0", "\u3000", "\ufeff", "*", "&", "!", "%", "@", "`",
        "|", ">", "[", "]", "{", "}", ",", "?", "0", "1.5", "yes", "~", "null", "---",
    ]  # fmt: skip
    generator = random.Random(20240101)
    for _ in range(2000):
        value = "".join(generator.choice(pieces) for _ in range(generator.randint(1, 6)))
        data = {
            "torch_api": "torch.x",
            "zh_name": value,
            "torch_aliases": [value],
            "summary": value,
            "inputs": {value: value},
        }
        text = render(data, Comments())
        doc, problems = loader.parse(text)
        assert doc is not None, (value, text, problems)
        assert doc.data == data, (value, text)
        assert yaml.safe_load(text) == data, (value, text)
        assert format_text(text, None) == text


def test_numeric_fields_stay_plain() -> None:
    text = """\
torch_api: torch.x
examples:
  - cases:
      - torch: y = 1
        paddle: y = 1
        rtol: '1e-5'
        atol: "0.001"
        when: '0.5'
"""
    lines = format_text(text, None).splitlines()
    assert "        rtol: 1e-5" in lines
    assert "        atol: 0.001" in lines
    assert "      - when: '0.5'" in lines


REFUSED_RAW = [
    "\x85", "\x9b", "\u2028", "\u2029", "\u202a", "\u202d", "\u202e", "\u2066", "\u2069", "\x7f",
]  # fmt: skip
"""Characters the loader refuses raw: the formatter must write them as escapes."""


@pytest.mark.parametrize("char", REFUSED_RAW, ids=lambda char: f"U+{ord(char):04X}")
def test_characters_the_loader_refuses_are_written_as_escapes(char: str) -> None:
    escaped = f"\\u{ord(char):04x}"
    text = CANONICAL_DIST.replace("zh_name: 两个张量之差的范数", f'zh_name: "范数{escaped}"')
    text += f'summary: "a{escaped}b"\n"k{escaped}": x\n'
    formatted = format_text(text, None)
    assert char not in formatted
    doc, problems = loader.load(formatted.encode("utf-8"))
    assert problems == []
    assert doc is not None
    assert doc.data["summary"] == f"a{char}b"
    assert doc.data[f"k{char}"] == "x"
    assert format_text(formatted, None) == formatted


@pytest.mark.parametrize("number", ["0x10", "1_0", "010", "0o7", ".inf", ".5", "1_0.5"])
def test_number_like_strings_stay_strings_for_every_yaml_reader(number: str) -> None:
    # Quoted in the file they are strings; unquoted, a YAML 1.1 or 1.2 reader sees a number.
    text = CANONICAL_DIST.replace(
        "      b: np.zeros(3, dtype='float32')\n",
        (f"      b: np.zeros(3, dtype='float32')\n    rtol: '{number}'\n"),
    )
    formatted = format_text(text, None)
    assert f"    rtol: '{number}'" in formatted.splitlines()
    assert yaml.safe_load(formatted)["calls"][0]["rtol"] == number


def test_fmt_refuses_a_canonical_form_that_would_not_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 60,000 short lines written with escapes fit the size cap; as a literal block, indented
    # under the example, they would not: the file must stay as it is, with a located error.
    monkeypatch.chdir(tmp_path)
    code = "x\\n" * 60_000
    text = CANONICAL_DIST + f'examples:\n  - cases:\n      - torch: "{code}"\n        paddle: y\n'
    record = write(tmp_path, "mappings/torch/torch.dist.yaml", text)
    assert len(text.encode()) < loader.MAX_FILE_BYTES
    assert main(["fmt"]) == 1
    err = capsys.readouterr().err
    assert "mappings/torch/torch.dist.yaml:1:1: AM005 规范格式无法读回" in err
    assert record.read_text(encoding="utf-8") == text
    assert main(["check", "--fix", "--no-cache", "mappings"]) == 1
    assert "mappings/torch/torch.dist.yaml:1:1: AM005" in capsys.readouterr().err
    assert record.read_text(encoding="utf-8") == text


def test_a_canonical_form_that_changes_a_value_is_refused_where_the_value_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def lossy(data: dict[str, object], comments: Comments) -> str:
        return render({**data, "paddle_api": "paddle.other"}, comments)

    monkeypatch.setattr(canonical, "render", lossy)
    with pytest.raises(NotFormattable, match="`paddle_api`") as refused:
        format_text(CANONICAL_DIST, None)
    assert (refused.value.line, refused.value.col) == (5, 13)


@pytest.mark.parametrize(
    "tail",
    ["examples:\n  - just text\n", "examples:\n  - cases: [[1]]\n", "notes:\n  - [x]\n"],
)
def test_records_of_the_wrong_shape_are_formatted_not_crashed(tail: str) -> None:
    # Found by the fuzz suite: telling record formats apart assumed examples and notes to be
    # mappings (AttributeError on fmt input 0:72 of seed 20240519).
    formatted = format_text(CANONICAL_DIST + tail, None)
    original, _ = loader.parse(CANONICAL_DIST + tail)
    again, problems = loader.load(formatted.encode("utf-8"))
    assert problems == [] and original is not None and again is not None
    assert again.data == original.data
    assert format_text(formatted, None) == formatted


def test_unloadable_file_is_refused() -> None:
    with pytest.raises(NotFormattable, match="无法解析") as refused:
        format_text("torch_api: [unclosed\n", None)
    assert refused.value.problem is not None
    assert refused.value.problem.kind is LoadProblemKind.SYNTAX
    assert refusal(refused.value).startswith("2:1: AM002 无法解析")
    with pytest.raises(NotFormattable) as refused:
        format_text("torch_api: &a x\npaddle_api: *a\n", None)
    assert refused.value.problem is not None
    assert refused.value.problem.kind is LoadProblemKind.TAG
    assert " AM004 " in refusal(refused.value)


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    canonical = write(tmp_path, "mappings/torch/torch.dist.yaml", CANONICAL_DIST)
    messy = write(tmp_path, "mappings/torch/torch.x.yaml", SHUFFLED_WITH_COMMENTS)
    return canonical, messy


def test_fmt_check_lists_files_and_exits_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _canonical, messy = _corpus(tmp_path)
    before = messy.read_bytes()
    assert main(["fmt", "--check"]) == 1
    assert capsys.readouterr().out == "需要格式化 (would reformat) mappings/torch/torch.x.yaml\n"
    assert messy.read_bytes() == before
    assert main(["fmt"]) == 0
    assert capsys.readouterr().out == "已格式化 (reformatted) mappings/torch/torch.x.yaml\n"
    assert main(["fmt", "--check"]) == 0
    assert capsys.readouterr().out == ""
    assert messy.read_text(encoding="utf-8") == EXPECTED


def test_fmt_reports_unparseable_files_without_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    broken = write(tmp_path, "mappings/torch/torch.y.yaml", "torch_api: [unclosed\n")
    assert main(["fmt"]) == 1
    err = capsys.readouterr().err
    assert "mappings/torch/torch.y.yaml:2:1: AM002" in err
    assert "Traceback" not in err
    assert broken.read_text(encoding="utf-8") == "torch_api: [unclosed\n"
    assert main(["fmt", "no/such/dir"]) == 2


def test_crash_while_replacing_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _canonical, messy = _corpus(tmp_path)
    before = messy.read_bytes()

    def crash(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    result = fmt.run_fmt([tmp_path / "mappings"])
    assert [path for path, _ in result.failed] == [messy]
    assert messy.read_bytes() == before
    assert sorted(p.name for p in messy.parent.iterdir()) == ["torch.dist.yaml", "torch.x.yaml"]


def test_crash_while_writing_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _canonical, messy = _corpus(tmp_path)
    before = messy.read_bytes()

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(messy, "torch_api: torch.x\n")
    assert messy.read_bytes() == before
    assert len(list(messy.parent.iterdir())) == 2


def test_atomic_write_keeps_the_file_mode(tmp_path: Path) -> None:
    target = write(tmp_path, "record.yaml", "old\n")
    target.chmod(0o640)
    write_atomically(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640


def test_fmt_leaves_a_named_stamp_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    text = '{\n  "format": 1,\n  "record": "abc"\n}\n'
    stamp = write(tmp_path, "stamps/torch/torch.y.json", text)
    assert main(["fmt", str(stamp)]) == 1
    assert "not a record file" in capsys.readouterr().err
    assert stamp.read_text(encoding="utf-8") == text


def test_a_row_that_names_neither_side_is_formatted_not_refused_with_a_traceback() -> None:
    text = (
        "torch_api: torch.optim.lr_scheduler.PolynomialLR\n"
        "params:\n"
        "  - torchdle: learning_rate\n"
        "    kind: usage_diff\n"
    )
    formatted = format_text(text, PurePosixPath("torch/optim/lr_scheduler/x.yaml"))
    assert "  - kind: usage_diff\n    torchdle: learning_rate\n" in formatted
