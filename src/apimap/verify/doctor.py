"""``apimap doctor``: which apimap this is, and whether the environments on this machine hold
what the records are verified against.

It prints apimap's version, the record format, the verifier version (stamps name it) and the
pins, then for this environment, ``.venv-vision`` and every ``.venv-paddle-<version>`` that
exists: the installed torch, paddle and torchvision against the pins, and the installed
packages against the environment's lock. Everything is read from the distributions' metadata
files (:mod:`importlib.metadata`); torch and paddle are never imported.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from apimap import __version__
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS
from apimap.files.locks import (
    MAIN_LOCK,
    TOOLS_LOCK,
    VERIFY_LOCK,
    VISION_LOCK,
    LockError,
    lock_path,
    normalize,
    read_lock,
    release_lock_name,
)
from apimap.files.stamps import VERIFIER_VERSION
from apimap.record.pins import PADDLE_RELEASES, PINS, VISION_PINS, public_version, release_key
from apimap.verify.environments import CHECKOUT, VISION_SETUP, vision_python

RECORD_FORMAT = 2
"""The record format this apimap reads and writes (``apimap fmt`` migrates format 1)."""

DISTRIBUTIONS = {"torch": "torch", "torchvision": "torchvision", "paddle": "paddlepaddle"}
"""Library name in the pins -> the distribution that installs it."""

APIMAP = "apimap"
RELEASE_GLOB = ".venv-paddle-*"


@dataclass(frozen=True)
class Checked:
    """One environment: what is installed in it and what it should hold."""

    title: str
    prefix: Path
    pins: dict[str, str]
    installed: dict[str, str]
    """Normalized distribution name -> version."""
    locks: tuple[str, ...]
    """The locks whose packages it should hold (the tools lock and its own)."""


def installed(paths: list[str] | None = None) -> dict[str, str]:
    """Normalized name -> version of the distributions on ``paths`` (``None``: this
    interpreter's ``sys.path``); where a name is found twice, the first wins, as for import."""
    found: dict[str, str] = {}
    distributions = (
        metadata.distributions() if paths is None else metadata.distributions(path=paths)
    )
    for distribution in distributions:
        name = distribution.metadata["Name"]
        if name:
            found.setdefault(normalize(name), distribution.version)
    return found


def site_packages(prefix: Path) -> list[str]:
    """The ``site-packages`` folders of the virtual environment at ``prefix``."""
    return [str(path) for path in sorted(prefix.glob("lib/python*/site-packages"))]


def this_environment() -> Checked:
    """The environment running apimap: ``verify.txt`` once torch or paddle is in it, else
    ``main.txt`` (what ``make main`` installs)."""
    versions = installed()
    verifying = any(DISTRIBUTIONS[name] in versions for name in PINS)
    lock = VERIFY_LOCK if verifying else MAIN_LOCK
    return Checked(
        "当前环境 (this environment)", Path(sys.prefix), PINS, versions, (TOOLS_LOCK, lock)
    )


def vision_environment(python: str) -> Checked:
    """``.venv-vision`` (or ``$APIMAP_VISION_PYTHON``'s environment)."""
    prefix = Path(python).parent.parent
    versions = installed(site_packages(prefix))
    return Checked(".venv-vision", prefix, VISION_PINS, versions, (TOOLS_LOCK, VISION_LOCK))


def release_environments(bases: Iterable[Path]) -> list[Checked]:
    """Every ``.venv-paddle-<version>`` in ``bases``, oldest release first."""
    folders: dict[Path, Path] = {}
    for base in bases:
        for folder in base.glob(RELEASE_GLOB):
            if folder.is_dir():
                folders.setdefault(folder.resolve(), folder)
    checked = []
    for folder in folders.values():
        version = folder.name.removeprefix(RELEASE_GLOB[:-1])
        versions = installed(site_packages(folder))
        lock = (TOOLS_LOCK, release_lock_name(version))
        checked.append(Checked(folder.name, folder, {"paddle": version}, versions, lock))
    return sorted(checked, key=lambda environment: release_key(environment.pins["paddle"]))


def pin_lines(environment: Checked) -> tuple[list[str], int]:
    """One line per pinned library, and how many are installed at another version. A library
    that is not installed is not a finding (``make main`` installs neither torch nor paddle)."""
    lines, wrong = [], 0
    for name, pinned in environment.pins.items():
        version = environment.installed.get(DISTRIBUTIONS[name])
        if version is None:
            lines.append(f"{name} 未安装 (not installed)")
        elif public_version(version) == pinned:
            lines.append(f"{name} {version} 与固定版本一致 (as pinned)")
        else:
            wrong += 1
            lines.append(f"{name} {version} 与固定版本 {pinned} 不符 (pinned {pinned})")
    return lines, wrong


def lock_lines(environment: Checked, root: Path) -> tuple[list[str], int]:
    """How the installed packages differ from the environment's locks in ``root``, and how many
    differences there are. Without the locks (apimap installed as a library, a paddle release
    outside the matrix) a line says so; that is no finding."""
    paths = [lock_path(root, name) for name in environment.locks]
    if not all(path.is_file() for path in paths):
        missing = next(path for path in paths if not path.is_file())
        return [f"没有锁文件 (no lock) {missing.relative_to(root)}"], 0
    locked = {}
    try:
        for path in paths:
            locked.update(read_lock(path))
    except LockError as error:
        return [f"锁文件无法读取 (unreadable lock)：{error}"], 1
    shown = " + ".join(str(path.relative_to(root)) for path in paths)
    differences = []
    for name, package in sorted(locked.items()):
        version = environment.installed.get(name)
        if version is None:
            differences.append(f"缺少 (missing) {name} {package.version}")
        elif version != package.version:
            differences.append(f"{name} {version}（锁定 (locked) {package.version}）")
    extra = sorted(set(environment.installed) - set(locked) - {APIMAP})
    differences += [f"多出 (extra) {name} {environment.installed[name]}" for name in extra]
    if not differences:
        return [f"{shown}：{len(locked)} 个包与锁文件一致 (packages as locked)"], 0
    heading = f"{shown}：{len(differences)} 处与锁文件不同 (differences from the lock)"
    return [heading, *(f"  {difference}" for difference in differences)], len(differences)


def report(environments: list[Checked], root: Path) -> tuple[list[str], int]:
    """The lines ``apimap doctor`` prints after the versions, and the number of findings."""
    lines, findings = [], 0
    for environment in environments:
        lines.append(f"{environment.title}：{environment.prefix}")
        pinned, wrong = pin_lines(environment)
        locked, differences = lock_lines(environment, root)
        lines += [f"  {line}" for line in (*pinned, *locked)]
        findings += wrong + differences
    return lines, findings


def header() -> list[str]:
    """apimap's own versions and the pins."""
    vision = "、".join(f"{name} {version}" for name, version in VISION_PINS.items())
    return [
        f"apimap {__version__}",
        f"记录格式 (record format) {RECORD_FORMAT}",
        f"验证器版本 (verifier) {VERIFIER_VERSION}",
        "固定版本 (pins)：" + "、".join(f"{name} {version}" for name, version in PINS.items()),
        f"torchvision 记录 (torchvision records)：{vision}",
        "paddle 版本矩阵 (matrix)：" + "、".join(PADDLE_RELEASES),
    ]


def run(args: argparse.Namespace) -> int:
    """Print the report; exit 1 when a library is not at its pin or a package not as locked."""
    root = Path.cwd()
    environments = [this_environment()]
    python = vision_python()
    environments += [vision_environment(python)] if python else []
    environments += release_environments(dict.fromkeys([root, CHECKOUT]))
    lines, findings = report(environments, root if (root / "locks").is_dir() else CHECKOUT)
    if python is None:
        lines.append(f".venv-vision：未创建 (not created)，请运行 {VISION_SETUP}")
    print("\n".join([*header(), "", *lines]))
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def configure(parser: argparse.ArgumentParser) -> None:
    """``apimap doctor`` takes no arguments."""
    parser.set_defaults(handler=run)
