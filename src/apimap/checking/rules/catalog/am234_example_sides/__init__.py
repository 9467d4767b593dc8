"""AM234: PyTorch code does not use paddle, and Paddle code does not use torch."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.catalog.am232_example_python import parse_code
from apimap.checking.rules.text import texts
from apimap.record.model import TextRole

_OTHER_SIDE = {"torch": "paddle", "paddle": "torch"}


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each side of a case names only its own library."""
    for path, role, source in texts(ctx):
        side = str(path[-1])
        if (
            role is not TextRole.CODE
            or side not in _OTHER_SIDE
            or path == ("calls", path[1], "torch")
        ):
            continue
        other = _OTHER_SIDE[side]
        if other not in source:
            continue
        tree = parse_code(source)
        if isinstance(tree, SyntaxError):
            continue
        for node in ast.walk(tree):
            used = (isinstance(node, ast.Name) and node.id == other) or (
                isinstance(node, ast.alias) and node.name.split(".")[0] == other
            )
            if used:
                yield Finding(
                    ctx.loc(*path), f"{side} 代码使用了 `{other}` ({side} code uses {other})"
                )
                break


RULE = Rule(
    "AM234",
    "示例混用了两个框架 (example mixes the frameworks)",
    Scope.RECORD,
    Severity.ERROR,
    "PyTorch 写法只用 torch，Paddle 写法只用 paddle (each side uses its own library)",
    why="混用两个框架的示例在迁移后的项目里跑不起来，也证明不了任何对应关系。",
    check=check,
)
