"""Rendering the whole site: refusals, determinism, incremental writes, generated pages."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from apimap.checking import corpus as corpus_module
from apimap.checking.corpus import CorpusError, load_entries
from apimap.checking.rules.registry import ALL_RULES, fixtures
from apimap.publish.site import views as views_module
from apimap.publish.site.chart import NamespaceCounts, coverage_svg
from apimap.publish.site.names import INDEX_SCRIPT
from apimap.publish.site.site import render_site
from apimap.publish.site.writer import MARKER, OutputFolderError, sync_tree
from apimap.record.pages import api_docname
from conftest import CORPUS, copy_corpus, corpus_sources


def test_two_renders_are_byte_identical(rendered: dict[str, bytes]) -> None:
    assert render_site(corpus_sources()) == rendered


def test_missing_records_get_no_page_but_a_row_with_the_reason(
    rendered: dict[str, bytes],
) -> None:
    assert not any("pack_padded_sequence" in name for name in rendered if name.startswith("api/"))
    tables = rendered["tables.md"].decode()
    missing = tables[tables.index("## 功能缺失") :]
    assert "torch.nn.utils.rnn.pack\\_padded\\_sequence" not in missing
    assert "torch.nn.utils.rnn.pack_padded_sequence" in missing
    assert "PackedSequence" in missing


def test_alias_rows_point_at_the_record_page(rendered: dict[str, bytes]) -> None:
    tables = rendered["tables.md"].decode()
    row = next(line for line in tables.splitlines() if "| torch.absolute |" in line)
    assert "`torch.abs` 的别名" in row
    assert "(api/torch.abs.md)" in row


def test_pages_link_to_case_safe_names(rendered: dict[str, bytes]) -> None:
    assert "api/torch.nn.^Batch^Norm1d.md" in rendered
    assert "](api/torch.nn.^Batch^Norm1d.md)" in rendered["tables.md"].decode()


def test_an_api_listed_twice_is_an_error(tmp_path: Path) -> None:
    mappings = copy_corpus(tmp_path)
    softmax = mappings / "torch" / "nn" / "torch.nn.^Softmax.yaml"
    text = softmax.read_text(encoding="utf-8")
    softmax.write_text(text + "torch_aliases:\n  - torch.absolute\n", encoding="utf-8")
    with pytest.raises(CorpusError) as raised:
        render_site(corpus_sources(mappings))
    assert any("torch.absolute" in problem for problem in raised.value.problems)


def test_the_same_record_twice_is_an_error(tmp_path: Path) -> None:
    mappings = copy_corpus(tmp_path)
    copy = mappings / "elsewhere" / "torch.abs.yaml"
    copy.parent.mkdir()
    shutil.copy(mappings / "torch" / "torch.abs.yaml", copy)
    with pytest.raises(CorpusError, match=r"torch\.abs"):
        load_entries(mappings)


def test_a_broken_file_is_reported_not_raised(tmp_path: Path) -> None:
    mappings = copy_corpus(tmp_path)
    (mappings / "torch" / "torch.broken.yaml").write_text("torch_api: [\n", encoding="utf-8")
    with pytest.raises(CorpusError) as raised:
        load_entries(mappings)
    assert raised.value.problems[0].startswith(str(mappings / "torch" / "torch.broken.yaml"))
    assert "AM002" in raised.value.problems[0]


def test_sync_writes_only_changed_files_and_removes_stale_ones(
    tmp_path: Path, rendered: dict[str, bytes]
) -> None:
    out = tmp_path / "generated"
    first = sync_tree(out, rendered)
    assert len(first.written) == len(rendered)
    page = out / "api" / "torch.abs.md"
    old = page.stat().st_mtime_ns - 10**9
    os.utime(page, ns=(old, old))
    changed = dict(rendered)
    changed["index.md"] = rendered["index.md"] + b"\n"
    del changed["api/torch.clamp.md"]
    second = sync_tree(out, changed)
    assert second.written == ["index.md"]
    assert second.removed == ["api/torch.clamp.md"]
    assert page.stat().st_mtime_ns == old
    assert not (out / "api" / "torch.clamp.md").exists()


def test_sync_refuses_a_folder_it_does_not_own(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(OutputFolderError):
        sync_tree(tmp_path, {"index.md": b"x"})
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / MARKER).exists()


def test_rules_page_lists_every_rule_with_its_first_bad_fixture(
    rendered: dict[str, bytes],
) -> None:
    page = rendered["rules.md"].decode()
    for rule in ALL_RULES:
        assert f"## {rule.code} " in page
    first_bad = next(path for path in fixtures("AM201") if path.name.startswith("bad"))
    assert f"`{first_bad.name}`" in page
    assert first_bad.read_text(encoding="utf-8").splitlines()[1] in page
    assert "为了数值稳定" not in page
    assert "`apimap check --fix` 会填写或改正推导出的分类" in page


def test_filter_index_lists_records_and_aliases(rendered: dict[str, bytes]) -> None:
    script = rendered[INDEX_SCRIPT].decode()
    prefix = "window.APIMAP_INDEX = "
    assert script.startswith(prefix)
    items = json.loads(script[len(prefix) :].rstrip().rstrip(";"))
    by_api = {item["api"]: item for item in items}
    assert len(items) == len(load_entries(CORPUS)) + 2  # two aliases in the corpus
    assert by_api["torch.absolute"]["alias_of"] == "torch.abs"
    assert by_api["torch.nn.BatchNorm1d"]["page"] == "api/torch.nn.%5EBatch%5ENorm1d.html"
    assert by_api["torch.nn.utils.rnn.pack_padded_sequence"]["page"] == ""


def test_home_page_counts_per_category_and_surface_coverage(rendered: dict[str, bytes]) -> None:
    home = rendered["index.md"].decode()
    assert "本站收录 15 个 PyTorch API" in home
    # The corpus records four of the 169 public names of torch.nn (Conv2d, CosineSimilarity,
    # Softmax, BatchNorm1d); pack_padded_sequence is its 功能缺失 record.
    assert "| `torch.nn` | 169 | 4 | 0 | 0 | 165 | 2% |" in home
    assert "| `torch.nn.utils.rnn` | 11 | 0 | 1 | 0 | 10 | 9% |" in home
    assert "| `torchvision.transforms` | 41 | 0 | 0 | 0 | 41 | 0% |" in home
    assert "coverage.svg" in home and "coverage.svg" in rendered
    svg = rendered["coverage.svg"].decode()
    assert "torch 其他 48 个命名空间" in svg and "4 / 169  2%" in svg


def test_coverage_chart_is_deterministic_svg() -> None:
    rows = [
        NamespaceCounts("torch", 10, {1: 3, 7: 1}, 2, 4),
        NamespaceCounts("torch.nn", 0, {}, 0, 0),
    ]
    svg = coverage_svg(rows)
    assert svg == coverage_svg(rows)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "6 / 10  60%" in svg and "0 / 0  -" in svg
    assert "torch 别名：2" in svg and "torch 未分类：4" in svg


def test_record_cache_reparses_only_changed_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mappings = copy_corpus(tmp_path)
    cache = tmp_path / "records.json"
    first = load_entries(mappings, cache)
    assert cache.is_file()
    parsed: list[str] = []
    original = corpus_module._load_one

    def counting(path: Path, raw: bytes) -> Any:
        parsed.append(path.name)
        return original(path, raw)

    monkeypatch.setattr(corpus_module, "_load_one", counting)
    assert load_entries(mappings, cache) == first
    assert parsed == []
    softmax = mappings / "torch" / "nn" / "torch.nn.^Softmax.yaml"
    softmax.write_text(
        softmax.read_text(encoding="utf-8").replace("计算 Softmax 的维度", "归一化的维度"),
        encoding="utf-8",
    )
    again = load_entries(mappings, cache)
    assert parsed == ["torch.nn.^Softmax.yaml"]
    changed = next(entry for entry in again if entry.api == "torch.nn.Softmax")
    assert changed.record.params[0].desc == "归一化的维度"


def test_record_cache_of_another_model_is_ignored(tmp_path: Path) -> None:
    mappings = copy_corpus(tmp_path)
    cache = tmp_path / "records.json"
    load_entries(mappings, cache)
    stored = json.loads(cache.read_text(encoding="utf-8"))
    stored["salt"] = "older"
    stored["entries"] = {key: "{}" for key in stored["entries"]}
    cache.write_text(json.dumps(stored), encoding="utf-8")
    assert len(load_entries(mappings, cache)) == len(load_entries(CORPUS))


def test_page_cache_renders_only_changed_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: dict[str, bytes]
) -> None:
    mappings = copy_corpus(tmp_path)
    sources = replace(corpus_sources(mappings), cache=tmp_path / "cache")
    assert render_site(sources) == rendered
    built: list[str] = []
    original = views_module.api_page

    def counting(entry: Any, repo_url: str | None = None) -> Any:
        built.append(entry.api)
        return original(entry, repo_url)

    monkeypatch.setattr(views_module, "api_page", counting)
    assert render_site(sources) == rendered
    assert built == []
    clamp = mappings / "torch" / "torch.clamp.yaml"
    clamp.write_text(
        clamp.read_text(encoding="utf-8").replace("裁剪区间的下界", "裁剪范围的下界"),
        encoding="utf-8",
    )
    again = render_site(sources)
    assert built == ["torch.clamp"]
    assert "裁剪范围的下界" in again["api/torch.clamp.md"].decode()
    assert again["api/torch.abs.md"] == rendered["api/torch.abs.md"]


def test_page_cache_is_dropped_when_a_template_changes(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(corpus_sources().templates, templates)
    sources = replace(corpus_sources(), templates=templates, cache=tmp_path / "cache")
    render_site(sources)
    page = templates / "api.md.j2"
    page.write_text(page.read_text(encoding="utf-8") + "\n尾注\n", encoding="utf-8")
    assert render_site(sources)["api/torch.abs.md"].decode().endswith("尾注\n")


def test_page_names_differ_even_on_case_insensitive_disks() -> None:
    upper, lower = api_docname("torch.Tensor.T"), api_docname("torch.Tensor.t")
    assert upper == "api/torch.^Tensor.^T"
    assert upper.lower() != lower.lower()


def test_measured_releases_show_on_the_page_the_changelog_and_the_index(
    rendered: dict[str, bytes],
) -> None:
    # The corpus stamps were measured with `apimap verify --matrix`: paddle.nn.Conv2D has no
    # `bias`, `device` or `dtype` parameter before 3.2.2, and 3.0.0 lacks paddle.abs's `out`.
    page = rendered["api/torch.nn.^Conv2d.md"].decode("utf-8")
    assert "适用于 Paddle 3.2.2–3.3.1（各版本的写法见「不同 Paddle 版本」）" in page
    versions = page.split("## 不同 Paddle 版本", 1)[1]
    assert versions.index("Paddle 3\\.2.2–3.3.1") < versions.index("Paddle 3\\.0.0–3.1.1")
    assert "没有参数 `bias`、`device`、`dtype`" in versions
    changelog = rendered["changelog.md"].decode("utf-8")
    sections = dict(
        part.split("\n", 1) for part in changelog.split("\n## Paddle ")[1:]
    )  # release -> its text
    assert list(sections) == ["3.2.2", "3.1.1", "3.0.0"]  # newest first
    assert "torch.nn.Conv2d" not in sections["3.2.2"]  # holds there
    signature = sections["3.1.1"].split("### 参数名或参数不同", 1)[1].split("###", 1)[0]
    assert "torch.nn.Conv2d" in signature
    assert "测量了 14 条记录" in sections["3.0.0"]  # the corpus minus the other-package record
    script = rendered[INDEX_SCRIPT].decode("utf-8")
    items = json.loads(script.removeprefix("window.APIMAP_INDEX = ").rstrip(";\n"))
    by_api = {item["api"]: item for item in items}
    assert by_api["torch.nn.Conv2d"]["releases"] == ["3.2.2", "3.3.1"]
    assert by_api["torch.addcmul"]["releases"] == ["3.0.0", "3.1.1", "3.2.2", "3.3.1"]
