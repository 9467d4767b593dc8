"""AM240: names, meanings and conditions end without punctuation (a phrase continues them)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Edit, Finding, Fix, Rule, Scope
from apimap.checking.rules.text import CONTINUED_ROLES, prose

FINAL_PUNCTUATION = "。．.，,；;：:！!？?、"
_TRAILING = re.compile(f"[\\s{re.escape(FINAL_PUNCTUATION)}]+$")


def check(ctx: RecordContext) -> Iterator[Finding]:
    """The remark's phrase or the heading's colon follows these texts."""
    for path, role, text in prose(ctx):
        end = text.rstrip()[-1:]
        if role in CONTINUED_ROLES and end and end in FINAL_PUNCTUATION:
            yield Finding(ctx.loc(*path), f"`{end}`")


def without_final_punctuation(text: str) -> str:
    """``输入的 Tensor。`` -> ``输入的 Tensor`` (a text of punctuation only stays)."""
    stripped = _TRAILING.sub("", text)
    return stripped or text


def edits(ctx: RecordContext) -> list[Edit]:
    """Drop the final punctuation."""
    return [
        Edit(path, fixed)
        for path, role, text in prose(ctx)
        if role in CONTINUED_ROLES and (fixed := without_final_punctuation(text)) != text
    ]


RULE = Rule(
    "AM240",
    "该文本后面会接固定短语，不应以标点结尾 (text is continued by a phrase: no final punctuation)",
    Scope.RECORD,
    Severity.ERROR,
    "删除结尾的标点；备注的“，需要转写。”等由 apimap 生成 (the phrase is generated)",
    why="参数含义后面由 apimap 接上「，仅参数名不一致。」等固定短语，自带句号会生成「。，」这样的错误标点。",
    check=check,
    fix=Fix("删除结尾的标点 (drop the final punctuation)", edits),
)
