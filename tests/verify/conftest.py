"""Shared fixtures: the libraries, imported once per test session."""

from __future__ import annotations

import pytest

from apimap.verify.libraries import Libraries, import_libraries


@pytest.fixture(scope="session")
def libs() -> Libraries:
    """numpy, torch and paddle, as a worker imports them."""
    return import_libraries()
