"""Hostile record text and the checks that the site shows it as text.

Records come from strangers by pull request; ``apimap render`` publishes every
text field. The payloads below try each way Markdown, MyST and HTML offer to
turn text into something live: raw HTML (inline and as a block after a blank
line), code spans that do not close where the helper thinks, MyST roles,
directives, targets and comments, link schemes, table breakers and line
separators. The checks read the rendered Markdown with the same MyST parser
Sphinx uses and the built HTML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

MARK = "PWNED"
"""In every payload's would-be markup: it may appear in the page as text, never in markup."""

PAYLOADS = [
    f"``<script>alert('{MARK}')</script>`",
    "``{download}`../../etc/passwd` x`",
    "{download}`../../etc/passwd`",
    f'{{raw}}`html <b class="{MARK}">x</b>`',
    f"<img src=x class={MARK} onerror=alert(1)>",
    f'x\n\n<div class="{MARK}" onclick="alert(1)">y</div>',
    f"x\r\n\r\n<script>alert('{MARK}')</script>",
    f"x\u2028<script>alert('{MARK}')</script>",
    f"```{{raw}} html\n<b class='{MARK}'>x</b>\n```",
    f":::{{note}}\n<b class='{MARK}'>x</b>\n:::",
    f"({MARK}-target)=",
    "% hidden comment",
    "+++",
    "a | b | c",
    "`a|b` | c",
    "[link](javascript:alert(1))",
    "<https://example.invalid/x>",
    "&lt;script&gt; &amp; &#60;",
    "[^note]",
    "- not a list",
    "# not a heading",
    "1. not a list",
    "\\`escaped` and ``` ` ```",
    "{.cls onclick=alert(1)}",
    "[x]{onclick=alert(1)}",
    "`x`{onclick=alert(1)}",
    "$x$ ~~y~~ *z* _w_",
]
"""Text that must reach the page as text."""

CODE_PAYLOADS = [
    f'x = """\n```\n<script>alert("{MARK}")</script>\n```\n"""',
    f'x = """\r```\r<b class="{MARK}">x</b>\r"""',
    f'y = """\n````{{raw}} html\n<b class="{MARK}">x</b>\n````\n"""',
]
"""Code that must stay inside its code block."""


def _text(index: int) -> str:
    return PAYLOADS[index % len(PAYLOADS)]


def hostile_records() -> dict[str, dict[str, Any]]:
    """Records (as data) with a payload in every text field; each validates as a record."""
    records: dict[str, dict[str, Any]] = {}
    for number in range(3):
        first = number * 9
        records[f"torch.hostile{number}"] = {
            "torch_api": f"torch.hostile{number}",
            "zh_name": _text(first),
            "torch_aliases": [f"torch.hostile_alias{number}"],
            "torch_signature": f"torch.hostile{number}(input, other=None)",
            "paddle_api": f"paddle.hostile{number}",
            "paddle_signature": f"paddle.hostile{number}(x, y='</code><script>{MARK}</script>')",
            "category": "input_usage_diff",
            "summary": _text(first + 1),
            "params": [
                {
                    "torch": "input",
                    "paddle": "x",
                    "desc": _text(first + 2),
                    "note": _text(first + 3) + "。",
                },
                {
                    "torch": "other",
                    "kind": "usage_diff",
                    "desc": _text(first + 4),
                    "diff": _text(first + 5),
                    "action": "rewrite",
                },
            ],
            "examples": [
                {
                    "param": "other",
                    "purpose": _text(first + 6),
                    "cases": [
                        {
                            "when": _text(first + 7),
                            "torch": CODE_PAYLOADS[number],
                            "paddle": CODE_PAYLOADS[(number + 1) % len(CODE_PAYLOADS)],
                        }
                    ],
                }
            ],
            "notes": [
                {
                    "text": _text(first + 8),
                    "example": {"torch": CODE_PAYLOADS[number], "paddle": "y = 1"},
                }
            ],
        }
    for number in range(3):
        records[f"torch.hostile_missing{number}"] = {
            "torch_api": f"torch.hostile_missing{number}",
            "zh_name": _text(27 + number),
            "category": "missing",
            "missing": {
                "reason": "cheap",
                "detail": _text(number * 3),
                "instead": _text(number * 3 + 1),
                "considered": [{"paddle": "paddle.abs", "why": _text(number * 3 + 2)}],
            },
        }
    return records


def as_yaml(data: dict[str, Any]) -> str:
    """A record file of ``data`` (JSON is YAML; every string is double-quoted and escaped)."""
    return json.dumps(data, ensure_ascii=True, indent=2) + "\n"


_ALLOWED_TOKENS = {
    "paragraph_open", "paragraph_close", "heading_open", "heading_close", "inline", "text",
    "code_inline", "fence", "link_open", "link_close", "softbreak", "table_open",
    "table_close", "thead_open", "thead_close", "tbody_open", "tbody_close", "tr_open",
    "tr_close", "th_open", "th_close", "td_open", "td_close", "bullet_list_open",
    "bullet_list_close", "list_item_open", "list_item_close", "span_open", "span_close",
    "front_matter", "hr", "image", "myst_target", "html_block", "em_open", "em_close",
    "strong_open", "strong_close",
}  # fmt: skip
"""What the templates themselves produce; record text adds nothing else."""

_TEMPLATE_BLOCKS = re.compile(r"^<(/?)(div|input|select|option|p|table|thead|tbody|tr|th)\b")
_DIRECTIVES = {"{toctree}", "{code-block} yaml", "{code-block} python", "{code-block} text"}
_TEMPLATE_TARGETS = re.compile(r"^(tables-[a-z0-9-]+|am\d{3})$")

MD = create_md_parser(MdParserConfig(enable_extensions={"attrs_inline"}), RendererHTML)
"""The MyST parser as the site configures it (``site/conf.py``)."""


def _tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        yield from _tokens(token.children or [])


def markdown_problems(text: str) -> list[str]:
    """Everything live that record text could have added to a generated page."""
    problems = []
    for token in _tokens(MD.parse(text)):
        kind = token.type
        if kind not in _ALLOWED_TOKENS:
            problems.append(f"{kind}: {token.content[:80]!r}")
        elif kind == "html_block" and (
            not _TEMPLATE_BLOCKS.match(token.content) or MARK in token.content
        ):
            problems.append(f"html_block: {token.content[:80]!r}")
        elif kind == "fence" and token.info.startswith("{") and token.info not in _DIRECTIVES:
            problems.append(f"directive {token.info!r}")
        elif kind == "myst_target" and not _TEMPLATE_TARGETS.match(token.content):
            problems.append(f"target {token.content!r}")
        elif kind == "link_open" and not _safe_href(str(token.attrs.get("href", ""))):
            problems.append(f"link {token.attrs.get('href')!r}")
        elif kind == "span_open" and not str(token.attrs.get("class", "")).startswith(
            "apimap-badge"
        ):
            problems.append(f"span {token.attrs!r}")
    return problems


def _safe_href(href: str) -> bool:
    return href.startswith(("https://", "http://")) or ":" not in href.split("/", 1)[0]


class _Page(HTMLParser):
    """The markup of a built page: live elements a payload made, and the shape of tables."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.rows: list[tuple[str, int]] = []
        """Every table row: ``th`` or ``td``, and how many cells."""
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # a page's description is the record's text by design (link previews); it must be
        # plain: no markup characters survive into it
        description = tag == "meta" and ("name", "description") in attrs
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if description and name == "content" and value is not None:
                if any(character in value for character in "<>\"'`"):
                    self.problems.append(f"<meta description {value!r}> (markup characters)")
                continue
            if value and (MARK in value or value.strip().lower().startswith("javascript:")):
                self.problems.append(f"<{tag} {name}={value!r}>")
            if value and "_downloads/" in value:
                self.problems.append(f"<{tag} {name}={value!r}> (a download)")
        if tag == "script":
            self._script = True
        elif tag == "tr":
            self.rows.append(("", 0))
        elif tag in ("td", "th") and self.rows:
            cells = self.rows[-1][1]
            self.rows[-1] = (tag, cells + 1)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False

    def handle_data(self, data: str) -> None:
        if self._script and (MARK in data or "alert(" in data):
            self.problems.append(f"<script>{data[:80]}</script>")


def html_problems(html: str) -> list[str]:
    """Live markup in a built page: an event handler attribute, a ``javascript:`` link, a
    script, element or download a payload made."""
    page = _Page()
    page.feed(html)
    page.close()
    return page.problems


def table_rows(html: str) -> list[tuple[str, int]]:
    """``(cell tag, cell count)`` of every table row of a built page."""
    page = _Page()
    page.feed(html)
    page.close()
    return page.rows
