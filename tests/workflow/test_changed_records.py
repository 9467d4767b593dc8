"""``apimap verify --changed-since REF``: which records a branch changed (``files.git``)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from workflow_helpers import CANONICAL_DIST, write

from apimap.cli import main
from apimap.files.git import GitError, changed_records

DIST = "mappings/torch/torch.dist.yaml"


def _record(api: str) -> str:
    return CANONICAL_DIST.replace("torch.dist", api).replace(
        "paddle.dist", api.replace("torch", "paddle")
    )


def test_a_branch_changes_its_edited_new_and_restamped_records_not_main_s(
    tmp_path: Path, git: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for api in ("dist", "edited", "restamped", "deleted", "later_on_main"):
        write(tmp_path, f"mappings/torch/torch.{api}.yaml", _record(f"torch.{api}"))
    write(tmp_path, "stamps/torch/torch.restamped.json", "{}\n")
    write(tmp_path, "README.md", "base\n")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    git("switch", "-q", "-c", "fix")
    edited = tmp_path / "mappings/torch/torch.edited.yaml"
    edited.write_text(_record("torch.edited").replace("p=1", "p=3"), encoding="utf-8")
    git("commit", "-q", "-am", "edit a fact")
    git("switch", "-q", "main")  # main moves on after the branch left it
    write(
        tmp_path,
        "mappings/torch/torch.later_on_main.yaml",
        _record("torch.later").replace("p=1", "p=2"),
    )
    git("commit", "-q", "-am", "main moves on")
    git("switch", "-q", "fix")
    write(tmp_path, "stamps/torch/torch.restamped.json", '{"record": "by hand"}\n')  # uncommitted
    write(tmp_path, "mappings/torch/torch.new.yaml", _record("torch.new"))  # untracked
    write(tmp_path, "stamps/torch/torch.gone.json", "{}\n")  # a stamp without its record
    (tmp_path / "mappings/torch/torch.deleted.yaml").unlink()
    write(tmp_path, "README.md", "changed, not a record\n")
    monkeypatch.chdir(tmp_path)

    changed = changed_records("main", [Path("mappings")])
    assert changed == [
        Path("mappings/torch/torch.edited.yaml"),
        Path("mappings/torch/torch.new.yaml"),
        Path("mappings/torch/torch.restamped.yaml"),
    ]
    assert changed_records("main", [Path("mappings/torch/torch.new.yaml")]) == [changed[1]]
    assert changed_records("main", [tmp_path / "stamps"]) == []  # records below the paths only
    assert changed_records("HEAD", [Path("mappings")]) == changed[1:]  # since the last commit
    monkeypatch.chdir(tmp_path / "mappings")  # shown relative to the working folder
    assert changed_records("main", [Path(".")])[0] == Path("torch/torch.edited.yaml")
    with pytest.raises(GitError, match="未知的修订版本"):
        changed_records("no-such-branch", [Path(".")])
    with pytest.raises(GitError, match="不是修订版本"):
        changed_records("--all", [Path(".")])


def test_changed_since_an_unknown_revision_or_outside_git_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, DIST, CANONICAL_DIST)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert main(["verify", "--changed-since", "main"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("apimap verify: --changed-since：未知的修订版本 (unknown revision)：main")
    assert len(err.splitlines()) == 1


def test_nothing_changed_verifies_nothing(
    tmp_path: Path, git: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, DIST, CANONICAL_DIST)
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    monkeypatch.chdir(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "apimap", "verify", "--changed-since", "HEAD", "--update"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "自 HEAD 以来改动的记录 0 条 (0 records changed since HEAD)" in done.stderr
    assert "验证了 0 条记录" in done.stderr
    assert not (tmp_path / "stamps").exists()
