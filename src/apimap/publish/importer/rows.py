"""Read one row of a 参数映射 table: the two names and the remark split into its parts.

The record keeps what the page says; the importer reports what it had to
normalise (a missing 。, a misspelt phrase, a tag around a name, a rename
without 仅参数名不一致) and leaves to ``apimap check`` what the record still
shows (a torch-only row that never says what to do has no ``action``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from apimap.publish.importer import deviations, patterns
from apimap.publish.importer.inline import cell_text, is_highlight, plain_name, tags
from apimap.publish.importer.problems import Problem
from apimap.record import phrases
from apimap.record.categories import Action, Category, RowKind
from apimap.record.import_codes import (
    HALF_WIDTH,
    HTML_TAG,
    NO_FINAL_STOP,
    NO_PHRASE,
    RETURN_LABEL,
    UNMAPPED_ROW,
)

_TYPE_WORD = "类型"
_FINAL_STOP = re.compile(r"\s*[。.]\s*$")
_SIDE_WORD = re.compile(r"PyTorch|Pytorch|pytorch|torch|Paddle|paddle|飞桨")
_DIFFERENCE_WORD = re.compile(r"不同|不一致|区别|差异|可变参数|相反|可选|必选|不支持")
"""Words of a remark that describes a usage difference (size 是可变参数，paddle 是 list)."""


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
    if (
        torch
        and phrases.RETURN_LABEL in torch
        and (paddle is None or phrases.RETURN_LABEL in paddle)
    ):
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
_PHRASED_KINDS = {RowKind.RENAME, RowKind.PADDLE_ONLY}
"""Kinds whose generated phrase would hide that the page wrote none."""


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value or None


def _setting(kind: RowKind, setting: str | None) -> dict[str, str]:
    """The row's ``setting``, or its ``paddle_value`` when the setting is the phrase a value
    renders as (``Paddle 需设置为 `False```); a setting equal to the phrase the renderer adds
    by default is no setting."""
    if setting is None:
        return {}
    value = _SET_TO.match(setting)
    if value is not None:
        return {"paddle_value": value.group("value")}
    standard = phrases.KEEP_DEFAULT if kind is RowKind.PADDLE_ONLY else phrases.MATCH_TORCH
    return {} if patterns.is_phrase(setting, standard) else {"setting": setting}


_SET_TO = re.compile(
    "^" + re.escape(phrases.SET_TO).replace(re.escape("{value}"), "`(?P<value>[^`]+)`") + "$"
)


def _stated(groups: dict[str, str | None]) -> tuple[str | None, str | None]:
    def value(name: str) -> str | None:
        text = _clean(groups.get(name))
        return text.strip("`").strip() if text else None

    return value("torch_default"), value("paddle_default")


def _actions(
    action: Action | tuple[Action, Action] | None, groups: dict[str, str | None]
) -> dict[str, Any]:
    if isinstance(action, tuple):
        whens = [_clean(groups.get(f"when{index}")) for index in range(len(action))]
        return {
            "actions": [
                {"when": when, "action": entry.value}
                for when, entry in zip(whens, action, strict=True)
            ]
        }
    return {"action": action.value} if action else {}


_DIFFERENCE_START = re.compile(r"^(?:PyTorch|Pytorch|Paddle|paddle|torch|两者|两侧|二者)")
_SIDE_NAMED = re.compile(r"PyTorch|Pytorch|Paddle|两者|两侧|二者")
_CONDITION_END = "时"


def _where_difference_starts(
    desc: str | None, diff: str | None, text: str | None = None
) -> tuple[str | None, str | None]:
    """The remark joins the meaning and the difference with ``，``, and either may hold one
    too: the difference starts at the first clause that names a side (``PyTorch 可以是…``,
    ``mode='r' 时 PyTorch 仍返回…``), or at the conditions (``…时``) just before it, when
    there is one; a remark that starts with a side has no meaning. ``text`` is the remark from
    the meaning's start to the difference's end, so that the punctuation between clauses is
    kept as written (a meaning may hold a ``；``)."""
    if desc is not None and diff is not None and _DIFFERENCE_START.match(desc):
        return None, text or f"{desc}，{diff}"  # no meaning: the remark starts with the difference
    if desc is None or diff is None or _DIFFERENCE_START.match(diff):
        return desc, diff
    pieces = _CLAUSE_BREAK.split(text or f"{desc}，{diff}")
    clauses, breaks = pieces[0::2], pieces[1::2]
    for index in range(1, len(clauses)):
        if _SIDE_NAMED.search(clauses[index]):
            while index > 1 and clauses[index - 1].endswith(_CONDITION_END):
                index -= 1
            meaning = "".join(c + b for c, b in zip(clauses[: index - 1], breaks, strict=False))
            meaning += clauses[index - 1]
            rest = [c + b for c, b in zip(clauses[index:], [*breaks[index:], ""], strict=True)]
            return meaning.strip() or None, "".join(rest).strip()
    return desc, diff


_CLAUSE_BREAK = re.compile(r"(，)")


def _meaning_and_difference(text: str) -> tuple[str | None, str]:
    """``输出的形状，size 是可变参数，paddle 是 list`` -> the meaning and the difference: the
    first clause is the meaning when it does not itself describe the difference."""
    first, _, rest = text.partition("，")
    if rest and not describes_difference(first) and describes_difference(rest):
        return first, rest
    return None, text


def describes_difference(text: str) -> bool:
    """A remark without a phrase that still says how the two sides differ."""
    return bool(_SIDE_WORD.search(text) and _DIFFERENCE_WORD.search(text))


def _name_problems(line: int, cells: list[str], source: str) -> list[Problem]:
    found = [tag for cell in cells for tag in tags(cell) if not is_highlight(tag)]
    if not found:
        return []
    detail = " ".join(f"`{tag}`" for tag in dict.fromkeys(found))
    return [Problem(HTML_TAG, line, detail, kept=source)]


def _draft(
    line: int,
    fields: dict[str, Any],
    remark: str,
    inconsistent: bool = False,
    stated_defaults: tuple[str | None, str | None] | None = None,
) -> RowDraft:
    kept = {key: value for key, value in fields.items() if value is not None}
    return RowDraft(line, kept, inconsistent, stated_defaults, remark)


def read_row(line: int, cells: list[str]) -> tuple[RowDraft | None, list[Problem]]:
    """A row from its three cells, or a loss when it cannot be read."""
    source = "| " + " | ".join(cells) + " |"
    problems = _name_problems(line, cells[:2], source)
    torch, paddle = plain_name(cells[0]), plain_name(cells[1])
    remark = cell_text(cells[2]).strip()
    shape = _shape(torch, paddle)
    if shape is None:
        detail = "两侧都没有参数名 (no parameter name)"
        return None, [*problems, Problem(UNMAPPED_ROW, line, detail, kept=source)]
    if shape == "return":
        labels = {label for label in (torch, paddle) if label}
        if labels != {phrases.RETURN_LABEL}:
            problems.append(Problem(RETURN_LABEL, line, kept=" | ".join(sorted(labels))))
        torch = paddle = None
    return _read_remark(line, _names(torch), _names(paddle), remark, shape, problems)


_NAME_LIST = re.compile(r"\s*[,，、]\s*")
_NAME = re.compile(r"^\*{0,2}[A-Za-z_]\w*$")


def _names(cell: str | None) -> str | list[str] | None:
    """A name cell; one naming several parameters (``bias_ih_attr, bias_hh_attr``) is a list."""
    if cell is None:
        return None
    parts = _NAME_LIST.split(cell)
    if len(parts) > 1 and all(_NAME.match(part) for part in parts):
        return parts
    return cell


def _read_remark(
    line: int,
    torch: str | list[str] | None,
    paddle: str | list[str] | None,
    remark: str,
    shape: str,
    problems: list[Problem],
) -> tuple[RowDraft | None, list[Problem]]:
    """The row's kind and fields from its remark."""
    for pattern in patterns.remark_patterns(shape):
        match = pattern.pattern.match(remark)
        if match is None:
            continue
        problems += [
            Problem(found.reason, line, found.detail, kept=remark)
            for found in deviations.in_match(match)
        ]
        groups = match.groupdict()
        kind = pattern.kind
        desc = _clean(groups.get("desc"))
        if kind is RowKind.SAME and desc is not None and describes_difference(desc):
            meaning, difference = _meaning_and_difference(desc)
            fields = {"torch": torch, "paddle": paddle, "kind": RowKind.USAGE_DIFF.value}
            fields |= {"desc": meaning, "diff": difference}
            detail = f"kind: {RowKind.USAGE_DIFF}"
            problems.append(Problem(NO_PHRASE, line, detail, kept=remark))
            return _draft(line, fields, remark, inconsistent=True), problems
        if kind is RowKind.SAME and torch != paddle:
            kind = RowKind.RENAME
            problems.append(Problem(NO_PHRASE, line, f"kind: {kind}", kept=remark))
        span = None
        if groups.get("desc") is not None and groups.get("diff") is not None:
            span = remark[match.start("desc") : match.end("diff")].strip()
        desc, diff = _where_difference_starts(desc, _clean(groups.get("diff")), span)
        fields = {
            "torch": torch,
            "paddle": paddle,
            "kind": kind.value,
            "desc": desc,
            "diff": diff,
            **_setting(kind, _clean(groups.get("setting"))),
            **_actions(pattern.action, groups),
            "note": _clean(groups.get("note")),
        }
        stated = _stated(groups) if pattern.states_defaults else None
        draft = _draft(line, fields, remark, kind is RowKind.USAGE_DIFF, stated)
        return draft, problems
    kind = _FALLBACK_KINDS[shape]
    if kind is RowKind.SAME and torch != paddle:
        kind = RowKind.RENAME
    meaning = _FINAL_STOP.sub("", remark) or None
    if kind in _PHRASED_KINDS:
        problems.append(Problem(NO_PHRASE, line, f"kind: {kind}", kept=remark or None))
    if remark.endswith("."):
        problems.append(Problem(HALF_WIDTH, line, "`.`", kept=remark))
    elif remark and not remark.endswith("。"):
        problems.append(Problem(NO_FINAL_STOP, line, kept=remark))
    fields = {"torch": torch, "paddle": paddle, "kind": kind.value, "desc": meaning}
    return _draft(line, fields, remark), problems


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
