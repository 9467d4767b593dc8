"""Markdown (MyST) building blocks that keep record text from breaking the page.

Record prose is Markdown text in which contributors may mark parameters as
code spans (`` `momentum` ``). Everything outside code spans is escaped, so a
``*size`` or an ``_`` in a parameter name never turns into emphasis, and a
``|`` never splits a table cell.
"""

from __future__ import annotations

import json
import re

_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_SPECIAL = re.compile(r"([\\`*\[\]<>{}|&#$~]|(?<!\w)_|_(?!\w))")
_NEEDS_WORK = re.compile(r"[\\`*_\[\]<>{}|&#$~]|^[-+=%.)\d]")
_BLOCK_START = re.compile(r"^(\d*)([-+=%.)])")
_WIDTH = 80


def _escape_block_start(match: re.Match[str]) -> str:
    """A paragraph must not start a list (``- ``, ``1. ``), a heading underline or a comment."""
    digits, mark = match.groups()
    if digits and mark not in ".)":
        return match.group(0)
    return f"{digits}\\{mark}"


def _escape_text(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def inline(text: str, *, in_table: bool = False) -> str:
    """Escape ``text`` for inline use; code spans stay code spans."""
    flat = " ".join(text.split())
    if not _NEEDS_WORK.search(flat):
        return flat
    parts: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(flat):
        parts.append(_escape_text(flat[position : match.start()]))
        span = match.group(0)
        parts.append(span.replace("|", "\\|") if in_table else span)
        position = match.end()
    parts.append(_escape_text(flat[position:]))
    escaped = "".join(parts)
    return escaped if in_table else _BLOCK_START.sub(_escape_block_start, escaped, count=1)


def cell(text: str) -> str:
    """Escape ``text`` for a table cell."""
    return inline(text, in_table=True)


def code(text: str) -> str:
    """A code span holding ``text`` verbatim."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fence(source: str, language: str, options: dict[str, str] | None = None) -> str:
    """A fenced code block that no backtick run inside ``source`` can close.

    With ``options`` the block is a MyST directive such as ``{code-block} yaml``
    and the options become ``:name: value`` lines.
    """
    longest = max((len(run) for run in re.findall(r"^ *(`{3,})", source, re.M)), default=0)
    ticks = "`" * max(3, longest + 1)
    lines = [f"{ticks}{language}"]
    lines += [f":{name}: {value}".rstrip() for name, value in (options or {}).items()]
    return "\n".join([*lines, source.rstrip(), ticks])


def url(target: str) -> str:
    """A link destination; angle brackets allow spaces, and ``<>|`` are percent-encoded."""
    encoded = target.replace("<", "%3C").replace(">", "%3E").replace("|", "%7C")
    return f"<{encoded}>"


def link(text: str, target: str, *, in_table: bool = False) -> str:
    """``[text](target)`` with ``text`` escaped."""
    return f"[{inline(text, in_table=in_table)}]({url(target)})"


def doc_link(from_doc: str, to_doc: str) -> str:
    """The relative ``.md`` path from one document to another (MyST resolves it).

    Both are document names relative to the source folder, so no file system
    look-up is needed (``posixpath.relpath`` asks for the working directory).
    """
    here = from_doc.split("/")[:-1]
    there = to_doc.split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    return "/".join([".."] * (len(here) - common) + there[common:]) + ".md"


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


_YAML_BREAKS = {"\u0085": "\\x85", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def yaml_string(text: str) -> str:
    """``text`` as a double-quoted YAML scalar for the page's front matter (JSON string
    syntax, which YAML reads; line separators escaped so the value stays on its line)."""
    quoted = json.dumps(text, ensure_ascii=False)
    for raw, escaped in _YAML_BREAKS.items():
        quoted = quoted.replace(raw, escaped)
    return quoted
