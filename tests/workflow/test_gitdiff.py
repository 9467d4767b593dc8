"""``apimap diff``: the change report of a scripted git history."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from workflow_helpers import CANONICAL_DIST, write

from apimap.cli import main

ABS = """\
torch_api: torch.abs
paddle_api: paddle.abs
category: identical
params:
  - torch: input
    paddle: x
    kind: rename
    desc: 输入的 Tensor
examples:
  - param: input
    cases:
      - torch: y = torch.abs(x)
        paddle: y = paddle.abs(x)
"""

OLD = """\
torch_api: torch.old_op
category: missing
reason: Paddle 没有对应的功能。
"""

NORM_BEFORE = """\
torch_api: torch.nn.BatchNorm1D
paddle_api: paddle.nn.BatchNorm1D
category: identical
"""

ADD = """\
torch_api: torch.add
paddle_api: paddle.add
category: identical
"""


def _history(root: Path, git: Callable[..., str]) -> None:
    write(root, "mappings/torch/torch.dist.yaml", CANONICAL_DIST)
    write(root, "mappings/torch/torch.abs.yaml", ABS)
    write(root, "mappings/torch/torch.old_op.yaml", OLD)
    write(root, "mappings/torch/nn/torch.nn.^Batch^Norm1^D.yaml", NORM_BEFORE)
    write(root, "README.md", "not a record\n")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    git("tag", "base")

    write(root, "mappings/torch/torch.add.yaml", ADD)
    (root / "mappings/torch/torch.old_op.yaml").unlink()
    dist = CANONICAL_DIST.replace("category: names_differ", "category: torch_more")
    dist = dist.replace("    desc: 范数的阶", "    desc: 范数的阶数")
    write(root, "mappings/torch/torch.dist.yaml", dist)
    abs_head = ABS.replace("y = paddle.abs(x)", "y = x.abs()")
    abs_head = abs_head.replace("    kind: rename\n", "")  # derivable: no change
    abs_head = abs_head.replace("paddle_api: paddle.abs", "paddle_api: paddle.absolute")
    write(root, "mappings/torch/torch.abs.yaml", abs_head)
    git(
        "mv",
        "mappings/torch/nn/torch.nn.^Batch^Norm1^D.yaml",
        "mappings/torch/nn/torch.nn.^Batch^Norm1d.yaml",
    )
    write(
        root,
        "mappings/torch/nn/torch.nn.^Batch^Norm1d.yaml",
        NORM_BEFORE.replace("torch.nn.BatchNorm1D", "torch.nn.BatchNorm1d"),
    )
    write(root, "README.md", "still not a record\n")
    git("add", "-A")
    git("commit", "-q", "-m", "head")


EXPECTED_MARKDOWN = """\
## apimap 变更报告 (knowledge base changes)

`base` → `HEAD`：新增 1，删除 1，重命名 1，修改 2 (1 added, 1 removed, 1 renamed, 2 changed)

### 新增 (added)

- `torch.add`：`identical` 参数完全一致（`mappings/torch/torch.add.yaml`）

### 删除 (removed)

- `torch.old_op`：`missing` 功能缺失（`mappings/torch/torch.old_op.yaml`）

### 重命名 (renamed)

- `torch.nn.BatchNorm1D` → `torch.nn.BatchNorm1d`（`mappings/torch/nn/torch.nn.^Batch^Norm1^D.yaml` → `mappings/torch/nn/torch.nn.^Batch^Norm1d.yaml`）

### 修改 (changed)

#### `torch.abs`（`mappings/torch/torch.abs.yaml`）

- 示例 (examples)：修改 (changed) `input`（cases）
- paddle_api：`paddle.abs` → `paddle.absolute`

#### `torch.dist`（`mappings/torch/torch.dist.yaml`）

- 分类 (category)：`names_differ` 仅参数名不一致 → `torch_more` torch 参数更多
- 参数行 (rows)：修改 (changed) `p`（desc：`范数的阶` → `范数的阶数`）
"""


def test_markdown_report(
    tmp_path: Path,
    git: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _history(tmp_path, git)
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "base"]) == 0
    assert capsys.readouterr().out == EXPECTED_MARKDOWN


def test_json_report(
    tmp_path: Path,
    git: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _history(tmp_path, git)
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "base", "HEAD", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["api"] for r in report["added"]] == ["torch.add"]
    assert [r["api"] for r in report["removed"]] == ["torch.old_op"]
    assert report["renamed"] == [
        {
            "from": {
                "api": "torch.nn.BatchNorm1D",
                "path": "mappings/torch/nn/torch.nn.^Batch^Norm1^D.yaml",
                "category": "identical",
            },
            "to": {
                "api": "torch.nn.BatchNorm1d",
                "path": "mappings/torch/nn/torch.nn.^Batch^Norm1d.yaml",
                "category": "identical",
            },
        }
    ]
    dist = next(c for c in report["changed"] if c["api"] == "torch.dist")
    assert dist["category"] == {"from": "names_differ", "to": "torch_more"}
    assert dist["rows"]["changed"] == [
        {"name": "`p`", "fields": [{"field": "desc", "from": "范数的阶", "to": "范数的阶数"}]}
    ]
    assert dist["examples"] == {"added": [], "removed": [], "changed": [], "reordered": False}
    abs_change = next(c for c in report["changed"] if c["api"] == "torch.abs")
    assert abs_change["examples"]["changed"] == [
        {"name": "`input`", "fields": [{"field": "cases"}]}
    ]
    assert abs_change["rows"]["changed"] == []  # leaving out the derivable kind is no change
    assert abs_change["fields"] == [
        {"field": "paddle_api", "from": "paddle.abs", "to": "paddle.absolute"}
    ]
    assert report["unreadable"] == []


def test_reverse_direction_swaps_added_and_removed(
    tmp_path: Path,
    git: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _history(tmp_path, git)
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "HEAD", "base", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["api"] for r in report["added"]] == ["torch.old_op"]
    assert [r["api"] for r in report["removed"]] == ["torch.add"]


def test_no_changes_and_unreadable_records(
    tmp_path: Path,
    git: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    write(tmp_path, "mappings/torch/torch.abs.yaml", ABS)
    git("add", "-A")
    git("commit", "-q", "-m", "one")
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "HEAD", "HEAD"]) == 0
    assert "没有记录变化 (no record changes)。" in capsys.readouterr().out

    write(tmp_path, "mappings/torch/torch.abs.yaml", "torch_api: [broken\n")
    git("commit", "-q", "-am", "two")
    assert main(["diff", "HEAD~1"]) == 0
    out = capsys.readouterr().out
    assert "- `HEAD`:`mappings/torch/torch.abs.yaml`：AM002 无法解析 (cannot parse)" in out


def test_unknown_revision_is_a_usage_error(
    tmp_path: Path,
    git: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    write(tmp_path, "mappings/torch/torch.abs.yaml", ABS)
    git("add", "-A")
    git("commit", "-q", "-m", "one")
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "no-such-branch"]) == 2
    err = capsys.readouterr().err
    assert "no-such-branch" in err and "Traceback" not in err
    assert main(["diff", "--", "-x"]) == 2


def test_row_and_call_changes_show_old_and_new_values() -> None:
    from apimap.contrib.gitdiff import Version, compare_records

    before = {
        "torch_api": "torch.nn.BatchNorm1d",
        "params": [{"torch": "momentum", "desc": "动量"}],
        "calls": [{"when": "默认参数", "torch": "y = m(x)"}],
    }
    after = {
        "torch_api": "torch.nn.BatchNorm1d",
        "params": [
            {"torch": "momentum", "kind": "usage_diff", "desc": "动量", "action": "rewrite"}
        ],
        "calls": [{"when": "默认参数", "torch": "y = m(x + 1)"}],
    }
    change = compare_records(Version("a.yaml", before), Version("a.yaml", after))
    [(name, fields)] = change.rows.changed
    assert name == "`momentum`"
    assert [found.markdown() for found in fields] == [
        "kind：`same` → `usage_diff`",
        "action：（无） → `rewrite`",
    ]
    [(call, call_fields)] = change.calls.changed
    assert call == "默认参数"
    assert [found.markdown() for found in call_fields] == ["torch：`y = m(x)` → `y = m(x + 1)`"]


@pytest.mark.parametrize(
    ("written", "compared"),
    [
        ({"torch": "x"}, {"torch": "x", "paddle": "x", "kind": "same"}),
        ({"torch": "x", "paddle": "y"}, {"torch": "x", "paddle": "y", "kind": "rename"}),
        # a list of one name is that name: the record format calls the row same, so does diff
        ({"torch": "x", "paddle": ["x"]}, {"torch": "x", "paddle": ["x"], "kind": "same"}),
        (
            {"torch": ["a", "b"], "kind": "type_diff"},
            {"torch": ["a", "b"], "kind": "type_diff", "paddle": ["a", "b"]},
        ),
        ({"torch": "x", "kind": "torch_only"}, {"torch": "x", "kind": "torch_only"}),
        # not a valid row: compared as written
        ({"torch": "x", "colour": "red"}, {"torch": "x", "colour": "red"}),
    ],
)
def test_rows_are_compared_with_the_derived_values_written_in(
    written: dict[str, object], compared: dict[str, object]
) -> None:
    from apimap.contrib.gitdiff import row_facts

    assert row_facts(written) == compared
