"""AM244: Chinese text uses full-width punctuation."""

from __future__ import annotations

import re
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Edit, Finding, Fix, Rule, Scope
from apimap.checking.rules.text import prose

_CJK = "\u4e00-\u9fff"
_DEVICE = "".join(f"(?<!{name})" for name in ("cpu", "gpu", "cuda", "xpu", "npu", "mlu", "ipu"))
_HALF_WIDTH = re.compile(f"(?<=[{_CJK}])([,;:!?]) *|{_DEVICE}([,;:!?]) *(?=[{_CJK}])")
"""The mark, with the spaces after it (a full-width mark carries its own space), next to a
Chinese character on either side (``Tensor, 表示`` too); the colon of a device string
(``gpu:设备编号``) is part of the value. A mark after an ASCII character inside half-width
brackets separates the items of a notation (``[N, 通道数]``, ``(1, 倍数)``, ``min(6, 行数)``),
not clauses: see :func:`_marks`."""
_FULL_WIDTH = {",": "，", ";": "；", ":": "：", "!": "！", "?": "？"}


def full_width(text: str) -> str:
    """``,;:!?`` next to a Chinese character become ``，；：！？`` (``维数, 个数`` -> ``维数，个数``)."""
    reported = {match.start() for match in _marks(text)}
    return _HALF_WIDTH.sub(
        lambda m: _FULL_WIDTH[_mark(m)] if m.start() in reported else m.group(0), text
    )


_CODE_SPAN = re.compile(r"`[^`]*`")
"""Code between backticks is written as the code is (``'tcp://地址:端口'``)."""


def _marks(text: str) -> Iterator[re.Match[str]]:
    """The half-width marks to report: not those in code, nor those after an ASCII character
    inside brackets."""
    spans = [span.span() for span in _CODE_SPAN.finditer(text)]
    for match in _HALF_WIDTH.finditer(text):
        if any(start < match.start() < end for start, end in spans):
            continue
        if match.group(2) and _bracket_depth(text[: match.start()]) > 0:
            continue
        yield match


def _bracket_depth(before: str) -> int:
    return before.count("(") + before.count("[") - before.count(")") - before.count("]")


def _mark(match: re.Match[str]) -> str:
    return match.group(1) or match.group(2)


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Half-width punctuation next to a Chinese character."""
    for path, _role, text in prose(ctx):
        match = next(_marks(text), None)
        if match:
            char = _mark(match)
            yield Finding(
                ctx.loc(*path),
                f"`{char}` 应为 `{_FULL_WIDTH[char]}`",
                f"中文之间用全角标点 `{_FULL_WIDTH[char]}` (use full-width punctuation)",
            )


def edits(ctx: RecordContext) -> list[Edit]:
    """Make the punctuation full-width."""
    return [
        Edit(path, fixed) for path, _role, text in prose(ctx) if (fixed := full_width(text)) != text
    ]


RULE = Rule(
    "AM244",
    "中文文本使用了半角标点 (half-width punctuation in Chinese text)",
    Scope.RECORD,
    Severity.ERROR,
    "中文之间用全角标点 (use full-width punctuation next to Chinese)",
    why="规范的句子用全角标点；半角逗号夹在中文之间在页面上显得拥挤，也和生成的固定短语不一致。",
    check=check,
    fix=Fix("改为全角标点 (make the punctuation full-width)", edits),
)
