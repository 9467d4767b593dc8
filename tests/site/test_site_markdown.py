"""Record text never breaks the Markdown it is put into."""

from __future__ import annotations

from markdown_it import MarkdownIt

from apimap.publish.site.markdown import cell, code, fence, format_signature, inline, link
from hostile import MD as MYST
from hostile import markdown_problems

MD = MarkdownIt("commonmark").enable("table")


def rendered_inline(text: str) -> str:
    return MD.renderInline(text)


def test_code_spans_stay_and_the_rest_is_escaped() -> None:
    text = "PyTorch 的 `*size` 是可变参数，*args 与 _x_ 不是强调"
    html = rendered_inline(inline(text))
    assert "<code>*size</code>" in html
    assert "<em>" not in html
    assert "*args" in html and "_x_" in html


def test_underscores_inside_names_stay_readable() -> None:
    assert inline("track_running_stats") == "track_running_stats"
    assert inline("clip_grad_value_") == "clip_grad_value\\_"


def test_paragraph_starts_that_would_make_blocks_are_escaped() -> None:
    for text in ("- 不是列表", "1. 不是列表", "% 不是注释", "+ 不是列表"):
        html = MD.render(inline(text))
        assert html.startswith("<p>"), html


def test_table_cells_keep_pipes() -> None:
    table = f"| a | b |\n| - | - |\n| {cell('x | y')} | {cell('`p|q`')} |\n"
    html = MD.render(table)
    assert html.count("<td>") == 2
    assert "x | y" in html and "<code>p|q</code>" in html


def test_code_span_of_text_with_backticks() -> None:
    assert rendered_inline(code("a`b")) == "<code>a`b</code>"


def test_fence_is_longer_than_any_fence_inside() -> None:
    source = "x = 1\n```\ny = 2"
    html = MD.render(fence(source, "python"))
    assert html.count("<pre>") == 1
    assert "y = 2" in html


def test_links_escape_text_and_encode_the_target() -> None:
    assert link("a_b_", "https://x.org/a b<c>") == "[a_b\\_](<https://x.org/a%20b%3Cc%3E>)"


def test_long_signatures_get_one_parameter_per_line() -> None:
    text = (
        "paddle.nn.BatchNorm1D(num_features, momentum=0.9, epsilon=1e-05, "
        "weight_attr=None, data_format='N,C', size=(1, 2))"
    )
    assert format_signature(text) == (
        "paddle.nn.BatchNorm1D(num_features,\n"
        "                      momentum=0.9,\n"
        "                      epsilon=1e-05,\n"
        "                      weight_attr=None,\n"
        "                      data_format='N,C',\n"
        "                      size=(1, 2))"
    )
    assert format_signature("torch.abs(input,\n  *, out=None)") == "torch.abs(input, *, out=None)"


def test_backtick_runs_are_read_as_commonmark_reads_them() -> None:
    # A double run that nothing closes is literal: the single backtick after the HTML must
    # not turn the HTML into the "code span" it would be with a lazier match.
    html = rendered_inline(inline("``<script>alert(1)</script>`"))
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert rendered_inline(inline("a ``b`c`` d")) == "a <code>b`c</code> d"
    assert rendered_inline(inline("`x` and `` ` ``")) == "<code>x</code> and <code>`</code>"


def test_no_role_target_or_comment_survives() -> None:
    for text in ("{download}`../../etc/passwd`", "``{download}`x` y`", "(label)=", "% note"):
        assert markdown_problems(inline(text)) == [], text
        assert MYST.render(inline(text)).startswith("<p>"), text


def test_code_spans_and_fences_hold_line_breaks() -> None:
    assert code("a\nb\r\nc\rd") == "`a b c d`"
    assert MD.render(f"x {code(chr(10) * 2 + '<div>')} y").count("<p>") == 1
    assert cell("`a|b`") == "`a\\|b`"
    html = MD.render(fence("x = 1\r```\r<b>y</b>", "python"))
    assert html.count("<pre>") == 1 and "<b>" not in html


def test_only_web_addresses_become_links() -> None:
    assert link("x", "javascript:alert(1)") == "x"
    assert link("x", "data:text/html,<b>") == "x"
    assert link("x", "https://a.org/b\nc") == "[x](<https://a.org/b%0Ac>)"
