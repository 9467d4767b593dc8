"""Mapping-table pages: seed rows, categorised rows, alias rows and the 功能缺失 list."""

from __future__ import annotations

from import_support import FIXTURES

from apimap.publish.importer.category_names import CategoryName
from apimap.publish.importer.table import TableEntry, is_table_page, read_table_page
from apimap.record.categories import Category, Section

MIXED = (FIXTURES / "tables" / "mixed_tables.md").read_text(encoding="utf-8")


def _entry(api: str) -> TableEntry:
    return next(entry for entry in read_table_page(MIXED).entries if entry.api == api)


def test_seed_rows_give_links_section_and_page() -> None:
    dist = _entry("torch.dist")
    assert (dist.line, dist.section, dist.page, dist.category) == (
        9,
        Section.BASIC,
        "torch.dist.md",
        None,
    )
    assert dist.torch_url == "https://docs.pytorch.org/docs/stable/generated/torch.dist.html"
    assert dist.paddle_api == "paddle.dist"
    numel = _entry("torch.numel")
    assert (numel.category, numel.page) == (None, None)


def test_seed_composite_rows_are_recognised_by_their_link() -> None:
    addcmul = _entry("torch.addcmul")
    assert addcmul.paddle_api is None
    assert addcmul.category == CategoryName(Category.COMPOSITE, None, legacy=True)


def test_categorised_rows_and_alias_rows() -> None:
    softsign = _entry("torch.nn.Softsign")
    assert (softsign.section, softsign.category, softsign.page, softsign.category_text) == (
        Section.NETWORK,
        CategoryName(Category.NO_PARAMS, None, legacy=False),
        None,
        "无参数",
    )
    swapaxes = _entry("torch.swapaxes")
    assert (swapaxes.alias_of, swapaxes.torch_url, swapaxes.section) == (
        "torch.transpose",
        None,
        Section.BASIC,
    )
    transpose = _entry("torch.transpose")
    assert transpose.category == CategoryName(None, 3, legacy=False)


def test_missing_list_as_table_and_as_bullets() -> None:
    packed = _entry("torch.nn.utils.rnn.pack_padded_sequence")
    bullet = _entry("torch.nn.utils.rnn.pad_packed_sequence")
    for entry in (packed, bullet):
        assert entry.category == CategoryName(Category.MISSING, None, legacy=False)
        assert entry.section is None
        assert entry.reason == "Paddle 没有 PackedSequence 这种压缩序列类型。"
    assert bullet.line == 39


def test_aliases_packages_and_bullet_forms() -> None:
    text = "\n".join(
        [
            "## 对应 API 不在主框架",
            "",
            "| 序号 | PyTorch API | Paddle API | 映射关系分类 | 备注 |",
            "| --- | --- | --- | --- | --- |",
            "| 1 | [torch.hamming_window](https://docs.pytorch.org/docs/stable/generated/torch.hamming_window.html)"
            " | paddlenlp.ops.hamming_window（paddlenlp） | 对应 API 不在主框架 | |",
            "| 2 | torch.x | paddle.x |",
            "| 3 | 系列模型 | paddle.x | 无参数 | |",
            "",
            "## 功能缺失",
            "",
            "| 序号 | PyTorch API | 原因 |",
            "| --- | --- | --- |",
            "| 1 | [torch.a.b](https://example.org/a)（别名：`torch.a.c`、`torch.a.d`） | 没有。 |",
            "",
            "- `torch.e.f` - 也没有。",
            "- torch.g.h：同上。",
        ]
    )
    result = read_table_page(text)
    window, missing, code_bullet, plain_bullet = result.entries
    assert (window.paddle_api, window.paddle_package, window.category) == (
        "paddlenlp.ops.hamming_window",
        "paddlenlp",
        CategoryName(Category.OTHER_PACKAGE, None, legacy=False),
    )
    assert (missing.api, missing.aliases, missing.reason) == (
        "torch.a.b",
        ("torch.a.c", "torch.a.d"),
        "没有。",
    )
    assert (code_bullet.api, code_bullet.reason) == ("torch.e.f", "也没有。")
    assert (plain_bullet.api, plain_bullet.reason) == ("torch.g.h", "同上。")
    assert [(p.code, p.line) for p in result.problems] == [("IM102", 6), ("IM003", 7)]


def test_table_pages_are_told_from_api_pages() -> None:
    assert is_table_page(MIXED)
    api_page = (FIXTURES / "spec" / "03_names_differ.md").read_text(encoding="utf-8")
    assert not is_table_page(api_page)
