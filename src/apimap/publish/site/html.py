"""HTML building blocks for the pages the site renders itself (no Sphinx in between).

Record text reaches these pages only through the functions here, and each one
escapes: text outside code spans is HTML-escaped, code spans are found as
CommonMark finds them (:func:`apimap.publish.site.markdown.code_spans`, the same
reading the Markdown pages use) and become ``<code>`` elements, every value is
flattened to one line, and only ``https://`` and ``http://`` addresses become
links. Code blocks are highlighted by Pygments with the markup Sphinx writes, so
that the theme styles both kinds of page alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from html import escape
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

from apimap.publish.site.highlight import python_html
from apimap.publish.site.markdown import code_spans

_SAFE_SCHEMES = ("https://", "http://")
_LINE_BREAKS = re.compile(r"\r\n?|\n")


def code(text: str) -> Markup:
    """``text`` as an inline code element (line breaks become spaces)."""
    flat = _LINE_BREAKS.sub(" ", text)
    return Markup(
        f'<code class="docutils literal notranslate"><span class="pre">{escape(flat)}</span></code>'
    )


def name(api: str) -> Markup:
    """An API name as code that may wrap after each dot (long names in narrow table cells)."""
    parts = _LINE_BREAKS.sub(" ", api).split(".")
    wrapped = ".<wbr>".join(escape(part) for part in parts)
    return Markup(
        f'<code class="docutils literal notranslate"><span class="pre">{wrapped}</span></code>'
    )


def inline(text: str) -> Markup:
    """Escaped text on one line; its code spans become code elements."""
    flat = " ".join(text.split())
    return Markup(
        "".join(
            str(code(piece)) if is_code else escape(piece) for piece, is_code in code_spans(flat)
        )
    )


def safe_url(target: str | None) -> bool:
    """Only web addresses and relative paths become links (never ``javascript:`` and the like)."""
    if not target:
        return False
    return target.startswith(_SAFE_SCHEMES) or ":" not in target.split("/", 1)[0]


def link(text: str, target: str | None, *, external: bool | None = None) -> Markup:
    """``<a>`` around the escaped text when the target is safe, the text alone otherwise."""
    if target is None or not safe_url(target):
        return inline(text)
    remote = target.startswith(_SAFE_SCHEMES) if external is None else external
    kind = "external" if remote else "internal"
    return Markup(f'<a class="reference {kind}" href="{escape(target)}">{inline(text)}</a>')


def code_link(api: str, target: str | None) -> Markup:
    """An API name as code (see :func:`name`), linked when there is a safe target."""
    if target is None or not safe_url(target):
        return name(api)
    kind = "external" if target.startswith(_SAFE_SCHEMES) else "internal"
    return Markup(f'<a class="reference {kind}" href="{escape(target)}">{name(api)}</a>')


def short_name(api: str) -> Markup:
    """:func:`name` with the least markup, for the thousands of rows of the mapping tables
    (the site's style sheet gives it the look of inline code)."""
    parts = _LINE_BREAKS.sub(" ", api).split(".")
    return Markup("<code>" + ".<wbr>".join(escape(part) for part in parts) + "</code>")


def short_link(api: str, target: str) -> Markup:
    """:func:`short_name` linked to a page of the site."""
    return Markup(f'<a href="{escape(target)}">{short_name(api)}</a>')


@cache
def _formatter(lines: tuple[int, ...], numbered: bool) -> Any:
    from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]

    if numbered:
        return HtmlFormatter(hl_lines=list(lines), linenos="inline")
    return HtmlFormatter(hl_lines=list(lines))


@cache
def _lexer(language: str) -> Any:
    from pygments.lexers import get_lexer_by_name  # type: ignore[import-untyped]

    return get_lexer_by_name(language, stripnl=False, ensurenl=True)


def block(
    source: str, language: str = "python", lines: Sequence[int] = (), numbered: bool = False
) -> Markup:
    """A highlighted code block, marked up as Sphinx marks up a ``code-block`` (``lines`` are
    emphasised; ``numbered`` shows line numbers)."""
    text = _LINE_BREAKS.sub("\n", source).rstrip() + "\n"
    if language == "python" and not lines and not numbered:
        highlighted = python_html(text)
    else:
        from pygments import highlight  # type: ignore[import-untyped]

        highlighted = highlight(text, _lexer(language), _formatter(tuple(lines), numbered))
    return Markup(f'<div class="highlight-{language} notranslate">{highlighted}</div>')


def href(from_doc: str, to_doc: str) -> str:
    """The relative address of page ``to_doc`` from page ``from_doc`` (document names, such as
    ``api/torch.abs``), percent-encoded: it works below any base address."""
    here = from_doc.split("/")[:-1]
    there = to_doc.split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    return quote("/".join([".."] * (len(here) - common) + there[common:]) + ".html")
