"""AM210: rows follow the order of the torch signature."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived


def check(ctx: RecordContext) -> Iterator[Finding]:
    """With overloads, each overload's own order; a row is placed by its first torch name."""
    rows = ctx.record.params
    for sig in ctx.torch_signatures:
        positions = {param.spelled: index for index, param in enumerate(sig.params)}
        previous: tuple[int, str] | None = None
        for row_index, row in enumerate(rows):
            names = derived.torch_names(row)
            if not names or names[0] not in positions:
                continue
            position = positions[names[0]]
            if previous is not None and position < previous[0]:
                yield Finding(
                    ctx.loc("params", row_index, "torch"),
                    f"`{names[0]}` 在签名中位于 `{previous[1]}` 之前 "
                    f"(comes before {previous[1]} in the signature)",
                )
                return
            previous = (position, names[0])


RULE = Rule(
    "AM210",
    "参数映射行未按 PyTorch 签名顺序排列 (rows are not in torch signature order)",
    Scope.RECORD,
    Severity.ERROR,
    "按 PyTorch 签名中的参数顺序排列各行 (order rows as in the torch signature)",
    why="规范要求参数表按 PyTorch 参数顺序排列，读者拿着 PyTorch 代码逐个参数对照。",
    check=check,
)
