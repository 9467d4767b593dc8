"""The built site in a real browser: Debian's chromium driven by Python playwright.

Skipped only when chromium is absent and ``CI`` is not set; in CI it runs (or fails).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from apimap.render.build import SiteLayout
from apimap.render.serve import start_server

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
        tab = browser.new_page()
        tab.set_default_timeout(20_000)
        yield tab
        browser.close()


def test_home_page_shows_counts_and_chart(page: Any, site_url: str) -> None:
    page.goto(site_url)
    assert "PyTorch → Paddle API 映射" in page.title()
    body = page.locator("article").inner_text()
    assert "本站收录 14 个 PyTorch API" in body
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
    assert status.inner_text() == "找到 4 个 API。"
    names = results.locator("td:first-child").all_inner_texts()
    assert names == [
        "torch.nn.BatchNorm1d",
        "torch.nn.Conv2d",
        "torch.nn.CosineSimilarity",
        "torch.nn.Softmax",
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
    headings = page.locator("article h2").all_inner_texts()
    assert [h.rstrip("¶#").strip() for h in headings] == [
        "torch.nn.BatchNorm1d",
        "paddle.nn.BatchNorm1D",
        "参数映射",
        "转写示例",
        "注意事项",
        "行为对照",
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
    # Paddle's Conv2D has no `bias` parameter before 3.2.2; the other layers map the same
    assert names == ["torch.nn.BatchNorm1d", "torch.nn.CosineSimilarity", "torch.nn.Softmax"]
    page.locator("#apimap-filter-release").select_option("3.3.1")
    assert status.inner_text() == "找到 4 个 API。"
    assert results.first.locator("td").nth(1).inner_text() == "一维批归一化层"  # 功能 column
