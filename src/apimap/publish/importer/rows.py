"""Read one row of a 参数映射 table: the two names and the remark split into its parts.

The record keeps what the page says; the importer reports what it had to
normalise (a missing 。, a misspelt phrase, a tag around a name, a rename
without 仅参数名不一致) and leaves to ``apimap check`` what the record still
shows (a torch-only row that never says what to do has no ``action``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from apimap.publish.importer import deviations, patterns, variants
from apimap.publish.importer.inline import cell_text, is_highlight, plain_name, tags
from apimap.publish.importer.problems import Problem
from apimap.publish.importer.variants import Role
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
_DIFFERENCE_WORD = re.compile(
    r"不同|不一致|区别|差异|可变参数|相反|取反|可选|必选|不支持|更多|更少|仅支持|只支持|仅可|只能"
)
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
    accepts: dict[str, str] = field(default_factory=dict)
    """Torch-style names paddle also takes (the remark's 起也接受 sentence) → paddle's own."""


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


def _keeps_default(setting: str) -> bool:
    """A setting that is only the keep-default phrase worded otherwise (``保持默认即可``)."""
    found = variants.fragments(setting)
    return (
        len(found) == 1
        and found[0].role is Role.KEEP_DEFAULT
        and found[0].variant
        and not setting[: found[0].start].strip(_PIECE_EDGES)
        and not setting[found[0].end :].strip(_PIECE_EDGES)
    )


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


_EACH_SIDE = re.compile(
    r"(?:PyTorch|Pytorch|pytorch|torch)\s*(?:的\s*\S+?\s*)?(?P<verb>为|取值|是|支持|返回|使用|表示|传入)"
    r"[^，。；;]*[，；;]\s*(?:PaddlePaddle|Paddle|paddle)\s*(?:的\s*\S+?\s*)?(?P=verb)"
)
"""``PyTorch 取值 bool 类型，Paddle 取值 L, U``: each side said in a clause of its own."""


def describes_difference(text: str) -> bool:
    """A remark without a phrase that still says how the two sides differ: with words of a
    difference, or by saying what each side does (``PyTorch 为 …，Paddle 为 …``)."""
    sides = _SIDE_WORD.search(text)
    return bool(sides and (_DIFFERENCE_WORD.search(text) or _EACH_SIDE.search(text)))


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
    remark, accepted = _accepted_names(remark)
    accepts = _accepts(_names(torch), _names(paddle), accepted)
    if accepts:  # the row shows paddle's names: the record keeps the torch-style ones
        names = _listed(_names(paddle))
        paddle = ", ".join(next((t for t, p in accepts.items() if p == n), n) for n in names)
    shape = _shape(torch, paddle)
    if shape is None:
        detail = "两侧都没有参数名 (no parameter name)"
        return None, [*problems, Problem(UNMAPPED_ROW, line, detail, kept=source)]
    if shape == "return":
        labels = {label for label in (torch, paddle) if label}
        if labels != {phrases.RETURN_LABEL}:
            problems.append(Problem(RETURN_LABEL, line, kept=" | ".join(sorted(labels))))
        torch = paddle = None
    draft, problems = _read_remark(line, _names(torch), _names(paddle), remark, shape, problems)
    if draft is not None and accepts:
        draft.accepts = accepts
        if draft.fields.get("kind") == RowKind.RENAME.value and draft.fields.get("paddle") == (
            draft.fields.get("torch")
        ):
            draft.fields["kind"] = RowKind.SAME.value  # 仅参数名不一致 was said of paddle's names
    return draft, problems


_ACCEPTED_FROM = re.compile(
    re.escape(phrases.ACCEPTED_FROM)
    .replace(re.escape("{version}"), r"\d+(?:\.\d+)*")
    .replace(re.escape("{names}"), r"(?P<names>`[^`]+`(?:、`[^`]+`)*)")
    + "$"
)
"""The sentence a row of a page ends with when paddle also takes torch's names there."""


def _accepted_names(remark: str) -> tuple[str, list[str]]:
    """The remark without its 起也接受 sentence, and the torch-style names that sentence lists."""
    found = _ACCEPTED_FROM.search(remark)
    if found is None:
        return remark, []
    return remark[: found.start()].strip(), re.findall(r"`([^`]+)`", found.group("names"))


def _listed(names: str | list[str] | None) -> list[str]:
    if names is None:
        return []
    return [names] if isinstance(names, str) else names


def _accepts(
    torch: str | list[str] | None, paddle: str | list[str] | None, accepted: list[str]
) -> dict[str, str]:
    pairs = zip(_listed(torch), _listed(paddle), strict=False)
    return {name: own for name, own in pairs if name in accepted}


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
        if kind is RowKind.SAME:  # the catch-all: a phrase worded loosely is read as such
            loose = _read_loose(line, torch, paddle, remark, shape)
            if loose is not None:
                return loose[0], problems + loose[1]
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
        setting = _clean(groups.get("setting"))
        if kind is RowKind.PADDLE_ONLY and setting is not None and _keeps_default(setting):
            detail = f"kind: {kind}；短语写法与规范不同 (variant wording)：「{setting}」→「{phrases.KEEP_DEFAULT}」"
            problems.append(Problem(NO_PHRASE, line, detail, kept=remark))
            setting = None
        fields = {
            "torch": torch,
            "paddle": paddle,
            "kind": kind.value,
            "desc": desc,
            "diff": diff,
            **_setting(kind, setting),
            **_actions(pattern.action, groups),
            "note": _clean(groups.get("note")),
        }
        stated = _stated(groups) if pattern.states_defaults else None
        draft = _draft(line, fields, remark, kind is RowKind.USAGE_DIFF, stated)
        return draft, problems
    loose = _read_loose(line, torch, paddle, remark, shape)
    if loose is not None:
        return loose[0], problems + loose[1]
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
    if kind is RowKind.RETURN_DIFF:  # what a return row says is how the results differ
        fields = {"kind": kind.value, "diff": meaning}
        return _draft(line, fields, remark), problems
    fields = {"torch": torch, "paddle": paddle, "kind": kind.value, "desc": meaning}
    return _draft(line, fields, remark), problems


_RELEVANT = {
    RowKind.TORCH_ONLY: {Role.PADDLE_LACKS, Role.ACTION},
    RowKind.PADDLE_ONLY: {Role.TORCH_LACKS, Role.KEEP_DEFAULT},
    RowKind.DEFAULT_DIFF: {Role.DEFAULTS_DIFFER},
    RowKind.USAGE_DIFF: {Role.ACTION},
    RowKind.RETURN_DIFF: {Role.ACTION},
    RowKind.RENAME: {Role.RENAMED},
}
"""The fragments that give a row of each kind its phrase (others stay in its text)."""
_COMPANIONS = {
    RowKind.TORCH_ONLY: (Role.ACTION, Role.PADDLE_LACKS),
    RowKind.PADDLE_ONLY: (Role.KEEP_DEFAULT, Role.TORCH_LACKS),
}
"""A phrase that the specification never writes without another one before it."""
_PIECE_EDGES = "，,。.；;：: \t"
_STATED = re.compile(
    r"(?P<side>PyTorch|Pytorch|pytorch|torch|PaddlePaddle|Paddle|paddle)\s*(?:的)?\s*"
    r"(?:默认值?)?\s*为\s*(?P<value>`[^`]+`|[^，,。；;\s\u4e00-\u9fff]+)"
)


def _loose_kind(shape: str, found: list[variants.Found], same_names: bool) -> RowKind | None:
    roles = {item.role for item in found}
    actions = {item.action for item in found if item.action is not None}
    if shape == "torch":
        return RowKind.TORCH_ONLY
    if shape == "paddle":
        return RowKind.PADDLE_ONLY
    if shape == "return":
        return RowKind.RETURN_DIFF
    if actions - {Action.DELETE}:
        return RowKind.USAGE_DIFF  # a default difference that needs rewriting is a usage one
    if Role.DEFAULTS_DIFFER in roles:
        return RowKind.DEFAULT_DIFF
    if Role.RENAMED in roles and not same_names:
        return RowKind.RENAME
    return None


def _piece(text: str) -> str | None:
    piece = text.strip(_PIECE_EDGES)
    return piece or None


def _read_loose(
    line: int,
    torch: str | list[str] | None,
    paddle: str | list[str] | None,
    remark: str,
    shape: str,
) -> tuple[RowDraft, list[Problem]] | None:
    """A remark whose fixed phrase is worded loosely or stands elsewhere than at its end:
    the row's kind and action from the fragments found (:mod:`~apimap.publish.importer.variants`),
    the phrase taken out of the meaning; a variant is reported (IM202 with what it should say).
    ``None`` when the remark holds no fragment that fits the row."""
    found = variants.fragments(remark)
    kind = _loose_kind(shape, found, torch == paddle)
    if kind is None:
        return None
    used = [item for item in found if item.role in _RELEVANT[kind]]
    if not used:
        return None
    actions = [item.action for item in used if item.action is not None]
    if len(set(actions)) > 1:
        return None  # conditional actions worded loosely: left to the fallback
    problems: list[Problem] = []
    body = remark.rstrip()
    if body.endswith("."):
        problems.append(Problem(HALF_WIDTH, line, "`.`", kept=remark))
    elif not body.endswith("。"):
        problems.append(Problem(NO_FINAL_STOP, line, kept=remark))
    before = remark[: used[0].start]
    between = [remark[a.end : b.start] for a, b in pairwise(used)]
    after = remark[used[-1].end :]
    rest = " ".join(p for p in (*map(_piece, between), _piece(after)) if p)
    fields: dict[str, Any] = {"torch": torch, "paddle": paddle, "kind": kind.value}
    stated = None
    if kind is RowKind.TORCH_ONLY:
        fields |= {"desc": _piece(before), "note": _sentence(rest)}
    elif kind is RowKind.PADDLE_ONLY:
        setting = rest if Role.KEEP_DEFAULT not in {u.role for u in used} else None
        fields |= {"desc": _piece(before), **_setting(kind, _piece(setting or ""))}
    elif kind is RowKind.DEFAULT_DIFF:
        stated, setting = _stated_in(rest)
        fields |= {"desc": _piece(before), **_setting(kind, setting)}
    elif kind is RowKind.RENAME:
        fields |= {"desc": _piece(before), "note": _sentence(rest)}
    else:
        meaning = _piece(before)
        desc: str | None = meaning
        diff: str | None = None
        if meaning and _DIFFERENCE_START.match(meaning):
            desc, diff = None, meaning
        elif meaning and describes_difference(meaning):
            desc, diff = _meaning_and_difference(meaning)
        fields |= {"desc": desc, "diff": _piece(diff or ""), "note": _sentence(rest)}
    if actions:
        fields["action"] = actions[0].value
    for item in used:
        lookalike = deviations.lookalikes(item.text)
        if lookalike is not None:
            problems.append(Problem(lookalike.reason, line, lookalike.detail, kept=remark))
    problems += _separators(line, remark, used)
    variant = [item for item in used if item.variant]
    variant += [item for item in found if item.role is Role.STRAY]
    roles = {item.role for item in used}
    companion = _COMPANIONS.get(kind)
    missing = (
        [companion[1]] if companion and companion[0] in roles and companion[1] not in roles else []
    )
    if variant or missing:
        shown = [f"「{item.text}」→「{item.standard}」" for item in variant]
        shown += [f"缺少「{_STANDARD[role]}」" for role in missing]
        detail = f"kind: {kind}；短语写法与规范不同 (variant wording)：{'，'.join(shown)}"
        problems.append(Problem(NO_PHRASE, line, detail, kept=remark))
    inconsistent = kind is RowKind.USAGE_DIFF
    return _draft(line, fields, remark, inconsistent, stated), problems


_STANDARD = {Role.PADDLE_LACKS: phrases.PADDLE_LACKS, Role.TORCH_LACKS: phrases.TORCH_LACKS}
_AROUND = frozenset(" \t，,。.；;：:")
_HALF_WIDTH_MARK = re.compile(r"[,;:]|\.(?=\s|$)")


def _separators(line: int, remark: str, used: list[variants.Found]) -> list[Problem]:
    """Half-width punctuation in the phrases found or right around them (IM302)."""
    fixed: list[str] = []
    for item in used:
        start, end = item.start, item.end
        while start > 0 and remark[start - 1] in _AROUND:
            start -= 1
        while end < len(remark) and remark[end] in _AROUND:
            end += 1
        fixed.append(remark[start:end])
    marks = sorted(set(_HALF_WIDTH_MARK.findall(" ".join(fixed))))
    if not marks:
        return []
    return [Problem(HALF_WIDTH, line, " ".join(f"`{mark}`" for mark in marks), kept=remark)]


def _sentence(text: str | None) -> str | None:
    """Text after the phrase, as a note: a sentence ending in 。"""
    piece = _piece(text or "")
    return f"{piece}。" if piece else None


def _stated_in(text: str) -> tuple[tuple[str | None, str | None] | None, str | None]:
    """The defaults a loose default remark states (``PyTorch 默认为 `0`，Paddle 为 `1```)
    and the setting that follows them."""
    values: dict[str, str] = {}
    position = 0
    for match in _STATED.finditer(text):
        side = "torch" if "orch" in match.group("side") else "paddle"
        if side in values:
            break
        values[side] = match.group("value").strip("`").strip()
        position = match.end()
    setting = _piece(text[position:])
    if len(values) < 2:
        return None, _piece(text)
    return (values["torch"], values["paddle"]), setting


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
