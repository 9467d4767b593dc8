"""The built site in a real browser: Debian's chromium driven by Python playwright.

Skipped only when chromium is absent and ``CI`` is not set; in CI it runs (or fails).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from apimap.publish.site.build import SiteLayout
from apimap.publish.site.serve import start_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _require_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI 中缺少 {CHROMIUM} (chromium is required in CI)")
    pytest.skip("没有安装 chromium (chromium not installed)")


@pytest.fixture(scope="module")
def site_url(built_site: SiteLayout) -> Iterator[str]:
    server = start_server(built_site.html, "127.0.0.1", 0)
    host, port = server.server_address[:2]
    yield f"http://{host!s}:{port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def page(site_url: str) -> Iterator[Any]:
    _require_chromium()
    from playwright.sync_api import sync_playwright  # the browser extra

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
        tab = context.new_page()
        tab.set_default_timeout(20_000)
        yield tab
        browser.close()


def test_home_page_shows_counts_and_chart(page: Any, site_url: str) -> None:
    page.goto(site_url)
    assert "PyTorch → Paddle API 映射" in page.title()
    body = page.locator("article").inner_text()
    assert "本站收录 15 个 PyTorch API" in body
    assert "公开 API 覆盖率" in body
    chart = page.locator("img[src$='coverage.svg']")
    assert chart.evaluate("img => img.complete && img.naturalWidth > 0")


def test_table_filter_finds_by_name_category_and_section(page: Any, site_url: str) -> None:
    page.goto(site_url + "tables.html")
    status = page.locator("#apimap-filter-status")
    results = page.locator("#apimap-filter-results tbody tr")
    page.locator("#apimap-filter-text").fill("conv2d")
    assert status.inner_text() == "找到 1 个 API。"
    assert results.first.locator("td").first.inner_text() == "torch.nn.Conv2d"

    page.locator("#apimap-filter-text").fill("")
    page.locator("#apimap-filter-category").select_option("missing")
    assert status.inner_text() == "找到 1 个 API。"
    assert "PackedSequence" in results.first.inner_text()

    page.locator("#apimap-filter-category").select_option("")
    page.locator("#apimap-filter-section").select_option("组网类")
    assert status.inner_text() == "找到 5 个 API。"
    names = results.locator("td:first-child").all_inner_texts()
    assert names == [
        "torch.nn.BatchNorm1d",
        "torch.nn.Conv2d",
        "torch.nn.CosineSimilarity",
        "torch.nn.Softmax",
        "torch.nn.functional.interpolate",
    ]

    page.locator("#apimap-filter-text").fill("absolute")
    page.locator("#apimap-filter-section").select_option("")
    assert "torch.abs 的别名" in results.first.inner_text()
    results.first.get_by_role("link", name="差异对比").click()
    page.wait_for_url("**/api/torch.abs.html")
    assert page.locator("h1").inner_text().startswith("[ 参数完全一致 ] torch.abs")


def test_diff_page_follows_the_spec_layout(page: Any, site_url: str) -> None:
    page.goto(site_url + "tables.html")
    page.locator("a[href='api/torch.nn.%5EBatch%5ENorm1d.html']").first.click()
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
    rows = page.locator("article table").first.locator("tbody tr")
    assert rows.count() == 10
    cells = [text.strip() for text in rows.nth(1).locator("td").all_inner_texts()]
    assert cells == ["eps", "epsilon", "为保证数值稳定而加到分母上的值，仅参数名不一致。"]
    code = page.locator("article pre").all_inner_texts()
    assert any(block.startswith("# PyTorch 写法") and "# Paddle 写法" in block for block in code)
    sidebar = page.locator(".sidebar-tree").inner_text()
    assert "映射表" in sidebar and "BatchNorm1d" not in sidebar


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Conv2d", "torch.nn.Conv2d"),
        ("BatchNorm1d", "torch.nn.BatchNorm1d"),
        ("clip_grad", "torch.nn.utils.clip_grad_value_"),
        ("卷积", "torch.nn.Conv2d"),
        ("方差", "torch.nn.BatchNorm1d"),
        ("学习率", "torch.optim.lr_scheduler.StepLR"),
    ],
)
def test_search_box_finds_apis_and_chinese_words(
    page: Any, site_url: str, query: str, expected: str
) -> None:
    page.goto(site_url)
    box = page.locator("input.sidebar-search")
    box.fill(query)
    box.press("Enter")
    page.wait_for_url("**/search.html?**")
    results = page.locator("#search-results ul.search li")
    results.first.wait_for()
    assert any(expected in text for text in results.all_inner_texts())


def test_search_result_links_open_the_case_safe_page(page: Any, site_url: str) -> None:
    page.goto(site_url + "search.html?q=BatchNorm1d")
    link = page.locator("#search-results ul.search li a").first
    link.wait_for()
    link.click()
    page.wait_for_load_state()
    assert page.url.endswith("/api/torch.nn.%5EBatch%5ENorm1d.html")
    assert page.locator("h1").inner_text().startswith("[ 输入参数用法不一致 ] torch.nn.BatchNorm1d")


def test_release_filter_keeps_mappings_measured_to_hold(page: Any, site_url: str) -> None:
    page.goto(site_url + "tables.html")
    status = page.locator("#apimap-filter-status")
    results = page.locator("#apimap-filter-results tbody tr")
    page.locator("#apimap-filter-section").select_option("组网类")
    page.locator("#apimap-filter-release").select_option("3.0.0")
    names = results.locator("td:first-child").all_inner_texts()
    # Paddle's Conv2D has no `bias` parameter before 3.2.2; the other layers map the same;
    # interpolate has not been measured on other releases
    assert names == ["torch.nn.BatchNorm1d", "torch.nn.CosineSimilarity", "torch.nn.Softmax"]
    page.locator("#apimap-filter-release").select_option("3.3.1")
    assert status.inner_text() == "找到 5 个 API。"
    assert results.first.locator("td").nth(1).inner_text() == "一维批归一化层"  # 功能 column


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
    from urllib.parse import parse_qs, urlsplit

    query = parse_qs(urlsplit(report).query)
    assert query["api"] == ["torch.nn.BatchNorm1d"]
    assert query["record"] == ["mappings/torch/nn/torch.nn.^Batch^Norm1d.yaml"]
    assert query["versions"] == ["torch 2.13.0 / paddle 3.3.1"]


def test_reverse_lookup_goes_from_paddle_to_torch(page: Any, site_url: str) -> None:
    page.goto(site_url + "reverse.html")
    page.locator("#apimap-filter-text").fill("paddle.nn.conv2d")
    row = page.locator("#apimap-filter-results tbody tr").first
    assert row.locator("td").nth(0).inner_text() == "paddle.nn.Conv2D"
    assert row.locator("td").nth(1).inner_text() == "torch.nn.Conv2d"
    page.locator("#apimap-filter-text").fill("paddle.nn.Conv2D")
    page.locator("#apimap-filter-text").press("Enter")
    page.wait_for_url("**/api/torch.nn.%5EConv2d.html")


def test_pasting_an_api_name_as_written_in_code_opens_its_page(page: Any, site_url: str) -> None:
    page.goto(site_url + "tables.html")
    page.evaluate("navigator.clipboard.writeText('F.interpolate(x, scale_factor=2)')")
    page.locator("#apimap-filter-text").focus()
    page.keyboard.press("Control+V")
    page.wait_for_url("**/api/torch.nn.functional.interpolate.html")
    page.goto(site_url + "tables.html")
    page.locator("#apimap-filter-text").fill("nn.Conv2d")
    page.locator("#apimap-filter-text").press("Enter")
    page.wait_for_url("**/api/torch.nn.%5EConv2d.html")


def test_the_search_box_opens_the_page_of_a_named_api(page: Any, site_url: str) -> None:
    page.goto(site_url + "index.html")
    box = page.locator("input.sidebar-search")
    box.fill("F.interpolate")
    box.press("Enter")
    page.wait_for_url("**/api/torch.nn.functional.interpolate.html")
    page.goto(site_url + "search.html?q=%E5%8D%B7%E7%A7%AF")  # 卷积: a word, not an API
    page.wait_for_selector("#search-results ul li")
    assert "search.html" in page.url


def test_phone_width_pages_do_not_scroll_sideways(
    page: Any, site_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    shots = tmp_path_factory.mktemp("phone")
    page.set_viewport_size({"width": 375, "height": 800})
    try:
        for name in ("tables.html", "api/torch.nn.functional.interpolate.html", "reverse.html"):
            page.goto(site_url + name)
            if name == "tables.html":
                page.locator("#apimap-filter-category").select_option("input_usage_diff")
            page.screenshot(path=str(shots / (name.replace("/", "_") + ".png")))
            width, viewport = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert width <= viewport, name
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})
