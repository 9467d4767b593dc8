"""The library versions records are verified against: the one source of every pin.

Plain constants: ``apimap check`` compares stamps with them without importing
either library. ``pyproject.toml`` (the ``verify`` and ``vision`` extras), the
Makefile and the CI workflow name the same versions; a test ties them to this
module.
"""

from __future__ import annotations

TORCH_VERSION = "2.13.0"
PADDLE_VERSION = "3.3.1"
VISION_TORCH_VERSION = "2.14.1"
"""torchvision 0.29.1 only runs on torch 2.14.1 (a separate environment, see the README)."""
TORCHVISION_VERSION = "0.29.1"

PADDLE_RELEASES = ("3.0.0", "3.1.1", "3.2.2", PADDLE_VERSION)
"""The paddle releases ``apimap verify --matrix`` measures every record against, oldest first;
the last is the pinned release the records are written for."""

DATASET_PINS = {"scipy": "1.17.1"}
"""Packages both libraries' dataset classes need at run time (torchvision's ``Flowers102`` and
paddle's ``Flowers`` read MATLAB label files with ``scipy.io``): installed in every
environment, the older paddle releases' included, and importable by record code, which
writes those files."""

ONNX_PINS = {
    "onnx": "1.17.0",
    "paddle2onnx": "2.1.0",
    "onnxruntime": "1.32.0",
    "onnx-graphsurgeon": "0.6.1",
}
"""What ``paddle.onnx.export`` needs (paddle2onnx, which takes onnx 1.17 at most; onnxruntime
and onnx-graphsurgeon, with which it folds constants — missing, it has pip install them into
the running environment) and what record code reads an exported file with (``onnx.load``,
``onnx.reference``): installed in every environment with paddle, the older releases'
included, so the matrix measures paddle as a user's environment runs it."""

RELEASE_PINS = {**DATASET_PINS, **ONNX_PINS}
"""Packages every paddle release's environment holds besides paddle."""

PACKAGE_PINS = {
    "tensorboard": "2.21.0",
    "visualdl": "2.5.3",
    "einops": "0.8.2",
    "onnxscript": "0.7.2",
    **RELEASE_PINS,
}
"""Packages records name besides the two libraries: torch's ``torch.utils.tensorboard``
needs tensorboard, visualdl holds the paddle side of other-package records, einops is a
third-party API used with both libraries, onnxscript is what ``torch.onnx.export`` exports
with by default, and the :data:`RELEASE_PINS`."""

PINS = {"torch": TORCH_VERSION, "paddle": PADDLE_VERSION}
"""Library name -> pinned version."""

VISION_PINS = {
    "torch": VISION_TORCH_VERSION,
    "torchvision": TORCHVISION_VERSION,
    "paddle": PADDLE_VERSION,
}

VISION_PREFIX = "torchvision."


def pins_for(api: str) -> dict[str, str]:
    """The versions a record of ``api`` is verified against."""
    return VISION_PINS if api.startswith(VISION_PREFIX) else PINS


def public_version(version: str) -> str:
    """The version without a local suffix: ``2.13.0+cpu`` -> ``2.13.0``."""
    return version.split("+", 1)[0]


def release_key(version: str) -> tuple[int, ...]:
    """``3.10.1`` sorts after ``3.2.2``."""
    return tuple(int(part) if part.isdigit() else 0 for part in version.split("."))
