"""A progress bar on standard error, only when that is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

_WIDTH = 30
_INTERVAL = 0.1


class ProgressBar:
    """``扫描 (scanning) [#######.......]  1200/4685``, redrawn at most ten times a second."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream
        self._last = 0.0
        self._drawn = False

    @staticmethod
    def wanted(stream: TextIO = sys.stderr) -> bool:
        """Draw only on a terminal (never in CI logs or pipes)."""
        return stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < _INTERVAL:
            return
        self._last = now
        filled = _WIDTH * done // total if total else _WIDTH
        bar = "#" * filled + "." * (_WIDTH - filled)
        self.stream.write(f"\r扫描 (scanning) [{bar}] {done}/{total}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the bar."""
        if self._drawn:
            self.stream.write("\r" + " " * (_WIDTH + 40) + "\r")
            self.stream.flush()
