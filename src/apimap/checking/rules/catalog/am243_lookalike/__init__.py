"""AM243: no Kangxi radicals, zero-width or full-width look-alikes of ordinary characters.

One finding per text names every distinct look-alike in it (a text with two radicals says
both)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Edit, Finding, Fix, Rule, Scope
from apimap.checking.rules.text import strings

LOOKALIKE = re.compile(
    "[\u2e80-\u2eff\u2f00-\u2fdf\u200b-\u200f\u2060\ufeff\u00a0\u3000"
    "\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]"
)
_INVISIBLE = "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"


def replacement(char: str) -> str:
    """What a look-alike character should be (``⼀`` -> ``一``, NBSP -> space)."""
    if char in _INVISIBLE:
        return ""
    return unicodedata.normalize("NFKC", char)


def without_lookalikes(text: str) -> str:
    """Every look-alike replaced by its ordinary character."""
    return LOOKALIKE.sub(lambda match: replacement(match.group()), text)


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Search and copy-paste fail on text that only looks right."""
    for path, text in strings(ctx):
        found = list(dict.fromkeys(LOOKALIKE.findall(text)))
        if found:
            fixes = [_shown(replacement(char)) for char in found]
            yield Finding(
                ctx.loc(*path),
                "、".join(f"U+{ord(char):04X} {unicodedata.name(char, '?')}" for char in found),
                f"替换为 {'、'.join(fixes)} (replace with {', '.join(fixes)})",
            )


def _shown(fix: str) -> str:
    return repr(fix) if fix.strip() == "" else f"`{fix}`"


def edits(ctx: RecordContext) -> list[Edit]:
    """Replace every look-alike (a value that would become empty is left for a person)."""
    return [
        Edit(path, fixed)
        for path, text in strings(ctx)
        if (fixed := without_lookalikes(text)) != text and fixed.strip()
    ]


RULE = Rule(
    "AM243",
    "文本中有易混淆的字符 (look-alike character)",
    Scope.RECORD,
    Severity.ERROR,
    "替换为普通字符 (replace it with the ordinary character)",
    why="康熙部首「⼀」看起来和「一」一样，零宽字符根本看不见；它们让搜索与复制出错，审阅时也发现不了。",
    check=check,
    fix=Fix("替换为普通字符 (replace with the ordinary character)", edits),
)
