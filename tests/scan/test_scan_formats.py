"""The report formats and the command line: JSON shape, HTML escaping, exit codes."""

from __future__ import annotations

import io
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from scan_fixtures import CORPUS, HOSTILE_NAME

from apimap.cli import main
from apimap.files.surface import Surface
from apimap.survey.scan.classify import Classifier
from apimap.survey.scan.progress import ProgressBar
from apimap.survey.scan.report import ScanReport
from apimap.survey.scan.runner import scan_paths
from apimap.survey.scan.write_html import write_html
from apimap.survey.scan.write_markdown import write_markdown
from apimap.survey.scan.write_text import write_text

MINI = {
    "app/__init__.py": b"",
    "app/model.py": (
        b"import torch\nfrom torch import nn\n\n\n"
        b"class Net(nn.Module):\n"
        b"    def forward(self, x):\n"
        b"        return torch.abs(x).view(-1)\n"
    ),
}


def _mini(root: Path) -> Path:
    for name, content in MINI.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    return root / "app"


def test_json_document_is_exact(
    tmp_path: Path, surface: Surface, classifier: Classifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _mini(tmp_path)
    report = scan_paths([Path("app")], surface, classifier, site_url="https://x.invalid/")
    empty = {"apis": 0, "uses": 0, "calls": 0}
    assert report.to_json() == {
        "format": "apimap-scan",
        "version": 1,
        "surface": {"torch": "2.13.0", "torchvision": "0.29.1"},
        "paths": ["app"],
        "files": {"scanned": 2, "using_torch": 1, "problems": 0},
        "summary": {
            "apis": {
                "identical": {"apis": 1, "uses": 1, "calls": 1},
                "rename": empty,
                "rewrite": empty,
                "other_package": empty,
                "missing": empty,
                "unknown": {"apis": 1, "uses": 1, "calls": 0},
            },
            "tensor_methods": {
                "identical": empty,
                "rename": empty,
                "rewrite": empty,
                "other_package": empty,
                "missing": empty,
                "unknown": {"apis": 1, "uses": 1, "calls": 1},
            },
        },
        "apis": [
            {
                "api": "torch.abs",
                "uses": 1,
                "calls": 1,
                "references": 0,
                "bucket": "identical",
                "public": True,
                "category": {"id": "identical", "label": "参数完全一致", "group": 1},
                "record": "torch.abs",
                "via": None,
                "page": "https://x.invalid/api/torch.abs.html",
                "files": [{"path": "app/model.py", "first_line": 7, "lines": [7]}],
            },
            {
                "api": "torch.nn.Module",
                "uses": 1,
                "calls": 0,
                "references": 1,
                "bucket": "unknown",
                "public": True,
                "category": None,
                "record": None,
                "via": None,
                "page": None,
                "files": [{"path": "app/model.py", "first_line": 5, "lines": [5]}],
            },
        ],
        "tensor_methods": [
            {
                "api": "torch.Tensor.view",
                "method": "view",
                "confidence": "high",
                "uses": 1,
                "calls": 1,
                "references": 0,
                "bucket": "unknown",
                "public": True,
                "category": None,
                "record": None,
                "via": None,
                "page": None,
                "files": [{"path": "app/model.py", "first_line": 7, "lines": [7]}],
            }
        ],
        "problems": [],
    }


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links += [value or "" for name, value in attrs if name == "href"]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_is_self_contained_and_escapes_the_scanned_code(report: ScanReport) -> None:
    out = io.StringIO()
    write_html(report, out)
    page = out.getvalue()
    parser = _Collector()
    parser.feed(page)
    assert "img" not in parser.tags
    assert set(parser.tags) <= {
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "div", "input",
        "table", "thead", "tbody", "tr", "th", "td", "a", "code", "span", "ul", "li", "script",
    }  # fmt: skip
    text = "".join(parser.text)
    assert f"proj/{HOSTILE_NAME}:2" in text
    assert "http" not in " ".join(parser.links)  # no CDN, links are relative pages
    assert "api/torch.nn.%5EConv2d.html" in parser.links
    assert parser.tags.count("table") == 2 and "script" in parser.tags
    assert "需要转写 (rewrite: categories 2–5)" in text


def test_markdown_and_text_key_lines(report: ScanReport) -> None:
    markdown = io.StringIO()
    write_markdown(report, markdown)
    lines = markdown.getvalue().splitlines()
    assert "| 功能缺失 \\(no counterpart\\) | 1 | 1 | 1 |" in lines
    assert (
        "| [torch.nn.Conv2d](api/torch.nn.%5EConv2d.html) | 4 | 4 | paddle 参数更多 "
        "| proj/imports.py:14 |  |"
    ) in lines
    assert (
        "| torch.manual\\_seed | 1 | 1 | - | proj/&lt;img src=x onerror=alert\\(1\\)&gt;.py:2 "
        "| ? 知识库未收录 \\(no record\\) |"
    ) in lines
    text = io.StringIO()
    write_text(report, text, limit=3)
    out = text.getvalue()
    assert "扫描了 16 个文件，13 个使用 torch/torchvision，3 个无法分析" in out
    assert "       1          1           1  功能缺失 (no counterpart)" in out
    assert "       5      5  torch.nn.functional.relu  [-]  proj/imports.py:15" in out
    assert "proj/latin1.py:1:1: encoding:" in out
    assert "…另有" in out


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["scan", "--mappings", str(CORPUS), "--no-progress", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_exit_codes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run([str(project)], capsys)[0] == 0
    code, _, err = _run([str(project), "--fail-on", "missing"], capsys)
    assert code == 1 and "--fail-on missing: 1 API" in err
    assert _run([str(project), "--fail-on", "error,unknown"], capsys)[0] == 1
    assert _run([str(project / "pkg"), "--fail-on", "missing,error,other_package"], capsys)[0] == 0
    assert _run([str(project), "--fail-on", "nonsense"], capsys)[0] == 2
    assert _run(["does-not-exist"], capsys)[0] == 2
    code, _, err = _run([str(project), "--mappings", "nowhere"], capsys)
    assert code == 2 and "无法读取记录" in err


def test_out_file_and_formats(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("text", "markdown", "json", "html"):
        target = Path(f"report.{fmt}")
        code, out, err = _run([str(project), "--format", fmt, "--out", str(target)], capsys)
        assert code == 0 and out == "" and "已写入" in err
        assert target.stat().st_size > 500
    document = json.loads(Path("report.json").read_text(encoding="utf-8"))
    assert document["format"] == "apimap-scan" and document["files"]["problems"] == 3
    again = io.StringIO()
    code, out, _ = _run([str(project), "--format", "json"], capsys)
    again.write(out)
    assert again.getvalue() == Path("report.json").read_text(encoding="utf-8")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    assert not ProgressBar.wanted(io.StringIO())
    terminal = _Terminal()
    assert ProgressBar.wanted(terminal)
    bar = ProgressBar(terminal)
    bar(1, 4)
    bar(2, 4)  # within a tenth of a second: not redrawn
    bar(4, 4)  # the last one always is
    bar.close()
    drawn = terminal.getvalue()
    assert drawn.count("扫描 (scanning)") == 2
    assert "[#######.......................] 1/4" in drawn and "4/4" in drawn
    assert drawn.endswith("\r")
