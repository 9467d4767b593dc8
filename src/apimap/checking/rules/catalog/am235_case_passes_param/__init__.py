"""AM235: an example for a parameter passes that parameter.

Unless the row is about the parameter's default (a default difference, or a difference its
text says concerns the default): then a case that leaves the parameter out shows what
torch's default becomes in paddle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.catalog.am232_example_python import parse_code
from apimap.record import derived
from apimap.record.calls import CallError, bind
from apimap.record.categories import RowKind
from apimap.record.model import ParamRow


def _passes(ctx: RecordContext, source: str, param: str) -> bool | None:
    """Whether a call of the API in ``source`` passes ``param``; ``None``: no call to judge."""
    tree = parse_code(source)
    if isinstance(tree, SyntaxError):
        return None
    record = ctx.record
    names = {record.torch_api, *record.torch_aliases}
    member = record.torch_api.rsplit(".", 1)[-1]
    judged = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        text = ast.unparse(node.func)
        if text not in names and not (
            record.api_type.value in {"method", "attribute"} and node.func.attr == member
        ):
            continue
        if any(keyword.arg == param.lstrip("*") for keyword in node.keywords):
            return True
        try:
            bound = bind(record, node)
        except CallError:
            continue
        judged = True
        if param in bound.values:
            return True
    return False if judged else None


_DEFAULT_WORD = "默认"


def _about_default(row: ParamRow) -> bool:
    """The row's difference concerns the parameter's default value."""
    if derived.row_kind(row) is RowKind.DEFAULT_DIFF:
        return True
    return any(_DEFAULT_WORD in (text or "") for text in (row.diff, row.note, row.setting))


def check(ctx: RecordContext) -> Iterator[Finding]:
    """A case under ``param: p`` whose torch code calls the API without ``p`` proves nothing."""
    for index, example in enumerate(ctx.record.examples):
        row = derived.row_for(ctx.record, example.param) if example.param else None
        if example.param is None or row is None:
            continue  # AM233 reports an example for a parameter without a row
        if _about_default(row):
            continue
        for case_index, case in enumerate(example.cases):
            if case.torch is not None and _passes(ctx, case.torch, example.param) is False:
                yield Finding(
                    ctx.loc("examples", index, "cases", case_index, "torch"),
                    f"PyTorch 代码没有传入 `{example.param}` (the case does not pass it)",
                )


RULE = Rule(
    "AM235",
    "示例没有用到它所说明的参数 (example does not pass its parameter)",
    Scope.RECORD,
    Severity.ERROR,
    "在 PyTorch 代码中传入该参数，演示它如何转写 (pass the parameter in the torch code)",
    why="说明某个参数如何转写的示例，却根本没有传这个参数，比较的结果与该参数无关，什么也没有证明。",
    check=check,
)
