"""``apimap build``: zero-warning Sphinx builds, stopping on bad records, determinism, increments."""

from __future__ import annotations

import io
import re
from pathlib import Path

from apimap.render.build import SiteLayout, build_site
from conftest import copy_corpus, corpus_layout


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
        "_images/coverage.svg",
    ):
        assert (html / name).is_file(), name
    assert not (html / "api/torch.nn.utils.rnn.pack_padded_sequence.html").exists()


def test_filter_scripts_are_only_on_the_table_page(built_site: SiteLayout) -> None:
    assert "apimap-filter.js" in (built_site.html / "tables.html").read_text(encoding="utf-8")
    assert "apimap-filter.js" not in (built_site.html / "index.html").read_text(encoding="utf-8")


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


def test_builds_are_deterministic_and_incremental(tmp_path: Path, built_site: SiteLayout) -> None:
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
