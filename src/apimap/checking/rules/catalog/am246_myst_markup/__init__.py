"""AM246: prose holds no MyST markup (roles, directives, targets)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.text import prose

_MARKUP = re.compile(r"\{[A-Za-z][\w:+.-]*\}`|[`:]{3,}\s*\{|^\s*\([^()\s]+\)=\s*$", re.MULTILINE)
"""A role (``{download}`x```), a directive fence (```` ```{raw} ```` or ``:::{note}``) or a
target line (``(label)=``)."""


def check(ctx: RecordContext) -> Iterator[Finding]:
    """The site shows these as text; a contributor who writes them means something else."""
    for path, _role, text in prose(ctx):
        match = _MARKUP.search(text)
        if match:
            yield Finding(ctx.loc(*path), f"`{match.group().strip()}`")


RULE = Rule(
    "AM246",
    "文本中有 MyST 标记 (MyST markup in text)",
    Scope.RECORD,
    Severity.ERROR,
    "删除角色、指令与目标；代码与参数名只用反引号，如 `dim` (plain text and backticks only)",
    why="记录是纯文本，页面由模板统一排版；渲染器会把 `{download}` 这样的角色、指令与目标原样显示为文字，"
    "它们在记录中只能是误写或试图在站点上执行操作。",
    check=check,
)
