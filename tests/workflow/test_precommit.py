"""The pre-commit hooks on a temporary repository: only the files passed are touched."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from workflow_helpers import CANONICAL_DIST, write

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
MESSY = CANONICAL_DIST.replace("    desc: 范数的阶", '    desc: "范数的阶"')
BAD = CANONICAL_DIST.replace("torch.dist", "torch.dist2").replace("desc: 范数的阶", "desc: 阶。")


def _published_hooks() -> dict[str, dict[str, object]]:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {hook["id"]: hook for hook in hooks}


def _run_hook(
    hook: dict[str, object], root: Path, files: list[str]
) -> subprocess.CompletedProcess[str]:
    """Call a hook the way pre-commit does: its entry, then the matching file names."""
    pattern = re.compile(str(hook["files"]))
    chosen = [name for name in files if pattern.search(name)]
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    command = [*shlex.split(str(hook["entry"])), *chosen]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)


def _staged(git: Callable[..., str]) -> list[str]:
    git("add", "-A")
    return git("diff", "--cached", "--name-only").split()


def test_published_hooks_check_and_format_only_the_changed_records(
    tmp_path: Path, git: Callable[..., str]
) -> None:
    hooks = _published_hooks()
    assert set(hooks) == {"apimap-fmt", "apimap-check"}
    shutil.copy(ROOT / ".gitignore", tmp_path / ".gitignore")  # keeps .apimap_cache/ out
    untouched = write(tmp_path, "mappings/torch/torch.untouched.yaml", "torch_api: [not yaml\n")
    git("add", "-A")
    git("commit", "-q", "-m", "existing broken record")
    messy = write(tmp_path, "mappings/torch/torch.dist.yaml", MESSY)
    write(tmp_path, "notes.yaml", 'not: "a record"\n')
    changed = _staged(git)
    assert changed == ["mappings/torch/torch.dist.yaml", "notes.yaml"]

    formatted = _run_hook(hooks["apimap-fmt"], tmp_path, changed)
    assert formatted.returncode == 0, formatted.stderr
    assert messy.read_text(encoding="utf-8") == CANONICAL_DIST
    assert (tmp_path / "notes.yaml").read_text(encoding="utf-8") == 'not: "a record"\n'

    checked = _run_hook(hooks["apimap-check"], tmp_path, _staged(git))
    assert checked.returncode == 0, checked.stdout
    assert "检查了 1 个文件" in checked.stdout  # the committed broken record is not looked at
    assert "AM701 [提示 notice]" in checked.stdout  # no stamp yet: pending, not failing
    assert untouched.read_text(encoding="utf-8") == "torch_api: [not yaml\n"

    write(tmp_path, "mappings/torch/torch.dist2.yaml", BAD)
    checked = _run_hook(hooks["apimap-check"], tmp_path, _staged(git))
    assert checked.returncode == 1
    assert "mappings/torch/torch.dist2.yaml:15:11: AM240" in checked.stdout


@pytest.mark.skipif(shutil.which("pre-commit", path=str(BIN)) is None, reason="pre-commit absent")
def test_repository_config_with_pre_commit_itself(tmp_path: Path, git: Callable[..., str]) -> None:
    shutil.copy(ROOT / ".pre-commit-config.yaml", tmp_path / ".pre-commit-config.yaml")
    shutil.copy(ROOT / ".gitignore", tmp_path / ".gitignore")  # keeps .apimap_cache/ out
    messy = write(tmp_path, "mappings/torch/torch.dist.yaml", MESSY)
    git("add", "-A")
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "PRE_COMMIT_HOME": str(tmp_path / ".pre-commit-home"),
    }

    def pre_commit() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(BIN / "pre-commit"), "run", "--files", "mappings/torch/torch.dist.yaml"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    first = pre_commit()
    assert first.returncode == 1  # apimap fmt rewrote the file
    assert "files were modified by this hook" in first.stdout
    assert messy.read_text(encoding="utf-8") == CANONICAL_DIST
    git("add", "-A")
    second = pre_commit()
    assert second.returncode == 0, second.stdout
    assert re.search(r"apimap check\.+Passed", second.stdout)
