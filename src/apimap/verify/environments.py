"""Where each side of a record runs: the Python environments and the versions pinned for them.

* PyTorch records: torch 2.13.0 in the main environment (the interpreter running apimap);
* torchvision records: torch 2.14.1 with torchvision 0.29.1 in ``.venv-vision``
  (``$APIMAP_VISION_PYTHON``), because torchvision 0.29.1 needs torch 2.14.1, which cannot
  share an environment with the pinned torch 2.13.0;
* the paddle side of every record: paddle 3.3.1 in the main environment;
* for ``apimap verify --matrix``, each older paddle release in ``.venv-paddle-<version>``
  (paddle and NumPy only), created on first use from ``locks/paddle-<version>.txt`` and kept.

Workers import only their side's library, so the torchvision environment needs no paddle and
the paddle release environments need no torch; the worker code comes from this checkout
through ``PYTHONPATH``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from apimap.files.locks import TOOLS_LOCK, lock_path, release_lock_name
from apimap.record.pins import (
    PADDLE_RELEASES,
    PADDLE_VERSION,
    RELEASE_PINS,
    TORCH_VERSION,
    TORCHVISION_VERSION,
    VISION_PREFIX,
    VISION_TORCH_VERSION,
)

VISION_PYTHON_VARIABLE = "APIMAP_VISION_PYTHON"
DEFAULT_VISION_PYTHON = Path(".venv-vision/bin/python")
VISION_SETUP = "make .venv-vision/.installed"
CHECKOUT = Path(__file__).resolve().parents[3]
"""The source checkout apimap runs from (an editable install)."""


@dataclass(frozen=True)
class Environment:
    """An interpreter, the side it runs, and the versions it must have."""

    name: str
    python: str | None
    """``None``: the environment does not exist on this machine."""
    side: str
    pins: dict[str, str]
    setup: str
    """The command that creates it."""


def vision_python() -> str | None:
    """The interpreter that has torchvision: ``$APIMAP_VISION_PYTHON``, else ``.venv-vision``
    in the working directory or in the checkout apimap runs from."""
    configured = os.environ.get(VISION_PYTHON_VARIABLE)
    if configured:
        return configured if Path(configured).is_file() else None
    for candidate in (Path.cwd() / DEFAULT_VISION_PYTHON, CHECKOUT / DEFAULT_VISION_PYTHON):
        if candidate.is_file():
            return str(candidate)
    return None


MAIN_TORCH = "torch"
VISION_TORCH = "torchvision"
MAIN_PADDLE = "paddle"


def environments() -> dict[str, Environment]:
    """Every environment a verification may need."""
    here = sys.executable
    return {
        MAIN_TORCH: Environment(
            MAIN_TORCH, here, "torch", {"torch": TORCH_VERSION}, "pip install -e '.[verify]'"
        ),
        VISION_TORCH: Environment(
            VISION_TORCH,
            vision_python(),
            "torch",
            {"torch": VISION_TORCH_VERSION, "torchvision": TORCHVISION_VERSION},
            VISION_SETUP,
        ),
        MAIN_PADDLE: Environment(
            MAIN_PADDLE, here, "paddle", {"paddle": PADDLE_VERSION}, "pip install -e '.[verify]'"
        ),
    }


RELEASE_PREFIX = "paddle=="


def release_environment_name(version: str) -> str:
    """``3.0.0`` -> ``paddle==3.0.0`` (the pinned release is :data:`MAIN_PADDLE`)."""
    return MAIN_PADDLE if version == PADDLE_VERSION else RELEASE_PREFIX + version


def older_releases() -> list[str]:
    """The releases of the matrix other than the pinned one, oldest first."""
    return [version for version in PADDLE_RELEASES if version != PADDLE_VERSION]


def release_folder(version: str, root: Path | None = None) -> Path:
    """Where the environment of ``version`` lives: ``.venv-paddle-<version>``."""
    return (root or Path.cwd()) / f".venv-paddle-{version}"


def release_environment(version: str, root: Path | None = None) -> Environment:
    """The environment that runs the paddle side on ``version`` (``python`` is ``None``
    until :func:`create_release_environment` made it)."""
    python = release_folder(version, root) / "bin" / "python"
    return Environment(
        release_environment_name(version),
        str(python) if python.is_file() else None,
        "paddle",
        {"paddle": version},
        f"apimap verify --matrix（创建 {release_folder(version, root).name}）",
    )


class EnvironmentSetupError(RuntimeError):
    """An environment could not be created (no network, pip failed)."""


def release_requirements(version: str) -> list[str]:
    """What ``.venv-paddle-<version>`` holds: that paddle and the :data:`RELEASE_PINS`
    (``locks/paddle-<version>.txt`` pins them and what they need)."""
    pins = (f"{name}=={pinned}" for name, pinned in sorted(RELEASE_PINS.items()))
    return [f"paddlepaddle=={version}", *pins]


LOCKED_INSTALL = ["install", "-q", "--require-hashes", "--no-build-isolation", "-r"]
"""pip's arguments before a lock file (the Makefile installs its environments so too)."""


def release_locks(version: str, root: Path | None = None) -> tuple[Path, Path] | None:
    """The tools lock and ``locks/paddle-<version>.txt`` of the checkout in ``root`` (the
    working directory) or of the one apimap runs from; ``None`` outside a checkout (apimap
    installed as a library)."""
    for base in (root or Path.cwd(), CHECKOUT):
        tools, lock = lock_path(base, TOOLS_LOCK), lock_path(base, release_lock_name(version))
        if tools.is_file() and lock.is_file():
            return tools, lock
    return None


def create_release_environment(version: str, root: Path | None = None) -> Environment:
    """Create ``.venv-paddle-<version>`` from its :func:`release_locks` (outside a checkout:
    from :func:`release_requirements`) unless its ``.installed`` marker says it holds them
    already; after a lock change it is made anew, so that it holds exactly the lock.
    Progress goes to stderr. Raises :class:`EnvironmentSetupError`."""
    folder = release_folder(version, root)
    python = folder / "bin" / "python"
    marker = folder / ".installed"
    locks = release_locks(version, root)
    if locks is not None:
        installs = [[*LOCKED_INSTALL, str(lock)] for lock in locks]
        wanted = "".join(lock.read_text(encoding="utf-8") for lock in locks)
        shown = str(locks[1].relative_to(locks[1].parents[1]))
    else:
        requirements = release_requirements(version)
        installs = [["install", "-q", *requirements]]
        wanted = "".join(f"{requirement}\n" for requirement in requirements)
        shown = " ".join(requirements)
    installed = marker.read_text(encoding="utf-8") if marker.is_file() else None
    if installed != wanted:
        print(f"创建 (creating) {folder.name}：{shown}", file=sys.stderr)
        steps = [[sys.executable, "-m", "venv", "--clear", str(folder)]]
        steps += [[str(python), "-m", "pip", *install] for install in installs]
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
                raise EnvironmentSetupError(
                    f"无法创建 {folder.name} (cannot create the environment)：{' '.join(tail)}"
                )
        marker.write_text(wanted, encoding="utf-8")
    return release_environment(version, root)


def torch_environment(api: str) -> str:
    """Which environment runs the torch side of ``api``."""
    return VISION_TORCH if api.startswith(VISION_PREFIX) else MAIN_TORCH


class EnvironmentMismatch(RuntimeError):
    """The installed libraries are not the pinned versions."""


def check_versions(environment: Environment, installed: dict[str, str]) -> None:
    """Raise :class:`EnvironmentMismatch` unless the installed versions are the pinned ones."""
    wrong = {
        name: installed.get(name, "未安装 (missing)")
        for name, pinned in environment.pins.items()
        if installed.get(name) != pinned
    }
    if wrong:
        listed = "，".join(
            f"{name} {version}（固定为 {environment.pins[name]}）"
            for name, version in wrong.items()
        )
        raise EnvironmentMismatch(
            f"{environment.name} 环境的版本与固定版本不符 (installed versions differ from the "
            f"pins)：{listed}；请运行 {environment.setup}"
        )


class VerificationUnavailable(RuntimeError):
    """The libraries a verification needs are not installed in the interpreter running it."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__("、".join(missing))
        self.missing = missing


def missing_here(names: Iterable[str], known: dict[str, Environment]) -> list[str]:
    """The pinned libraries of the environments ``names`` that run in this interpreter (the
    main torch and paddle sides) and are not installed in it; looked up without importing."""
    missing = {
        library
        for name in names
        if known[name].python == sys.executable
        for library in known[name].pins
        if importlib.util.find_spec(library) is None
    }
    return sorted(missing)
