"""Which environment runs which side, and the pins each must have."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from apimap.pins import PINS, VISION_PINS, pins_for
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
