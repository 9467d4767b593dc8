"""``apimap doctor``: versions, and every environment against the pins and its lock, read from
metadata files without importing torch or paddle."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS
from apimap.files.stamps import VERIFIER_VERSION
from apimap.verify import doctor
from apimap.verify.doctor import (
    RECORD_FORMAT,
    Checked,
    installed,
    lock_lines,
    pin_lines,
    release_environments,
    site_packages,
)

ROOT = Path(__file__).resolve().parent.parent
HASH = "ab" * 32


def _venv(prefix: Path, **versions: str) -> Path:
    """A virtual environment at ``prefix`` holding only the metadata of ``versions``."""
    packages = prefix / "lib" / "python3.11" / "site-packages"
    for name, version in versions.items():
        info = packages / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir(parents=True)
        metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        (info / "METADATA").write_text(metadata, encoding="utf-8")
    packages.mkdir(parents=True, exist_ok=True)
    return prefix


def _locks(root: Path, **locks: dict[str, str]) -> Path:
    (root / "locks").mkdir(parents=True)
    for name, packages in locks.items():
        lines = [
            f"{package}=={version} --hash=sha256:{HASH}" for package, version in packages.items()
        ]
        (root / "locks" / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_the_installed_versions_are_read_from_metadata_files(tmp_path: Path) -> None:
    prefix = _venv(tmp_path / "env", torch="2.13.0+cpu", Jinja2="3.1.6", typing_extensions="4.1")
    assert installed(site_packages(prefix)) == {
        "torch": "2.13.0+cpu",
        "jinja2": "3.1.6",
        "typing-extensions": "4.1",
    }


def _checked(pins: dict[str, str], **versions: str) -> Checked:
    return Checked("env", Path("/env"), pins, versions, ("tools", "verify"))


def test_each_pinned_library_is_as_pinned_missing_or_wrong() -> None:
    environment = _checked(
        {"torch": "2.13.0", "paddle": "3.3.1", "torchvision": "0.29.1"},
        torch="2.13.0+cpu",
        paddlepaddle="3.2.2",
    )
    assert pin_lines(environment) == (
        [
            "torch 2.13.0+cpu 与固定版本一致 (as pinned)",
            "paddle 3.2.2 与固定版本 3.3.1 不符 (pinned 3.3.1)",
            "torchvision 未安装 (not installed)",
        ],
        1,
    )


def test_the_packages_are_compared_with_the_tools_lock_and_the_environments_lock(
    tmp_path: Path,
) -> None:
    root = _locks(tmp_path, tools={"pip": "26.3"}, verify={"torch": "2.13.0+cpu", "six": "1.17"})
    same = _checked({}, pip="26.3", torch="2.13.0+cpu", six="1.17", apimap="0.1.0")
    assert lock_lines(same, root) == (
        ["locks/tools.txt + locks/verify.txt：3 个包与锁文件一致 (packages as locked)"],
        0,
    )
    drifted = _checked({}, pip="26.3", torch="2.13.0", extra="1.0")
    assert lock_lines(drifted, root) == (
        [
            "locks/tools.txt + locks/verify.txt：3 处与锁文件不同 (differences from the lock)",
            "  缺少 (missing) six 1.17",
            "  torch 2.13.0（锁定 (locked) 2.13.0+cpu）",
            "  多出 (extra) extra 1.0",
        ],
        3,
    )


def test_without_the_lock_there_is_nothing_to_compare(tmp_path: Path) -> None:
    root = _locks(tmp_path, tools={"pip": "26.3"})
    assert lock_lines(_checked({}, pip="26.3"), root) == (
        ["没有锁文件 (no lock) locks/verify.txt"],
        0,
    )


def test_an_unreadable_lock_is_a_finding(tmp_path: Path) -> None:
    root = _locks(tmp_path, tools={"pip": "26.3"}, verify={})
    (root / "locks" / "verify.txt").write_text("six>=1\n", encoding="utf-8")
    lines, findings = lock_lines(_checked({}), root)
    assert findings == 1 and lines[0].startswith("锁文件无法读取 (unreadable lock)：")


def test_every_older_paddle_environment_is_found_once_oldest_first(tmp_path: Path) -> None:
    _venv(tmp_path / ".venv-paddle-3.10.0", paddlepaddle="3.10.0")
    _venv(tmp_path / ".venv-paddle-3.2.2", paddlepaddle="3.2.1")
    (tmp_path / ".venv-paddle-3.0.0").write_text("not a folder", encoding="utf-8")
    found = release_environments([tmp_path, tmp_path])
    assert [(item.title, item.pins, item.installed) for item in found] == [
        (".venv-paddle-3.2.2", {"paddle": "3.2.2"}, {"paddlepaddle": "3.2.1"}),
        (".venv-paddle-3.10.0", {"paddle": "3.10.0"}, {"paddlepaddle": "3.10.0"}),
    ]
    assert [item.locks for item in found] == [
        ("tools", "paddle-3.2.2"),
        ("tools", "paddle-3.10.0"),
    ]


def test_the_exit_code_says_whether_every_environment_is_as_pinned_and_locked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _locks(
        tmp_path,
        tools={"pip": "26.3"},
        main={"six": "1.17"},
        **{"paddle-3.0.0": {"paddlepaddle": "3.0.0"}},
    )
    monkeypatch.chdir(root)
    monkeypatch.setattr(doctor, "CHECKOUT", root)
    monkeypatch.setattr(doctor, "vision_python", lambda: None)
    this = Checked("当前环境 (this environment)", root / ".venv", {"torch": "2.13.0"}, {}, ())
    monkeypatch.setattr(
        doctor,
        "this_environment",
        lambda: Checked(
            this.title, this.prefix, this.pins, {"pip": "26.3", "six": "1.17"}, ("tools", "main")
        ),
    )
    release = _venv(root / ".venv-paddle-3.0.0", pip="26.3", paddlepaddle="3.0.0")
    assert doctor.run(argparse.Namespace()) == EXIT_CLEAN
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        "apimap 0.1.0",
        f"记录格式 (record format) {RECORD_FORMAT}",
        f"验证器版本 (verifier) {VERIFIER_VERSION}",
    ]
    assert out[7:] == [
        f"当前环境 (this environment)：{root / '.venv'}",
        "  torch 未安装 (not installed)",
        "  locks/tools.txt + locks/main.txt：2 个包与锁文件一致 (packages as locked)",
        f".venv-paddle-3.0.0：{release}",
        "  paddle 3.0.0 与固定版本一致 (as pinned)",
        "  locks/tools.txt + locks/paddle-3.0.0.txt：2 个包与锁文件一致 (packages as locked)",
        ".venv-vision：未创建 (not created)，请运行 make .venv-vision/.installed",
    ]
    (
        release / "lib" / "python3.11" / "site-packages" / "pip-26.3.dist-info" / "METADATA"
    ).write_text("Metadata-Version: 2.1\nName: pip\nVersion: 25.0\n", encoding="utf-8")
    assert doctor.run(argparse.Namespace()) == EXIT_FINDINGS


def test_the_command_imports_neither_torch_nor_paddle() -> None:
    code = (
        "import sys\n"
        "from apimap.cli import main\n"
        "main(['doctor'])\n"
        "print(sorted({'torch', 'paddle', 'torchvision'} & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "apimap 0.1.0" and lines[-1] == "[]", done.stderr


def test_the_record_format_is_the_one_the_model_and_the_readme_name() -> None:
    model = (ROOT / "src" / "apimap" / "record" / "model.py").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"(record format {RECORD_FORMAT})" in model.splitlines()[0]
    assert f"## 记录 / Records (record format {RECORD_FORMAT})" in readme
