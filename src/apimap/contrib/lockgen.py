"""Write the lock files (``make lock``, ``python -m apimap.contrib.lockgen``).

Each environment's requirements come from ``pyproject.toml`` (apimap's dependencies, the
extras it installs, the build system's requirements) and from :mod:`apimap.record.pins` (the
paddle releases of the matrix). pip's own resolver picks the newest versions the ranges
allow, as ``pip install`` would, with this machine's pip configuration (the local CPU build
of torch, the cap on torch): ``pip install --dry-run --ignore-installed --report`` names every
package with the hash of the file it chose, and the lock keeps exactly that. So a lock is
for the interpreter and platform that wrote it, which its header names (CPython 3.11 on
Linux x86_64, what the Makefile and CI use); in hash-checking mode pip on any such machine
takes exactly those files.

The torch of ``.venv`` is written ``torch==<pin>+cpu``: only the CPU build satisfies it, so a
machine without a source for that build fails here instead of locking a CUDA build of several
GB. Every lock is resolved within the tools lock (pip, setuptools) and ``main`` within
``verify``, so the two locks of ``.venv`` agree on every package they share. Nothing is
written unless every lock resolved.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apimap.files.locks import (
    MAIN_LOCK,
    TOOLS_LOCK,
    VERIFY_LOCK,
    VISION_LOCK,
    Locked,
    lock_path,
    normalize,
    release_lock_name,
)
from apimap.record.pins import TORCH_VERSION
from apimap.verify.environments import older_releases, release_requirements

CPU_TORCH = f"torch=={TORCH_VERSION}+cpu"
"""The torch of ``.venv``: the CPU build, never a CUDA one."""
TOOLS = ("pip",)
"""What the tools lock holds besides the build system's requirements."""


@dataclass(frozen=True)
class Spec:
    """What one lock holds."""

    name: str
    describes: str
    """The environment, for the lock's header."""
    requirements: tuple[str, ...]
    constrained_by: tuple[str, ...] = ()
    """Locks (resolved before this one) whose versions this one keeps."""


def specs(pyproject: dict[str, Any]) -> list[Spec]:
    """Every lock, in the order they are resolved."""
    project = pyproject["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    build: list[str] = pyproject["build-system"]["requires"]
    core: list[str] = project["dependencies"]

    def chosen(*names: str) -> tuple[str, ...]:
        return tuple(requirement for name in names for requirement in extras[name])

    releases = [
        Spec(
            release_lock_name(version),
            f".venv-paddle-{version} for apimap verify --matrix: paddle {version} and the "
            "dataset packages",
            tuple(release_requirements(version)),
            (TOOLS_LOCK,),
        )
        for version in older_releases()
    ]
    return [
        Spec(
            TOOLS_LOCK,
            "pip and setuptools, installed first into every environment",
            (*TOOLS, *build),
        ),
        Spec(
            VERIFY_LOCK,
            ".venv for `make test`: apimap's dependencies, the dev, site, browser and verify "
            "extras, the CPU build of torch",
            (*core, *chosen("dev", "site", "browser", "verify"), CPU_TORCH),
            (TOOLS_LOCK,),
        ),
        Spec(
            MAIN_LOCK,
            ".venv for `make main`: apimap's dependencies, the dev, site and browser extras "
            "(the same versions as verify.txt)",
            (*core, *chosen("dev", "site", "browser")),
            (TOOLS_LOCK, VERIFY_LOCK),
        ),
        Spec(
            VISION_LOCK,
            ".venv-vision: apimap's dependencies and the vision extra",
            (*core, *chosen("vision")),
            (TOOLS_LOCK,),
        ),
        *releases,
    ]


class ResolveError(RuntimeError):
    """pip could not resolve a lock's requirements."""


@dataclass(frozen=True)
class Resolved:
    """A resolved lock: its packages and the environment pip resolved for."""

    packages: list[Locked]
    environment: dict[str, str]


def resolve(requirements: tuple[str, ...], constraints: list[Locked]) -> Resolved:
    """What ``pip install`` would install for ``requirements`` here, within ``constraints``."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed"]
        command += ["--quiet", "--report", str(report)]
        if constraints:
            constraint_file = Path(folder) / "constraints.txt"
            constraint_file.write_text(
                "".join(f"{package.name}=={package.version}\n" for package in constraints),
                encoding="utf-8",
            )
            command += ["--constraint", str(constraint_file)]
        done = subprocess.run([*command, *requirements], capture_output=True, text=True)
        if done.returncode != 0:
            raise ResolveError(done.stderr.strip() or done.stdout.strip())
        data = json.loads(report.read_text(encoding="utf-8"))
    return Resolved(
        sorted((_locked(item) for item in data["install"]), key=lambda package: package.name),
        data["environment"],
    )


def _locked(item: dict[str, Any]) -> Locked:
    """A package of pip's installation report, with the hash of the file pip chose."""
    name = normalize(item["metadata"]["name"])
    digest = item["download_info"].get("archive_info", {}).get("hashes", {}).get("sha256")
    if digest is None:
        raise ResolveError(f"{name}: pip 未给出文件的 sha256 (no hash for the file pip chose)")
    return Locked(name, item["metadata"]["version"], (digest,))


def render(spec: Spec, resolved: Resolved) -> str:
    """The lock file's text."""
    environment = resolved.environment
    header = [
        f"# {spec.describes}.",
        "# Written by `make lock` (python -m apimap.contrib.lockgen) from pyproject.toml and",
        "# src/apimap/record/pins.py; do not edit. Install with pip install --require-hashes -r.",
        f"# For {environment['platform_python_implementation']} {environment['python_version']} on "
        f"{environment['sys_platform']} {environment['platform_machine']}: each hash is the "
        "file pip takes there.",
    ]
    lines = [line for package in resolved.packages for line in package.lines()]
    return "\n".join([*header, *_continued(lines)]) + "\n"


def _continued(lines: list[str]) -> list[str]:
    """Requirement lines with a ``\\`` wherever a hash line follows."""
    return [
        f"{line} \\" if index + 1 < len(lines) and lines[index + 1].startswith(" ") else line
        for index, line in enumerate(lines)
    ]


def generate(root: Path) -> dict[Path, str]:
    """Every lock's path and text, resolved from ``root``'s ``pyproject.toml``."""
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    resolved: dict[str, Resolved] = {}
    texts: dict[Path, str] = {}
    for spec in specs(pyproject):
        print(f"锁定 (locking) {spec.name}", file=sys.stderr)
        constraints = [
            package for name in spec.constrained_by for package in resolved[name].packages
        ]
        resolved[spec.name] = resolve(spec.requirements, constraints)
        texts[lock_path(root, spec.name)] = render(spec, resolved[spec.name])
    return texts


def write(texts: dict[Path, str]) -> None:
    """Write every lock (each atomically) and remove lock files no spec names any more."""
    for folder in {path.parent for path in texts}:
        folder.mkdir(parents=True, exist_ok=True)
        for stale in set(folder.glob("*.txt")) - set(texts):
            stale.unlink()
    for path, text in texts.items():
        partial = path.with_suffix(".txt.partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)


def main() -> int:
    """Regenerate the locks of the checkout in the working directory."""
    try:
        texts = generate(Path.cwd())
    except ResolveError as error:
        print(f"无法生成锁文件 (cannot lock)：{error}", file=sys.stderr)
        return 1
    write(texts)
    for path in texts:
        print(path.relative_to(Path.cwd()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
