"""Markdown building blocks that keep record text from breaking the page.

The pages for Paddle's documentation (:mod:`apimap.publish.paddle_docs`) are Markdown; the site's
own pages are HTML (:mod:`apimap.publish.site.html`), which reads code spans the same way
(:func:`code_spans`).

Record prose is Markdown text in which contributors may mark parameters as
code spans (`` `momentum` ``). Everything outside code spans is escaped, so a
``*size`` or an ``_`` in a parameter name never turns into emphasis, a ``|``
never splits a table cell, and no text becomes HTML, a MyST role (``{name}``
before a code span), a directive, a target or a comment. Code spans are found
as CommonMark finds them (a backtick run closed by a run of the same length;
an unclosed run is literal) and written anew, so nothing a contributor writes
with backticks can open or close anything else. Every value is flattened to one
line: a line break inside record text can neither end a paragraph (and start
an HTML block after it) nor break a table row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_BACKTICKS = re.compile(r"`+")
_SPECIAL = re.compile(r"([\\`*\[\]<>{}|&#$~]|(?<!\w)_|_(?!\w))")
_NEEDS_WORK = re.compile(r"[\\`*_\[\]<>{}|&#$~]|^[-+=%.)(\d]")
_BLOCK_START = re.compile(r"^(\d*)([-+=%.)(])")
_LINE_BREAKS = re.compile(r"\r\n?|\n")
_SAFE_SCHEMES = ("https://", "http://")
_WIDTH = 80


def _escape_block_start(match: re.Match[str]) -> str:
    """A paragraph must not start a list (``- ``, ``1. ``), a heading underline, a comment or
    a MyST target (``(name)=``)."""
    digits, mark = match.groups()
    if digits and mark not in ".)":
        return match.group(0)
    return f"{digits}\\{mark}"


def _escape_text(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def code_spans(text: str) -> Iterator[tuple[str, bool]]:
    """``text`` as pieces ``(piece, is_code)``, with backticks read as CommonMark reads them:
    a run of backticks opens a code span that the next run of the same length closes; a run
    that nothing closes is literal text."""
    runs = [(match.start(), match.end()) for match in _BACKTICKS.finditer(text)]
    position = 0
    index = 0
    while index < len(runs):
        start, end = runs[index]
        closing = next(
            (other for other in range(index + 1, len(runs)) if _length(runs[other]) == end - start),
            None,
        )
        if closing is None:
            index += 1
            continue
        if start > position:
            yield text[position:start], False
        yield text[end : runs[closing][0]], True
        position = runs[closing][1]
        index = closing + 1
    if position < len(text):
        yield text[position:], False


def _length(run: tuple[int, int]) -> int:
    return run[1] - run[0]


def inline(text: str, *, in_table: bool = False) -> str:
    """Escape ``text`` for inline use, on one line; code spans stay code spans."""
    flat = " ".join(text.split())
    if not _NEEDS_WORK.search(flat):
        return flat
    escaped = "".join(
        code(piece, in_table=in_table) if is_code else _escape_text(piece)
        for piece, is_code in code_spans(flat)
    )
    return escaped if in_table else _BLOCK_START.sub(_escape_block_start, escaped, count=1)


def cell(text: str) -> str:
    """Escape ``text`` for a table cell."""
    return inline(text, in_table=True)


def code(text: str, *, in_table: bool = False) -> str:
    """A code span holding ``text`` (its line breaks become spaces, as CommonMark shows them;
    in a table cell ``|`` is escaped, as GFM requires even inside code)."""
    flat = _LINE_BREAKS.sub(" ", text)
    if not flat:
        return ""
    longest = max((len(run) for run in _BACKTICKS.findall(flat)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or not flat.strip(" ") else ""
    if in_table:
        flat = flat.replace("|", "\\|")
    return f"{ticks}{pad}{flat}{pad}{ticks}"


def fence(source: str, language: str) -> str:
    """A fenced code block that no backtick run inside ``source`` can close (every line ending
    of ``source``, ``\\r`` included, becomes ``\\n`` first)."""
    source = _LINE_BREAKS.sub("\n", source)
    longest = max((len(run) for run in _BACKTICKS.findall(source)), default=0)
    ticks = "`" * max(3, longest + 1)
    return "\n".join([f"{ticks}{language}", source.rstrip(), ticks])


_URL_UNSAFE = re.compile(r"[\x00-\x20<>|\\\x7f]")


def url(target: str) -> str:
    """A link destination in angle brackets; spaces, controls, ``<>|`` and backslashes are
    percent-encoded, so it can neither end early nor span lines."""
    encoded = _URL_UNSAFE.sub(lambda match: f"%{ord(match.group()):02X}", target)
    return f"<{encoded}>"


def link(text: str, target: str, *, in_table: bool = False) -> str:
    """``[text](target)`` with ``text`` escaped; only a web address becomes a link (any other
    scheme, ``javascript:`` among them, leaves the escaped text)."""
    if ":" in target.split("/", 1)[0] and not target.startswith(_SAFE_SCHEMES):
        return inline(text, in_table=in_table)
    return f"[{inline(text, in_table=in_table)}]({url(target)})"


def split_params(text: str) -> tuple[str, list[str]] | None:
    """``api(a, b=(1, 2))`` -> ``("api", ["a", "b=(1, 2)"])``; ``None`` if unbalanced."""
    source = " ".join(text.split())
    open_paren = source.find("(")
    if open_paren <= 0 or not source.endswith(")"):
        return None
    head, body = source[:open_paren], source[open_paren + 1 : -1]
    params: list[str] = []
    depth = 0
    quote: str | None = None
    current: list[str] = []
    for char in body:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0 and quote is None:
            params.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    if depth != 0 or quote is not None:
        return None
    last = "".join(current).strip()
    if last:
        params.append(last)
    return head, params


def format_signature(text: str) -> str:
    """One line when short, otherwise one parameter per line aligned after ``(``."""
    flat = " ".join(text.split())
    split = split_params(flat)
    if split is None or len(flat) <= _WIDTH:
        return flat
    head, params = split
    if not params:
        return flat
    indent = " " * (len(head) + 1)
    return f"{head}(" + f",\n{indent}".join(params) + ")"
