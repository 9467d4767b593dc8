"""``make lock``: pip's installation report becomes a lock; nothing is written unless every lock
resolved. pip itself is replaced by a stand-in that writes a report (no network in tests)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from apimap.contrib import lockgen
from apimap.contrib.lockgen import Resolved, ResolveError, Spec, render, resolve, write
from apimap.files.locks import Locked, parse_lock

ROOT = Path(__file__).resolve().parent.parent
ENVIRONMENT = {
    "platform_python_implementation": "CPython",
    "python_version": "3.11",
    "sys_platform": "linux",
    "platform_machine": "x86_64",
}


def _item(name: str, version: str, digest: str | None) -> dict[str, Any]:
    archive = {"hashes": {"sha256": digest}} if digest else {}
    return {
        "metadata": {"name": name, "version": version},
        "download_info": {"url": f"https://files.example/{name}.whl", "archive_info": archive},
    }


def _fake_pip(monkeypatch: pytest.MonkeyPatch, items: list[dict[str, Any]]) -> list[list[str]]:
    """Make pip's dry run write a report of ``items``; record each command and its constraints."""
    seen: list[list[str]] = []

    def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        seen.append(list(command))
        if "--constraint" in command:
            constraints = Path(command[command.index("--constraint") + 1])
            seen.append(constraints.read_text(encoding="utf-8").splitlines())
        report = Path(command[command.index("--report") + 1])
        report.write_text(
            json.dumps({"install": items, "environment": ENVIRONMENT}), encoding="utf-8"
        )
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(lockgen.subprocess, "run", run)
    return seen


def test_a_lock_keeps_the_version_and_the_hash_of_the_file_pip_chose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _fake_pip(
        monkeypatch,
        [_item("Jinja2", "3.1.6", "a" * 64), _item("MarkupSafe", "3.0.4", "b" * 64)],
    )
    resolved = resolve(("jinja2>=3.1",), [Locked("markupsafe", "3.0.4", ("b" * 64,))])
    assert resolved.packages == [
        Locked("jinja2", "3.1.6", ("a" * 64,)),
        Locked("markupsafe", "3.0.4", ("b" * 64,)),
    ]
    command, constraints = seen
    assert command[1:6] == ["-m", "pip", "install", "--dry-run", "--ignore-installed"]
    assert command[-1] == "jinja2>=3.1"
    assert constraints == ["markupsafe==3.0.4"]


def test_a_package_without_a_hash_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_pip(monkeypatch, [_item("six", "1.17.0", None)])
    with pytest.raises(ResolveError, match="six"):
        resolve(("six",), [])


def test_a_failed_resolution_says_what_pip_said(monkeypatch: pytest.MonkeyPatch) -> None:
    def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "ERROR: No matching distribution")

    monkeypatch.setattr(lockgen.subprocess, "run", run)
    with pytest.raises(ResolveError, match="No matching distribution"):
        resolve(("torch==2.13.0+cpu",), [])


def test_the_written_lock_reads_back_as_resolved() -> None:
    packages = [Locked("jinja2", "3.1.6", ("a" * 64,)), Locked("torch", "2.13.0+cpu", ("b" * 64,))]
    text = render(Spec("verify", ".venv for tests", ()), Resolved(packages, ENVIRONMENT))
    assert text.splitlines()[0] == "# .venv for tests."
    assert "# For CPython 3.11 on linux x86_64: each hash is the file pip takes there." in text
    assert "jinja2==3.1.6 \\\n    --hash=sha256:" + "a" * 64 + "\ntorch==" in text
    assert list(parse_lock(text).values()) == packages


def test_main_is_resolved_within_verify_and_every_lock_within_the_tools(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    calls: list[tuple[tuple[str, ...], list[str]]] = []

    def fake(requirements: tuple[str, ...], constraints: list[Locked]) -> Resolved:
        calls.append((requirements, [package.name for package in constraints]))
        name = f"from-{len(calls)}"
        return Resolved([Locked(name, "1", ("c" * 64,))], ENVIRONMENT)

    monkeypatch.setattr(lockgen, "resolve", fake)
    texts = lockgen.generate(tmp_path)
    names = [path.name for path in texts]
    assert names[:4] == ["tools.txt", "verify.txt", "main.txt", "vision.txt"]
    assert [constraints for _, constraints in calls[:4]] == [
        [],
        ["from-1"],
        ["from-1", "from-2"],
        ["from-1"],
    ]
    assert not (tmp_path / "locks").exists()  # generate only resolves; write writes


def test_writing_replaces_every_lock_and_removes_one_no_environment_needs(tmp_path: Path) -> None:
    locks = tmp_path / "locks"
    locks.mkdir()
    (locks / "paddle-2.6.0.txt").write_text("old\n", encoding="utf-8")
    (locks / "main.txt").write_text("old\n", encoding="utf-8")
    write({locks / "main.txt": "new main\n", locks / "tools.txt": "new tools\n"})
    assert sorted(path.name for path in locks.iterdir()) == ["main.txt", "tools.txt"]
    assert (locks / "main.txt").read_text(encoding="utf-8") == "new main\n"


def test_nothing_is_written_when_a_lock_does_not_resolve(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "locks").mkdir()
    (tmp_path / "locks" / "tools.txt").write_text("kept\n", encoding="utf-8")
    resolved = Resolved([Locked("pip", "26.3", ("d" * 64,))], ENVIRONMENT)

    def fake(requirements: tuple[str, ...], constraints: list[Locked]) -> Resolved:
        if any(requirement.startswith("torch") for requirement in requirements):
            raise ResolveError("No matching distribution found for torch==2.13.0+cpu")
        return resolved

    monkeypatch.setattr(lockgen, "resolve", fake)
    monkeypatch.chdir(tmp_path)
    assert lockgen.main() == 1
    assert "torch==2.13.0+cpu" in capsys.readouterr().err
    assert [path.name for path in (tmp_path / "locks").iterdir()] == ["tools.txt"]
    assert (tmp_path / "locks" / "tools.txt").read_text(encoding="utf-8") == "kept\n"
