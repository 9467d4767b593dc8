"""``apimap build``: zero-warning Sphinx builds, stopping on bad records, determinism, increments."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from apimap.checking.diagnostics import Pending
from apimap.publish.site.build import SiteLayout, build_site, check_records, render_pages
from conftest import REPO_URL, SITE_URL, copy_corpus, corpus_layout


def _files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_site_has_every_page(built_site: SiteLayout) -> None:
    html = built_site.html
    for name in (
        "index.html",
        "tables.html",
        "rules.html",
        "guide.html",
        "search.html",
        "searchindex.js",
        "category/index.html",
        "category/missing.html",
        "api/torch.nn.^Batch^Norm1d.html",
        "api/torch.optim.lr_scheduler.^Step^L^R.html",
        "_static/apimap-index.js",
        "_static/apimap-filter.js",
        "_static/apimap-lookup.js",
        "_static/apimap-copy.js",
        "_images/coverage.svg",
        "reverse.html",
        "changelog.html",
        "sitemap.xml",
    ):
        assert (html / name).is_file(), name
    assert not (html / "api/torch.nn.utils.rnn.pack_padded_sequence.html").exists()


def test_the_index_loads_only_where_it_is_used(built_site: SiteLayout) -> None:
    def scripts(page: str) -> set[str]:
        text = (built_site.html / page).read_text(encoding="utf-8")
        return set(re.findall(r"_static/(apimap-[a-z]+\.js)", text))

    filtered = {"apimap-index.js", "apimap-lookup.js", "apimap-filter.js", "apimap-copy.js"}
    assert scripts("tables.html") == scripts("reverse.html") == filtered
    assert scripts("search.html") == {"apimap-index.js", "apimap-lookup.js", "apimap-copy.js"}
    assert scripts("index.html") == scripts("api/torch.abs.html") == {"apimap-copy.js"}


def test_pages_are_discoverable(built_site: SiteLayout) -> None:
    page = (built_site.html / "api/torch.clamp.html").read_text(encoding="utf-8")
    canonical = "https://example.org/apimap/api/torch.clamp.html"
    assert f'<link rel="canonical" href="{canonical}"' in page
    assert (
        '<meta content="裁剪到区间：PyTorch 的 min、max 参数与 Paddle 用法不一致。" name="description"'
        in page
    )
    sitemap = (built_site.html / "sitemap.xml").read_text(encoding="utf-8")
    locations = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    assert canonical in locations and "https://example.org/apimap/index.html" in locations
    assert "https://example.org/apimap/api/torch.nn.%5EConv2d.html" in locations
    assert not any("search.html" in url or "/_static/" in url for url in locations)
    assert locations == sorted(locations)


def test_sidebars_do_not_list_the_api_pages(built_site: SiteLayout) -> None:
    for page in ("index.html", "api/torch.abs.html", "tables.html"):
        text = (built_site.html / page).read_text(encoding="utf-8")
        start = text.index('<div class="sidebar-tree">')
        sidebar = text[start : text.index("</div>", start)]
        assert ">映射表</a>" in sidebar and ">检查规则</a>" in sidebar
        assert not re.search(r'href="[^"]*api/', sidebar)


def test_a_record_with_a_problem_stops_the_build(tmp_path: Path) -> None:
    mappings = copy_corpus(tmp_path)
    record = mappings / "torch" / "torch.abs.yaml"
    record.write_text(
        record.read_text(encoding="utf-8").replace("category: identical", "category: no_params"),
        encoding="utf-8",
    )
    layout = corpus_layout(tmp_path, mappings)
    out = io.StringIO()
    assert build_site(layout, out) == 1
    report = out.getvalue()
    assert f"{record}:" in report
    assert "AM201" in report
    assert "已停止构建" in report
    assert not layout.html.exists()
    assert not layout.generated.exists()


def test_a_pending_stamp_stops_the_build_on_main_and_shows_unverified_on_a_pull_request(
    tmp_path: Path,
) -> None:
    mappings = copy_corpus(tmp_path)
    record = mappings / "torch" / "torch.abs.yaml"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("[-1.5, 2.0]", "[-2.5, 2.0]"), encoding="utf-8")  # a fact
    layout = corpus_layout(tmp_path, mappings)
    out = io.StringIO()
    assert build_site(layout, out) == 1
    assert f"{record}:2:12: AM701 记录没有当前的验证标记" in out.getvalue()
    assert "已停止构建" in out.getvalue()
    out = io.StringIO()
    assert check_records(layout, out, Pending.NOTICE), out.getvalue()
    assert f"{record}:2:12: AM701 [提示 notice] " in out.getvalue()
    render_pages(layout)
    page = (layout.generated / "api" / "torch.abs.md").read_text(encoding="utf-8")
    assert "[未验证]{.apimap-badge .apimap-badge-partial}" in page  # the badge stays honest


def test_builds_are_deterministic_and_incremental(
    tmp_path: Path, built_site: SiteLayout, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APIMAP_SITE_URL", SITE_URL)
    monkeypatch.setenv("APIMAP_REPO_URL", REPO_URL)
    layout = corpus_layout(tmp_path, copy_corpus(tmp_path))
    out = io.StringIO()
    assert build_site(layout, out) == 0, out.getvalue()
    assert _files(layout.html) == _files(built_site.html)
    assert _files(layout.generated) == _files(built_site.generated)

    before = {p: p.stat().st_mtime_ns for p in layout.html.rglob("*.html")}
    record = layout.mappings / "torch" / "torch.clamp.yaml"
    record.write_text(
        record.read_text(encoding="utf-8").replace("裁剪区间的下界", "裁剪范围的下界"),
        encoding="utf-8",
    )
    out = io.StringIO()
    assert build_site(layout, out) == 0, out.getvalue()
    assert "写入 1 个文件" in out.getvalue()
    changed = {p for p, mtime in before.items() if p.stat().st_mtime_ns != mtime}
    assert changed == {layout.html / "api" / "torch.clamp.html", layout.html / "search.html"}
    assert "裁剪范围的下界" in (layout.html / "api" / "torch.clamp.html").read_text(
        encoding="utf-8"
    )
