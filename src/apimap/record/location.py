"""Positions in a record file."""

from __future__ import annotations

from typing import NamedTuple

Path = tuple[str | int, ...]
"""A path into the YAML data, e.g. ``("params", 2, "kind")``."""


class Loc(NamedTuple):
    """A 1-based line and column."""

    line: int
    col: int
