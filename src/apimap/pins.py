"""The library versions records are verified against.

Plain constants: ``apimap check`` compares record stamps with them without
importing either library. ``pyproject.toml`` pins the same versions in the
``verify`` extra.
"""

from __future__ import annotations

import re

TORCH_VERSION = "2.13.0"
PADDLE_VERSION = "3.3.1"

PINS = {"torch": TORCH_VERSION, "paddle": PADDLE_VERSION}
"""Library name -> pinned version."""

VISION_PINS = {"torch": "2.14.1", "torchvision": "0.29.1", "paddle": PADDLE_VERSION}
"""torchvision 0.29.1 only runs on torch 2.14.1 (a separate environment, see the README)."""

VISION_PREFIX = "torchvision."


def pins_for(api: str) -> dict[str, str]:
    """The versions a record of ``api`` is verified against."""
    return VISION_PINS if api.startswith(VISION_PREFIX) else PINS


_RELEASE = re.compile(r"\d+(?:\.\d+)*")


def public_version(version: str) -> str:
    """The version without a local suffix: ``2.13.0+cpu`` -> ``2.13.0``."""
    return version.split("+", 1)[0]


def release(version: str) -> tuple[int, ...]:
    """The numeric release part for ordering: ``3.3.1rc0`` -> ``(3, 3, 1)``."""
    match = _RELEASE.match(version)
    return tuple(int(part) for part in match.group().split(".")) if match else ()
