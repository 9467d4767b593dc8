"""AM215: the fields of a row fit its kind."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import RowKind
from apimap.record.model import ParamRow

_TORCH_SIDE = {
    RowKind.SAME,
    RowKind.RENAME,
    RowKind.DEFAULT_DIFF,
    RowKind.TORCH_ONLY,
    RowKind.TYPE_DIFF,
    RowKind.USAGE_DIFF,
}
_PADDLE_WRITTEN = {RowKind.RENAME, RowKind.PADDLE_ONLY}
_NO_PADDLE = {RowKind.TORCH_ONLY, RowKind.RETURN_DIFF}
_DIFF = {RowKind.TYPE_DIFF, RowKind.USAGE_DIFF, RowKind.RETURN_DIFF}
_SETTING = {RowKind.PADDLE_ONLY, RowKind.DEFAULT_DIFF}
_CONVERT = {RowKind.TYPE_DIFF, RowKind.USAGE_DIFF}


def problems(row: ParamRow) -> Iterator[str]:
    """What does not fit, one line each."""
    kind = derived.row_kind(row)
    has_torch, has_paddle = row.torch is not None, row.paddle is not None
    if kind in _TORCH_SIDE and not has_torch:
        yield f"kind: {kind} 需要 `torch` (needs torch)"
    if kind not in _TORCH_SIDE and has_torch:
        yield f"kind: {kind} 不应有 `torch` (must not have torch)"
    if kind in _PADDLE_WRITTEN and not has_paddle:
        yield f"kind: {kind} 需要 `paddle` (needs paddle)"
    if kind in _NO_PADDLE and has_paddle:
        yield f"kind: {kind} 不应有 `paddle` (must not have paddle)"
    same_names = derived.paddle_names(row) == derived.torch_names(row)
    if row.kind is RowKind.SAME and has_paddle and not same_names:
        yield "名称不同，应为 rename（省略 kind 即可）(names differ: a rename)"
    if row.kind is RowKind.RENAME and same_names:
        yield "名称相同，不是 rename (names are equal: not a rename)"
    if kind is RowKind.SAME and derived.desc(row) is None and row.note is None:
        yield "kind: same 需要 `desc`，否则备注为空 (needs desc: the remark would be empty)"
    if kind in _DIFF and row.diff is None:
        yield f"kind: {kind} 需要 `diff` 说明不一致之处 (needs diff)"
    if kind not in _DIFF and row.diff is not None:
        yield f"kind: {kind} 不应有 `diff` (must not have diff)"
    if kind not in _SETTING and row.setting is not None:
        yield f"kind: {kind} 不应有 `setting` (must not have setting)"
    if kind not in _SETTING | _CONVERT and row.paddle_value is not None:
        yield f"kind: {kind} 不应有 `paddle_value` (must not have paddle_value)"
    if kind not in _CONVERT and row.convert is not None:
        yield f"kind: {kind} 不应有 `convert` (must not have convert)"


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each problem of each row, at the row."""
    for index, row in enumerate(ctx.record.params):
        for detail in problems(row):
            yield Finding(ctx.loc("params", index), detail)


RULE = Rule(
    "AM215",
    "参数映射行的字段与 kind 不符 (row fields do not fit its kind)",
    Scope.RECORD,
    Severity.ERROR,
    "rename 与 paddle_only 写 paddle；torch_only 只写 torch；return_diff 两侧都不写；"
    "其余 kind 的 paddle 与 torch 同名时省略 (fill the sides the kind needs)",
    why="kind 决定备注中生成的固定短语和验证时如何推导 Paddle 调用，字段必须与之相符。",
    check=check,
)
