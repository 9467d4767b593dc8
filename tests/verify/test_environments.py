"""Which environment runs which side, and the pins each must have."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from apimap.record.pins import PINS, VISION_PINS, pins_for
from apimap.verify import environments as environments_module
from apimap.verify.environments import (
    MAIN_PADDLE,
    MAIN_TORCH,
    VISION_PYTHON_VARIABLE,
    VISION_TORCH,
    environments,
    torch_environment,
)


def test_torchvision_records_run_their_torch_side_apart() -> None:
    assert torch_environment("torch.abs") == MAIN_TORCH
    assert torch_environment("torchvision.transforms.Resize") == VISION_TORCH
    assert torch_environment("transformers.activations.get_activation") == MAIN_TORCH


def test_the_vision_interpreter_is_found_only_where_it_exists(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(environments_module, "CHECKOUT", tmp_path)
    monkeypatch.delenv(VISION_PYTHON_VARIABLE, raising=False)
    assert environments()[VISION_TORCH].python is None
    (tmp_path / ".venv-vision" / "bin").mkdir(parents=True)
    (tmp_path / ".venv-vision" / "bin" / "python").write_text("", encoding="utf-8")
    assert environments()[VISION_TORCH].python == str(tmp_path / ".venv-vision" / "bin" / "python")
    python = tmp_path / "python"
    python.write_text("", encoding="utf-8")
    monkeypatch.setenv(VISION_PYTHON_VARIABLE, str(python))
    found = environments()
    assert found[VISION_TORCH].python == str(python)
    assert found[VISION_TORCH].pins == {"torch": "2.14.1", "torchvision": "0.29.1"}
    assert found[MAIN_TORCH].python == found[MAIN_PADDLE].python == sys.executable
    assert found[MAIN_PADDLE].side == "paddle"


def test_pins_follow_the_package() -> None:
    assert pins_for("torch.abs") == PINS
    assert pins_for("torchvision.transforms.Resize") == VISION_PINS


def _record_steps(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Make ``subprocess.run`` record the commands instead of running them."""
    steps: list[list[str]] = []

    def run(step: list[str], **kwargs: object) -> object:
        steps.append(step)
        if step[1:3] == ["-m", "venv"]:
            Path(step[-1]).mkdir(parents=True, exist_ok=True)
        return environments_module.subprocess.CompletedProcess(step, 0, "", "")

    monkeypatch.setattr(environments_module.subprocess, "run", run)
    return steps


def _pip(folder: Path) -> list[str]:
    return [str(folder / "bin" / "python"), "-m", "pip", "install", "-q"]


def _checkout(root: Path, *versions: str) -> Path:
    """A checkout at ``root`` with the tools lock and a lock for each of ``versions``."""
    (root / "locks").mkdir(parents=True)
    (root / "locks" / "tools.txt").write_text("pip==26.3 --hash=sha256:aa\n", encoding="utf-8")
    for version in versions:
        (root / "locks" / f"paddle-{version}.txt").write_text(
            f"paddlepaddle=={version} --hash=sha256:bb\n", encoding="utf-8"
        )
    return root


def _locked(folder: Path, lock: Path) -> list[str]:
    return [
        str(folder / "bin" / "python"),
        "-m",
        "pip",
        "install",
        "-q",
        "--require-hashes",
        "--no-build-isolation",
        "-r",
        str(lock),
    ]


def test_a_release_environment_installs_the_tools_then_its_lock(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(environments_module, "CHECKOUT", tmp_path / "elsewhere")
    locks = _checkout(tmp_path, "3.0.0") / "locks"
    steps = _record_steps(monkeypatch)
    environments_module.create_release_environment("3.0.0", tmp_path)
    folder = tmp_path / ".venv-paddle-3.0.0"
    assert steps == [
        [sys.executable, "-m", "venv", "--clear", str(folder)],
        _locked(folder, locks / "tools.txt"),
        _locked(folder, locks / "paddle-3.0.0.txt"),
    ]
    assert (folder / ".installed").read_text(encoding="utf-8") == (
        "pip==26.3 --hash=sha256:aa\npaddlepaddle==3.0.0 --hash=sha256:bb\n"
    )
    steps.clear()
    environments_module.create_release_environment("3.0.0", tmp_path)
    assert steps == []
    # a lock change makes the environment anew, so that it holds exactly the new lock
    (locks / "paddle-3.0.0.txt").write_text("paddlepaddle==3.0.0 --hash=sha256:cc\n", "utf-8")
    environments_module.create_release_environment("3.0.0", tmp_path)
    assert steps[0] == [sys.executable, "-m", "venv", "--clear", str(folder)]
    assert "sha256:cc" in (folder / ".installed").read_text(encoding="utf-8")


def test_the_locks_of_the_checkout_apimap_runs_from_serve_another_working_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    checkout = _checkout(tmp_path / "checkout", "3.1.1")
    monkeypatch.setattr(environments_module, "CHECKOUT", checkout)
    steps = _record_steps(monkeypatch)
    environments_module.create_release_environment("3.1.1", tmp_path)
    folder = tmp_path / ".venv-paddle-3.1.1"
    assert steps[1:] == [
        _locked(folder, checkout / "locks" / "tools.txt"),
        _locked(folder, checkout / "locks" / "paddle-3.1.1.txt"),
    ]


PLAIN_PINS = [
    "onnx==1.17.0",
    "onnx-graphsurgeon==0.6.1",
    "onnxruntime==1.32.0",
    "paddle2onnx==2.1.0",
    "scipy==1.17.1",
]
"""What an older release's environment holds besides paddle (RELEASE_PINS, sorted by name)."""


def test_outside_a_checkout_a_release_environment_gets_the_plain_pins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(environments_module, "CHECKOUT", tmp_path / "site-packages")
    _checkout(tmp_path, "3.1.1")  # a lock of another release does not serve 3.0.0
    steps = _record_steps(monkeypatch)
    environments_module.create_release_environment("3.0.0", tmp_path)
    folder = tmp_path / ".venv-paddle-3.0.0"
    assert steps == [
        [sys.executable, "-m", "venv", "--clear", str(folder)],
        [*_pip(folder), "paddlepaddle==3.0.0", *PLAIN_PINS],
    ]
    assert (folder / ".installed").read_text(encoding="utf-8") == (
        "paddlepaddle==3.0.0\n" + "".join(f"{pin}\n" for pin in PLAIN_PINS)
    )


def test_an_environment_made_before_the_locks_is_made_anew(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(environments_module, "CHECKOUT", tmp_path / "elsewhere")
    locks = _checkout(tmp_path, "3.1.1") / "locks"
    folder = tmp_path / ".venv-paddle-3.1.1"
    folder.mkdir()
    (folder / ".installed").write_text("paddlepaddle==3.1.1\nscipy==1.17.1\n", encoding="utf-8")
    steps = _record_steps(monkeypatch)
    environments_module.create_release_environment("3.1.1", tmp_path)
    assert steps == [
        [sys.executable, "-m", "venv", "--clear", str(folder)],
        _locked(folder, locks / "tools.txt"),
        _locked(folder, locks / "paddle-3.1.1.txt"),
    ]


def test_without_torch_and_paddle_verify_says_so_in_one_line_naming_the_ci_path(
    tmp_path: Path,
) -> None:
    """A contributor without the libraries learns the pull-request path, not a traceback."""
    import shutil
    import subprocess

    from rule_fixtures import CLEAN_RECORD

    shutil.copytree(CLEAN_RECORD.parents[2], tmp_path, dirs_exist_ok=True)
    blocked = "import sys\nfor name in ('torch', 'paddle'):\n    sys.modules[name] = None\n"
    run = "from apimap.cli import main\nsys.exit(main(['verify', '--update', 'mappings']))\n"
    done = subprocess.run(
        [sys.executable, "-c", blocked + run],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("apimap verify: 本环境没有 paddle、torch，无法验证。")
    assert "创建 Pull Request，CI 的 verify 作业会验证改动的记录" in line
    assert "make verify" in line and "(no paddle or torch here: open a pull request" in line
