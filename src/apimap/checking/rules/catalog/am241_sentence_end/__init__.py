"""AM241: notes, reasons and remarks end with 。; a summary with 。 or ：.

A summary may end with the formula of what the API computes (``$ out = … $``), as the
specification's 组合替代实现 template does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Edit, Finding, Fix, Rule, Scope
from apimap.checking.rules.catalog.am240_inline_end import FINAL_PUNCTUATION
from apimap.checking.rules.text import prose
from apimap.record.model import TextRole

_ENDINGS = {TextRole.SENTENCE: "。", TextRole.SUMMARY: "。："}
_BECOMES_FULL_STOP = ".．，,；;"
_FORMULA_END = re.compile(r"\$[^$]+\$\s*$")


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Full sentences end as Chinese sentences do."""
    for path, role, text in prose(ctx):
        allowed = _ENDINGS.get(role)
        if role is TextRole.SUMMARY and _FORMULA_END.search(text):
            continue
        if allowed is not None and text.rstrip()[-1:] not in allowed:
            shown = " 或 ".join(allowed)
            yield Finding(ctx.loc(*path), f"`{path[-1]}` 应以 {shown} 结尾 (ends with {shown})")


def ended(text: str, allowed: str) -> str:
    """A final ``.``, ``，`` or ``；`` becomes ``。``; a missing end gets one; ``？！：、`` stay."""
    body = text.rstrip()
    last = body[-1:]
    if not last or last in allowed:
        return text
    if last in _BECOMES_FULL_STOP:
        return body[:-1] + "。"
    if last in FINAL_PUNCTUATION:
        return text
    return body + "。"


_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def ends_in_code(text: str) -> bool:
    """A text of several lines whose last line has no Chinese: code a person must end with a
    sentence (a 。 after it would break the code)."""
    lines = text.rstrip().splitlines()
    return len(lines) > 1 and _CJK.search(lines[-1]) is None


def edits(ctx: RecordContext) -> list[Edit]:
    """End each sentence with 。 where that needs no judgement (not after code)."""
    return [
        Edit(path, fixed)
        for path, role, text in prose(ctx)
        if role in _ENDINGS
        and not (role is TextRole.SUMMARY and _FORMULA_END.search(text))
        and not ends_in_code(text)
        and (fixed := ended(text, _ENDINGS[role])) != text
    ]


RULE = Rule(
    "AM241",
    "句子没有以句号结尾 (sentence does not end with 。)",
    Scope.RECORD,
    Severity.ERROR,
    "每个备注与说明都以全角句号 。 结尾 (end every remark with 。)",
    why="规范要求每个备注都以句号结尾；总结后面接参数表时以冒号结尾。",
    check=check,
    fix=Fix("补上或改正结尾的句号 (end the sentence with 。)", edits),
)
