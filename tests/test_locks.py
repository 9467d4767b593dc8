"""The committed locks agree with pyproject.toml's ranges and with the pins, and pin every
package to one version and a file hash."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from apimap.contrib.lockgen import CPU_TORCH, Resolved, Spec, render, specs
from apimap.files.locks import (
    MAIN_LOCK,
    TOOLS_LOCK,
    VERIFY_LOCK,
    VISION_LOCK,
    Locked,
    LockError,
    lock_path,
    normalize,
    parse_lock,
    read_lock,
    release_lock_name,
)
from apimap.record.pins import (
    DATASET_PINS,
    PACKAGE_PINS,
    PADDLE_RELEASES,
    PADDLE_VERSION,
    TORCH_VERSION,
    TORCHVISION_VERSION,
    VISION_TORCH_VERSION,
)
from apimap.verify.environments import older_releases, release_locks

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SPECS = specs(PYPROJECT)
MARKERS = {
    "python_version": "3.11",
    "python_full_version": "3.11.7",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "os_name": "posix",
}
"""The environment the locks are for (their headers name it; test_ci_files ties CI to it)."""


def _lock(name: str) -> dict[str, Locked]:
    return read_lock(lock_path(ROOT, name))


def test_there_is_one_lock_per_environment_and_no_other() -> None:
    names = [spec.name for spec in SPECS]
    assert names[:5] == [TOOLS_LOCK, VERIFY_LOCK, MAIN_LOCK, VISION_LOCK, "paddle-3.0.0"]
    assert names[4:] == [release_lock_name(version) for version in PADDLE_RELEASES[:-1]]
    assert sorted((ROOT / "locks").iterdir()) == sorted(lock_path(ROOT, name) for name in names)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_every_lock_satisfies_its_ranges_and_is_for_cpython_311_on_linux(spec: Spec) -> None:
    text = lock_path(ROOT, spec.name).read_text(encoding="utf-8")
    assert "# For CPython 3.11 on linux x86_64" in text
    locked = parse_lock(text)
    assert locked and all(len(package.hashes) == 1 for package in locked.values())
    for line in spec.requirements:
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate(MARKERS):
            continue
        package = locked.get(normalize(requirement.name))
        assert package is not None, f"{spec.name}: {line} is not locked"
        assert requirement.specifier.contains(package.version, prereleases=True), (
            f"{spec.name}: {package.name}=={package.version} does not satisfy {line}"
        )
    for other in spec.constrained_by:  # the same version and file wherever two locks meet
        shared = locked.keys() & _lock(other).keys()
        assert all(locked[name] == _lock(other)[name] for name in shared), other


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_every_lock_is_written_as_make_lock_writes_it(spec: Spec) -> None:
    """No hand edits: the file is what the generator writes for the packages it lists."""
    text = lock_path(ROOT, spec.name).read_text(encoding="utf-8")
    packages = list(parse_lock(text).values())
    assert packages == sorted(packages, key=lambda package: package.name)
    assert render(spec, Resolved(packages, MARKERS)) == text


def test_the_requirements_come_from_pyproject() -> None:
    by_name = {spec.name: spec.requirements for spec in SPECS}
    project = PYPROJECT["project"]
    extras = project["optional-dependencies"]
    core = project["dependencies"]
    assert set(by_name[TOOLS_LOCK]) == {"pip", *PYPROJECT["build-system"]["requires"]}
    assert set(by_name[MAIN_LOCK]) == {*core, *extras["dev"], *extras["site"], *extras["browser"]}
    assert set(by_name[VERIFY_LOCK]) == {*by_name[MAIN_LOCK], *extras["verify"], CPU_TORCH}
    assert set(by_name[VISION_LOCK]) == {*core, *extras["vision"]}


def test_the_locks_hold_the_pinned_libraries() -> None:
    tools, main, verify, vision = (
        _lock(name) for name in (TOOLS_LOCK, MAIN_LOCK, VERIFY_LOCK, VISION_LOCK)
    )
    assert verify["torch"].version == f"{TORCH_VERSION}+cpu"  # the CPU build, never CUDA
    assert not any(name.startswith("nvidia-") for name in verify)
    assert verify["paddlepaddle"].version == PADDLE_VERSION
    for name, version in PACKAGE_PINS.items():
        assert verify[name].version == version
    assert {"torch", "paddlepaddle"}.isdisjoint(main)  # make main installs neither
    assert all(verify[name] == package for name, package in main.items())
    assert vision["torch"].version == VISION_TORCH_VERSION
    assert vision["torchvision"].version == TORCHVISION_VERSION
    assert vision["paddlepaddle"].version == PADDLE_VERSION
    for version in older_releases():
        release = _lock(release_lock_name(version))
        assert release["paddlepaddle"].version == version
        assert "torch" not in release
    for lock in (vision, *(_lock(release_lock_name(v)) for v in older_releases())):
        for name, version in DATASET_PINS.items():
            assert lock[name].version == version
    assert set(tools) == {"pip", "setuptools"}


def test_the_matrix_builds_each_older_release_from_its_lock() -> None:
    for version in older_releases():
        assert release_locks(version, ROOT) == (
            lock_path(ROOT, TOOLS_LOCK),
            lock_path(ROOT, release_lock_name(version)),
        )


HASH = "0" * 63 + "1"


def test_a_lock_is_read_with_its_continuation_lines_and_comments() -> None:
    text = f"# header\n\nJinja2==3.1.6 \\\n    --hash=sha256:{HASH} \\\n    --hash=sha256:{HASH[::-1]}\n"
    assert parse_lock(text) == {"jinja2": Locked("jinja2", "3.1.6", (HASH, HASH[::-1]))}


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("jinja2>=3.1 \\\n    --hash=sha256:" + HASH, 1),  # a range, not a pin
        ("# x\njinja2==3.1.6\n", 2),  # no hash
        ("jinja2==3.1.6 --hash=md5:" + HASH, 1),  # another algorithm
        ("jinja2==3.1.6 --hash=sha256:abc", 1),  # not a sha256 digest
        (f"-e .\njinja2==3.1.6 --hash=sha256:{HASH}", 1),  # an option
    ],
)
def test_a_requirement_that_is_not_pinned_and_hashed_is_refused_with_its_line(
    text: str, line: int
) -> None:
    with pytest.raises(LockError, match=rf"^lock:{line}: "):
        parse_lock(text)


def test_a_package_listed_twice_is_refused() -> None:
    text = f"a==1 --hash=sha256:{HASH}\nA==2 --hash=sha256:{HASH}\n"
    with pytest.raises(LockError, match=r"^lock:2: A 重复"):
        parse_lock(text)
