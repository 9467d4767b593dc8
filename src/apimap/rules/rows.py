"""AM210-AM219: the parameter mapping table."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from apimap.categories import Action, RowKind
from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.model import ParamRow
from apimap.rules.base import Finding, Rule, Scope

_E = Severity.ERROR


def check_order(ctx: RecordContext) -> Iterator[Finding]:
    """Rows follow the torch signature; with overloads, each overload's own order."""
    rows = ctx.record.params
    for sig in ctx.torch_signatures:
        positions = {param.spelled: index for index, param in enumerate(sig.params)}
        previous: tuple[int, str] | None = None
        for row_index, row in enumerate(rows):
            if row.torch is None or row.torch not in positions:
                continue
            position = positions[row.torch]
            if previous is not None and position < previous[0]:
                yield Finding(
                    ctx.loc("params", row_index, "torch"),
                    f"`{row.torch}` 在签名中位于 `{previous[1]}` 之前 "
                    f"(comes before {previous[1]} in the signature)",
                )
                return
            previous = (position, row.torch)


ORDER = Rule(
    "AM210",
    "参数映射行未按 PyTorch 签名顺序排列 (rows are not in torch signature order)",
    Scope.RECORD,
    _E,
    "按 PyTorch 签名中的参数顺序排列各行 (order rows as in the torch signature)",
    check_order,
)


def check_torch_coverage(ctx: RecordContext) -> Iterator[Finding]:
    """Every torch parameter has a row (pages with a paddle API show the table)."""
    if (
        not ctx.has_paddle_side
        or not ctx.record.torch_overloads
        or len(ctx.torch_signatures) != len(ctx.record.torch_overloads)
    ):
        return
    covered = {row.torch for row in ctx.record.params}
    where = ctx.key_loc("params") if ctx.record.params else ctx.loc("torch_signature")
    for name in ctx.torch_params():
        if name not in covered:
            yield Finding(where, f"`{name}`")


TORCH_COVERAGE = Rule(
    "AM211",
    "PyTorch 参数缺少映射行 (torch parameter has no row)",
    Scope.RECORD,
    _E,
    "为每个 PyTorch 参数写一行：无对应时 kind: torch_only (add a row for every torch parameter)",
    check_torch_coverage,
)


def check_paddle_coverage(ctx: RecordContext) -> Iterator[Finding]:
    """Every paddle parameter (except ``name`` and a skipped first one) has a row."""
    if not ctx.has_paddle_side or ctx.paddle_signature is None:
        return
    covered = {ctx.paddle_canonical(row.paddle) for row in ctx.record.params if row.paddle}
    where = ctx.key_loc("params") if ctx.record.params else ctx.loc("paddle_signature")
    for name in ctx.paddle_params():
        if name not in covered:
            yield Finding(where, f"`{name}`")


PADDLE_COVERAGE = Rule(
    "AM212",
    "Paddle 参数缺少映射行 (paddle parameter has no row)",
    Scope.RECORD,
    _E,
    "PyTorch 没有的 Paddle 参数写 kind: paddle_only (add a paddle_only row)",
    check_paddle_coverage,
)


def check_names_exist(ctx: RecordContext) -> Iterator[Finding]:
    """Row names are parameters of their signatures."""
    if not ctx.signatures_complete:
        return
    torch_names = set(ctx.torch_params())
    paddle = ctx.paddle_signature
    for alias, target in ctx.record.paddle_param_aliases.items():
        if paddle is None or paddle.find(target) is None:
            yield Finding(
                ctx.loc("paddle_param_aliases", alias),
                f"别名 `{alias}` 指向的 `{target}` 不在 Paddle 签名中 (alias target not in signature)",
            )
    for index, row in enumerate(ctx.record.params):
        if row.torch is not None and row.torch not in torch_names:
            yield Finding(
                ctx.loc("params", index, "torch"),
                f"PyTorch 签名中没有 `{row.torch}` (not in the torch signature)",
            )
        if row.paddle is None or row.paddle == "name" or paddle is None:
            continue
        if paddle.find(ctx.paddle_canonical(row.paddle)) is None:
            yield Finding(
                ctx.loc("params", index, "paddle"),
                f"Paddle 签名中没有 `{row.paddle}` (not in the paddle signature)",
            )


NAMES_EXIST = Rule(
    "AM213",
    "参数名不在签名中 (parameter name not in the signature)",
    Scope.RECORD,
    _E,
    "检查拼写；可变参数写作 `*size` (check the spelling; varargs are written `*size`)",
    check_names_exist,
)


def check_no_name_param(ctx: RecordContext) -> Iterator[Finding]:
    """Paddle's ``name`` parameter is ignored and never listed."""
    for index, row in enumerate(ctx.record.params):
        if row.paddle == "name":
            yield Finding(ctx.loc("params", index, "paddle"))


NAME_PARAM = Rule(
    "AM214",
    "参数映射中出现 Paddle 的 name 参数 (paddle's name parameter is listed)",
    Scope.RECORD,
    _E,
    "删除该行：所有 Paddle API 的 name 参数都直接忽略 (delete the row)",
    check_no_name_param,
)

_NEEDS = {
    RowKind.SAME: (True, True),
    RowKind.RENAME: (True, True),
    RowKind.PADDLE_ONLY: (False, True),
    RowKind.DEFAULT_DIFF: (True, True),
    RowKind.TORCH_ONLY: (True, False),
    RowKind.TYPE_DIFF: (True, True),
    RowKind.USAGE_DIFF: (True, True),
    RowKind.RETURN_DIFF: (False, False),
}
_DIFF_KINDS = {RowKind.TYPE_DIFF, RowKind.USAGE_DIFF, RowKind.RETURN_DIFF}
_SETTING_KINDS = {RowKind.PADDLE_ONLY, RowKind.DEFAULT_DIFF}


def _shape_problems(row: ParamRow) -> Iterator[str]:
    wants_torch, wants_paddle = _NEEDS[row.kind]
    for side, wanted, value in (
        ("torch", wants_torch, row.torch),
        ("paddle", wants_paddle, row.paddle),
    ):
        if wanted and value is None:
            yield f"kind: {row.kind} 需要 `{side}` (needs {side})"
        if not wanted and value is not None:
            yield f"kind: {row.kind} 不应有 `{side}` (must not have {side})"
    if row.torch is not None and row.paddle is not None:
        if row.kind is RowKind.SAME and row.torch != row.paddle:
            yield "名称不同，应为 kind: rename (names differ: use rename)"
        if row.kind is RowKind.RENAME and row.torch == row.paddle:
            yield "名称相同，应为 kind: same (names are equal: use same)"
    if row.kind in _DIFF_KINDS and row.diff is None:
        yield f"kind: {row.kind} 需要 `diff` 说明不一致之处 (needs diff)"
    if row.kind not in _DIFF_KINDS and row.diff is not None:
        yield f"kind: {row.kind} 不应有 `diff` (must not have diff)"
    if row.kind not in _SETTING_KINDS and row.setting is not None:
        yield f"kind: {row.kind} 不应有 `setting` (must not have setting)"


def check_row_shape(ctx: RecordContext) -> Iterator[Finding]:
    """The fields of a row fit its kind."""
    for index, row in enumerate(ctx.record.params):
        for detail in _shape_problems(row):
            yield Finding(ctx.loc("params", index), detail)


ROW_SHAPE = Rule(
    "AM215",
    "参数映射行的字段与 kind 不符 (row fields do not fit its kind)",
    Scope.RECORD,
    _E,
    "same/rename/default_diff/type_diff/usage_diff 两侧都写；torch_only 只写 torch；"
    "paddle_only 只写 paddle；return_diff 两侧都不写 (fill the sides the kind needs)",
    check_row_shape,
)


def check_action(ctx: RecordContext) -> Iterator[Finding]:
    """Torch-only and inconsistent rows say what to do; other rows do not."""
    for index, row in enumerate(ctx.record.params):
        where = ctx.loc("params", index)
        if row.kind.needs_action and row.action is None:
            yield Finding(where, f"kind: {row.kind} 需要 `action` (needs action)")
        elif not row.kind.needs_action and row.action is not None:
            yield Finding(where, f"kind: {row.kind} 不应有 `action` (must not have action)")
        elif row.action is Action.DELETE and row.kind is not RowKind.TORCH_ONLY:
            yield Finding(
                where,
                "只有 torch_only 的参数可直接删除 (only torch_only rows can be deleted)",
            )


ACTION = Rule(
    "AM216",
    "action 与 kind 不符 (action does not fit the kind)",
    Scope.RECORD,
    _E,
    "torch_only：rewrite / none / delete；type_diff、usage_diff、return_diff：rewrite / none "
    "(torch-only and inconsistent rows need an action)",
    check_action,
)


def _same_default(left: str | None, right: str | None) -> bool:
    if left == right:
        return True
    if left is None or right is None:
        return False
    try:
        return bool(ast.literal_eval(left) == ast.literal_eval(right))
    except (ValueError, SyntaxError):
        return False


def check_defaults(ctx: RecordContext) -> Iterator[Finding]:
    """Rows that claim equal usage have equal defaults; default_diff rows really differ."""
    paddle = ctx.paddle_signature
    if paddle is None:
        return
    for index, row in enumerate(ctx.record.params):
        if row.torch is None or row.paddle is None:
            continue
        torch_param = next(
            (p for sig in ctx.torch_signatures if (p := sig.find(row.torch)) is not None), None
        )
        paddle_param = paddle.find(ctx.paddle_canonical(row.paddle))
        if torch_param is None or paddle_param is None or torch_param.default is None:
            continue
        same = _same_default(torch_param.default, paddle_param.default)
        where = ctx.loc("params", index, "kind")
        if row.kind in {RowKind.SAME, RowKind.RENAME} and not same:
            yield Finding(
                where,
                f"`{row.torch}` 默认值 PyTorch 为 `{torch_param.default}`，Paddle 为 "
                f"`{paddle_param.default}` (defaults differ)",
                "改为 kind: default_diff，并用 setting 说明 Paddle 应如何设置 (use default_diff)",
            )
        if row.kind is RowKind.DEFAULT_DIFF and same:
            yield Finding(
                where,
                f"`{row.torch}` 两侧默认值都是 `{torch_param.default}` (defaults are equal)",
                "改为 kind: same 或 rename (use same or rename)",
            )


DEFAULTS = Rule(
    "AM217",
    "默认值与 kind 不符 (defaults do not fit the kind)",
    Scope.RECORD,
    _E,
    "默认值不同的参数用 kind: default_diff (use default_diff where defaults differ)",
    check_defaults,
)


def check_duplicates(ctx: RecordContext) -> Iterator[Finding]:
    """Each torch parameter has exactly one row."""
    seen: set[str] = set()
    for index, row in enumerate(ctx.record.params):
        if row.torch is None:
            continue
        if row.torch in seen:
            yield Finding(ctx.loc("params", index, "torch"), f"`{row.torch}`")
        seen.add(row.torch)


DUPLICATES = Rule(
    "AM218",
    "同一 PyTorch 参数有多行 (torch parameter listed twice)",
    Scope.RECORD,
    _E,
    "合并为一行 (merge the rows)",
    check_duplicates,
)


def check_skip_first(ctx: RecordContext) -> Iterator[Finding]:
    """Skipping paddle's first parameter only applies to a Tensor method -> free function."""
    record = ctx.record
    if not record.paddle_skip_first:
        return
    member_to_function = record.torch_api.startswith("torch.Tensor.") and not (
        record.paddle_api or ""
    ).startswith("paddle.Tensor.")
    if not member_to_function:
        yield Finding(
            ctx.loc("paddle_skip_first"),
            "只有 torch.Tensor 成员映射为 Paddle 非成员函数时才忽略第一个参数 "
            "(only for a torch.Tensor method mapped to a free function)",
        )
        return
    skipped = ctx.skipped_paddle_param
    for index, row in enumerate(record.params):
        if skipped is not None and row.paddle == skipped:
            yield Finding(
                ctx.loc("params", index, "paddle"),
                f"`{skipped}` 已被忽略，不应出现在参数映射中 (the skipped parameter is listed)",
            )


SKIP_FIRST = Rule(
    "AM219",
    "忽略第一个参数的设置不符 (paddle_skip_first misused)",
    Scope.RECORD,
    _E,
    "torch.Tensor.outer(vec2) → paddle.outer(x, y)：设 paddle_skip_first: true，从 vec2 ↔ y 开始对比 "
    "(compare from the second paddle parameter)",
    check_skip_first,
)

RULES = [
    ORDER,
    TORCH_COVERAGE,
    PADDLE_COVERAGE,
    NAMES_EXIST,
    NAME_PARAM,
    ROW_SHAPE,
    ACTION,
    DEFAULTS,
    DUPLICATES,
    SKIP_FIRST,
]
