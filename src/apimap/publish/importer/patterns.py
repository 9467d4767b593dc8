"""Recognise the specification's fixed phrases in page text, tolerantly.

No phrase is spelled out here. Each remark pattern is derived from the site
wording (:mod:`apimap.record.wording`): a probe row whose meaning, difference
and setting are sentinel characters is rendered, and the literal parts around
the sentinels become a regular expression. The same goes for summaries, the
composite lead and "暂无转写方式". A phrase changed in the wording is therefore recognised by the importer without touching it.

Tolerance: ASCII or full-width punctuation, optional spaces, ``Pytorch`` /
``PaddlePaddle`` spellings, look-alike radicals (``⽆`` for ``无``) and a
missing final ``。``. Only the fixed wording is matched tolerantly; the text a
contributor wrote is captured as it stands. A remark may put its phrase in a
sentence of its own (``…的维度。仅参数名不一致。``) or consist of the phrase
alone. What the tolerance let through is not lost:
:mod:`apimap.publish.importer.deviations` reads it back from the match.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import permutations

from apimap.publish.importer.inline import LOOKALIKES
from apimap.record import wording
from apimap.record.categories import Action, Category, RowKind
from apimap.record.model import ConditionalAction, ParamRow, Record

DESC = "\ue000"
DIFF = "\ue001"
SETTING = "\ue002"
WHEN = ("\ue003", "\ue004")
TORCH_DEFAULT = "__apimap_torch_default__"
PADDLE_DEFAULT = "__apimap_paddle_default__"
_SLOTS = {
    DESC: "desc",
    DIFF: "diff",
    SETTING: "setting",
    WHEN[0]: "when0",
    WHEN[1]: "when1",
    TORCH_DEFAULT: "torch_default",
    PADDLE_DEFAULT: "paddle_default",
}
SLOT_GROUPS = frozenset({*_SLOTS.values(), "note"})
"""The named groups that capture a contributor's text (everything else is fixed wording)."""
_VALUE = r"(?:`[^`\u4e00-\u9fff]+`|[^`\u4e00-\u9fff，,。；;]+?)"
"""A default value as a remark spells it: code, never Chinese words (可选参数 is no value);
in backticks it may hold commas (``(1e-06, 50)``)."""
_CLAUSE = r"[^，,。；;]+?"
"""A condition of a conditional remark: one clause (``两侧设备相同`` in 两侧设备相同时需要转写)."""
_SLOT_TEXT = {"torch_default": _VALUE, "paddle_default": _VALUE, "when0": _CLAUSE, "when1": _CLAUSE}
_SEPARATOR = r"\s*[，,。；;]\s*|\s*\.\s+"
"""What may end the meaning before a fixed phrase: a comma, or the end of a sentence."""
_SLOT_SPLIT = re.compile("(" + "|".join(re.escape(slot) for slot in _SLOTS) + ")")

_WORDS = {
    "PyTorch": "(?:PyTorch|Pytorch|pytorch|torch)",
    "Paddle": "(?:PaddlePaddle|Paddle|paddle|飞桨)",
}
_PUNCTUATION = {
    "，": r"\s*[，,]\s*",
    ",": r"\s*[，,]\s*",
    "：": r"\s*[：:]\s*",
    ":": r"\s*[：:]\s*",
    "；": r"\s*[；;]\s*",
    "。": r"\s*(?:。|\.(?=\s|$))\s*",
    "（": r"\s*[（(]\s*",
    "）": r"\s*[）)]\s*",
    "`": "`?",
}
_FINAL_STOP = r"\s*(?:。|\.(?=\s|$))"
_STRICT_STOP = r"\s*。"
_STRICT_SEPARATOR = r"\s*[，。；]\s*"
_REVERSE_LOOKALIKES: dict[str, str] = {}
for _odd, _normal in LOOKALIKES.items():
    _REVERSE_LOOKALIKES[_normal] = _REVERSE_LOOKALIKES.get(_normal, "") + _odd


def tolerant(literal: str, strict: bool = False) -> str:
    """A regular expression matching ``literal`` with the tolerated variations (``strict``:
    only with other spacing)."""
    out: list[str] = []
    index = 0
    while index < len(literal):
        word = next((w for w in _WORDS if literal.startswith(w, index)), None)
        if word is not None and not strict:
            out.append(_WORDS[word])
            index += len(word)
            continue
        char = literal[index]
        if char.isspace():
            out.append(r"\s*")
        elif strict:
            out.append(re.escape(char))
        elif char in _PUNCTUATION:
            out.append(_PUNCTUATION[char])
        elif char in _REVERSE_LOOKALIKES:
            out.append(f"[{re.escape(char + _REVERSE_LOOKALIKES[char])}]")
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def _with_slots(rendered: str, strict: bool = False) -> str:
    """``rendered`` as a pattern: literal parts tolerant, sentinels as named groups.

    A value slot in backticks takes its backticks into the group, so that a value in them
    may hold commas (``(1e-06, 50)``); :func:`apimap.publish.importer.rows` strips them."""
    pieces = _SLOT_SPLIT.split(rendered)
    for index in range(1, len(pieces) - 1):
        if _SLOT_TEXT.get(_SLOTS.get(pieces[index], "")) is _VALUE and (
            pieces[index - 1].endswith("`") and pieces[index + 1].startswith("`")
        ):
            pieces[index - 1] = pieces[index - 1][:-1]
            pieces[index + 1] = pieces[index + 1][1:]
    parts = []
    for piece in pieces:
        if piece in _SLOTS:
            name = _SLOTS[piece]
            parts.append(f"(?P<{name}>{_SLOT_TEXT.get(name, '.+?')})")
        elif piece:
            parts.append(tolerant(piece, strict))
    return "".join(parts)


def sentence(rendered: str, strict: bool = False) -> re.Pattern[str]:
    """A rendered sentence ending in ``。``: the stop may be missing; text after it is a note.

    A meaning that a fixed phrase follows may end with a stop instead of a comma, or be
    missing altogether. A ``strict`` pattern takes only the punctuation and spelling of the
    wording: tried first, it keeps a half-width comma inside a contributor's text
    (``[N, C, L]``) from being read as the end of the meaning.
    """
    body = rendered.removesuffix("。")
    lead = ""
    separator, stop = (_STRICT_SEPARATOR, _STRICT_STOP) if strict else (_SEPARATOR, _FINAL_STOP)
    if body.startswith(DESC + "，"):
        body = body.removeprefix(DESC + "，")
        lead = f"(?:(?P<desc>.+?)(?:{separator}))?"
    pattern = rf"^\s*{lead}{_with_slots(body, strict)}(?:{stop}(?P<note>.*?)|)\s*$"
    return re.compile(pattern, re.DOTALL)


def whole(rendered: str) -> re.Pattern[str]:
    """A rendered paragraph, tolerantly, as a whole."""
    return re.compile(rf"^\s*{_with_slots(rendered)}\s*$", re.DOTALL)


@dataclass(frozen=True)
class RemarkPattern:
    """How one kind (and action, or pair of conditional actions) of row words its remark."""

    kind: RowKind
    action: Action | tuple[Action, Action] | None
    pattern: re.Pattern[str]
    states_defaults: bool = False
    """The remark spells out both defaults (absent groups mean "no default")."""


def _probe_record(torch_default: bool, paddle_default: bool) -> Record:
    torch_param = f"p={TORCH_DEFAULT}" if torch_default else "p"
    paddle_param = f"p={PADDLE_DEFAULT}" if paddle_default else "p"
    return Record(
        torch_api="torch.probe",
        torch_signature=f"torch.probe({torch_param})",
        paddle_api="paddle.probe",
        paddle_signature=f"paddle.probe({paddle_param})",
        zh_name="探测",
        category=Category.IDENTICAL,
    )


def _probe(
    kind: RowKind,
    action: Action | tuple[Action, Action] | None,
    record: Record | None = None,
) -> str:
    """The remark of a probe row; a pair of actions makes it conditional."""
    sides = {
        RowKind.PADDLE_ONLY: (None, "p"),
        RowKind.TORCH_ONLY: ("p", None),
        RowKind.RETURN_DIFF: (None, None),
    }.get(kind, ("p", "p"))
    row = ParamRow(
        torch=sides[0],
        paddle=sides[1],
        kind=kind,
        desc=DESC,
        diff=DIFF if kind in DIFF_KINDS else None,
        setting=SETTING if kind in (RowKind.PADDLE_ONLY, RowKind.DEFAULT_DIFF) else None,
        action=None if isinstance(action, tuple) else action,
        actions=(
            [ConditionalAction(when=when, action=a) for when, a in zip(WHEN, action, strict=True)]
            if isinstance(action, tuple)
            else []
        ),
    )
    return wording.remark(record or _probe_record(True, True), row)


DIFF_KINDS = (RowKind.TYPE_DIFF, RowKind.USAGE_DIFF, RowKind.RETURN_DIFF)
_ACTIONS = (Action.REWRITE, Action.NONE, Action.DELETE)
_ACTION_PAIRS = tuple(permutations(_ACTIONS, 2))
"""Conditional remarks: 相同时需要转写，不同时暂无转写方式 and the other orders and pairs."""


def _action_patterns(kind: RowKind, strict: bool) -> list[RemarkPattern]:
    """Conditional actions first (they are longer), then the three plain actions."""
    actions: list[Action | tuple[Action, Action]] = [*_ACTION_PAIRS, *_ACTIONS]
    return [RemarkPattern(kind, a, sentence(_probe(kind, a), strict)) for a in actions]


LEGACY_DEFAULT_REMARKS = (
    f"{DESC}，PyTorch 为 {TORCH_DEFAULT}，Paddle 为 {PADDLE_DEFAULT}，{SETTING}。",
    f"{DESC}，PyTorch 默认值不同，{SETTING}。",
)
"""Default-difference remarks of the legacy pages (the spec's template wording)."""


def _default_patterns(strict: bool) -> Iterator[RemarkPattern]:
    for torch_default in (True, False):
        for paddle_default in (True, False):
            record = _probe_record(torch_default, paddle_default)
            text = _probe(RowKind.DEFAULT_DIFF, None, record)
            pattern = sentence(text, strict)
            yield RemarkPattern(RowKind.DEFAULT_DIFF, None, pattern, states_defaults=True)


def _legacy_default_patterns(strict: bool) -> Iterator[RemarkPattern]:
    for legacy in LEGACY_DEFAULT_REMARKS:
        pattern = sentence(legacy, strict)
        yield RemarkPattern(
            RowKind.DEFAULT_DIFF, None, pattern, states_defaults=TORCH_DEFAULT in legacy
        )


@cache
def remark_patterns(shape: str) -> tuple[RemarkPattern, ...]:
    """The patterns to try, most specific first, for a row of ``shape``: every pattern
    strictly (the wording's own punctuation and spelling), then every one tolerantly.

    ``shape`` says which name cells are filled: ``both``, ``torch``, ``paddle``
    or ``return`` (both cells say 返回值).
    """
    return (*_remark_patterns(shape, strict=True), *_remark_patterns(shape, strict=False))


def _remark_patterns(shape: str, strict: bool) -> tuple[RemarkPattern, ...]:
    inconsistent = _action_patterns(RowKind.USAGE_DIFF, strict)
    if shape == "torch":
        return tuple(_action_patterns(RowKind.TORCH_ONLY, strict))
    if shape == "paddle":
        text = _probe(RowKind.PADDLE_ONLY, None)
        return (RemarkPattern(RowKind.PADDLE_ONLY, None, sentence(text, strict)),)
    if shape == "return":
        return tuple(RemarkPattern(RowKind.RETURN_DIFF, p.action, p.pattern) for p in inconsistent)
    rename = RemarkPattern(RowKind.RENAME, None, sentence(_probe(RowKind.RENAME, None), strict))
    same = RemarkPattern(RowKind.SAME, None, sentence(_probe(RowKind.SAME, None), strict))
    defaults = [*_default_patterns(strict)]
    legacy = [*_legacy_default_patterns(strict)]
    if strict:  # a meaning alone has no wording of its own: only the tolerant pass takes it
        return (*defaults, *inconsistent, *legacy, rename)
    return (*defaults, *inconsistent, *legacy, rename, same)


@cache
def _phrase(text: str) -> re.Pattern[str]:
    return whole(text)


def phrase_match(text: str, rendered: str) -> re.Match[str] | None:
    """The match of ``text`` against the fixed text ``rendered``, tolerantly."""
    return _phrase(rendered).match(text)


def is_phrase(text: str, rendered: str) -> bool:
    """Whether ``text`` is the fixed text ``rendered``, tolerantly."""
    return phrase_match(text, rendered) is not None
