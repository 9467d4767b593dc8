"""Split a rewrite-example code block into cases: condition, PyTorch code, Paddle code.

A block holds one or more cases. Each starts at a PyTorch label and switches to Paddle at a
Paddle label. The specification's labels are ``# PyTorch 写法`` and ``# Paddle 写法`` (its
category-5 template writes ``# torch 用法`` and ``# paddle 用法``); pages also write

* a label with a condition after it or before it (``# PyTorch 写法，dim=0``,
  ``# 当 affine 为 False 时，torch 写法``): the condition becomes the case's ``when`` (after a
  Paddle label, a comment on the Paddle code, kept as its first line);
* a bare ``# PyTorch`` or a free comment that starts with the side (``# torch 版本可以直接访问属性``,
  ``# paddle 直接调用函数``): read as the label when the block has no label of the
  specification's, and reported (:attr:`SplitBlock.odd_labels`); the comment stays in the
  side's code.

Look-alike radicals in a label are read and reported. A case may have one side only; a block
without any label is code for the Paddle side alone. A text line ending in ``：``, or a
comment in Chinese, right before a PyTorch label (``affine=False 时：``) is the next case's
condition. Any other line of prose — Chinese text outside string literals and comments — is
taken out of the code and reported.
"""

from __future__ import annotations

import io
import re
import textwrap
import tokenize
from dataclasses import dataclass, field

from apimap.publish.importer.inline import has_cjk, without_lookalikes

_TORCH = r"(?:pytorch|torch)"
_PADDLE = r"(?:paddlepaddle|paddle|飞桨)"
_LABEL = r"\s*的?\s*(?:写法|用法)"
_EXTRA = r"(?:\s*[，,:：;；]\s*(?P<after>.*?))?\s*[:：]?\s*$"
_LEAD = r"(?:(?P<before>.*?\S)\s*[，,;；]\s*)?"


def _labels(side: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The specification's label (with a condition before or after it), a bare side name,
    and a free comment that starts with the side."""
    return (
        re.compile(rf"^#\s*{_LEAD}{side}{_LABEL}{_EXTRA}", re.I),
        re.compile(rf"^#\s*{side}\s*[:：]?\s*$", re.I),
        re.compile(rf"^#\s*{side}(?![\w.])\s*(?P<after>\S.*?)\s*[:：]?\s*$", re.I),
    )


_MARKERS = {"torch": _labels(_TORCH), "paddle": _labels(_PADDLE)}
_CONDITION = re.compile(r"^(?:#\s*)?(?P<when>.*\S)\s*[:：]$")
_COMMENT = re.compile(r"^#\s*(?P<text>.*\S)\s*$")


@dataclass(frozen=True)
class Marker:
    """A side label: the side, the words written with it, whether it is the specification's."""

    side: str
    extra: str | None
    standard: bool
    comment: str | None = None
    """A free comment read as the label: it stays in the side's code."""

    @property
    def first_lines(self) -> list[str]:
        """What the side's code starts with: the free comment, or the words after a Paddle
        label (``# Paddle 写法，结果写回 y``) as a comment."""
        if self.comment is not None:
            return [self.comment]
        return [f"# {self.extra}"] if self.extra and self.side == "paddle" else []


@dataclass
class CodeCase:
    """One case read from a block; a side is ``None`` when its marker is missing."""

    line: int
    when: str | None = None
    torch: list[str] | None = None
    paddle: list[str] | None = None
    torch_numbers: list[int] = field(default_factory=list)
    """The page line of each line of ``torch``."""
    paddle_numbers: list[int] = field(default_factory=list)
    """The page line of each line of ``paddle``."""


@dataclass
class SplitBlock:
    """The cases of a block and the lines taken out of it, as (line, text)."""

    cases: list[CodeCase] = field(default_factory=list)
    prose: list[tuple[int, str]] = field(default_factory=list)
    """Lines of explanation inside the code."""
    stray: list[tuple[int, str]] = field(default_factory=list)
    """Code before the first label, which belongs to neither side."""
    lookalike_markers: list[tuple[int, str]] = field(default_factory=list)
    """Labels read only once their look-alike radicals were replaced."""
    odd_labels: list[tuple[int, str]] = field(default_factory=list)
    """Labels that are not the specification's (a bare side name, a free comment)."""
    unmarked: list[str] = field(default_factory=list)
    """The code of a block without any label (prose lines taken out)."""
    unmarked_numbers: list[int] = field(default_factory=list)
    """The page line of each line of ``unmarked``."""


def _marker(line: str, loose: bool = False) -> Marker | None:
    """The label ``line`` is; ``loose`` also takes a bare side name or a comment that starts
    with the side."""
    text = without_lookalikes(line.strip())
    for side, (label, bare, comment) in _MARKERS.items():
        match = label.match(text)
        if match is not None:
            words = [part for part in (match.group("before"), match.group("after")) if part]
            return Marker(side, "，".join(words) or None, standard=True)
        if loose and bare.match(text):
            return Marker(side, None, standard=False)
        if loose and comment.match(text):
            return Marker(side, None, standard=False, comment=line.strip())
    return None


_STRINGS_AND_COMMENTS = re.compile(r"'[^']*'|\"[^\"]*\"|#.*$")
_FULL_WIDTH_MARKS = frozenset("，。：；（）！？、")
_CODE_SHAPE = re.compile(r"[A-Za-z_][\w.]*\s*[(\[=]")


def is_prose(line: str) -> bool:
    """Chinese text outside string literals and comments: a line of Python code never has it.
    A line of code with a full-width mark in it (``f(a，b)``) is code with a typo, not prose."""
    text = line.strip()
    if not text or text.startswith("#") or not has_cjk(text):
        return False
    bare = _STRINGS_AND_COMMENTS.sub("", text)
    marks = [char for char in bare if has_cjk(char)]
    if marks and set(marks) <= _FULL_WIDTH_MARKS and _CODE_SHAPE.search(bare):
        return False
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return True
    return any(
        token.type not in (tokenize.STRING, tokenize.COMMENT) and has_cjk(token.string)
        for token in tokens
    )


def _next_marker(lines: list[str], index: int, loose: bool) -> Marker | None:
    for line in lines[index + 1 :]:
        if line.strip():
            return _marker(line, loose)
    return None


def _leads_torch(lines: list[str], index: int, loose: bool) -> str | None:
    """The condition a line states right before a PyTorch label (``affine=False 时：``, or a
    comment in Chinese), if it is one."""
    line = lines[index].strip()
    following = _next_marker(lines, index, loose)
    if following is None or following.side != "torch" or not has_cjk(line):
        return None
    condition = _CONDITION.match(line) or _COMMENT.match(line)
    if condition is None:
        return None
    return condition.group("when") if "when" in condition.groupdict() else condition.group("text")


def split_block(code: str, first_line: int, loose: bool = True) -> SplitBlock:
    """Cases of the block whose first code line is ``first_line`` in the page: by the
    specification's labels, or else (``loose``) by bare and free labels (see the module)."""
    lines = code.split("\n")
    result = _split(lines, first_line, loose=False)
    if not result.cases and loose:
        labelled = _split(lines, first_line, loose=True)
        if labelled.cases:
            result = labelled
    if not result.cases:
        prose = {number for number, _ in result.prose}
        kept = [index for index in range(len(lines)) if first_line + index not in prose]
        result.unmarked = [lines[index] for index in kept]
        result.unmarked_numbers = [first_line + index for index in kept]
        result.stray = []
    return result


def _split(lines: list[str], first_line: int, loose: bool) -> SplitBlock:
    result = SplitBlock()
    current: CodeCase | None = None
    side: str | None = None
    when: str | None = None
    for index, line in enumerate(lines):
        number = first_line + index
        marker = _marker(line, loose)
        if marker is not None:
            if without_lookalikes(line) != line:
                result.lookalike_markers.append((number, line.strip()))
            if not marker.standard:
                result.odd_labels.append((number, line.strip()))
        if marker is not None and (marker.side == "torch" or current is None):
            condition = marker.extra if marker.side == "torch" else None
            current = CodeCase(number, condition or when)
            result.cases.append(current)
            when = None
            side = marker.side
            first = marker.first_lines
            current.torch = first if side == "torch" else None
            current.paddle = first if side == "paddle" else None
            numbers = current.torch_numbers if side == "torch" else current.paddle_numbers
            numbers += [number] * len(first)
        elif marker is not None and current is not None:
            if current.paddle is not None:
                current = CodeCase(number, None)
                result.cases.append(current)
            current.paddle = marker.first_lines
            current.paddle_numbers = [number] * len(current.paddle)
            side = "paddle"
        elif (condition := _leads_torch(lines, index, loose)) is not None:
            when = condition
        elif is_prose(line):
            result.prose.append((number, line.strip()))
        elif current is not None and side is not None:
            target = current.torch if side == "torch" else current.paddle
            if target is not None:
                target.append(line)
                (current.torch_numbers if side == "torch" else current.paddle_numbers).append(
                    number
                )
        elif line.strip():
            result.stray.append((number, line.rstrip()))
    return result


def code_numbers(lines: list[str], numbers: list[int]) -> list[int]:
    """The page lines of the lines :func:`code_text` keeps (blank lines around go)."""
    filled = [index for index, line in enumerate(lines) if line.strip()]
    return numbers[filled[0] : filled[-1] + 1] if filled else []


def code_text(lines: list[str]) -> str:
    """The code of one side: dedented, no blank lines around, one final newline."""
    text = textwrap.dedent("\n".join(lines)).strip("\n")
    return text + "\n" if text else ""
