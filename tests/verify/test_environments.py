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
            Path(step[-1]).mkdir(parents=True)
        return environments_module.subprocess.CompletedProcess(step, 0, "", "")

    monkeypatch.setattr(environments_module.subprocess, "run", run)
    return steps


def _pip(folder: Path) -> list[str]:
    return [str(folder / "bin" / "python"), "-m", "pip", "install", "-q"]


def test_a_release_environment_gets_paddle_and_the_dataset_packages(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    steps = _record_steps(monkeypatch)
    environments_module.create_release_environment("3.0.0", tmp_path)
    folder = tmp_path / ".venv-paddle-3.0.0"
    assert steps == [
        [sys.executable, "-m", "venv", "--clear", str(folder)],
        [*_pip(folder), "paddlepaddle==3.0.0", "scipy==1.17.1"],
    ]
    assert (folder / ".installed").read_text(encoding="utf-8") == (
        "paddlepaddle==3.0.0\nscipy==1.17.1\n"
    )
    steps.clear()
    environments_module.create_release_environment("3.0.0", tmp_path)
    assert steps == []


def test_an_environment_made_before_a_package_was_pinned_gets_only_an_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / ".venv-paddle-3.1.1"
    folder.mkdir()
    (folder / ".installed").write_text("paddlepaddle==3.1.1\n", encoding="utf-8")
    steps = _record_steps(monkeypatch)
    environments_module.create_release_environment("3.1.1", tmp_path)
    assert steps == [[*_pip(folder), "paddlepaddle==3.1.1", "scipy==1.17.1"]]
