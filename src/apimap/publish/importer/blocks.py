"""Split a Markdown page into the blocks the importers read, each with its source line.

Only what the mapping pages use is recognised: headings (with or without a
space after the ``#`` marks), fenced code blocks, pipe tables, thematic breaks,
a front-matter block at the very top, and paragraphs (everything else, lines
joined). List items stay paragraph lines; the table importer reads them.

A code block left open is closed where the page plainly goes on: before the
next opening fence with a language (```` ```python ```` cannot close a block)
or the next heading of level 2 or deeper, leaving out the blank and prose
lines just before it. The block says where it was cut, for the report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apimap.publish.importer.code import is_prose

_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|(?=[\[`]))(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$")
_BREAK = re.compile(r"^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_TABLE_LINE = re.compile(r"^ {0,3}\|")
_OPENER_WITH_INFO = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[ \t]*[A-Za-z]")
_SUBHEADING = re.compile(r"^ {0,3}#{2,6}[ \t]+\S")
"""A Markdown heading below the title: never a line of the pages' Python code."""
_SEPARATOR_CELL = re.compile(r"^:?-+:?$")


@dataclass(frozen=True)
class Heading:
    """``## text``."""

    line: int
    level: int
    text: str


@dataclass(frozen=True)
class Fence:
    """A fenced code block; ``cut_before`` is the line before which a block left open was
    closed (``None`` for a closed block)."""

    line: int
    info: str
    code: str
    cut_before: int | None = None


@dataclass(frozen=True)
class Table:
    """A pipe table: the header cells and the body rows, each with its line."""

    line: int
    header: list[str]
    rows: list[tuple[int, list[str]]]
    source: str


@dataclass(frozen=True)
class Paragraph:
    """Consecutive text lines; ``text`` keeps the line breaks."""

    line: int
    text: str


@dataclass(frozen=True)
class Break:
    """A thematic break (``---``)."""

    line: int


@dataclass(frozen=True)
class FrontMatter:
    """The ``---`` block at the top of a MyST page."""

    line: int
    text: str


Block = Heading | Fence | Table | Paragraph | Break | FrontMatter


def split_cells(line: str) -> list[str]:
    """The cells of a table line; ``|`` inside code spans or after ``\\`` does not split."""
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    if "`" not in text and "\\" not in text:
        return [cell.strip() for cell in text.split("|")]
    cells: list[str] = []
    current: list[str] = []
    ticks = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            current.append(text[index : index + 2])
            index += 2
            continue
        if char == "`":
            rest = text[index:]
            run = len(rest) - len(rest.lstrip("`"))
            if ticks == 0:
                ticks = run
            elif ticks == run:
                ticks = 0
            current.append("`" * run)
            index += run
            continue
        if char == "|" and ticks == 0:
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(char)
        index += 1
    cells.append("".join(current).strip())
    return cells


def _is_separator(cells: list[str]) -> bool:
    return all(_SEPARATOR_CELL.match(cell.replace(" ", "")) for cell in cells)


def _front_matter(lines: list[str]) -> tuple[FrontMatter | None, int]:
    if not lines or lines[0].strip() != "---":
        return None, 0
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            return FrontMatter(1, "\n".join(lines[1:index])), index + 1
    return None, 0


def _fence(lines: list[str], start: int, match: re.Match[str]) -> tuple[Fence, int]:
    indent, marker, info = len(match.group(1)), match.group(2), match.group(3)
    closing = re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
    body: list[str] = []
    index = start + 1
    while index < len(lines):
        line = lines[index]
        if closing.match(line):
            return Fence(start + 1, info, "\n".join(body)), index + 1
        if _OPENER_WITH_INFO.match(line) or _SUBHEADING.match(line):
            break
        removable = len(line) - len(line.lstrip(" "))
        body.append(line[min(indent, removable) :])
        index += 1
    while body and (not body[-1].strip() or is_prose(body[-1])):
        body.pop()
    end = start + 1 + len(body)
    return Fence(start + 1, info, "\n".join(body), cut_before=end + 1), end


def _table(lines: list[str], start: int) -> tuple[Table, int]:
    index = start
    while index < len(lines) and _TABLE_LINE.match(lines[index]):
        index += 1
    header = split_cells(lines[start])
    rows: list[tuple[int, list[str]]] = []
    for number in range(start + 1, index):
        cells = split_cells(lines[number])
        if number == start + 1 and _is_separator(cells):
            continue
        rows.append((number + 1, cells))
    return Table(start + 1, header, rows, "\n".join(lines[start:index])), index


def _starts_block(line: str) -> bool:
    return bool(
        _HEADING.match(line)
        or _FENCE_OPEN.match(line)
        or _BREAK.match(line)
        or _TABLE_LINE.match(line)
    )


def scan(text: str) -> list[Block]:
    """The blocks of ``text`` in page order."""
    lines = text.splitlines()
    blocks: list[Block] = []
    front, index = _front_matter(lines)
    if front is not None:
        blocks.append(front)
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
            continue
        fence = _FENCE_OPEN.match(line)
        if fence is not None:
            block, index = _fence(lines, index, fence)
            blocks.append(block)
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            blocks.append(Heading(index + 1, len(heading.group(1)), heading.group(2).strip()))
            index += 1
            continue
        if _BREAK.match(line):
            blocks.append(Break(index + 1))
            index += 1
            continue
        if _TABLE_LINE.match(line):
            table, index = _table(lines, index)
            blocks.append(table)
            continue
        start = index
        while (
            index < len(lines)
            and lines[index].strip()
            and not (index > start and _starts_block(lines[index]))
        ):
            index += 1
        blocks.append(Paragraph(start + 1, "\n".join(lines[start:index])))
    return blocks
