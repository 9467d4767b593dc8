"""The fuzz suite says how many inputs it tried."""

from __future__ import annotations

from typing import Any

from fuzz_support import COUNTS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """``fuzz: 12,345 inputs (check 3,600, …) in 61 s`` at the end of the run."""
    counts = {name: count for name, count in COUNTS.items() if name != "seconds"}
    if not counts:
        return
    parts = ", ".join(f"{name} {count:,}" for name, count in sorted(counts.items()))
    seconds = COUNTS["seconds"]
    terminalreporter.write_line(
        f"fuzz: {sum(counts.values()):,} inputs ({parts}); mutation batches took {seconds} s"
    )
