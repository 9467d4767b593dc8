"""Find the comments of a YAML file and the node each one belongs to.

libyaml drops comments, but its events carry the start and end of every
scalar. Outside scalars a ``#`` can only start a comment, so every ``#`` that
no scalar covers is one. Each comment is then tied to a node by path, so that
the canonical form can move it together with its node when keys are reordered:

* comments above the first node form the *head* of the file;
* a comment on a line of its own belongs to the next mapping entry or list
  item (``leading``);
* a comment after a value belongs to the last scalar before it on that line
  (``eol``), e.g. ``kind: same  # ...`` belongs to ``("params", 0, "kind")``;
* comments after the last node form the *tail*.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml._yaml import CParser

from apimap.record.location import Path

_END_OF_LINE = 1 << 30


@dataclass
class Comments:
    """Comment lines (each starting with ``#``) keyed by where they belong."""

    head: list[str] = field(default_factory=list)
    leading: dict[Path, list[str]] = field(default_factory=dict)
    eol: dict[Path, str] = field(default_factory=dict)
    tail: list[str] = field(default_factory=list)

    def texts(self) -> list[str]:
        """Every comment, sorted (to compare two files' comments as a multiset)."""
        leading = [text for lines in self.leading.values() for text in lines]
        return sorted([*self.head, *leading, *self.eol.values(), *self.tail])


@dataclass
class _Frame:
    path: Path
    is_mapping: bool
    index: int = 0
    key: str | None = None


@dataclass
class _Scan:
    """What the event walk collects."""

    anchors: list[tuple[int, int, int, Path]] = field(default_factory=list)
    """(line, col, order, path) of every mapping key and list item."""
    marks: dict[int, list[tuple[int, Path]]] = field(default_factory=dict)
    """Per line: (col, entry path) where a scalar ends (or a block scalar starts)."""
    covered: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Per line: column ranges that belong to scalars."""

    def anchor(self, mark: Any, path: Path) -> None:
        self.anchors.append((mark.line, mark.column, len(self.anchors), path))

    def scalar(self, event: Any, path: Path) -> None:
        start, end = event.start_mark, event.end_mark
        self.marks.setdefault(end.line, []).append((end.column, path))
        if event.style in ("|", ">"):
            # The header (indicator and an optional comment) is not content.
            self.marks.setdefault(start.line, []).append((start.column + 1, path))
            self._cover(start.line + 1, 0, end.line, end.column)
        else:
            self._cover(start.line, start.column, end.line, end.column)

    def _cover(self, first: int, first_col: int, last: int, last_col: int) -> None:
        for line in range(first, last + 1):
            begin = first_col if line == first else 0
            stop = last_col if line == last else _END_OF_LINE
            self.covered.setdefault(line, []).append((begin, stop))


def _walk(text: str) -> _Scan:
    scan = _Scan()
    stack: list[_Frame] = []
    parser = CParser(text)
    try:
        while True:
            event = parser.get_event()
            if isinstance(event, yaml.StreamEndEvent):
                break
            if isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                stack.pop()
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue
            frame = stack[-1] if stack else None
            if frame is not None and frame.is_mapping and frame.key is None:
                # Keys are scalars: the loader refuses complex keys before comments are read.
                frame.key = event.value if isinstance(event, yaml.ScalarEvent) else ""
                path: Path = (*frame.path, frame.key)
                scan.anchor(event.start_mark, path)
                scan.scalar(event, path)
                continue
            if frame is None:
                path = ()
            elif frame.is_mapping:
                assert frame.key is not None
                path = (*frame.path, frame.key)
                frame.key = None
            else:
                path = (*frame.path, frame.index)
                frame.index += 1
                scan.anchor(event.start_mark, path)
            if isinstance(event, yaml.ScalarEvent):
                scan.scalar(event, path)
            elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                stack.append(_Frame(path, isinstance(event, yaml.MappingStartEvent)))
    finally:
        parser.dispose()
    scan.anchors.sort()
    return scan


def _is_covered(ranges: list[tuple[int, int]], col: int) -> bool:
    return any(begin <= col < stop for begin, stop in ranges)


def _comment_start(line: str, ranges: list[tuple[int, int]]) -> int | None:
    col = line.find("#")
    while col != -1:
        if not _is_covered(ranges, col):
            return col
        col = line.find("#", col + 1)
    return None


def find_comments(text: str) -> Comments:
    """The comments of ``text``, which must be YAML that parses."""
    scan = _walk(text)
    comments = Comments()
    positions = [(line, col, order) for line, col, order, _path in scan.anchors]
    for number, line in enumerate(text.splitlines()):
        if "#" not in line:
            continue
        col = _comment_start(line, scan.covered.get(number, []))
        if col is None:
            continue
        comment = line[col:].rstrip()
        before = [
            (mark_col, path) for mark_col, path in scan.marks.get(number, []) if mark_col <= col
        ]
        if line[:col].strip() and before:
            owner = max(before, key=lambda item: item[0])[1]
            if owner not in comments.eol:
                comments.eol[owner] = comment
                continue
        following = bisect.bisect_left(positions, (number, col, -1))
        if following == 0:
            comments.head.append(comment)
        elif following == len(positions):
            comments.tail.append(comment)
        else:
            owner = scan.anchors[following][3]
            comments.leading.setdefault(owner, []).append(comment)
    return comments
