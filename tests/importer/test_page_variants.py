"""Legacy page variations: each one imports to the record of the clean page (or says why not)."""

from __future__ import annotations

import pytest
from import_support import FIXTURES

from apimap.publish.importer.findings import with_findings
from apimap.publish.importer.page import read_page
from apimap.publish.importer.writer import record_text
from apimap.record.categories import Category, RowKind
from apimap.record.model import Record

SPEC = FIXTURES / "spec"
PAGES = FIXTURES / "pages"


def _spec(stem: str) -> str:
    return (SPEC / f"{stem}.md").read_text(encoding="utf-8")


def _clean(stem: str) -> Record:
    record = read_page(_spec(stem)).record
    assert record is not None
    return record


def _replaced(stem: str, replacements: list[tuple[str, str]]) -> str:
    text = _spec(stem)
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


DIST_TITLE = "## [ 仅参数名不一致 ] torch.dist"
DIST_LINK = "### [torch.dist](https://docs.pytorch.org/docs/stable/generated/torch.dist.html)"
DIST_REMARKS = [
    ("| x | 输入的 Tensor，仅参数名不一致。", "| x | 输入的 Tensor , 仅参数名不一致."),
    ("| y | 另一个输入的 Tensor，仅参数名不一致。", "| y | 另一个输入的 Tensor,仅参数名不一致"),
    ("范数的阶数。", "范数的阶数."),
    (
        "两者功能一致且参数用法一致，仅参数名不一致，具体如下：",
        "两者功能一致且参数用法一致, 仅参数名不一致, 具体如下:",
    ),
]

SAME_RECORD: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "title-without-spaces": ("03_names_differ", [(DIST_TITLE, "## [仅参数名不一致]torch.dist")]),
    "title-api-touching-bracket": (
        "03_names_differ",
        [(DIST_TITLE, "## [ 仅参数名不一致 ]torch.dist")],
    ),
    "title-level-3": ("03_names_differ", [(DIST_TITLE, "### [ 仅参数名不一致 ] torch.dist")]),
    "title-level-1-no-space": ("03_names_differ", [(DIST_TITLE, "#[ 仅参数名不一致 ] torch.dist")]),
    "api-headings-level-2": (
        "03_names_differ",
        [("### [torch.dist]", "## [torch.dist]"), ("### [paddle.dist]", "## [paddle.dist]")],
    ),
    "code-marked-names": ("03_names_differ", [("| other | y |", "| `other` | `y` |")]),
    "header-pytorch-lower": (
        "03_names_differ",
        [("| PyTorch | PaddlePaddle | 备注 |", "| Pytorch | Paddle | 备注 |")],
    ),
    "header-library-names": (
        "12_other_package",
        [("| PyTorch | PaddlePaddle | 备注 |", "| torch | visualdl | 备注 |")],
    ),
    "signature-split-over-lines": (
        "03_names_differ",
        [
            (
                "torch.dist(input, other, p=2)",
                "torch.dist(input,\n           other,\n           p=2)",
            )
        ],
    ),
    "signature-split-after-paren": (
        "06_torch_more",
        [
            (
                "paddle.nn.functional.leaky_relu(x, negative_slope=0.01, name=None)",
                "paddle.nn.functional.leaky_relu(\n    x,\n    negative_slope=0.01,\n    name=None\n)",
            )
        ],
    ),
    "python-tagged-fences": ("06_torch_more", [("```python", "```Python")]),
    "older-guide-highlighted-names": (
        "03_names_differ",
        [("| input | x |", "| <font color='red'>input</font> | <font color=red>x</font> |")],
    ),
    "template-spelling-pytorch": (
        "06_torch_more",
        [("PyTorch 相比 Paddle", "Pytorch 相比 Paddle")],
    ),
    "untagged-fences": ("06_torch_more", [("```python", "```")]),
    "ascii-colon-in-example-heading": (
        "06_torch_more",
        [("#### inplace：原地修改输入", "#### inplace: 原地修改输入")],
    ),
    "code-marked-example-heading": (
        "06_torch_more",
        [("#### inplace：原地修改输入", "#### `inplace`：原地修改输入")],
    ),
    "site-layout": (
        "01_no_params",
        [
            (
                "## [ 无参数 ] torch.Tensor.t",
                "---\norphan: true\n---\n\n# [ 无参数 ] torch.Tensor.t",
            ),
            (
                "](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.t.html)",
                "](<https://docs.pytorch.org/docs/stable/generated/torch.Tensor.t.html>)",
            ),
            (
                "两者功能一致，无参数。",
                "两者功能一致，无参数。\n\n---\n\n[无参数](../category/no_params.md) · [映射表](../tables.md)",
            ),
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(SAME_RECORD))
def test_variation_imports_to_the_clean_record(name: str) -> None:
    stem, replacements = SAME_RECORD[name]
    result = read_page(_replaced(stem, replacements))
    assert result.problems == []
    assert result.record == _clean(stem)


REPORTED: dict[str, tuple[str, list[tuple[str, str]], list[tuple[int, str, str]]]] = {
    "tag-wrapped-names": (
        "03_names_differ",
        [("| input | x |", "| <b>input</b> | <font color=red>x</font> |")],
        [(21, "IM305", "`<b>` `</b>`")],
    ),
    "ascii-punctuation": (
        "03_names_differ",
        DIST_REMARKS,
        [
            (15, "IM302", "`,` `:`"),
            (21, "IM302", "`,` `.`"),
            (22, "IM301", ""),
            (22, "IM302", "`,`"),
            (23, "IM302", "`.`"),
        ],
    ),
    "pytorch-spelling-and-lookalike": (
        "06_torch_more",
        [
            ("PyTorch 相比 Paddle", "pytorch 相比 PaddlePaddle"),
            ("Paddle 无此参数，需要转写", "PaddlePaddle ⽆此参数，需要转写"),
        ],
        [(15, "IM303", "`pytorch`"), (23, "IM304", "`⽆` U+2F46（无）")],
    ),
    "legacy-code-markers": (
        "06_torch_more",
        [("# PyTorch 写法", "# torch ⽤法"), ("# Paddle 写法", "# paddle 用法：")],
        [(30, "IM304", "`⽤` U+2F64（用）")],
    ),
    "keep-default-spelled-loosely": (
        "04_paddle_more",
        [("PyTorch 无此参数，Paddle 保持默认即可。", "pytorch 无此参数, Paddle 保持默认即可")],
        [(22, "IM301", ""), (22, "IM302", "`,`"), (22, "IM303", "`pytorch`")],
    ),
    "composite-lead-paddlepaddle": (
        "10_composite",
        [("Paddle 目前无对应 API，可使用", "PaddlePaddle 目前无对应 API,可使用")],
        [(11, "IM302", "`,`")],
    ),
    "context-change-ascii-colon": (
        "11_context_change",
        [("[ 用法不同：涉及上下文修改 ]", "[ 用法不同:涉及上下文修改 ]")],
        [(1, "IM302", "`:`")],
    ),
}
"""Variations that break the specification: they import to the clean record, and what the
importer normalised is reported (line, code, detail)."""


@pytest.mark.parametrize("name", sorted(REPORTED))
def test_a_normalised_violation_is_reported_not_hidden(name: str) -> None:
    stem, replacements, expected = REPORTED[name]
    result = read_page(_replaced(stem, replacements))
    assert [(p.line, p.code, p.detail) for p in result.problems] == expected
    assert result.record == _clean(stem)


OTHER_NAMES: dict[str, tuple[str, str, str]] = {
    "仅 paddle 参数更多": ("04_paddle_more", "paddle 参数更多", "仅 paddle 参数更多"),
    "参数不一致": ("08_input_usage_diff", "输入参数用法不一致", "参数不一致"),
    "涉及上下文修改": ("11_context_change", "用法不同：涉及上下文修改", "涉及上下文修改"),
    "API 完全一致": ("03_names_differ", "仅参数名不一致", "API 完全一致"),
    "参数默认值不一致": ("05_defaults_differ", "仅参数默认值不一致", "参数默认值不一致"),
}
"""Names the specification's templates and group list use, or the upstream documentation uses
today: not a violation."""


@pytest.mark.parametrize("name", sorted(OTHER_NAMES))
def test_template_group_and_upstream_category_names_import_silently(name: str) -> None:
    stem, label, other = OTHER_NAMES[name]
    result = read_page(_replaced(stem, [(f"[ {label} ]", f"[ {other} ]")]))
    assert result.problems == []
    assert result.record == _clean(stem)


LEGACY_CATEGORIES: dict[str, tuple[str, str, str, Category]] = {
    "参数用法不一致": (
        "08_input_usage_diff",
        "输入参数用法不一致",
        "参数用法不一致",
        Category.INPUT_USAGE_DIFF,
    ),
    "组合实现": ("10_composite", "组合替代实现", "组合实现", Category.COMPOSITE),
}


@pytest.mark.parametrize("name", sorted(LEGACY_CATEGORIES))
def test_legacy_category_names_are_replaced_and_reported(name: str) -> None:
    stem, label, legacy, expected = LEGACY_CATEGORIES[name]
    result = read_page(_replaced(stem, [(f"[ {label} ]", f"[ {legacy} ]")]))
    assert [(p.code, p.line, p.detail) for p in result.problems] == [
        ("IM201", 1, f"→ {expected.label}")
    ]
    assert result.record == _clean(stem)


def test_legacy_inconsistent_category_is_narrowed_by_the_rows_wording() -> None:
    text = _replaced(
        "07_input_type_diff",
        [
            ("[ 输入参数类型不一致 ]", "[ 参数不一致 ]"),
            (
                "Paddle 只接受数值或只有一个元素的 Tensor，需要转写。",
                "Paddle 只接受数值类型，需要转写。",
            ),
        ],
    )
    record = read_page(text).record
    assert record is not None
    assert record.category is Category.INPUT_TYPE_DIFF
    assert [row.kind for row in record.params] == [
        RowKind.RENAME,
        RowKind.TYPE_DIFF,
        RowKind.TYPE_DIFF,
        RowKind.SAME,
    ]


def test_missing_urls_leave_the_url_fields_out_and_an_empty_link_is_reported() -> None:
    text = _replaced(
        "03_names_differ",
        [
            (DIST_LINK, "### torch.dist"),
            (
                "### [paddle.dist](https://www.paddlepaddle.org.cn/documentation/docs/zh/api/paddle/dist_cn.html)",
                "### [paddle.dist]()",
            ),
        ],
    )
    result = read_page(text)
    assert [(p.line, p.code) for p in result.problems] == [(9, "IM110")]  # a link to nowhere
    assert result.record == _clean("03_names_differ").model_copy(
        update={"torch_url": None, "paddle_url": None}
    )


def test_an_http_link_is_kept_as_a_loss_not_dropped() -> None:
    text = _replaced(
        "03_names_differ", [("](https://docs.pytorch.org", "](http://docs.pytorch.org")]
    )
    result = read_page(text)
    assert [(p.code, p.line, p.detail) for p in result.problems] == [("IM103", 3, "torch_url")]
    assert (
        result.problems[0].kept == "http://docs.pytorch.org/docs/stable/generated/torch.dist.html"
    )
    assert result.record is not None and result.record.torch_url is None


def test_remark_without_a_standard_phrase_becomes_the_meaning_and_is_noted() -> None:
    text = _replaced(
        "03_names_differ", [("| x | 输入的 Tensor，仅参数名不一致。", "| x | 输入的 Tensor。")]
    )
    result = read_page(text)
    assert [(p.code, p.line, p.detail) for p in result.problems] == [("IM202", 21, "kind: rename")]
    assert result.record == _clean("03_names_differ")


def test_legacy_default_remark_is_split_and_checked_against_the_signatures() -> None:
    legacy = "低精度计算使用的数据类型，Pytorch 为 None，Paddle 为 'float16'，Paddle 需按设备设置。"
    text = _replaced(
        "05_defaults_differ",
        [
            (
                "低精度计算使用的数据类型，PyTorch 默认值为 `None`，Paddle 默认值为 `'float16'`，"
                "Paddle 需按设备设置：CPU 上为 `'bfloat16'`，GPU 上为 `'float16'`。",
                legacy,
            )
        ],
    )
    result = read_page(text)
    assert [(p.line, p.code, p.detail) for p in result.problems] == []
    assert result.record is not None
    row = result.record.params[1]
    assert (row.kind, row.desc, row.setting) == (
        RowKind.DEFAULT_DIFF,
        "低精度计算使用的数据类型",
        "Paddle 需按设备设置",
    )


def test_defaults_a_remark_states_wrongly_are_reported_with_the_remark() -> None:
    text = _replaced("05_defaults_differ", [("Paddle 默认值为 `True`", "Paddle 默认值为 `False`")])
    result = read_page(text)
    assert [(p.code, p.line, p.detail) for p in result.problems] == [
        ("IM105", 24, "`cache_enabled`")
    ]
    assert "Paddle 默认值为 `False`" in (result.problems[0].kept or "")


def test_an_example_heading_says_where_a_meaning_with_a_comma_ends() -> None:
    text = _replaced(
        "08_input_usage_diff",
        [
            (
                "| dim0 | perm | 要交换的第一个维度，PyTorch 给出要交换的两个维度，",
                "| dim0 | perm | 要交换的第一个维度，从 0 开始，这里给出要交换的两个维度，",
            ),
            ("#### dim0：要交换的第一个维度", "#### dim0：要交换的第一个维度，从 0 开始"),
        ],
    )
    result = read_page(text)
    assert result.problems == []
    assert result.record is not None
    row = result.record.params[1]
    assert (row.desc, row.diff) == (
        "要交换的第一个维度，从 0 开始",
        "这里给出要交换的两个维度，Paddle 给出全部维度的新顺序",
    )
    assert result.record.examples[0].purpose is None


def test_a_default_of_a_parameter_the_signature_does_not_name_is_not_judged() -> None:
    # paddle accepts the torch-style name `cache_enabled` for its `cache` (paddle_accepts, which
    # no page shows): the page's stated default is unknown to the importer, not contradicted
    text = _replaced(
        "05_defaults_differ",
        [
            (
                "dtype='float16', enabled=True, cache_enabled=True)",
                "dtype='float16', enabled=True, cache=True)",
            )
        ],
    )
    result = read_page(text)
    assert [p.code for p in result.problems] == []


def test_text_outside_the_known_parts_is_kept_with_its_line() -> None:
    text = _replaced(
        "03_names_differ",
        [
            (
                "### 参数映射\n",
                "### 参数映射\n\n参数映射表的左边是 PyTorch 对应参数。\n\n### 附录\n\n见官网。\n\n### 参数映射\n",
            )
        ],
    )
    result = read_page(text)
    found = [(p.code, p.line, p.kept) for p in result.problems]
    assert found == [
        ("IM101", 19, "参数映射表的左边是 PyTorch 对应参数。"),
        ("IM101", 21, "### 附录\n\n见官网。"),  # a section the layout does not have: once
    ]
    assert result.record == _clean("03_names_differ")


def test_a_fence_left_open_at_the_end_is_closed_there_and_reported() -> None:
    text = _spec("06_torch_more").rstrip().removesuffix("```")
    result = read_page(text)
    assert [(p.line, p.code, p.detail) for p in result.problems] == [
        (29, "IM306", "在页面末尾闭合 (closed at the end of the page)")
    ]
    assert result.record == _clean("06_torch_more")


def test_a_fence_left_open_before_the_next_block_is_closed_before_it() -> None:
    text = _spec("06_torch_more").replace(
        "paddle.nn.functional.leaky_relu(x, negative_slope=0.01, name=None)\n```",
        "paddle.nn.functional.leaky_relu(x, negative_slope=0.01, name=None)",
    )
    result = read_page(text)
    assert [(p.line, p.code, p.detail) for p in result.problems] == [
        (11, "IM306", "在第 13 行之前闭合 (closed before line 13)")
    ]
    assert result.record == _clean("06_torch_more")


EXPECTED_PROBLEMS: dict[str, list[tuple[int, str]]] = {
    "cases_in_one_block": [(21, "IM302"), (27, "IM302"), (28, "IM302")],
    "legacy_template9": [(23, "IM304"), (24, "IM202"), (25, "IM304"), (30, "IM304"), (39, "IM304")],
    "no_table": [(17, "IM205"), (19, "IM101")],
    "no_title": [(1, "IM001")],
    "prose_in_code": [(30, "IM106"), (33, "IM106")],
    "two_columns": [(19, "IM005")],
    "unclosed_fence": [(5, "IM306")],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_PROBLEMS))
def test_page_fixture_gives_the_expected_problems_and_record(name: str) -> None:
    page = PAGES / f"{name}.md"
    result = read_page(page.read_text(encoding="utf-8"))
    assert [(p.line, p.code) for p in result.problems] == EXPECTED_PROBLEMS[name]
    expected = page.with_suffix(".yaml")
    if result.record is None:
        assert not expected.exists()
        return
    record = with_findings(result.record, page.name, result.problems)
    assert record_text(record) == expected.read_text(encoding="utf-8")


def test_broken_input_never_raises() -> None:
    for text in [
        "",
        "\n\n",
        "```",
        "| a |",
        "# [",
        "## [ ] ",
        "## [ 无参数 ] torch",
        "\ufeff## [x] y",
    ]:
        result = read_page(text)
        assert result.record is None
        assert result.problems


def test_a_torch_heading_naming_another_api_is_kept_and_reported() -> None:
    result = read_page(_replaced("03_names_differ", [("### [torch.dist]", "### [torch.cdist]")]))
    assert [(p.code, p.line, p.detail, p.kept) for p in result.problems] == [
        (
            "IM101",
            3,
            "PyTorch API `torch.cdist` 与标题不同 (differs from the title)",
            "[torch.cdist](https://docs.pytorch.org/docs/stable/generated/torch.dist.html)",
        )
    ]
    assert result.record == _clean("03_names_differ")
