"""Split a rewrite-example code block into cases: condition, PyTorch code, Paddle code.

A block holds one or more cases. Each starts at a ``# PyTorch 写法`` marker
(also ``# Pytorch 写法``, ``# torch 用法``, a bare ``# PyTorch``, with look-alike
radicals, which are reported) and switches to Paddle at ``# Paddle 写法``. A
case may have one side only; a block without any marker is code for the
Paddle side alone. A text line ending in ``：`` right
before a PyTorch marker (``affine=False 时：``, with or without ``#``) is the
next case's condition. Any other line of prose — Chinese text outside string
literals and comments — is taken out of the code and reported.
"""

from __future__ import annotations

import io
import re
import textwrap
import tokenize
from dataclasses import dataclass, field

from apimap.publish.importer.inline import has_cjk, without_lookalikes

_TORCH_MARKER = re.compile(r"^#\s*(?:pytorch|torch)\s*(?:的?\s*(?:写法|用法))?\s*[:：]?\s*$", re.I)
_PADDLE_MARKER = re.compile(
    r"^#\s*(?:paddlepaddle|paddle|飞桨)\s*(?:的?\s*(?:写法|用法))?\s*[:：]?\s*$", re.I
)
_CONDITION = re.compile(r"^(?:#\s*)?(?P<when>.*\S)\s*[:：]$")


@dataclass
class CodeCase:
    """One case read from a block; a side is ``None`` when its marker is missing."""

    line: int
    when: str | None = None
    torch: list[str] | None = None
    paddle: list[str] | None = None


@dataclass
class SplitBlock:
    """The cases of a block and the lines taken out of it, as (line, text)."""

    cases: list[CodeCase] = field(default_factory=list)
    prose: list[tuple[int, str]] = field(default_factory=list)
    """Lines of explanation inside the code."""
    stray: list[tuple[int, str]] = field(default_factory=list)
    """Code before the first marker, which belongs to neither side."""
    lookalike_markers: list[tuple[int, str]] = field(default_factory=list)
    """Marker lines read only once their look-alike radicals were replaced."""
    unmarked: list[str] = field(default_factory=list)
    """The code of a block without any marker (prose lines taken out)."""


def _marker(line: str) -> str | None:
    text = without_lookalikes(line.strip())
    if _TORCH_MARKER.match(text):
        return "torch"
    if _PADDLE_MARKER.match(text):
        return "paddle"
    return None


def is_prose(line: str) -> bool:
    """Chinese text outside string literals and comments: a line of Python code never has it."""
    text = line.strip()
    if not text or text.startswith("#") or not has_cjk(text):
        return False
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return True
    return any(
        token.type not in (tokenize.STRING, tokenize.COMMENT) and has_cjk(token.string)
        for token in tokens
    )


def _next_marker(lines: list[str], index: int) -> str | None:
    for line in lines[index + 1 :]:
        if line.strip():
            return _marker(line)
    return None


def split_block(code: str, first_line: int) -> SplitBlock:
    """Cases of the block whose first code line is ``first_line`` in the page."""
    lines = code.split("\n")
    result = SplitBlock()
    current: CodeCase | None = None
    side: str | None = None
    when: str | None = None
    for index, line in enumerate(lines):
        number = first_line + index
        marker = _marker(line)
        if marker is not None and without_lookalikes(line) != line:
            result.lookalike_markers.append((number, line.strip()))
        condition = _CONDITION.match(line.strip())
        if marker == "torch" or (marker == "paddle" and current is None):
            current = CodeCase(number, when)
            result.cases.append(current)
            when = None
            side = marker
            current.torch = [] if marker == "torch" else None
            current.paddle = [] if marker == "paddle" else None
        elif marker == "paddle" and current is not None:
            if current.paddle is not None:
                current = CodeCase(number, None)
                result.cases.append(current)
            current.paddle = []
            side = "paddle"
        elif condition and has_cjk(line) and _next_marker(lines, index) == "torch":
            when = condition.group("when")
        elif is_prose(line):
            result.prose.append((number, line.strip()))
        elif current is not None and side is not None:
            target = current.torch if side == "torch" else current.paddle
            if target is not None:
                target.append(line)
        elif line.strip():
            result.stray.append((number, line.rstrip()))
    if not result.cases:
        prose = {number for number, _ in result.prose}
        result.unmarked = [
            line for index, line in enumerate(lines) if first_line + index not in prose
        ]
        result.stray = []
    return result


def code_text(lines: list[str]) -> str:
    """The code of one side: dedented, no blank lines around, one final newline."""
    text = textwrap.dedent("\n".join(lines)).strip("\n")
    return text + "\n" if text else ""
