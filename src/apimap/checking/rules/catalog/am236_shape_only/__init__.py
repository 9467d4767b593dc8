"""AM236: a result compared by shape only says why, and something else is compared by value."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.calls import CallError, assigned, parse_call
from apimap.record.categories import ShapeOnly
from apimap.record.model import Call, Case, Execution


def outputs_of(execution: Execution) -> list[str] | None:
    """The names a case or call compares (``None`` when the code does not parse)."""
    if execution.outputs is not None:
        return list(execution.outputs)
    try:
        if isinstance(execution, Call):
            names = assigned(parse_call(execution.torch))
        else:
            assert isinstance(execution, Case)  # a complete one (derived.executions)
            assert execution.torch is not None and execution.paddle is not None
            paddle_names = set(assigned(parse_call(execution.paddle)))
            names = [n for n in assigned(parse_call(execution.torch)) if n in paddle_names]
    except CallError:
        return None
    return [name for name in names if name not in execution.inputs]


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Random and device-only results need a statistic or a seeded value compared beside them."""
    for path, execution in derived.executions(ctx.record):
        if not execution.shape_only:
            continue
        outputs = outputs_of(execution)
        if outputs is None:
            continue
        for name in execution.shape_only:
            if name not in outputs:
                yield Finding(
                    ctx.key_loc(*path, "shape_only", name),
                    f"`{name}` 不是比较的结果 (not a compared result)",
                )
        by_value = [name for name in outputs if name not in execution.shape_only]
        needs_value = {ShapeOnly.RANDOM, ShapeOnly.DEVICE} & set(execution.shape_only.values())
        if needs_value and not by_value:
            yield Finding(
                ctx.key_loc(*path, "shape_only"),
                "所有结果都只比较形状 (nothing is compared by value)",
                "再比较一个统计量（如均值）或固定种子下确定的值，并设 atol (compare a statistic)",
            )


RULE = Rule(
    "AM236",
    "只比较形状的结果没有可验证的替代 (shape-only results with nothing compared by value)",
    Scope.RECORD,
    Severity.ERROR,
    "random、device 须另有一个按数值比较的结果，如均值、方差或种子决定的值 "
    "(compare a statistic or a seeded value beside it)",
    why="只比较类型与形状的示例对任何实现都成立；随机结果至少要比较一个统计量，才算证明了什么。",
    check=check,
)
