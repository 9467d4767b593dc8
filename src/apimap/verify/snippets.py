"""What a snippet assigns at module level (the default results to compare)."""

from __future__ import annotations

import ast
from collections.abc import Iterator


def assigned_names(source: str) -> list[str]:
    """Names bound by module-level assignments, in order of first appearance."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    seen: dict[str, None] = {}
    for statement in tree.body:
        for target in _targets(statement):
            for name in _names(target):
                seen.setdefault(name)
    return list(seen)


def _targets(statement: ast.stmt) -> list[ast.expr]:
    if isinstance(statement, ast.Assign):
        return list(statement.targets)
    if isinstance(statement, ast.AnnAssign | ast.AugAssign):
        return [statement.target]
    return []


def _names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _names(element)
    elif isinstance(target, ast.Starred):
        yield from _names(target.value)


def default_outputs(torch_source: str, paddle_source: str, inputs: list[str]) -> list[str]:
    """Names both snippets assign, minus the inputs, in the torch snippet's order."""
    paddle_names = set(assigned_names(paddle_source))
    return [
        name for name in assigned_names(torch_source) if name in paddle_names and name not in inputs
    ]
