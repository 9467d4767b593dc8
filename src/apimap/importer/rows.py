"""Read one row of a 参数映射 table: the two names and the remark split into its parts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from apimap import phrases
from apimap.categories import Category, RowKind
from apimap.importer import patterns
from apimap.importer.inline import cell_text, plain_name
from apimap.importer.problems import NO_PHRASE, UNMAPPED_ROW, Problem

_TYPE_WORD = "类型"
_FINAL_STOP = re.compile(r"\s*[。.]\s*$")


@dataclass
class RowDraft:
    """A row as read, before the page's category decides type_diff or usage_diff."""

    line: int
    fields: dict[str, Any]
    inconsistent: bool
    """A two-sided row whose usage differs: type_diff or usage_diff."""
    stated_defaults: tuple[str | None, str | None] | None
    """The defaults a default_diff remark spells out, as written (``None``: 无默认值)."""
    remark: str


def _shape(torch: str | None, paddle: str | None) -> str | None:
    if torch == phrases.RETURN_LABEL and paddle == phrases.RETURN_LABEL:
        return "return"
    if torch and paddle:
        return "both"
    if torch:
        return "torch"
    if paddle:
        return "paddle"
    return None


_FALLBACK_KINDS = {
    "both": RowKind.SAME,
    "torch": RowKind.TORCH_ONLY,
    "paddle": RowKind.PADDLE_ONLY,
    "return": RowKind.RETURN_DIFF,
}


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value or None


def _setting(kind: RowKind, setting: str | None) -> str | None:
    """A setting equal to the phrase the renderer adds by default is no setting."""
    if setting is None:
        return None
    standard = phrases.KEEP_DEFAULT if kind is RowKind.PADDLE_ONLY else phrases.MATCH_TORCH
    return None if patterns.is_phrase(setting, standard) else setting


def _stated(groups: dict[str, str | None]) -> tuple[str | None, str | None]:
    def value(name: str) -> str | None:
        text = _clean(groups.get(name))
        return text.strip("`").strip() if text else None

    return value("torch_default"), value("paddle_default")


def read_row(line: int, cells: list[str]) -> tuple[RowDraft | None, list[Problem]]:
    """A row from its three cells, or a loss when it cannot be read."""
    source = "| " + " | ".join(cells) + " |"
    torch, paddle = plain_name(cells[0]), plain_name(cells[1])
    remark = cell_text(cells[2]).strip()
    shape = _shape(torch, paddle)
    if shape is None or not remark:
        detail = (
            "两侧都没有参数名 (no parameter name)" if shape is None else "备注为空 (empty remark)"
        )
        return None, [Problem(UNMAPPED_ROW, line, detail, kept=source)]
    if shape == "return":
        torch = paddle = None
    for pattern in patterns.remark_patterns(shape):
        match = pattern.pattern.match(remark)
        if match is None:
            continue
        groups = match.groupdict()
        kind = pattern.kind
        problems: list[Problem] = []
        if kind is RowKind.SAME and torch != paddle:
            kind = RowKind.RENAME
            problems.append(Problem(NO_PHRASE, line, f"kind: {kind}"))
        fields: dict[str, Any] = {
            "torch": torch,
            "paddle": paddle,
            "kind": kind.value,
            "desc": _clean(groups.get("desc")),
            "diff": _clean(groups.get("diff")),
            "setting": _setting(kind, _clean(groups.get("setting"))),
            "action": pattern.action.value if pattern.action else None,
            "note": _clean(groups.get("note")),
        }
        stated = _stated(groups) if pattern.states_defaults else None
        draft = RowDraft(
            line,
            {key: value for key, value in fields.items() if value is not None},
            inconsistent=kind is RowKind.USAGE_DIFF,
            stated_defaults=stated,
            remark=remark,
        )
        return draft, problems
    kind = _FALLBACK_KINDS[shape]
    fields = {"torch": torch, "paddle": paddle, "kind": kind.value}
    fields["desc"] = _FINAL_STOP.sub("", remark)
    draft = RowDraft(
        line,
        {key: value for key, value in fields.items() if value is not None},
        inconsistent=False,
        stated_defaults=None,
        remark=remark,
    )
    return draft, [Problem(NO_PHRASE, line, f"kind: {kind}")]


def inconsistent_kind(category: Category | None, row: RowDraft) -> RowKind:
    """type_diff or usage_diff for an inconsistent two-sided row.

    Both render the same remark, so the page's category decides; where it says
    nothing (another category, or the legacy 参数不一致), a difference that
    talks about types is a type difference.
    """
    if category is Category.INPUT_TYPE_DIFF:
        return RowKind.TYPE_DIFF
    if category is Category.INPUT_USAGE_DIFF:
        return RowKind.USAGE_DIFF
    return RowKind.TYPE_DIFF if _TYPE_WORD in row.fields.get("diff", "") else RowKind.USAGE_DIFF
