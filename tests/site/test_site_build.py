"""``apimap build``: zero-warning builds, stopping on bad records, determinism, increments, and the
files a published site needs."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

from apimap.checking.diagnostics import Pending
from apimap.publish.site.build import Origin, SiteLayout, build_site, check_records
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
        "tables/basic.html",
        "tables/network.html",
        "tables/missing.html",
        "rules.html",
        "guide.html",
        "search.html",
        "404.html",
        "robots.txt",
        "sitemap.xml",
        "category/index.html",
        "category/missing.html",
        "migration.html",
        "migration/network.html",
        "reverse.html",
        "reverse/paddle.nn.html",
        "changelog.html",
        "api/torch.nn.^Batch^Norm1d.html",
        "api/torch.optim.lr_scheduler.^Step^L^R.html",
        "api/torch.nn.utils.rnn.pack_padded_sequence.html",
        "_static/apimap-names.json",
        "_static/apimap-uncovered.json",
        "_static/search/docs.json",
        "_static/search/00.json",
        "_static/apimap.js",
        "_static/apimap-filter.js",
        "_static/apimap-lookup.js",
        "_static/apimap-search.js",
        "_static/coverage.svg",
        "_static/favicon.svg",
    ):
        assert (html / name).is_file(), name
    assert not (html / "api" / "_frame.html").exists()  # frames stay out of the site
    assert not (html / "searchindex.js").exists()  # the site has its own search


def test_scripts_load_only_where_they_are_used(built_site: SiteLayout) -> None:
    def scripts(page: str) -> set[str]:
        text = (built_site.html / page).read_text(encoding="utf-8")
        return set(re.findall(r"_static/(apimap[a-z-]*\.js)", text))

    filtered = {"apimap.js", "apimap-lookup.js", "apimap-filter.js"}
    assert scripts("tables.html") == scripts("reverse.html") == filtered
    assert scripts("search.html") == {"apimap.js", "apimap-lookup.js", "apimap-search.js"}
    assert scripts("index.html") == scripts("api/torch.abs.html") == {"apimap.js"}


def test_pages_are_discoverable(built_site: SiteLayout) -> None:
    page = (built_site.html / "api/torch.clamp.html").read_text(encoding="utf-8")
    canonical = "https://example.org/apimap/api/torch.clamp.html"
    assert f'<link rel="canonical" href="{canonical}"' in page
    assert (
        '<meta content="裁剪到区间：PyTorch 的 min、max 参数与 Paddle 用法不一致。" name="description"'
        in page
    )
    assert "<title>[ 输入参数类型不一致 ] torch.clamp - PyTorch → Paddle API 映射</title>" in page
    sitemap = (built_site.html / "sitemap.xml").read_text(encoding="utf-8")
    locations = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    assert canonical in locations and "https://example.org/apimap/index.html" in locations
    assert "https://example.org/apimap/api/torch.nn.%5EConv2d.html" in locations
    assert "https://example.org/apimap/guide.html" in locations
    assert not any(
        "search.html" in url or "404" in url or "_" in url.split("/")[-1][:1] for url in locations
    )
    assert locations == sorted(locations)
    robots = (built_site.html / "robots.txt").read_text(encoding="utf-8")
    assert robots == "User-agent: *\nAllow: /\nSitemap: https://example.org/apimap/sitemap.xml\n"
    not_found = (built_site.html / "404.html").read_text(encoding="utf-8")
    assert '<base href="https://example.org/apimap/">' in not_found  # served at any depth
    assert '<meta name="robots" content="noindex">' in not_found


def test_every_page_says_what_it_was_built_from(built_site: SiteLayout) -> None:
    import subprocess

    commit, date = subprocess.run(
        ["git", "log", "-1", "--format=%H %cs"], capture_output=True, text=True, check=True
    ).stdout.split()
    for page in ("index.html", "api/torch.abs.html", "guide.html", "tables/network.html"):
        text = (built_site.html / page).read_text(encoding="utf-8")
        footer = text[text.index('<div class="left-details apimap-built">') :]
        assert f"<code>{commit[:12]}</code>（{date}）" in footer, page
        assert "PyTorch 2.13.0（torchvision 0.29.1 的页面用 torch 2.14.1）与 Paddle 3.3.1" in footer


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
    assert check_records(layout, out, pending=Pending.NOTICE), out.getvalue()
    assert f"{record}:2:12: AM701 [提示 notice] " in out.getvalue()
    out = io.StringIO()
    assert build_site(layout, out, pending=Pending.NOTICE) == 0, out.getvalue()
    page = (layout.html / "api" / "torch.abs.html").read_text(encoding="utf-8")
    assert '<span class="apimap-badge apimap-badge-partial">未验证</span>' in page  # honest badge


def test_a_rule_can_be_ignored_to_preview_the_site(tmp_path: Path) -> None:
    mappings = copy_corpus(tmp_path)
    (tmp_path / "stamps" / "torch" / "torch.abs.json").unlink()  # AM701: not verified
    layout = corpus_layout(tmp_path, mappings)
    assert build_site(layout, io.StringIO()) == 1
    out = io.StringIO()
    assert build_site(layout, out, ignore=["AM701"]) == 0, out.getvalue()
    page = (layout.html / "api" / "torch.abs.html").read_text(encoding="utf-8")
    assert '<span class="apimap-badge apimap-badge-partial">未验证</span>' in page


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

    before = {p: p.stat().st_mtime_ns for p in layout.html.rglob("*") if p.is_file()}
    record = layout.mappings / "torch" / "torch.clamp.yaml"
    record.write_text(
        record.read_text(encoding="utf-8").replace("裁剪区间的下界", "裁剪范围的下界"),
        encoding="utf-8",
    )
    out = io.StringIO()
    assert build_site(layout, out) == 0, out.getvalue()
    assert "输入未变，跳过" in out.getvalue()  # Sphinx does not run for a record's text
    changed = {
        p.relative_to(layout.html).as_posix()
        for p, mtime in before.items()
        if p.stat().st_mtime_ns != mtime
    }
    assert "api/torch.clamp.html" in changed
    assert {name for name in changed if not name.startswith("_static/search/")} == {
        "api/torch.clamp.html"
    }
    assert "裁剪范围的下界" in (layout.html / "api" / "torch.clamp.html").read_text(
        encoding="utf-8"
    )


def test_a_removed_record_takes_its_page_with_it(tmp_path: Path) -> None:
    layout = corpus_layout(tmp_path, copy_corpus(tmp_path))
    assert build_site(layout, io.StringIO()) == 0
    assert (layout.html / "api" / "torch.clamp.html").is_file()
    (layout.mappings / "torch" / "torch.clamp.yaml").unlink()
    (tmp_path / "stamps" / "torch" / "torch.clamp.json").unlink()
    out = io.StringIO()
    assert build_site(layout, out) == 0, out.getvalue()
    assert not (layout.html / "api" / "torch.clamp.html").exists()


_ROOT_RELATIVE = {
    ".html": re.compile(r"""(?:href|src|action|content)\s*=\s*["']/"""),
    ".js": re.compile(
        r"""(?:fetch\(|location|href|src|["'`])\s*[=(]?\s*["'`]?/(?:_static|api|tables|search|index|reverse|category|migration)"""
    ),
    ".css": re.compile(r"""url\(\s*["']?/"""),
}


def test_no_page_or_script_refers_to_the_root_of_the_host(built_site: SiteLayout) -> None:
    """Below a sub-path (owner.github.io/apimap/) a root-relative address leaves the site."""
    found = []
    for path in sorted(built_site.html.rglob("*")):
        pattern = _ROOT_RELATIVE.get(path.suffix)
        if pattern is None or not path.is_file():
            continue
        for match in pattern.finditer(path.read_text(encoding="utf-8", errors="replace")):
            found.append(f"{path.relative_to(built_site.html)}: {match.group()}")
    assert found == []
    assert _ROOT_RELATIVE[".html"].search('<a href="/api/torch.abs.html">')  # the check works
    assert _ROOT_RELATIVE[".js"].search('fetch("/_static/apimap-names.json")')


def test_the_origin_is_the_commit_and_its_date_not_the_clock(tmp_path: Path) -> None:
    import subprocess

    assert Origin.of(tmp_path) == Origin("", "")  # not a checkout: the footer says nothing
    dated = {
        **os.environ,
        "GIT_AUTHOR_NAME": "a",
        "GIT_AUTHOR_EMAIL": "a@example.org",
        "GIT_COMMITTER_NAME": "a",
        "GIT_COMMITTER_EMAIL": "a@example.org",
        "GIT_AUTHOR_DATE": "2001-02-03T04:05:06Z",
        "GIT_COMMITTER_DATE": "2001-02-03T04:05:06Z",
    }
    for command in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "x"]):
        subprocess.run(["git", "-C", str(tmp_path), *command], env=dated, check=True)
    commit = subprocess.run(
        ["git", "-C", str(tmp_path), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Origin.of(tmp_path) == Origin(commit, "2001-02-03")
