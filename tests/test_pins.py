"""The pinned library versions are written in one module; every other place must agree."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from apimap.record.pins import (
    DATASET_PINS,
    PACKAGE_PINS,
    PADDLE_VERSION,
    TORCH_VERSION,
    TORCHVISION_VERSION,
    VISION_TORCH_VERSION,
)

ROOT = Path(__file__).resolve().parent.parent


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras


def test_the_extras_install_the_pinned_versions() -> None:
    extras = _extras()
    assert sorted(extras["verify"]) == sorted(
        [
            f"torch=={TORCH_VERSION}",
            f"paddlepaddle=={PADDLE_VERSION}",
            *(f"{name}=={version}" for name, version in PACKAGE_PINS.items()),
        ]
    )
    assert sorted(extras["vision"]) == sorted(
        [
            f"torch=={VISION_TORCH_VERSION}",
            f"torchvision=={TORCHVISION_VERSION}",
            f"paddlepaddle=={PADDLE_VERSION}",
            *(f"{name}=={version}" for name, version in DATASET_PINS.items()),
        ]
    )


def test_the_workflows_install_the_pinned_torch() -> None:
    """The weekly job installs it by name; the others from locks/verify.txt (test_locks)."""
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    text = "".join(path.read_text(encoding="utf-8") for path in workflows)
    pinned = set(re.findall(r"pip install torch==([\w.]+)", text))
    assert pinned == {TORCH_VERSION}
