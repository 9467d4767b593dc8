"""Shared fixtures: both sides' libraries, imported once per test session (as workers do)."""

from __future__ import annotations

import pytest

from apimap.verify.sides import Side, load


@pytest.fixture(scope="session")
def torch_side() -> Side:
    """NumPy and torch, as a torch worker imports them."""
    return load("torch")


@pytest.fixture(scope="session")
def paddle_side() -> Side:
    """NumPy and paddle, as a paddle worker imports them."""
    return load("paddle")
