"""AM230-AM234: rewrite examples."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import lru_cache

from apimap.categories import Action, Category, RowKind
from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.rules.base import Finding, Rule, Scope
from apimap.rules.text import code

_E = Severity.ERROR


def check_none_for_group_one(ctx: RecordContext) -> Iterator[Finding]:
    """Category 1 needs no rewrite example."""
    if ctx.record.category.group == 1 and ctx.record.examples:
        yield Finding(ctx.key_loc("examples"), f"「{ctx.record.category.label}」")


NONE_FOR_GROUP_ONE = Rule(
    "AM230",
    "第 1 类映射不需要转写示例 (category 1 has no rewrite examples)",
    Scope.RECORD,
    _E,
    "删除 examples；若确有差异，说明分类有误 (delete them, or fix the category)",
    check_none_for_group_one,
)


def check_required(ctx: RecordContext) -> Iterator[Finding]:
    """Categories 2-5 show one example per row to rewrite; 4 and 5 show the whole API."""
    record = ctx.record
    if not 2 <= record.category.group <= 5:
        return
    by_param = {example.param for example in record.examples}
    for index, row in enumerate(record.params):
        if row.action is not Action.REWRITE:
            continue
        wanted = None if row.kind is RowKind.RETURN_DIFF else row.torch
        if wanted not in by_param:
            name = "返回值" if wanted is None else f"`{wanted}`"
            yield Finding(
                ctx.loc("params", index),
                f"{name} 标注为需要转写，但没有示例 (marked rewrite but has no example)",
            )
    whole_api = record.category in {Category.COMPOSITE, Category.CONTEXT_CHANGE}
    if whole_api and not record.examples:
        yield Finding(
            ctx.loc("category"),
            f"「{record.category.label}」需要整体的转写示例 (needs a whole-API example)",
        )


REQUIRED = Rule(
    "AM231",
    "缺少转写示例 (missing rewrite example)",
    Scope.RECORD,
    _E,
    "为该参数写 examples（param: 参数名），或把 action 改为 none（暂无转写方式）"
    "(add an example, or mark the row action: none)",
    check_required,
)


@lru_cache(maxsize=8192)
def parse_code(source: str) -> ast.Module | SyntaxError:
    """The snippet's syntax tree, or the syntax error."""
    try:
        return ast.parse(source)
    except SyntaxError as exc:
        return exc
    except ValueError as exc:  # e.g. NUL bytes
        return SyntaxError(str(exc))


def check_valid_python(ctx: RecordContext) -> Iterator[Finding]:
    """Every snippet is valid Python."""
    for path, source, side in code(ctx):
        tree = parse_code(source)
        if isinstance(tree, SyntaxError):
            line = tree.lineno or 1
            yield Finding(
                ctx.doc.text_loc(path, line), f"{side} 代码第 {line} 行：{tree.msg} (line {line})"
            )


VALID_PYTHON = Rule(
    "AM232",
    "示例代码不是合法的 Python (example is not valid Python)",
    Scope.RECORD,
    _E,
    "示例只写代码；说明文字放进 when 或 purpose (keep prose out of the code)",
    check_valid_python,
)


def check_param_reference(ctx: RecordContext) -> Iterator[Finding]:
    """An example's ``param`` names a row that can be rewritten."""
    rows = {row.torch: row for row in ctx.record.params if row.torch is not None}
    for index, example in enumerate(ctx.record.examples):
        if example.param is None:
            continue
        row = rows.get(example.param)
        where = ctx.loc("examples", index, "param")
        if row is None:
            yield Finding(where, f"参数映射中没有 `{example.param}` (no such row)")
        elif row.action in {Action.NONE, Action.DELETE}:
            yield Finding(
                where,
                f"`{example.param}` 标注为 {row.action.phrase}，却给出了示例 "
                "(the row says it is not rewritten)",
                "若可以转写，把该行 action 改为 rewrite (set action: rewrite)",
            )


PARAM_REFERENCE = Rule(
    "AM233",
    "示例指向的参数不存在或无需转写 (example refers to no rewritable row)",
    Scope.RECORD,
    _E,
    "param 写参数映射中某行的 torch 名称 (use the torch name of a row)",
    check_param_reference,
)

_OTHER_SIDE = {"torch": "paddle", "paddle": "torch"}


def check_sides(ctx: RecordContext) -> Iterator[Finding]:
    """PyTorch code does not use paddle, and Paddle code does not use torch."""
    for path, source, side in code(ctx):
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


SIDES = Rule(
    "AM234",
    "示例混用了两个框架 (example mixes the frameworks)",
    Scope.RECORD,
    _E,
    "PyTorch 写法只用 torch，Paddle 写法只用 paddle (each side uses its own library)",
    check_sides,
)

RULES = [NONE_FOR_GROUP_ONE, REQUIRED, VALID_PYTHON, PARAM_REFERENCE, SIDES]
