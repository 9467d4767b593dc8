"""The fixed phrases of the specification: remarks, summaries and headings.

This module is the one place that knows them. Contributors write only the
meaning of a parameter (``desc``), how its usage differs (``diff``) and how to
set Paddle (``setting``); the phrases around those come from the row's
``kind`` and ``action`` and from the record's category.
"""

from __future__ import annotations

from dataclasses import dataclass

from apimap.categories import Action, Category, RowKind
from apimap.model import Example, ParamRow, Record
from apimap.signature import Param, Signature, SignatureError, parse_signature

RETURN_LABEL = "返回值"
"""What the table shows in both columns of a return_diff row."""

KEEP_DEFAULT = "Paddle 保持默认即可"
MATCH_TORCH = "Paddle 需设置为与 PyTorch 一致"
NO_DEFAULT = "无默认值"

NO_REWRITE = "Paddle 暂无转写方式。"
COMPOSITE_LEAD = "Paddle 目前无对应 API，可使用如下代码组合替代实现："

_FIXED_SUMMARIES = {
    Category.NO_PARAMS: "两者功能一致，无参数。",
    Category.IDENTICAL: "两者功能一致，参数完全一致，具体如下：",
    Category.NAMES_DIFFER: "两者功能一致且参数用法一致，仅参数名不一致，具体如下：",
    Category.PADDLE_MORE: "Paddle 相比 PyTorch 支持更多其他参数，具体如下：",
    Category.DEFAULTS_DIFFER: "两者功能一致且参数用法一致，仅参数默认值不一致，具体如下：",
    Category.TORCH_MORE: "PyTorch 相比 Paddle 支持更多其他参数，具体如下：",
    Category.CONTEXT_CHANGE: (
        "PyTorch 与 Paddle 对该 API 的设计思路与用法不同，需要分析上下文并联动修改："
    ),
}

_INCONSISTENT_KINDS = (RowKind.TYPE_DIFF, RowKind.USAGE_DIFF)
_FOLLOWED = "，具体如下："


@dataclass(frozen=True)
class Defaults:
    """The default values of one default_diff row, as the signatures spell them."""

    torch: str | None
    paddle: str | None


def _parse(text: str | None) -> Signature | None:
    if text is None:
        return None
    try:
        return parse_signature(text)
    except SignatureError:
        return None


def _torch_param(record: Record, name: str) -> Param | None:
    for text in record.torch_overloads:
        signature = _parse(text)
        found = signature.find(name) if signature else None
        if found is not None:
            return found
    return None


def row_defaults(record: Record, row: ParamRow) -> Defaults:
    """Both defaults of a row, read from the recorded signatures (aliases resolved)."""
    torch_param = _torch_param(record, row.torch) if row.torch else None
    paddle_signature = _parse(record.paddle_signature)
    paddle_param = None
    if paddle_signature is not None and row.paddle is not None:
        canonical = record.paddle_param_aliases.get(row.paddle, row.paddle)
        paddle_param = paddle_signature.find(canonical)
    return Defaults(
        torch=torch_param.default if torch_param else None,
        paddle=paddle_param.default if paddle_param else None,
    )


def _value(default: str | None) -> str:
    return NO_DEFAULT if default is None else f"`{default}`"


def remark(record: Record, row: ParamRow) -> str:
    """The 备注 cell of a row: the contributor's meaning plus the fixed phrase."""
    kind = row.kind
    if kind is RowKind.SAME:
        text = f"{row.desc}。"
    elif kind is RowKind.RENAME:
        text = f"{row.desc}，仅参数名不一致。"
    elif kind is RowKind.PADDLE_ONLY:
        text = f"{row.desc}，PyTorch 无此参数，{row.setting or KEEP_DEFAULT}。"
    elif kind is RowKind.DEFAULT_DIFF:
        defaults = row_defaults(record, row)
        text = (
            f"{row.desc}，PyTorch 默认值为 {_value(defaults.torch)}，"
            f"Paddle 默认值为 {_value(defaults.paddle)}，{row.setting or MATCH_TORCH}。"
        )
    elif kind is RowKind.TORCH_ONLY:
        text = f"{row.desc}，Paddle 无此参数，{_action(row).phrase}。"
    else:
        text = f"{row.desc}，{row.diff}，{_action(row).phrase}。"
    if row.note:
        text += row.note
    return text


def _action(row: ParamRow) -> Action:
    # Rows without an action are reported by AM216; the page then says nothing can be done.
    return row.action or Action.NONE


def table_names(row: ParamRow) -> tuple[str, str]:
    """The PyTorch and Paddle cells of a row (``-`` where a side has no parameter)."""
    if row.kind is RowKind.RETURN_DIFF:
        return RETURN_LABEL, RETURN_LABEL
    return row.torch or "-", row.paddle or "-"


def inconsistency_summary(record: Record) -> str:
    """Category 3: name the torch parameters whose usage differs, in backticks."""
    names = [
        f"`{row.torch}`" for row in record.params if row.kind in _INCONSISTENT_KINDS and row.torch
    ]
    returns = any(row.kind is RowKind.RETURN_DIFF for row in record.params)
    if names and returns:
        return (
            f"PyTorch 的 {'、'.join(names)} 参数与 Paddle 用法不一致，返回值类型也不一致{_FOLLOWED}"
        )
    if names:
        return f"PyTorch 的 {'、'.join(names)} 参数与 Paddle 用法不一致{_FOLLOWED}"
    if returns:
        return f"PyTorch 与 Paddle 的返回值类型不一致{_FOLLOWED}"
    return f"PyTorch 与 Paddle 的参数用法不一致{_FOLLOWED}"


def summary(record: Record) -> list[str]:
    """The summary paragraphs under the signatures (``summary`` overrides the generated one)."""
    category = record.category
    if category is Category.COMPOSITE:
        return [text for text in (record.summary, COMPOSITE_LEAD) if text]
    if record.summary:
        return [record.summary]
    if category in _FIXED_SUMMARIES:
        return [_FIXED_SUMMARIES[category]]
    if category.group == 3:
        return [inconsistency_summary(record)]
    if category is Category.OTHER_PACKAGE:
        package = record.paddle_package or "其他包"
        ending = _FOLLOWED if record.params else "。"
        return [f"Paddle 主框架中没有对应 API，对应 API 位于 `{package}` 包中{ending}"]
    return []


def example_heading(record: Record, example: Example) -> str | None:
    """``参数名：功能`` for an example; ``None`` when it shows the whole API."""
    if example.param is not None:
        row = next((r for r in record.params if r.torch == example.param), None)
        purpose = example.purpose or (row.desc if row else None)
        return f"{example.param}：{purpose}" if purpose else example.param
    returns = next((r for r in record.params if r.kind is RowKind.RETURN_DIFF), None)
    if returns is not None:
        return f"{RETURN_LABEL}：{example.purpose or returns.desc}"
    return example.purpose


def says_no_rewrite(record: Record) -> bool:
    """Categories 2 to 5 with a row that cannot be rewritten and no example at all."""
    return (
        2 <= record.category.group <= 5
        and not record.examples
        and any(row.action is Action.NONE for row in record.params)
    )


def when_line(when: str) -> str:
    """The line before a case's code."""
    return f"{when}："


def verified_badge(torch_version: str, paddle_version: str) -> str:
    """The badge text of a verified record."""
    return f"已验证：torch {torch_version} / paddle {paddle_version}"
