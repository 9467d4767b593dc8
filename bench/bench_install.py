"""Benchmark the fresh install of the main environment (what `make main` installs), from the
ranges in pyproject.toml and from the locks, and check that the locks install the same files
twice.

Usage: python bench/bench_install.py [ROUNDS]

Each round installs, side by side in fresh virtual environments under a temporary folder and
each with its own empty pip cache (as on a new machine):

* ranges: ``pip install --upgrade pip`` then ``pip install -e '.[dev,site,browser]'`` (the
  newest versions the ranges allow; what the Makefile ran before the locks);
* locks: ``make VENV=<folder> <folder>/.installed-core`` (tools.txt, main.txt, apimap).

It prints each install's seconds and the load average before it, then compares the lock
installs: ``pip freeze --all`` and a digest of every installed file's hash as the packages'
RECORD files list them (console scripts excepted: their first line names the environment's
own interpreter, so they differ by path alone), apimap's own editable install apart (its
METADATA carries README.md, so it changes with the checkout, not with the locks).
"""

from __future__ import annotations

import csv
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(command: list[str], cache: Path) -> None:
    environment = {**os.environ, "PIP_CACHE_DIR": str(cache)}
    environment.pop("PYTHONPATH", None)
    subprocess.run(command, cwd=ROOT, env=environment, check=True, capture_output=True)


def install_ranges(venv: Path, cache: Path) -> None:
    """The environment from pyproject.toml's ranges."""
    _run(["python3", "-m", "venv", str(venv)], cache)
    python = str(venv / "bin" / "python")
    _run([python, "-m", "pip", "install", "-q", "--upgrade", "pip"], cache)
    _run([python, "-m", "pip", "install", "-q", "-e", ".[dev,site,browser]"], cache)


def install_locks(venv: Path, cache: Path) -> None:
    """The environment as `make main` installs it, from the locks."""
    _run(["make", "-s", f"VENV={venv}", f"{venv}/.installed-core"], cache)


def freeze(venv: Path) -> str:
    """``pip freeze --all`` of the environment."""
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "freeze", "--all"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def record_digest(venv: Path, own: bool) -> tuple[str, int, int]:
    """A digest of every (package, file, hash) the RECORD files list, the number of files, and
    the number of console scripts left out; ``own``: apimap's own dist-info alone (its
    METADATA carries README.md, so it changes with the checkout), else everything but it."""
    entries, scripts = [], 0
    for record in sorted(venv.glob("lib/python*/site-packages/*.dist-info/RECORD")):
        if record.parent.name.startswith("apimap-") != own:
            continue
        for path, digest, _size in csv.reader(record.read_text(encoding="utf-8").splitlines()):
            if not digest:
                continue  # RECORD itself and compiled files carry no hash
            if path.startswith("../../../bin/"):
                scripts += 1
                continue
            entries.append(f"{record.parent.name} {path} {digest}")
    text = "\n".join(sorted(entries))
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), len(entries), scripts


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3])


def main(rounds: int = 2) -> None:
    """Measure and print the figures."""
    with tempfile.TemporaryDirectory(prefix="apimap-bench-install-") as folder:
        base = Path(folder)
        locked: list[Path] = []
        for number in range(1, rounds + 1):
            for name, install in (("ranges", install_ranges), ("locks", install_locks)):
                venv = base / f"{name}-{number}"
                load = _load()
                start = time.perf_counter()
                install(venv, base / f"cache-{name}-{number}")
                seconds = time.perf_counter() - start
                print(f"round {number} {name:6}: {seconds:6.1f} s (load before: {load})")
                if name == "locks":
                    locked.append(venv)
                else:
                    subprocess.run(["rm", "-rf", str(venv)], check=True)
        freezes = {freeze(venv) for venv in locked}
        packages = len(next(iter(freezes)).splitlines())
        print(
            f"lock installs: {len(locked)}, pip freeze --all identical: {len(freezes) == 1} "
            f"({packages} packages)"
        )
        for own, what in ((False, "locked packages"), (True, "apimap itself")):
            digests = {record_digest(venv, own) for venv in locked}
            for digest, files, scripts in sorted(digests):
                print(
                    f"RECORD digest, {what}: {digest} ({files} files; {scripts} scripts left out)"
                )
            print(f"RECORD identical, {what}: {len(digests) == 1}")


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:2]))
