"""The built site in a real browser: Debian's chromium driven by Python playwright.

Every test that a reader's path depends on runs twice: with the site at the root of a local
server, and below a sub-path (``/apimap/``) as a project site is published, built for that
address. Skipped only when chromium is absent and ``CI`` is not set; in CI it runs (or fails).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from serving import base_url, serving

from apimap.publish.site.build import SiteLayout, build_site
from conftest import REPO_URL, copy_corpus, corpus_layout

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 800}
SUB_PATH = "/apimap/"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A new tab at desktop width; fails the test on a script error or a missing file."""
    tab = browser.new_page()
    tab.set_viewport_size(DESKTOP)
    tab.set_default_timeout(20_000)
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on(
        "response",
        lambda answer: (
            errors.append(f"{answer.status} {answer.url}")
            if answer.status >= 400 and "/nothing-here" not in answer.url
            else None
        ),
    )
    yield tab
    tab.close()
    assert errors == []


@pytest.fixture(scope="module")
def root_url(built_site: SiteLayout) -> Iterator[str]:
    """The test corpus's site at the root of a local server."""
    with serving(built_site.html) as server:
        yield base_url(server)


@pytest.fixture(scope="module")
def sub_path_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The test corpus's site built for and served below ``/apimap/``."""
    work = tmp_path_factory.mktemp("subpath")
    layout = corpus_layout(work, copy_corpus(work))
    layout.html.mkdir(parents=True)
    with serving(layout.html, SUB_PATH) as server, pytest.MonkeyPatch.context() as patch:
        url = base_url(server, SUB_PATH)
        patch.setenv("APIMAP_SITE_URL", url)
        patch.setenv("APIMAP_REPO_URL", REPO_URL)
        out = io.StringIO()
        assert build_site(layout, out) == 0, out.getvalue()
        yield url


@pytest.fixture(params=["root", "sub-path"])
def site_url(request: pytest.FixtureRequest) -> str:
    """The site at the root, then below a sub-path."""
    name = "root_url" if request.param == "root" else "sub_path_url"
    url: str = request.getfixturevalue(name)
    return url


def _no_sideways_scroll(page: Any) -> bool:
    width, viewport = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return bool(width <= viewport)


def _ready_filter(page: Any) -> None:
    page.wait_for_selector("#apimap-filter-text[data-ready]")


# --- 29.1: every public name findable ---------------------------------------------------------


def test_aliases_are_found_by_filter_search_and_lookup(page: Any, site_url: str) -> None:
    page.goto(site_url + "tables.html")
    _ready_filter(page)
    page.locator("#apimap-filter-text").fill("absolute")
    row = page.locator("#apimap-filter-results tbody tr").first
    assert "torch.abs 的别名" in row.inner_text()
    row.locator("a").first.click()
    page.wait_for_url("**/api/torch.abs.html")
    assert "别名：torch.absolute" in page.locator("article").inner_text()
    page.goto(site_url + "search.html?q=torch.random.get_rng_state")
    page.wait_for_url("**/api/torch.get_rng_state.html")


def test_a_name_without_a_record_says_so_and_how_to_ask_for_it(page: Any, site_url: str) -> None:
    page.goto(site_url + "tables.html")
    _ready_filter(page)
    page.locator("#apimap-filter-text").fill("torch.distributed.get_rank")
    page.locator("#apimap-filter-text").press("Enter")
    page.wait_for_url("**/search.html?q=torch.distributed.get_rank")
    notice = page.locator(".apimap-notice")
    assert "还没有收录" in notice.inner_text()
    assert "torch.distributed.get_rank 是 torch 2.13.0、torchvision 0.29.1 的公开 API（函数）" in (
        notice.inner_text()
    )
    href = notice.get_by_role("link", name="请求收录这个 API").get_attribute("href")
    assert href is not None and href.startswith(REPO_URL + "/issues/new?template=request.yml&")
    assert parse_qs(urlsplit(href).query)["api"] == ["torch.distributed.get_rank"]
    page.goto(site_url + "search.html?q=torch.no_such_function")
    assert (
        "不在 torch 2.13.0、torchvision 0.29.1 的公开 API 表中"
        in page.locator(".apimap-notice").inner_text()
    )


def test_an_unknown_address_gets_the_not_found_page(page: Any, sub_path_url: str) -> None:
    # as GitHub Pages does, the server answers any unknown address with 404.html, whose links
    # lead from the site's configured address, however deep the address was
    page.goto(sub_path_url + "api/nothing-here/torch.Foo.html")
    assert page.locator("h1").inner_text().startswith("找不到页面")
    page.get_by_role("link", name="搜索 API 名称").click()
    page.wait_for_url("**/search.html")
    assert page.url == sub_path_url + "search.html"


# --- 29.2: a page for every 功能缺失 API ------------------------------------------------------


def test_every_missing_api_has_a_page_with_reason_instead_and_considered(
    page: Any, root_url: str
) -> None:
    page.goto(root_url + "tables/missing.html")
    assert _no_sideways_scroll(page)
    page.get_by_role("link", name="torch.nn.utils.rnn.pack_padded_sequence").click()
    page.wait_for_url("**/api/torch.nn.utils.rnn.pack_padded_sequence.html")
    headings = [h.rstrip("#").strip() for h in page.locator("article h2").all_inner_texts()]
    assert headings[:4] == [
        "torch.nn.utils.rnn.pack_padded_sequence",
        "Paddle 为什么没有",
        "可以怎么做",
        "考虑过的 Paddle API",
    ]
    text = page.locator("article").inner_text()
    assert "有类似功能，但设计差异过大，无法映射。" in text
    assert "y, (h, c) = m(x, sequence_length=lengths)" in text  # the code of what to do
    assert page.locator("#considered tbody tr").count() == 2
    assert "已验证：torch 2.13.0 / paddle 3.3.1" in text and "不同 Paddle 版本" in text


# --- 29.3: search ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("Conv2d", "torch.nn.Conv2d"),  # an ambiguous short name: every match, the layer first
        ("softmax", "torch.nn.Softmax"),
        ("卷积", "torch.nn.Conv2d"),  # Chinese concepts, as the filter finds them
        ("归一化", "torch.nn.BatchNorm1d"),
        ("学习率", "torch.optim.lr_scheduler.StepLR"),
    ],
)
def test_search_ranks_names_first_and_finds_chinese_concepts(
    page: Any, site_url: str, query: str, first: str
) -> None:
    page.goto(site_url)
    box = page.locator("input.sidebar-search")
    box.fill(query)
    box.press("Enter")
    page.wait_for_url("**/search.html?q=**")
    page.wait_for_selector("#apimap-search[data-done]")
    results = page.locator("#apimap-search .apimap-results li")
    assert results.first.locator("a").inner_text() == first


def test_an_ambiguous_short_name_lists_every_match_instead_of_opening_one(
    page: Any, root_url: str, built_site: SiteLayout
) -> None:
    # the real records have torch.nn.Conv2d, torch.conv2d and torch.nn.functional.conv2d; the
    # test corpus only the first, so the name index is served with the other two added
    index = json.loads((built_site.html / "_static" / "apimap-names.json").read_text("utf-8"))
    layer = next(row for row in index["rows"] if row[0] == "torch.nn.Conv2d")
    functional = ["二维卷积", "paddle.nn.functional.conv2d", *layer[3:5]]
    index["rows"] += [
        ["torch.conv2d", *functional, "torch.nn.functional.conv2d", "a", *layer[7:]],
        ["torch.nn.functional.conv2d", *functional, "", "", *layer[7:]],
    ]
    body = json.dumps(index, ensure_ascii=False)
    page.route("**/_static/apimap-names.json", lambda route: route.fulfill(body=body))
    page.goto(root_url + "search.html?q=Conv2d")
    page.wait_for_selector("#apimap-search[data-done]")
    assert urlsplit(page.url).path.endswith("/search.html")  # no page opened
    names = page.locator("#apimap-search .apimap-results li a").all_inner_texts()
    assert names[:3] == ["torch.nn.Conv2d", "torch.nn.functional.conv2d", "torch.conv2d"]
    page.goto(root_url + "search.html?q=nn.Conv2d")  # a name with its module: its page
    page.wait_for_url("**/api/torch.nn.%5EConv2d.html")


def test_search_finds_words_of_the_pages_text(page: Any, root_url: str) -> None:
    page.goto(root_url + "search.html?q=%E6%BB%91%E5%8A%A8%E6%96%B9%E5%B7%AE")  # 滑动方差
    page.wait_for_selector("#apimap-search[data-done]")
    pages = page.locator(".apimap-search-section").last
    assert "内容中出现的页面" in pages.inner_text()
    assert "torch.nn.BatchNorm1d" in pages.inner_text()


def test_the_search_box_opens_the_page_of_a_named_api(page: Any, site_url: str) -> None:
    page.goto(site_url + "index.html")
    box = page.locator("input.sidebar-search")
    box.fill("F.interpolate")
    box.press("Enter")
    page.wait_for_url("**/api/torch.nn.functional.interpolate.html")
    page.goto(site_url + "search.html?q=torch.nn.BatchNorm1d")  # the exact name: its page
    page.wait_for_url("**/api/torch.nn.%5EBatch%5ENorm1d.html")
    assert page.locator("h1").inner_text().startswith("[ 输入参数用法不一致 ] torch.nn.BatchNorm1d")


def test_the_filter_answers_while_typing_names_as_code_writes_them(
    page: Any, site_url: str
) -> None:
    from playwright.sync_api import expect

    page.goto(site_url + "tables.html")
    _ready_filter(page)
    status = page.locator("#apimap-filter-status")
    names = page.locator("#apimap-filter-results tbody td:first-child a")
    page.locator("#apimap-filter-text").press_sequentially("F.interpolate", delay=20)
    page.wait_for_function("document.querySelectorAll('#apimap-filter-results tbody tr').length")
    assert names.first.inner_text() == "torch.nn.functional.interpolate"
    page.locator("#apimap-filter-text").fill("")
    page.locator("#apimap-filter-text").press_sequentially("nn.Conv2d", delay=20)
    expect(status).to_have_text("找到 1 个 API。")
    page.locator("#apimap-filter-text").fill("二维卷积")
    expect(names.first).to_have_text("torch.nn.Conv2d")


def test_table_filter_finds_by_category_section_and_release(page: Any, site_url: str) -> None:
    from playwright.sync_api import expect

    page.goto(site_url + "tables.html")
    _ready_filter(page)
    status = page.locator("#apimap-filter-status")
    names = page.locator("#apimap-filter-results tbody td:first-child a")
    page.locator("#apimap-filter-category").select_option("missing")
    expect(status).to_have_text("找到 1 个 API。")
    assert names.first.inner_text() == "torch.nn.utils.rnn.pack_padded_sequence"
    page.locator("#apimap-filter-category").select_option("")
    page.locator("#apimap-filter-section").select_option(label="组网类")
    expect(status).to_have_text("找到 5 个 API。")
    assert names.all_inner_texts() == [
        "torch.nn.BatchNorm1d",
        "torch.nn.Conv2d",
        "torch.nn.CosineSimilarity",
        "torch.nn.Softmax",
        "torch.nn.functional.interpolate",
    ]
    page.locator("#apimap-filter-release").select_option("3.0.0")
    # every API that exists on 3.0.0 is found there, though Conv2D has no `bias` and interpolate
    # no `antialias` on it (measured with --matrix): its page says what to write on that release
    expect(status).to_have_text("找到 5 个 API。")
    expect(names).to_have_text(
        [
            "torch.nn.BatchNorm1d",
            "torch.nn.Conv2d",
            "torch.nn.CosineSimilarity",
            "torch.nn.Softmax",
            "torch.nn.functional.interpolate",
        ]
    )
    page.locator("#apimap-filter-release").select_option("3.3.1")
    expect(status).to_have_text("找到 5 个 API。")


def test_pasting_an_api_name_as_written_in_code_opens_its_page(page: Any, site_url: str) -> None:
    page.goto(site_url + "tables.html")
    _ready_filter(page)
    page.evaluate("navigator.clipboard.writeText('F.interpolate(x, scale_factor=2)')")
    page.locator("#apimap-filter-text").focus()
    page.keyboard.press("Control+V")
    page.wait_for_url("**/api/torch.nn.functional.interpolate.html")


def test_reverse_lookup_goes_from_paddle_to_torch(page: Any, site_url: str) -> None:
    page.goto(site_url + "reverse.html")
    _ready_filter(page)
    page.locator("#apimap-filter-text").fill("paddle.nn.conv2d")
    row = page.locator("#apimap-filter-results tbody tr").first
    assert row.locator("td").nth(0).inner_text() == "paddle.nn.Conv2D"
    assert row.locator("td").nth(1).locator("a").inner_text() == "torch.nn.Conv2d"
    page.locator("#apimap-filter-text").fill("paddle.nn.Conv2D")
    page.locator("#apimap-filter-text").press("Enter")
    page.wait_for_url("**/api/torch.nn.%5EConv2d.html")
    page.goto(site_url + "reverse.html")
    page.get_by_role("link", name="paddle.nn", exact=True).click()
    page.wait_for_url("**/reverse/paddle.nn.html")
    page.get_by_role("link", name="torch.nn.Softmax").click()
    page.wait_for_url("**/api/torch.nn.%5ESoftmax.html")


# --- 29.4: tables that fit ----------------------------------------------------------------------


def test_mapping_tables_link_names_and_fit_the_screen(page: Any, root_url: str) -> None:
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.goto(root_url + "tables/network.html")
        assert _no_sideways_scroll(page), viewport
        table = page.locator("table.apimap-mapping").first
        wrapper = page.locator("article .table-wrapper").first
        assert wrapper.evaluate("w => w.scrollWidth <= w.clientWidth"), viewport
        first = table.locator("tbody tr").first
        assert first.locator("td").first.locator("a").inner_text() == "torch.nn.BatchNorm1d"
    # a phone shows torch, paddle and the category; the Chinese name on tap
    first = table.locator("tbody tr").first
    zh = first.locator("td.apimap-zh")
    assert not zh.is_visible()
    assert [cell.is_visible() for cell in first.locator("td").all()] == [True, False, True, True]
    assert first.locator("td").nth(2).inner_text() == "paddle.nn.BatchNorm1D"
    assert first.locator("td").last.inner_text() == "输入参数用法不一致"
    first.locator("td").last.click()
    assert zh.is_visible() and zh.inner_text() == "一维批归一化层"
    page.set_viewport_size(DESKTOP)
    page.goto(root_url + "tables.html")
    _ready_filter(page)
    page.locator("#apimap-filter-text").fill("torch.nn")
    results = page.locator("#apimap-filter-results")
    results.locator("tbody tr").first.wait_for()
    wrapper = page.locator("#apimap-filter .table-wrapper")
    assert wrapper.evaluate("w => w.scrollWidth <= w.clientWidth")
    assert _no_sideways_scroll(page)
    results.locator("td:first-child a").first.click()
    page.wait_for_url("**/api/**")


# --- 29.5: phone layout, version labels, no English ----------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "index.html",
        "tables.html",
        "api/torch.nn.%5EBatch%5ENorm1d.html",
        "api/torch.nn.functional.interpolate.html",
        "api/torch.clamp.html",
        "reverse.html",
        "migration/network.html",
        "rules.html",
        "search.html?q=%E5%8D%B7%E7%A7%AF",
    ],
)
def test_phone_width_pages_do_not_scroll_sideways(page: Any, root_url: str, name: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(root_url + name)
    page.wait_for_load_state("load")
    assert _no_sideways_scroll(page)


def test_phone_layout_keeps_code_remarks_and_chart_readable(page: Any, root_url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(root_url + "api/torch.nn.%5EBatch%5ENorm1d.html")
    # the copy buttons sit above their block, which keeps the full width
    example = page.locator("#examples div.highlight-python").first
    bar = page.locator("#examples .apimap-copy").first
    assert bar.bounding_box()["y"] + bar.bounding_box()["height"] <= example.bounding_box()["y"] + 1
    assert example.bounding_box()["width"] >= 300
    # the parameter table shows every remark, under the two names
    remark = page.locator("table.apimap-params td.apimap-param-remark").nth(1)
    box = remark.bounding_box()
    assert remark.is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= 375
    page.goto(root_url + "index.html")
    chart = page.locator("img.apimap-chart")
    assert chart.evaluate("img => img.complete && img.naturalWidth > 0")
    scale = chart.evaluate("img => img.getBoundingClientRect().width / img.naturalWidth")
    assert scale >= 0.8  # the chart's 13 px text stays at least about 10 px
    page.get_by_role("link", name="搜索").first.click()  # the header's search link
    page.wait_for_url("**/search.html")


def test_pages_say_which_versions_their_facts_come_from(page: Any, root_url: str) -> None:
    page.goto(root_url + "api/torch.clamp.html")
    text = page.locator("article").inner_text()
    assert "已验证：torch 2.13.0 / paddle 3.3.1" in text
    assert "本页的事实由 PyTorch 2.13.0 与 Paddle 3.3.1 运行得出。" in text
    footer = page.locator("footer").inner_text()
    assert "PyTorch 2.13.0（torchvision 0.29.1 的页面用 torch 2.14.1）与 Paddle 3.3.1" in footer


_ENGLISH = re.compile(r"\b[A-Za-z]{2,}(?:[ ’'][A-Za-z]{2,}){2,}\b")
"""Three English words in a row: a sentence or a label, not a name or a term."""


@pytest.mark.parametrize(
    "name",
    [
        "index.html",
        "tables.html",
        "tables/missing.html",
        "api/torch.nn.%5EBatch%5ENorm1d.html",
        "api/torch.nn.utils.rnn.pack_padded_sequence.html",
        "search.html?q=torch.distributed.get_rank",
        "rules.html",
        "changelog.html",
        "guide.html",
        "404.html",
    ],
)
def test_chinese_pages_have_no_english_outside_code(page: Any, root_url: str, name: str) -> None:
    page.goto(root_url + name)
    page.wait_for_load_state("load")
    page.wait_for_timeout(200)
    text = page.evaluate(
        """() => {
          const out = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const node = walker.currentNode;
            const parent = node.parentElement;
            if (parent.closest("code, pre, script, style, kbd, .highlight")) continue;
            if (!parent.checkVisibility()) continue;
            out.push(node.textContent);
          }
          const labels = [...document.querySelectorAll("[aria-label], [title], [placeholder]")]
            .map((el) => [el.getAttribute("aria-label"), el.getAttribute("title"),
                          el.getAttribute("placeholder")].filter(Boolean).join(" "));
          return out.join(" ") + " " + labels.join(" ") + " " + document.title;
        }"""
    )
    assert _ENGLISH.findall(text) == []


# --- copy buttons and the report link (also below a sub-path) ---------------------------------


def _clipboard(page: Any) -> str:
    text: str = page.evaluate("navigator.clipboard.readText()")
    return text


def test_copy_buttons_copy_each_side_without_the_marker_lines(page: Any, site_url: str) -> None:
    page.goto(site_url + "api/torch.nn.%5EBatch%5ENorm1d.html")
    bars = page.locator(".apimap-copy")
    assert bars.nth(1).inner_text() == "复制"  # the paddle signature
    example = bars.nth(2)  # the first rewrite example (the buttons' text changes on click)
    example.get_by_role("button", name="复制 Paddle 代码").click()
    assert _clipboard(page) == (
        "m = paddle.nn.BatchNorm1D(3, momentum=0.8)\ny = m(x)\nmean = m._mean"
    )
    example.get_by_role("button", name="复制 PyTorch 代码").click()
    copied = _clipboard(page)
    assert copied.startswith("m = torch.nn.BatchNorm1d(3, momentum=0.2)") and "#" not in copied
    page.locator(".apimap-copy").first.get_by_role("button", name="复制").click()
    assert _clipboard(page).startswith("torch.nn.BatchNorm1d(")  # the signature block


def test_api_page_links_to_its_record_and_a_prefilled_issue(page: Any, site_url: str) -> None:
    page.goto(site_url + "api/torch.nn.%5EBatch%5ENorm1d.html")
    edit = page.get_by_role("link", name="编辑此记录").get_attribute("href")
    assert edit == (
        "https://github.com/example/apimap/edit/main/"
        "mappings/torch/nn/torch.nn.%5EBatch%5ENorm1d.yaml"
    )
    report = page.get_by_role("link", name="报告问题").get_attribute("href")
    assert report is not None and report.startswith(
        "https://github.com/example/apimap/issues/new?template=mapping.yml&"
    )
    query = parse_qs(urlsplit(report).query)
    assert query["api"] == ["torch.nn.BatchNorm1d"]
    assert query["record"] == ["mappings/torch/nn/torch.nn.^Batch^Norm1d.yaml"]
    assert query["versions"] == ["torch 2.13.0 / paddle 3.3.1"]


def test_diff_page_follows_the_spec_layout(page: Any, site_url: str) -> None:
    page.goto(site_url + "tables/network.html")
    page.get_by_role("link", name="torch.nn.BatchNorm1d").click()
    page.wait_for_url("**/api/torch.nn.%5EBatch%5ENorm1d.html")
    assert page.locator("h1").inner_text().startswith("[ 输入参数用法不一致 ] torch.nn.BatchNorm1d")
    assert page.locator(".apimap-badge").inner_text() == "已验证：torch 2.13.0 / paddle 3.3.1"
    assert "验证于 2026-" in page.locator("article").inner_text()  # the stamp's date
    headings = page.locator("article h2").all_inner_texts()
    assert [h.rstrip("¶#").strip() for h in headings] == [
        "torch.nn.BatchNorm1d",
        "paddle.nn.BatchNorm1D",
        "参数映射",
        "转写示例",
        "注意事项",
        "行为对照",
        "不同 Paddle 版本",
    ]
    rows = page.locator("table.apimap-params tbody tr")
    assert rows.count() == 10
    cells = [text.strip() for text in rows.nth(1).locator("td").all_inner_texts()]
    assert cells == ["eps", "epsilon", "为保证数值稳定而加到分母上的值，仅参数名不一致。"]
    sidebar = page.locator(".sidebar-tree").inner_text()
    assert "映射表" in sidebar and "BatchNorm1d" not in sidebar
    toc = page.locator(".toc-tree").inner_text()
    assert "参数映射" in toc and "不同 Paddle 版本" in toc
