"""The fixed phrases of a remark as pages word them loosely, found anywhere in the remark.

:mod:`apimap.publish.importer.patterns` reads a remark that is built as the specification
builds it: the meaning, then the fixed phrase. Many pages put the phrase elsewhere or word it
their own way: ``一般对训练结果影响不大，可直接删除`` (without 网络), ``仅参数名不同``,
``需进行转写``, ``Paddle 与 PyTorch 默认值不同``, ``保持默认即可`` without ``PyTorch 无此参数``.
This module finds such *fragments* of the fixed phrases, so that the importer can still give
the row its kind and action and take the phrase out of the meaning, and says which fragments
depart from the specification's wording (the importer reports them).

Each fragment is matched tolerantly for punctuation and spacing like the patterns are, and
is compared with the specification's phrase (:mod:`apimap.record.phrases`) to tell an exact
phrase from a variant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from apimap.publish.importer.inline import without_lookalikes
from apimap.publish.importer.patterns import tolerant
from apimap.record import phrases
from apimap.record.categories import Action

_TORCH = r"(?:PyTorch|Pytorch|pytorch|torch)"
_PADDLE = r"(?:PaddlePaddle|Paddle|paddle|飞桨)"
_LACKS = r"\s*(?:无|没有|不支持)\s*(?:此|该|这个)?\s*参数"


class Role(StrEnum):
    """What a fragment says about the row."""

    TORCH_LACKS = "torch_lacks"
    PADDLE_LACKS = "paddle_lacks"
    KEEP_DEFAULT = "keep_default"
    RENAMED = "renamed"
    DEFAULTS_DIFFER = "defaults_differ"
    ACTION = "action"
    STRAY = "stray"
    """Part of a phrase without the rest (the delete phrase's lead-in before 需要转写)."""


@dataclass(frozen=True)
class _Fragment:
    role: Role
    loose: re.Pattern[str]
    standard: str
    action: Action | None = None


_DELETE = phrases.ACTION_PHRASES["delete"]
_FRAGMENTS = (
    _Fragment(
        Role.ACTION,
        re.compile(
            r"(?:(?:一般)?对\s*(?:网络)?\s*(?:训练)?\s*(?:结果)?\s*(?:的)?\s*(?:影响不大|无影响|没有影响)"
            r"\s*[，,]?\s*)?可(?:以)?直接删除"
        ),
        _DELETE,
        Action.DELETE,
    ),
    _Fragment(
        Role.ACTION,
        re.compile(r"暂(?:时)?无(?:法)?转写方(?:式|法)|暂不支持转写|无法转写"),
        phrases.ACTION_PHRASES["none"],
        Action.NONE,
    ),
    _Fragment(
        Role.ACTION,
        re.compile(r"(?<![无不])(?:需要|需|要|需进行|需要进行)\s*转写"),
        phrases.ACTION_PHRASES["rewrite"],
        Action.REWRITE,
    ),
    _Fragment(Role.TORCH_LACKS, re.compile(_TORCH + _LACKS), phrases.TORCH_LACKS),
    _Fragment(Role.PADDLE_LACKS, re.compile(_PADDLE + _LACKS), phrases.PADDLE_LACKS),
    _Fragment(
        Role.KEEP_DEFAULT,
        re.compile(rf"(?:{_PADDLE}\s*)?保持默认(?:值|设置)?(?:即可)?"),
        phrases.KEEP_DEFAULT,
    ),
    _Fragment(
        Role.RENAMED,
        re.compile(r"仅?\s*(?:参数)?\s*名(?:称|字)?\s*不(?:一致|同)"),
        phrases.RENAMED,
    ),
    _Fragment(
        Role.STRAY,
        re.compile(r"(?:一般)?对\s*(?:网络)?\s*训练结果影响不大"),
        _DELETE,
    ),
    _Fragment(
        Role.DEFAULTS_DIFFER,
        re.compile(
            rf"(?:(?:{_PADDLE}|{_TORCH})\s*(?:与|和)\s*(?:{_PADDLE}|{_TORCH})\s*(?:的)?\s*)?"
            r"(?:参数)?\s*默认值\s*不(?:同|一致)"
        ),
        "参数默认值不一致",
    ),
)


@cache
def _exact(standard: str) -> re.Pattern[str]:
    return re.compile(tolerant(standard))


@dataclass(frozen=True)
class Found:
    """One fragment in a remark: what it says, where it stands and whether it is worded as the
    specification words it."""

    role: Role
    start: int
    end: int
    text: str
    standard: str
    action: Action | None = None

    @property
    def variant(self) -> bool:
        """Worded otherwise than the specification's phrase."""
        return _exact(self.standard).fullmatch(without_lookalikes(self.text)) is None


def fragments(remark: str) -> list[Found]:
    """The fragments of fixed phrases in ``remark``, in order, none overlapping (earlier
    entries of the table win: ``可直接删除`` takes its lead-in, ``无需转写`` is no action)."""
    text = without_lookalikes(remark)
    found: list[Found] = []
    taken: list[tuple[int, int]] = []
    for fragment in _FRAGMENTS:
        for match in fragment.loose.finditer(text):
            start, end = match.span()
            if any(start < other_end and other_start < end for other_start, other_end in taken):
                continue
            taken.append((start, end))
            found.append(
                Found(
                    fragment.role,
                    start,
                    end,
                    remark[start:end],
                    fragment.standard,
                    fragment.action,
                )
            )
    return sorted(found, key=lambda item: item.start)


COMPOSITE_LEAD = re.compile(
    rf"^\s*{_PADDLE}\s*(?:目前|当前)?\s*暂?\s*(?:无|没有)\s*对应\s*的?\s*API\s*[，,]\s*"
    r"可(?:以)?使用如下代码组合(?:替代)?实现(?:该\s*API)?\s*[。：:.]?\s*$"
)
"""The composite page's lead sentence as pages word it (``…组合实现该 API。``)."""
