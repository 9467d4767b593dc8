"""Where each side of a record runs: the Python environments and the versions pinned for them.

* PyTorch records: torch 2.13.0 in the main environment (the interpreter running apimap);
* torchvision records: torch 2.14.1 with torchvision 0.29.1 in ``.venv-vision``
  (``$APIMAP_VISION_PYTHON``), because torchvision 0.29.1 needs torch 2.14.1, which cannot
  share an environment with the pinned torch 2.13.0;
* the paddle side of every record: paddle 3.3.1 in the main environment.

Workers import only their side's library, so the torchvision environment needs no paddle.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from apimap.pins import (
    PADDLE_VERSION,
    TORCH_VERSION,
    TORCHVISION_VERSION,
    VISION_PREFIX,
    VISION_TORCH_VERSION,
)

VISION_PYTHON_VARIABLE = "APIMAP_VISION_PYTHON"
DEFAULT_VISION_PYTHON = Path(".venv-vision/bin/python")
VISION_SETUP = "make .venv-vision/.installed"
CHECKOUT = Path(__file__).resolve().parents[3]
"""The source checkout apimap runs from (an editable install)."""


@dataclass(frozen=True)
class Environment:
    """An interpreter, the side it runs, and the versions it must have."""

    name: str
    python: str | None
    """``None``: the environment does not exist on this machine."""
    side: str
    pins: dict[str, str]
    setup: str
    """The command that creates it."""


def vision_python() -> str | None:
    """The interpreter that has torchvision: ``$APIMAP_VISION_PYTHON``, else ``.venv-vision``
    in the working directory or in the checkout apimap runs from."""
    configured = os.environ.get(VISION_PYTHON_VARIABLE)
    if configured:
        return configured if Path(configured).is_file() else None
    for candidate in (Path.cwd() / DEFAULT_VISION_PYTHON, CHECKOUT / DEFAULT_VISION_PYTHON):
        if candidate.is_file():
            return str(candidate)
    return None


MAIN_TORCH = "torch"
VISION_TORCH = "torchvision"
MAIN_PADDLE = "paddle"


def environments() -> dict[str, Environment]:
    """Every environment a verification may need."""
    here = sys.executable
    return {
        MAIN_TORCH: Environment(
            MAIN_TORCH, here, "torch", {"torch": TORCH_VERSION}, "pip install -e '.[verify]'"
        ),
        VISION_TORCH: Environment(
            VISION_TORCH,
            vision_python(),
            "torch",
            {"torch": VISION_TORCH_VERSION, "torchvision": TORCHVISION_VERSION},
            VISION_SETUP,
        ),
        MAIN_PADDLE: Environment(
            MAIN_PADDLE, here, "paddle", {"paddle": PADDLE_VERSION}, "pip install -e '.[verify]'"
        ),
    }


def torch_environment(api: str) -> str:
    """Which environment runs the torch side of ``api``."""
    return VISION_TORCH if api.startswith(VISION_PREFIX) else MAIN_TORCH


class EnvironmentMismatch(RuntimeError):
    """The installed libraries are not the pinned versions."""


def check_versions(environment: Environment, installed: dict[str, str]) -> None:
    """Raise :class:`EnvironmentMismatch` unless the installed versions are the pinned ones."""
    wrong = {
        name: installed.get(name, "未安装 (missing)")
        for name, pinned in environment.pins.items()
        if installed.get(name) != pinned
    }
    if wrong:
        listed = "，".join(
            f"{name} {version}（固定为 {environment.pins[name]}）"
            for name, version in wrong.items()
        )
        raise EnvironmentMismatch(
            f"{environment.name} 环境的版本与固定版本不符 (installed versions differ from the "
            f"pins)：{listed}；请运行 {environment.setup}"
        )
