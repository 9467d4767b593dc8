"""Fixtures of the workflow tests; helpers live in ``workflow_helpers``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from workflow_helpers import GIT_ENV


@pytest.fixture
def git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """Run git in a fresh repository at ``tmp_path`` (isolated from any user configuration)."""
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)

    def run(*args: str) -> str:
        done = subprocess.run(
            ["git", *args], cwd=tmp_path, capture_output=True, text=True, check=True
        )
        return done.stdout

    run("init", "-q", "-b", "main")
    return run
