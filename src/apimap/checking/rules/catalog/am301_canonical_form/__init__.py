"""AM301: the file is written in the canonical form that ``apimap fmt`` produces."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.files.canonical import first_difference
from apimap.record.location import Loc


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Same records, same bytes: reviewers see changes, not reformatting."""
    line = first_difference(ctx.text, ctx.doc.data, ctx.relpath)
    if line is not None:
        yield Finding(
            Loc(line, 1),
            f"第 {line} 行起与规范格式不同 (differs from line {line})",
            f"运行 apimap fmt {ctx.path} (run apimap fmt)",
        )


RULE = Rule(
    "AM301",
    "文件不是规范格式 (file is not in canonical form)",
    Scope.RECORD,
    Severity.ERROR,
    "运行 apimap fmt (run apimap fmt)",
    why="同样的内容只有一种写法，审阅者在差异中只看到内容的变化，而不是排版的变化。",
    check=check,
)
