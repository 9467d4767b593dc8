"""Rendering the whole site: refusals, determinism, caches, and what the generated pages hold."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from apimap.checking import corpus as corpus_module
from apimap.checking.corpus import CorpusError, load_entries
from apimap.checking.rules.registry import ALL_RULES, fixtures
from apimap.publish.site import listings
from apimap.publish.site import views as views_module
from apimap.publish.site.chart import NamespaceCounts, coverage_svg
from apimap.publish.site.lookup import NAMES_FILE, UNCOVERED_FILE
from apimap.publish.site.site import Rendered, render_site
from apimap.publish.site.writer import MARKER, OutputFolderError, sync_tree
from apimap.record.pages import api_docname
from conftest import CORPUS, ROOT, body, copy_corpus, corpus_sources, files_of


def test_two_renders_are_byte_identical(rendered: Rendered) -> None:
    assert files_of(render_site(corpus_sources())) == files_of(rendered)


def test_every_record_has_a_page_missing_ones_included(rendered: Rendered) -> None:
    docnames = {page.docname for page in rendered.pages}
    for entry in load_entries(CORPUS):
        assert api_docname(entry.api) in docnames, entry.api


def test_a_missing_api_page_says_why_what_to_do_and_what_was_considered(
    rendered: Rendered,
) -> None:
    page = body(rendered, "api/torch.nn.utils.rnn.pack_padded_sequence")
    assert "[ 功能缺失 ] torch.nn.utils.rnn.pack_padded_sequence" in page
    why = page.split('id="reason"', 1)[1].split("</section>", 1)[0]
    assert "有类似功能，但设计差异过大，无法映射。" in why  # the reason's label
    assert "PackedSequence" in why  # the detail
    instead = page.split('id="instead"', 1)[1].split("</section>", 1)[0]
    assert "sequence_length" in instead
    assert '<span class="c1"># Paddle 写法</span>' in instead  # the note's code
    considered = page.split('id="considered"', 1)[1].split("</section>", 1)[0]
    assert "paddle.<wbr>nn.<wbr>functional.<wbr>sequence_mask" in considered
    assert "<td>它只根据长度生成掩码" in considered


def test_the_missing_index_links_every_missing_api_to_its_page(rendered: Rendered) -> None:
    index = body(rendered, "tables/missing")
    assert 'href="../api/torch.nn.utils.rnn.pack_padded_sequence.html"' in index
    assert "有类似功能，但设计差异过大，无法映射" in index
    assert "PackedSequence" not in index  # the detail is on the page, not in the index


def test_alias_rows_open_the_record_page(rendered: Rendered) -> None:
    basic = body(rendered, "tables/basic")
    row = next(line for line in basic.splitlines() if ">absolute</code>" in line)
    assert 'href="../api/torch.abs.html"' in row
    assert "torch.abs</span></code> 的别名" in row


def test_pages_link_to_case_safe_names(rendered: Rendered) -> None:
    network = body(rendered, "tables/network")
    assert 'href="../api/torch.nn.%5EBatch%5ENorm1d.html"' in network
    assert "api/torch.nn.^Batch^Norm1d" in {page.docname for page in rendered.pages}


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
    tmp_path: Path, rendered: Rendered
) -> None:
    files = files_of(rendered)
    out = tmp_path / "generated"
    first = sync_tree(out, files)
    assert len(first.written) == len(files)
    page = out / "api" / "torch.abs.html"
    old = page.stat().st_mtime_ns - 10**9
    import os

    os.utime(page, ns=(old, old))
    changed = dict(files)
    changed["index.md"] = files["index.md"] + b"\n"
    del changed["api/torch.clamp.html"]
    second = sync_tree(out, changed)
    assert second.written == ["index.md"]
    assert second.removed == ["api/torch.clamp.html"]
    assert page.stat().st_mtime_ns == old
    assert not (out / "api" / "torch.clamp.html").exists()


def test_sync_refuses_a_folder_it_does_not_own(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(OutputFolderError):
        sync_tree(tmp_path, {"index.md": b"x"})
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / MARKER).exists()


def test_sphinx_gets_stubs_for_the_navigation_and_the_hand_written_pages(
    rendered: Rendered,
) -> None:
    assert rendered.sources["tables.md"].decode().startswith("# 映射表\n")
    assert "tables/network" in rendered.sources["tables.md"].decode()  # in the navigation
    assert rendered.sources["api/_frame.md"].decode().startswith("---\norphan: true\n")
    assert "guide.md" in rendered.sources
    assert not any(name.startswith("api/torch") for name in rendered.sources)


def test_rules_page_lists_every_rule_with_its_first_bad_fixture(rendered: Rendered) -> None:
    page = body(rendered, "rules")
    for rule in ALL_RULES:
        assert f'id="{rule.code.lower()}"' in page
    first_bad = next(path for path in fixtures("AM201") if path.name.startswith("bad"))
    assert first_bad.name in page
    assert "apimap check --fix</span></code> 会填写或改正推导出的分类" in page
    assert "(invalid alias)" not in page and "别名无效" in page  # no English glosses


def _names(rendered: Rendered) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(rendered.assets[NAMES_FILE])
    return data


def test_name_index_lists_records_aliases_and_variants(rendered: Rendered) -> None:
    data = _names(rendered)
    rows = {row[0]: row for row in data["rows"]}
    entries = load_entries(CORPUS)
    assert len(rows) == len(entries) + 3  # three aliases in the corpus
    assert rows["torch.absolute"][5:7] == ["torch.abs", "a"]
    assert rows["torch.nn.BatchNorm1d"][5:7] == ["", ""]
    assert data["categories"][rows["torch.nn.utils.rnn.pack_padded_sequence"][3]][0] == "missing"
    assert [row[0] for row in data["rows"]] == sorted(rows)


def test_aliases_only_the_surface_table_names_are_shown_and_found(tmp_path: Path) -> None:
    mappings = copy_corpus(tmp_path)
    record = mappings / "torch" / "torch.abs.yaml"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("torch_aliases:\n  - torch.absolute\n", ""), encoding="utf-8")
    rendered = render_site(corpus_sources(mappings))
    assert "torch.absolute" in body(rendered, "api/torch.abs")
    rows = {row[0]: row for row in _names(rendered)["rows"]}
    assert rows["torch.absolute"][5:7] == ["torch.abs", "a"]


def test_uncovered_names_are_the_public_names_without_a_record(rendered: Rendered) -> None:
    data = json.loads(rendered.assets[UNCOVERED_FILE])
    assert data["names"]["torch.distributed.get_rank"] == "函数"
    assert "torch.abs" not in data["names"] and "torch.absolute" not in data["names"]
    assert data["versions"]["torch"] == "2.13.0"


def test_home_page_counts_per_category_and_surface_coverage(rendered: Rendered) -> None:
    home = body(rendered, "index")
    assert "本站收录 15 个 PyTorch API" in home
    # The corpus records four of the 169 public names of torch.nn (Conv2d, CosineSimilarity,
    # Softmax, BatchNorm1d); pack_padded_sequence is its 功能缺失 record.
    assert _cells(home, "torch.nn") == ["169", "4", "0", "0", "165", "2%"]
    assert _cells(home, "torch.nn.utils.rnn") == ["11", "0", "1", "0", "10", "9%"]
    svg = rendered.assets["_static/coverage.svg"].decode()
    assert "torch 其他 48 个命名空间" in svg and "4 / 169  2%" in svg
    assert 'src="_static/coverage.svg"' in home


def _cells(page: str, namespace: str) -> list[str]:
    start = page.index(f'<span class="pre">{namespace}</span></code></td>')
    row = page[start : page.index("</tr>", start)]
    import re

    return re.findall(r'<td class="apimap-number">([^<]*)</td>', row)


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
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: Rendered
) -> None:
    mappings = copy_corpus(tmp_path)
    sources = replace(corpus_sources(mappings), cache=tmp_path / "cache")
    assert files_of(render_site(sources)) == files_of(rendered)
    built: list[str] = []
    original = views_module.api_page

    def counting(entry: Any, *args: Any) -> Any:
        built.append(entry.api)
        return original(entry, *args)

    monkeypatch.setattr(views_module, "api_page", counting)
    assert files_of(render_site(sources)) == files_of(rendered)
    assert built == []
    clamp = mappings / "torch" / "torch.clamp.yaml"
    clamp.write_text(
        clamp.read_text(encoding="utf-8").replace("裁剪区间的下界", "裁剪范围的下界"),
        encoding="utf-8",
    )
    again = render_site(sources)
    assert built == ["torch.clamp"]
    assert "裁剪范围的下界" in body(again, "api/torch.clamp")
    assert body(again, "api/torch.abs") == body(rendered, "api/torch.abs")


def test_page_cache_is_dropped_when_a_template_changes(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(corpus_sources().templates, templates)
    sources = replace(corpus_sources(), templates=templates, cache=tmp_path / "cache")
    render_site(sources)
    page = templates / "api.html.j2"
    page.write_text(page.read_text(encoding="utf-8") + "\n<p>尾注</p>\n", encoding="utf-8")
    assert body(render_site(sources), "api/torch.abs").endswith("<p>尾注</p>\n")


def test_page_names_differ_even_on_case_insensitive_disks() -> None:
    upper, lower = api_docname("torch.Tensor.T"), api_docname("torch.Tensor.t")
    assert upper == "api/torch.^Tensor.^T"
    assert upper.lower() != lower.lower()


def test_measured_releases_show_on_the_page_the_changelog_and_the_index(
    rendered: Rendered,
) -> None:
    # The corpus stamps were measured with `apimap verify --matrix`: paddle.nn.Conv2D has no
    # `bias`, `device` or `dtype` parameter before 3.2.2.
    page = body(rendered, "api/torch.nn.^Conv2d")
    assert "适用于 Paddle 3.2.2–3.3.1（各版本的写法见" in page
    versions = page.split('id="versions"', 1)[1]
    assert versions.index("Paddle 3.2.2–3.3.1") < versions.index("Paddle 3.0.0–3.1.1")
    assert "没有参数 <code" in versions and "bias</span></code>" in versions
    changelog = body(rendered, "changelog")
    sections = changelog.split('<section id="paddle-')[1:]
    releases = [part.split('"', 1)[0] for part in sections]
    assert releases == ["3-2-2", "3-1-1", "3-0-0"]  # newest first
    # each release's records on a page of its own, linked from the overview by kind
    assert 'href="changelog/paddle-3-1-1.html#paddle-3-1-1-1"' in changelog
    assert "Conv2d" not in body(rendered, "changelog/paddle-3-2-2")  # holds on 3.2.2
    on_311 = body(rendered, "changelog/paddle-3-1-1")
    assert "<h1>Paddle 3.1.1 与固定版本的不同" in on_311
    assert "torch.<wbr>nn.<wbr>Conv2d" in on_311
    # an other-package record does not depend on paddle's release: it counts everywhere
    assert "测量了 15 条记录" in changelog and "测量了 15 条记录" in on_311
    rows = {row[0]: row for row in _names(rendered)["rows"]}
    # paddle.nn.Conv2D exists on every release: the filter finds it on each, and its page says
    # what to write on 3.0.0–3.1.1
    assert rows["torch.nn.Conv2d"][7] == 0b1111
    assert rows["torch.addcmul"][7] == 0b1111
    assert rows["torch.utils.tensorboard.SummaryWriter"][7] == 0b1111


def test_a_section_with_more_rows_than_a_page_holds_goes_on_on_linked_pages(
    monkeypatch: pytest.MonkeyPatch, rendered: Rendered
) -> None:
    monkeypatch.setattr(listings, "TABLE_ROWS_PER_PAGE", 1)  # one namespace a page
    split = render_site(corpus_sources())
    bodies = {page.docname: page.body for page in split.pages}
    basic = sorted(name for name in bodies if name.startswith("tables/basic"))
    assert basic == ["tables/basic", "tables/basic-2"]
    assert "tables/basic-2" not in {page.docname for page in rendered.pages}
    second = bodies["tables/basic-2"]
    assert "<h1>映射表：基础操作类（第 2 部分）" in second
    assert '<a class="reference internal" href="basic.html">第 1 部分</a>、第 2 部分' in second
    # the namespace list names every namespace of the section, linked to the page showing it
    assert '<a class="reference internal" href="basic.html#torch">torch</a>' in second
    assert '<a class="reference internal" href="#torch.random">torch.random</a>' in second
    assert 'href="tables/basic-2.html#torch.random"' in bodies["tables"]
    # the parts hold the rows of the whole page, once each and in the same order
    rows = [
        line for name in basic for line in bodies[name].splitlines() if line.startswith("<tr><td>")
    ]
    whole = [
        line for line in body(rendered, "tables/basic").splitlines() if line.startswith("<tr><td>")
    ]
    assert rows == whole
    toctree = split.sources["tables.md"].decode().splitlines()
    assert all(name in toctree for name in basic)


def test_a_partly_verified_page_names_each_piece_that_did_not_run_and_why(
    tmp_path: Path,
) -> None:
    # torch.hub.load's calls and examples would run a downloaded repository's code: verify
    # never runs them, the badge says 部分验证 and the page names the four pieces in one
    # sentence
    mappings = copy_corpus(tmp_path)
    for kind in ("mappings", "stamps"):
        suffix = ".yaml" if kind == "mappings" else ".json"
        source = ROOT / kind / "torch" / "hub" / f"torch.hub.load{suffix}"
        target = tmp_path / kind / "torch" / "hub" / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)
    page = body(render_site(corpus_sources(mappings)), "api/torch.hub.load")
    assert "apimap-badge-partial" in page and "部分验证" in page
    never = "会运行记录之外的代码（下载的仓库或编译的 C++ 扩展）：验证从不执行这类代码"
    assert page.count(never) == 1
    assert (
        "第 1 个调用、第 2 个调用、第 1 组转写示例的第 1 个、第 2 组转写示例的第 1 个" + never
        in page
    )
