"""AM232: every example snippet is valid Python."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import lru_cache

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.text import texts
from apimap.record import pycode
from apimap.record.model import TextRole


@lru_cache(maxsize=8192)
def parsed_code(source: str) -> tuple[ast.Module, list[ast.AST]] | SyntaxError:
    """The snippet's tree and its nodes in :func:`~apimap.record.pycode.walk`'s order, or the
    syntax error; one entry per distinct snippet (see :func:`parse_code`)."""
    try:
        tree, nodes = pycode.parse_walked(source)
    except SyntaxError as exc:
        return exc
    assert isinstance(tree, ast.Module)
    return tree, nodes


def parse_code(source: str) -> ast.Module | SyntaxError:
    """The snippet's syntax tree, or the syntax error (never an exception of the parser).

    The tree is shared by every rule that reads the snippet: it must not be changed.
    """
    parsed = parsed_code(source)
    return parsed if isinstance(parsed, SyntaxError) else parsed[0]


def walked_code(source: str) -> list[ast.AST] | None:
    """The nodes of the snippet's shared tree (:func:`parse_code`) in
    :func:`~apimap.record.pycode.walk`'s order; ``None`` when it does not parse."""
    parsed = parsed_code(source)
    return None if isinstance(parsed, SyntaxError) else parsed[1]


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Example and note code parses (a call's code is checked by AM221)."""
    for path, role, source in texts(ctx):
        if role is not TextRole.CODE or (path[0] == "calls" and path[2:] == ("torch",)):
            continue
        tree = parse_code(source)
        if isinstance(tree, SyntaxError):
            line = tree.lineno or 1
            yield Finding(
                ctx.doc.text_loc(path, line, tree.offset or 1),
                f"{path[-1]} 代码第 {line} 行：{tree.msg} (line {line})",
            )


RULE = Rule(
    "AM232",
    "示例代码不是合法的 Python (example is not valid Python)",
    Scope.RECORD,
    Severity.ERROR,
    "示例只写代码；说明文字放进 when 或 purpose (keep prose out of the code)",
    why="读者会复制示例代码；说明文字混进代码、括号不配对的示例都无法运行。",
    check=check,
)
