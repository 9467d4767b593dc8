"""Read inline Markdown back into record text: escapes, links, code spans and names.

Record prose is Markdown in which code spans stay code spans; everything else
the site renderer escapes (:mod:`apimap.publish.site.markdown`), and these functions
undo exactly that. Tags are removed only where a cell holds a parameter or API *name*;
in prose they stay, for ``apimap check`` to report. Around a name, ``<font color=…>``
is the older format guide's own way of marking the parameters that differ (its
输入参数用法不一致 template writes it), so it goes silently; any other tag is reported.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_HIGHLIGHT = re.compile(r"^</?font\b", re.IGNORECASE)
_LINK = re.compile(r"^\[(?P<label>(?:\\.|[^\]\\])*)\]\((?P<target>.*)\)$")
_CODE_ONLY = re.compile(r"^(`+)\s?(.*?)\s?\1$")
_ANY_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(([^)]*)\)")
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
_NAME_DASHES = {"-", "—", "–", "－", ""}
_LINK_ESCAPES = {"%3C": "<", "%3E": ">", "%7C": "|"}


def flatten(text: str) -> str:
    """Line breaks and runs of spaces become one space (as the renderer writes prose)."""
    return " ".join(text.split())


def unescape(text: str) -> str:
    """Remove Markdown backslash escapes outside code spans."""
    parts: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(_ESCAPED.sub(r"\1", text[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(_ESCAPED.sub(r"\1", text[position:]))
    return "".join(parts)


def prose(text: str) -> str:
    """A paragraph or cell as record text: one line, escapes removed, code spans kept."""
    return unescape(flatten(text))


def cell_text(cell: str) -> str:
    """A table cell as record text (a ``\\|`` in a cell is a pipe, inside code spans too)."""
    return prose(cell.replace("\\|", "|"))


def strip_tags(text: str) -> str:
    """``<font color=red>x</font>`` -> ``x``."""
    return _TAG.sub("", text)


def tags(text: str) -> list[str]:
    """The HTML tags in ``text`` (``<font color=red>``, ``</font>``), in order."""
    return _TAG.findall(text)


def is_highlight(tag: str) -> bool:
    """``<font …>`` or ``</font>``: how the older format guide marks a name that differs."""
    return bool(_HIGHLIGHT.match(tag))


def has_cjk(text: str) -> bool:
    """Whether ``text`` contains Chinese characters or full-width forms."""
    return bool(_CJK.search(text))


def plain_name(cell: str) -> str | None:
    """A name cell without tags, code marks or escapes; ``None`` for ``-`` and empty cells."""
    text = cell_text(strip_tags(cell)).strip()
    code = _CODE_ONLY.match(text)
    if code is not None:
        text = code.group(2).strip()
    if len(text) > 4 and text.startswith("**") and text.endswith("**"):
        text = text[2:-2].strip()
    return None if text in _NAME_DASHES else text


@dataclass(frozen=True)
class Link:
    """``[label](target)``; ``target`` is ``None`` for plain text."""

    label: str
    target: str | None


def _target(raw: str) -> str:
    target = raw.strip()
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    if "%" in target:
        # The renderer percent-encodes only what would break the link syntax.
        for encoded, char in _LINK_ESCAPES.items():
            target = target.replace(encoded, char).replace(encoded.lower(), char)
    return target


def link_or_text(text: str) -> Link:
    """A whole-text link, or the text itself (tags, escapes and code marks removed)."""
    stripped = strip_tags(text).strip()
    match = _LINK.match(stripped)
    if match is None:
        return Link(plain_name(stripped) or "", None)
    return Link(plain_name(match.group("label")) or "", _target(match.group("target")) or None)


def links_nowhere(text: str) -> bool:
    """``[label]()``: a whole-text link without a target."""
    match = _LINK.match(strip_tags(text).strip())
    return match is not None and not match.group("target").strip(" <>")


def links(text: str) -> list[Link]:
    """Every ``[label](target)`` inside ``text``."""
    return [Link(prose(label), _target(target)) for label, target in _ANY_LINK.findall(text)]


def code_spans(text: str) -> list[str]:
    """The contents of the code spans of ``text``."""
    return [match.group(2).strip() for match in _CODE_SPAN.finditer(text)]


def _lookalike_table() -> dict[str, str]:
    """Kangxi radicals and CJK radical supplements -> the ideograph they look like."""
    table: dict[str, str] = {}
    for code in [*range(0x2E80, 0x2EF4), *range(0x2F00, 0x2FD6)]:
        char = chr(code)
        normal = unicodedata.normalize("NFKC", char)
        if normal != char and len(normal) == 1:
            table[char] = normal
    return table


LOOKALIKES = _lookalike_table()
"""Look-alike characters the legacy pages contain (``⽤`` U+2F64 for ``用``)."""


def without_lookalikes(text: str) -> str:
    """``text`` with look-alike radicals replaced, for recognising fixed wording only."""
    return "".join(LOOKALIKES.get(char, char) for char in text)
