"""torchvision records are verified in their own interpreter, against their own pins."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from apimap.pins import PINS, VISION_PINS, pins_for
from apimap.verify.run import environments, load_record

ROOT = Path(__file__).resolve().parents[2]
TORCH_RECORD = ROOT / "mappings" / "torch" / "torch.abs.yaml"
VISION_RECORD = ROOT / "mappings" / "torchvision" / "transforms" / "torchvision.transforms.^Normalize.yaml"


def _records() -> list:  # type: ignore[type-arg]
    loaded = [load_record(TORCH_RECORD)[0], load_record(VISION_RECORD)[0]]
    assert all(record is not None for record in loaded)
    return loaded


def test_without_a_vision_interpreter_everything_runs_here(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("APIMAP_VISION_PYTHON", raising=False)
    monkeypatch.chdir(tmp_path)  # no .venv-vision here
    [only] = environments(_records())
    assert (only.python, only.pins, only.records) == (sys.executable, PINS, frozenset({0, 1}))


def test_torchvision_records_go_to_the_vision_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APIMAP_VISION_PYTHON", "/opt/vision/bin/python")
    main, vision = environments(_records())
    assert (main.python, main.records) == (sys.executable, frozenset({0}))
    assert (vision.python, vision.pins, vision.records) == (
        "/opt/vision/bin/python",
        VISION_PINS,
        frozenset({1}),
    )


def test_pins_follow_the_package() -> None:
    assert pins_for("torch.abs") == PINS
    assert pins_for("torchvision.transforms.Resize")["torchvision"] == "0.29.1"
