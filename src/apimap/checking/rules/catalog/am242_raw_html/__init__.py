"""AM242: prose is plain text, without HTML tags."""

from __future__ import annotations

import re
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.text import prose

_HTML = re.compile(r"<\s*/?\s*[A-Za-z][A-Za-z0-9-]*(\s+[^<>]*)?/?\s*>")


def check(ctx: RecordContext) -> Iterator[Finding]:
    """No raw HTML such as ``<font color=red>``."""
    for path, _role, text in prose(ctx):
        match = _HTML.search(text)
        if match:
            yield Finding(ctx.loc(*path), f"`{match.group()}`")


RULE = Rule(
    "AM242",
    "文本中有 HTML 标签 (raw HTML in text)",
    Scope.RECORD,
    Severity.ERROR,
    "删除标签；需要强调参数名时用反引号，如 `dim` (use backticks instead)",
    why="旧文档用 `<font color=red>` 强调文字；记录是纯文本，页面由模板统一排版，强调用反引号。",
    check=check,
)
