"""AM201: the category of groups 1 to 3 is the one the parameter rows imply.

The specification's torch 参数更多 template lists a varargs parameter that paddle takes as a
list (``*size`` -> ``shape``, 需要转写) among its rows: a page may file such a row under
torch 参数更多 as well as under 参数不一致.

A torch attribute (or constant) mapped onto a paddle method that must be called differs in
usage whatever the rows say: it is not category 1. A row for paddle's ``name`` counts for
nothing (the specification says to ignore that parameter).
"""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Edit, Finding, Fix, Rule, Scope
from apimap.record import derived
from apimap.record.categories import Category, RowKind, computed_category
from apimap.record.model import ParamRow


def _computed(ctx: RecordContext) -> str:
    return computed_category([derived.row_kind(row) for row in _rows(ctx)]).value


def _rows(ctx: RecordContext) -> list[ParamRow]:
    """The rows that decide the category: a paddle-only row for paddle's ``name`` does not
    (the specification says to ignore that parameter; AM214 reports the row)."""
    return [
        row
        for row in ctx.record.params
        if not (
            derived.row_kind(row) is RowKind.PADDLE_ONLY and derived.paddle_names(row) == ["name"]
        )
    ]


def _varargs_as_list(row: ParamRow) -> bool:
    """``*size`` on the torch side, a list parameter on the paddle side, usage differing."""
    torch, paddle = derived.torch_names(row), derived.paddle_names(row)
    return (
        derived.row_kind(row) in (RowKind.USAGE_DIFF, RowKind.TYPE_DIFF)
        and len(torch) == 1
        and torch[0].startswith("*")
        and not torch[0].startswith("**")
        and bool(paddle)
        and not any(name.startswith("*") for name in paddle)
    )


def _attribute_to_call(ctx: RecordContext) -> bool:
    """The torch API is read as an attribute, the paddle one is called (it has a signature)."""
    return not ctx.record.api_type.callable and bool(ctx.record.paddle_overloads)


def _as_torch_more(ctx: RecordContext) -> Category:
    """The category the rows imply when varargs-as-list rows count as torch 参数更多."""
    return computed_category(
        [
            RowKind.TORCH_ONLY if _varargs_as_list(row) else derived.row_kind(row)
            for row in _rows(ctx)
        ]
    )


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Categories 1-3 are computed from the rows with the specification's priority order."""
    declared = ctx.record.category
    computed = computed_category([derived.row_kind(row) for row in _rows(ctx)])
    if declared is Category.TORCH_MORE and _as_torch_more(ctx) is declared:
        return
    if declared is None:
        yield Finding(
            ctx.loc("torch_api"),
            f"缺少 `category`，参数映射推导为「{computed.label}」"
            f"(no category; the rows imply {computed.value})",
            "运行 apimap check --fix 填写推导出的分类；第 4–7 类需手写 (run check --fix)",
        )
    elif declared.group == 1 and _attribute_to_call(ctx):
        yield Finding(
            ctx.loc("category"),
            f"声明为「{declared.label}」，但 PyTorch 的属性对应 Paddle 需要调用的方法，属于用法不一致 "
            f"(declared {declared.value}; an attribute mapped onto a method call differs in usage)",
            "改为 `category: input_usage_diff` (use input_usage_diff)",
        )
    elif declared.computable and computed is not declared:
        yield Finding(
            ctx.loc("category"),
            f"声明为「{declared.label}」，参数映射推导为「{computed.label}」"
            f"(declared {declared.value}, rows imply {computed.value})",
            f"改为 `category: {computed.value}`，或修正参数映射行的 kind "
            "(change the category or fix the rows)",
        )


def edits(ctx: RecordContext) -> list[Edit]:
    """Write the computed category where it is missing or contradicts the rows."""
    declared = ctx.record.category
    if declared is not None and not declared.computable:
        return []
    if declared is Category.TORCH_MORE and _as_torch_more(ctx) is declared:
        return []
    computed = _computed(ctx)
    return [] if declared == computed else [Edit(("category",), computed)]


RULE = Rule(
    "AM201",
    "分类与参数映射不符 (category does not match the parameter rows)",
    Scope.RECORD,
    Severity.ERROR,
    "分类按优先级从参数映射推导：后出现的分类优先 (the later category in priority order wins)",
    why="第 1–3 类由参数层面的映射关系决定，按规范的优先级可以算出来；这是审阅者最常纠正的错误。",
    check=check,
    fix=Fix("填写或改正推导出的分类 (write the computed category)", edits),
)
