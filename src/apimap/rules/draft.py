"""AM702: a draft written by ``apimap new`` still has parts a person must write."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.location import Path
from apimap.rules.base import Finding, Rule, Scope

TODO_MARKER = "TODO"
_TODO = re.compile(rf"\b{TODO_MARKER}\b")


def _strings(value: Any, path: Path) -> Iterator[tuple[Path, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))


def check_todo(ctx: RecordContext) -> Iterator[Finding]:
    """No value contains the ``TODO`` marker."""
    if TODO_MARKER not in ctx.text:  # the common case: nothing to look for
        return
    for path, text in _strings(ctx.doc.data, ()):
        if _TODO.search(text):
            yield Finding(ctx.loc(*path), f"`{'.'.join(map(str, path))}`")


TODO = Rule(
    "AM702",
    "草稿中还有待填写的 TODO (draft still has a TODO)",
    Scope.RECORD,
    Severity.ERROR,
    "把 TODO 换成内容：参数含义、示例代码等 (replace every TODO with the real text)",
    check_todo,
)

RULES = [TODO]
