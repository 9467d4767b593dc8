"""``apimap render`` and ``apimap build`` as a user runs them: messages and exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from apimap.cli import main
from conftest import CORPUS, ROOT, copy_corpus


def test_render_writes_then_leaves_unchanged_files_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "generated"
    arguments = ["render", "--mappings", str(CORPUS), "--out", str(out)]
    assert main(arguments) == 0
    assert (out / "api" / "torch.nn.^Conv2d.html").is_file()  # the page's article
    assert (out / "tables.md").is_file()  # Sphinx's stub
    assert "写入 " in capsys.readouterr().out
    assert main(arguments) == 0
    assert "写入 0 个" in capsys.readouterr().out


def test_render_refuses_a_folder_it_does_not_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    (tmp_path / "keep.txt").write_text("x", encoding="utf-8")
    assert main(["render", "--mappings", str(CORPUS), "--out", str(tmp_path)]) == 1
    assert "拒绝覆盖" in capsys.readouterr().err
    assert (tmp_path / "keep.txt").is_file()


def test_render_outside_the_repository_explains_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["render", "--mappings", str(CORPUS)]) == 1
    assert "找不到模板目录" in capsys.readouterr().err


def test_build_stops_on_a_broken_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    mappings = copy_corpus(tmp_path)
    (mappings / "torch" / "torch.abs.yaml").write_text("torch_api: [\n", encoding="utf-8")
    monkeypatch.chdir(ROOT)
    code = main(
        [
            "build",
            "--mappings",
            str(mappings),
            "--generated",
            str(tmp_path / "generated"),
            "--html",
            str(tmp_path / "html"),
            "--cache-dir",
            str(tmp_path / "cache"),
        ]
    )
    assert code == 1
    output = capsys.readouterr().out
    assert "AM002" in output and "已停止构建" in output
    assert not (tmp_path / "html").exists()
