"""The lock files: every environment the Makefile, CI and ``apimap verify --matrix`` create is
installed from one, so that a fresh clone installs the same files today and next month.

A lock lives at ``locks/<name>.txt`` in the checkout and is a pip requirements file in which
every package is pinned to one version and the hash of the file pip installs
(``name==version --hash=sha256:...``), so pip installs it in hash-checking mode and refuses
anything else. ``locks/tools.txt`` holds pip and setuptools, installed first into every environment.
:mod:`apimap.contrib.lockgen` writes them (``make lock``); this module only reads them, without pip.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

LOCKS_DIR = "locks"
TOOLS_LOCK = "tools"
"""pip and setuptools: the first thing installed into every environment."""
MAIN_LOCK = "main"
"""``.venv`` as ``make main`` makes it: apimap's dependencies, the dev, site and browser extras."""
VERIFY_LOCK = "verify"
"""``.venv`` with what verification needs besides (``make test``): ``main`` and the verify extra."""
VISION_LOCK = "vision"
"""``.venv-vision``: apimap's dependencies and the vision extra."""
RELEASE_LOCK_PREFIX = "paddle-"
"""``paddle-<version>``: ``.venv-paddle-<version>``, one per older paddle release."""
HASH_PREFIX = "--hash=sha256:"


def lock_path(root: Path, name: str) -> Path:
    """Where the lock ``name`` lives in the checkout at ``root``."""
    return root / LOCKS_DIR / f"{name}.txt"


def release_lock_name(version: str) -> str:
    """``3.0.0`` -> ``paddle-3.0.0``."""
    return RELEASE_LOCK_PREFIX + version


def normalize(name: str) -> str:
    """A distribution name as pip compares it (PEP 503): ``Jinja2`` -> ``jinja2``,
    ``typing_extensions`` -> ``typing-extensions``."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Locked:
    """One package of a lock."""

    name: str
    version: str
    hashes: tuple[str, ...]
    """sha256 digests (hex) of the files pip may install."""

    def lines(self) -> list[str]:
        """The requirement as the lock writes it."""
        hashes = [f"    {HASH_PREFIX}{digest}" for digest in self.hashes]
        return [f"{self.name}=={self.version}", *hashes]


class LockError(ValueError):
    """A lock file that is not what :mod:`apimap.contrib.lockgen` writes."""


def parse_lock(text: str, source: str = "lock") -> dict[str, Locked]:
    """Normalized name -> :class:`Locked`. Raises :class:`LockError` (with the line) on a
    requirement that is not ``name==version`` with at least one sha256 hash."""
    packages: dict[str, Locked] = {}
    for number, requirement in _requirements(text):
        words = requirement.split()
        name, separator, version = words[0].partition("==")
        hashes = tuple(word.removeprefix(HASH_PREFIX) for word in words[1:])
        malformed = (
            not separator
            or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name)
            or not re.fullmatch(r"[A-Za-z0-9.+!_-]+", version)
            or not hashes
            or any(not word.startswith(HASH_PREFIX) for word in words[1:])
            or any(not re.fullmatch(r"[0-9a-f]{64}", digest) for digest in hashes)
        )
        if malformed:
            raise LockError(
                f"{source}:{number}: 不是 name==version --hash=sha256:... "
                f"(not a pinned, hashed requirement)：{requirement}"
            )
        if normalize(name) in packages:
            raise LockError(f"{source}:{number}: {name} 重复 (listed twice)")
        packages[normalize(name)] = Locked(normalize(name), version, hashes)
    return packages


def _requirements(text: str) -> list[tuple[int, str]]:
    """(first line number, requirement with its continuation lines joined); comment lines and
    blank lines dropped."""
    joined: list[tuple[int, str]] = []
    current: tuple[int, list[str]] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if current is None and (not line or line.startswith("#")):
            continue
        if current is None:
            current = (number, [])
        current[1].append(line.removesuffix("\\").strip())
        if not line.endswith("\\"):
            joined.append((current[0], " ".join(part for part in current[1] if part)))
            current = None
    if current is not None:
        joined.append((current[0], " ".join(part for part in current[1] if part)))
    return joined


def read_lock(path: Path) -> dict[str, Locked]:
    """:func:`parse_lock` of the file at ``path``."""
    return parse_lock(path.read_text(encoding="utf-8"), str(path))
