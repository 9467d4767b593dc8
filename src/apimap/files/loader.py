"""Safe YAML loading that keeps the line and column of every node.

The loader parses with libyaml (``yaml.CParser``) and builds Python values
itself, so that it can:

* reject tags, anchors and aliases (records never need them, and aliases
  allow exponential expansion);
* reject duplicate keys;
* resolve plain scalars conservatively: only ``true``/``false`` and
  ``null``/``~``/empty are special; every other scalar stays the exact text
  the contributor wrote (``no``, ``on``, ``1e-5``, ``2021-01-01``, ``3.10``
  are strings). Numeric fields are converted by the record model, which
  reports a clear error when the text is not a number;
* remember where every value and every key starts;
* refuse, before libyaml builds a tree, nesting deep enough to exhaust the C
  stack (libyaml's composer recurses once per level);
* count lines one way only: a line ends at ``\n`` (or ``\r\n``). Characters that
  libyaml, Python or an editor would also take for a line break (U+0085,
  U+2028, U+2029, a lone ``\r``) are refused with the other control characters,
  so every position means the same line everywhere.

Problems are returned as :class:`LoadProblem` values, never raised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import yaml
from yaml._yaml import CParser
from yaml.events import (
    MappingEndEvent,
    MappingStartEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode, SequenceNode

from apimap.files.problems import LoadProblemKind
from apimap.record.location import Loc, Path
from apimap.record.textchars import REFUSED_CHARACTERS

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 32
"""Records nest a few levels deep; anything deeper is refused before it can exhaust the stack."""
_TOO_DEEP_DETAIL = f"嵌套超过 {MAX_DEPTH} 层 (nested too deeply)"
SAFE_COMPOSE_DEPTH = 1000
"""libyaml's composer recurses in C once per level and dies of a stack overflow near 25,000
levels; below this bound it is safe, above it the depth is measured from the events first."""

_IMPLICIT_TAG = "tag:apimap,2024:implicit"
_BOOLS = {"true": True, "false": False}
_NULLS = {"null", "~", ""}
_REFUSED = re.compile(f"[{REFUSED_CHARACTERS}]|\r(?!\n)")
_LINE_BREAKS = {
    "\r": "单独的回车符 (lone carriage return)",
    "\x85": "换行符 U+0085 (next line)",
    "\u2028": "行分隔符 U+2028 (line separator)",
    "\u2029": "段分隔符 U+2029 (paragraph separator)",
}


class _Parser(CParser):
    """libyaml parser whose resolver tags every untagged node the same way."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        return _IMPLICIT_TAG

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        return None

    def ascend_resolver(self) -> None:
        return None


@dataclass(frozen=True)
class LoadProblem:
    """A reason the file could not be turned into data."""

    kind: LoadProblemKind
    line: int
    col: int
    detail: str


@dataclass
class Document:
    """Parsed YAML data with the position of every value and mapping key."""

    data: Any
    text: str = ""
    """The decoded text the data was parsed from."""
    values: dict[Path, Any] = field(default_factory=dict)
    """libyaml marks of every value (see :meth:`loc`)."""
    keys: dict[Path, Any] = field(default_factory=dict)
    """libyaml marks of every mapping key."""
    literal_blocks: set[Path] = field(default_factory=set)
    """Values written as ``|`` blocks: their text starts on the next line."""

    def loc(self, path: Path) -> Loc:
        """Position of the value at ``path``, or of its nearest known ancestor."""
        while path:
            found = self.values.get(path)
            if found is not None:
                return Loc(found.line + 1, found.column + 1)
            path = path[:-1]
        root = self.values.get(())
        return Loc(1, 1) if root is None else Loc(root.line + 1, root.column + 1)

    @cached_property
    def lines(self) -> list[str]:
        """The lines of :attr:`text` (split at ``\n`` only, as libyaml counts them here)."""
        return self.text.split("\n")

    def text_loc(self, path: Path, line_in_text: int, col_in_text: int = 1) -> Loc:
        """Where line ``line_in_text`` (1-based) of a string value is in the file, at column
        ``col_in_text`` of that line of the value; never past the end of the file or the line.

        Only a ``|`` block keeps its lines apart in the file; any other value is placed at
        its start.
        """
        start = self.loc(path)
        if path not in self.literal_blocks or line_in_text < 1:
            return start
        number = min(start.line + line_in_text, len(self.lines))
        first = self.lines[start.line] if start.line < len(self.lines) else ""
        indent = len(first) - len(first.lstrip(" "))
        line = self.lines[number - 1]
        return Loc(number, max(1, min(indent + col_in_text, len(line) + 1)))

    def key_loc(self, path: Path) -> Loc:
        """Position of the key that introduces ``path`` (falls back to the value)."""
        mark = self.keys.get(path)
        return self.loc(path) if mark is None else Loc(mark.line + 1, mark.column + 1)


class _Reject(Exception):
    def __init__(self, kind: LoadProblemKind, node: Any, detail: str) -> None:
        super().__init__(detail)
        self.problem = LoadProblem(
            kind, node.start_mark.line + 1, node.start_mark.column + 1, detail
        )


def _position_of_offset(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def decode(raw: bytes) -> tuple[str | None, list[LoadProblem]]:
    """Turn file bytes into text, reporting size, binary, encoding and BOM problems."""
    problems: list[LoadProblem] = []
    if len(raw) > MAX_FILE_BYTES:
        problems.append(
            LoadProblem(
                LoadProblemKind.TOO_LARGE, 1, 1, f"{len(raw)} 字节 > {MAX_FILE_BYTES} 字节 (bytes)"
            )
        )
        return None, problems
    if b"\x00" in raw:
        offset = raw.index(b"\x00")
        line = raw.count(b"\n", 0, offset) + 1
        col = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
        problems.append(LoadProblem(LoadProblemKind.ENCODING, line, col, "NUL 字节 (NUL byte)"))
        return None, problems
    if raw.startswith(b"\xef\xbb\xbf"):
        problems.append(LoadProblem(LoadProblemKind.BOM, 1, 1, ""))
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        problems.append(
            LoadProblem(LoadProblemKind.ENCODING, line, col, f"字节 0x{raw[exc.start]:02x} (byte)")
        )
        return None, problems
    refused = _REFUSED.search(text)
    if refused is not None:
        line, col = _position_of_offset(text, refused.start())
        char = refused.group()
        detail = _LINE_BREAKS.get(char, f"控制字符 U+{ord(char):04X} (control character)")
        problems.append(LoadProblem(LoadProblemKind.ENCODING, line, col, detail))
        return None, problems
    return text, problems


def load(raw: bytes) -> tuple[Document | None, list[LoadProblem]]:
    """Decode and parse file bytes: the document (or ``None``) and every problem on the way."""
    text, problems = decode(raw)
    if text is None:
        return None, problems
    doc, parse_problems = parse(text)
    return doc, problems + parse_problems


def _placed(problem: LoadProblem, text: str) -> LoadProblem:
    """``problem`` moved back into the file when libyaml places it at the end of the stream
    (the line after a last line without a newline, or after ``---``)."""
    lines = text.split("\n")
    line, col = problem.line, problem.col
    if line > len(lines):
        line, col = len(lines), len(lines[-1]) + 1
    col = min(col, len(lines[line - 1]) + 1)
    return LoadProblem(problem.kind, line, col, problem.detail)


LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"
"""PyYAML 6.0.4's scanner refuses flow collections nested 1,000 deep itself, with this problem;
that input nests too deeply for a record as well (AM005), whichever check sees it first."""


def _syntax_problem(exc: yaml.YAMLError) -> LoadProblem:
    if not isinstance(exc, yaml.MarkedYAMLError):
        return LoadProblem(LoadProblemKind.SYNTAX, 1, 1, str(exc))  # errors without a mark
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    if exc.problem == LIBYAML_TOO_DEEP:
        return LoadProblem(LoadProblemKind.TOO_LARGE, line, col, _TOO_DEEP_DETAIL)
    detail = " ".join(filter(None, [exc.context, exc.problem]))
    return LoadProblem(LoadProblemKind.SYNTAX, line, col, detail)


def nesting_bound(text: str) -> int:
    """A cheap upper bound of how deeply ``text`` can nest.

    A flow collection needs a ``[`` or ``{``. A block collection inside another starts on a
    later line, further right, or after an indicator (``- - x``); only a sequence that is a
    mapping value may start at its parent's column, and never twice in a row. So the block
    levels on any path are at most twice the indentation plus the indicators of one line.
    """
    flow = text.count("[") + text.count("{")
    block = 0
    for line in text.split("\n"):
        body = line.lstrip(" ")
        marks = body.count("-") + body.count("?") + body.count(":")
        block = max(block, len(line) - len(body) + marks)
    return 2 * (block + 1) + flow


def _too_deep(text: str) -> LoadProblem | None:
    """Walk libyaml's events (no recursion anywhere) and report nesting beyond
    :data:`MAX_DEPTH`, or the syntax error that ends the walk first."""
    parser = CParser(text)
    depth = 0
    try:
        while True:
            event: Any = parser.get_event()
            kind = event.__class__
            if kind is SequenceStartEvent or kind is MappingStartEvent:
                depth += 1
                if depth > MAX_DEPTH + 1:  # the root mapping is level 1 at path ()
                    mark = event.start_mark
                    return LoadProblem(
                        LoadProblemKind.TOO_LARGE, mark.line + 1, mark.column + 1, _TOO_DEEP_DETAIL
                    )
            elif kind is SequenceEndEvent or kind is MappingEndEvent:
                depth -= 1
            elif kind is StreamEndEvent or event is None:
                return None
    except yaml.YAMLError as exc:
        return _syntax_problem(exc)
    finally:
        parser.dispose()


def parse(text: str) -> tuple[Document | None, list[LoadProblem]]:
    """Parse YAML text into a :class:`Document` (or report why not, inside the file)."""
    doc, problems = _parse(text)
    return doc, [_placed(problem, text) for problem in problems]


def _parse(text: str) -> tuple[Document | None, list[LoadProblem]]:
    if nesting_bound(text) > SAFE_COMPOSE_DEPTH:
        deep = _too_deep(text)
        if deep is not None:
            return None, [deep]
    parser = _Parser(text)
    try:
        root = parser.get_single_node()
    except yaml.YAMLError as exc:
        return None, [_syntax_problem(exc)]
    finally:
        parser.dispose()
    if root is None:
        return None, [LoadProblem(LoadProblemKind.EMPTY, 1, 1, "")]
    doc = Document(data=None, text=text)
    try:
        doc.data = _build(root, (), doc, set())
    except _Reject as rejected:
        return None, [rejected.problem]
    if not isinstance(doc.data, dict):
        line = root.start_mark.line + 1
        return None, [
            LoadProblem(LoadProblemKind.NOT_MAPPING, line, root.start_mark.column + 1, "")
        ]
    return doc, []


def _build(node: Any, path: Path, doc: Document, seen: set[int]) -> Any:
    """Build the value of ``node``; ``seen`` holds every node already built.

    This is the hot loop of ``apimap check``: scalars are handled inline, and positions are
    stored as libyaml marks and turned into :class:`Loc` only when asked for.
    """
    if node.tag != _IMPLICIT_TAG:
        raise _Reject(LoadProblemKind.TAG, node, f"标签 {node.tag} (tag)")
    if id(node) in seen:
        raise _Reject(LoadProblemKind.TAG, node, "锚点与别名 (anchor / alias)")
    if len(path) > MAX_DEPTH:
        raise _Reject(LoadProblemKind.TOO_LARGE, node, _TOO_DEEP_DETAIL)
    seen.add(id(node))
    doc.values[path] = node.start_mark
    kind = node.__class__
    if kind is ScalarNode:
        return _scalar(node, path, doc)
    if kind is SequenceNode:
        items = []
        for index, item in enumerate(node.value):
            child = (*path, index)
            if item.__class__ is ScalarNode and item.tag == _IMPLICIT_TAG and id(item) not in seen:
                seen.add(id(item))
                doc.values[child] = item.start_mark
                items.append(_scalar(item, child, doc))
            else:
                items.append(_build(item, child, doc, seen))
        return items
    result: dict[str, Any] = {}
    keys = doc.keys
    for key_node, value_node in node.value:
        if key_node.__class__ is not ScalarNode or key_node.tag != _IMPLICIT_TAG:
            raise _Reject(LoadProblemKind.TAG, key_node, "复杂键 (complex key)")
        key = key_node.value
        child = (*path, key)
        if key in result:
            first = doc.key_loc(child)
            raise _Reject(
                LoadProblemKind.DUPLICATE_KEY,
                key_node,
                f"`{key}`，首次出现在第 {first.line} 行 (first at line)",
            )
        keys[child] = key_node.start_mark
        if (
            value_node.__class__ is ScalarNode
            and value_node.tag == _IMPLICIT_TAG
            and id(value_node) not in seen
        ):
            seen.add(id(value_node))
            doc.values[child] = value_node.start_mark
            result[key] = _scalar(value_node, child, doc)
        else:
            result[key] = _build(value_node, child, doc, seen)
    return result


def _scalar(node: Any, path: Path, doc: Document) -> Any:
    value: str = node.value
    style = node.style
    if not style:  # plain scalar
        if value in _BOOLS:
            return _BOOLS[value]
        if value in _NULLS:
            return None
    elif style == "|":
        doc.literal_blocks.add(path)
    return value
