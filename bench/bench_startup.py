"""Benchmark start-up: checking one record (what the pre-commit hook does) against bare Python.

Usage: python bench/bench_startup.py [REPEAT]

Runs, side by side and REPEAT times each (median reported), in fresh processes:
``python -c pass``; ``python -c "import yaml, pydantic"``; ``apimap --help``;
``apimap check FILE --no-cache`` and ``apimap check FILE`` (warm content cache)
on one real record; ``apimap check FILE`` as the pre-commit hook meets it (a cache filled by a
check of the whole corpus, the record just edited); and prints every median with its ratio to
``python -c pass``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = "mappings/torch/torch.where.yaml"


ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
"""As an installed apimap runs: with its modules' bytecode cached (written by the first run)."""


def _median(command: list[str], repeat: int, edit: Path | None = None) -> float:
    times = []
    for index in range(repeat):
        if edit is not None:  # a new content each time: the cache holds no result for it
            text = (ROOT / RECORD).read_text(encoding="utf-8")
            edit.write_text(f"{text}# edit {index}\n", encoding="utf-8")
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, env=ENV, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(repeat: int = 15) -> None:
    """Measure and print the figures."""
    python = sys.executable
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as corpus:
        edited = Path(corpus) / RECORD
        edited.parent.mkdir(parents=True)
        commands = {
            "python -c pass": [python, "-c", "pass"],
            "import yaml, pydantic": [python, "-c", "import yaml, pydantic"],
            "apimap --help": [python, "-m", "apimap", "--help"],
            "apimap check FILE --no-cache": [python, "-m", "apimap", "check", RECORD, "--no-cache"],
            "apimap check FILE (warm cache)": [
                python,
                "-m",
                "apimap",
                "check",
                RECORD,
                "--cache-dir",
                cache,
            ],
        }
        subprocess.run(
            commands["apimap check FILE (warm cache)"],
            cwd=ROOT,
            env=ENV,
            check=False,
            capture_output=True,
        )
        medians = {name: _median(command, repeat) for name, command in commands.items()}
        hook = [
            python,
            "-m",
            "apimap",
            "check",
            "--cache-dir",
            corpus,
            "--pending-stamps",
            "notice",
        ]
        subprocess.run([*hook, "mappings"], cwd=ROOT, env=ENV, check=False, capture_output=True)
        medians["apimap check FILE (hook: corpus cache, edited)"] = _median(
            [*hook, str(edited)], repeat, edited
        )
    base = medians["python -c pass"]
    for name, seconds in medians.items():
        print(f"{name:<48} {seconds * 1000:7.1f} ms  {seconds / base:5.1f}x python -c pass")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:2]))
