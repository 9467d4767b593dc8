"""Parsing the Python a record holds (examples, calls, expressions, signatures), within bounds.

Everything that reads record code parses it here. Code longer than
:data:`MAX_CODE_CHARS` is refused before the parser sees it, and a syntax tree
deeper than :data:`MAX_CODE_DEPTH` after: the code that walks a tree
(``ast.unparse``, ``compile``, node transformers) recurses once per level, so a
chain such as ``1 + 1 + … + 1`` with thousands of terms must never reach it.
Every failure, including the parser's own ``RecursionError``,
``MemoryError`` ("too complex") and ``ValueError`` (NUL bytes), becomes a
:class:`SyntaxError` with a message for the contributor.
"""

from __future__ import annotations

import ast
from typing import Literal

MAX_CODE_CHARS = 20_000
"""Examples are a few lines; a record file may hold 256 KB, a snippet far less."""
MAX_CODE_DEPTH = 100
"""Nesting of the syntax tree; real snippets stay under 30."""


class CodeTooComplex(SyntaxError):
    """The code is too long or nests too deeply to be handled safely."""


def _children(node: ast.AST) -> list[ast.AST]:
    """The nodes right below ``node``, in field order (what :func:`ast.iter_child_nodes`
    yields, without a generator per node)."""
    found: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            found += [item for item in value if isinstance(item, ast.AST)]
    return found


def _levels(tree: ast.AST, limit: int) -> tuple[int, list[ast.AST]]:
    """The depth of ``tree`` counted up to ``limit + 1`` (without recursion, a level at a
    time) and, when it is within ``limit``, every node in :func:`ast.walk`'s order."""
    nodes = [tree]
    level = [tree]
    depth = 0
    while level and depth <= limit:
        depth += 1
        level = [child for node in level for child in _children(node)]
        nodes += level
    return depth, nodes


def walk(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` in :func:`ast.walk`'s order (breadth first), as a list, for
    code that reads the nodes more than once (half again as fast as the generator)."""
    nodes = [tree]
    index = 0
    while index < len(nodes):
        nodes += _children(nodes[index])
        index += 1
    return nodes


def parse_walked(
    source: str, mode: Literal["exec", "eval"] = "exec"
) -> tuple[ast.AST, list[ast.AST]]:
    """The syntax tree of ``source`` and its nodes as :func:`walk` lists them (the depth
    check visits them anyway); raises :class:`SyntaxError` for anything else."""
    if len(source) > MAX_CODE_CHARS:
        raise CodeTooComplex(f"代码超过 {MAX_CODE_CHARS} 个字符 (code too long)")
    try:
        tree = ast.parse(source, mode=mode)
    except SyntaxError:
        raise
    except (ValueError, RecursionError, MemoryError) as exc:
        raise CodeTooComplex(
            f"{type(exc).__name__}：代码嵌套过深或过于复杂 (too deeply nested or complex)"
        ) from None
    depth, nodes = _levels(tree, MAX_CODE_DEPTH)
    if depth > MAX_CODE_DEPTH:
        raise CodeTooComplex(f"代码嵌套超过 {MAX_CODE_DEPTH} 层 (nested too deeply)")
    return tree, nodes


def parse(source: str, mode: Literal["exec", "eval"] = "exec") -> ast.AST:
    """The syntax tree of ``source``; raises :class:`SyntaxError` for anything else."""
    return parse_walked(source, mode)[0]


def parse_module(source: str) -> ast.Module:
    """``source`` as statements (see :func:`parse`)."""
    tree = parse(source)
    assert isinstance(tree, ast.Module)
    return tree


def dotted_name(node: ast.expr) -> str | None:
    """``a.b.c`` for a name or a chain of attributes on a name; ``None`` for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted_name(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def parse_expression(source: str) -> ast.expr:
    """``source`` as one expression (see :func:`parse`)."""
    tree = parse(source, "eval")
    assert isinstance(tree, ast.Expression)
    return tree.body
