"""AM702: a draft written by ``apimap new`` still has parts a person must write."""

from __future__ import annotations

import re
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.text import strings
from apimap.record.phrases import TODO_MARKER

_TODO = re.compile(rf"\b{TODO_MARKER}\b")


def check(ctx: RecordContext) -> Iterator[Finding]:
    """No value contains the ``TODO`` marker."""
    if TODO_MARKER not in ctx.text:  # the common case: nothing to look for
        return
    for path, text in strings(ctx):
        if _TODO.search(text):
            yield Finding(ctx.loc(*path), f"`{'.'.join(map(str, path))}`")


RULE = Rule(
    "AM702",
    "草稿中还有待填写的 TODO (draft still has a TODO)",
    Scope.RECORD,
    Severity.ERROR,
    "把 TODO 换成内容：中文名称、参数含义、示例代码等 (replace every TODO with the real text)",
    why="`apimap new` 只填写能从库中读出的事实；中文名称与参数含义要人来写，写完之前记录不能合入。",
    check=check,
)
