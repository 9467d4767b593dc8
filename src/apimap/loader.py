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
* remember where every value and every key starts.

Problems are returned as :class:`LoadProblem` values, never raised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml._yaml import CParser
from yaml.nodes import ScalarNode, SequenceNode

from apimap.location import Loc, Path
from apimap.rules.catalog.am001_encoding import RULE as ENCODING
from apimap.rules.catalog.am002_yaml_syntax import RULE as SYNTAX
from apimap.rules.catalog.am003_duplicate_key import RULE as DUPLICATE_KEY
from apimap.rules.catalog.am004_yaml_tag import RULE as TAG
from apimap.rules.catalog.am005_too_large import RULE as TOO_LARGE
from apimap.rules.catalog.am006_empty_file import RULE as EMPTY
from apimap.rules.catalog.am007_bom import RULE as BOM
from apimap.rules.catalog.am008_not_mapping import RULE as NOT_MAPPING

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 32
"""Records nest a few levels deep; anything deeper is refused before it can exhaust the stack."""

_IMPLICIT_TAG = "tag:apimap,2024:implicit"
_BOOLS = {"true": True, "false": False}
_NULLS = {"null", "~", ""}
_CONTROL = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
"""Control characters, including the bidirectional overrides that can disguise text in a terminal."""


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

    code: str
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

    def text_loc(self, path: Path, line_in_text: int) -> Loc:
        """Where line ``line_in_text`` (1-based) of a string value is in the file."""
        start = self.loc(path)
        if path in self.literal_blocks:
            return Loc(start.line + line_in_text, start.col)
        return start

    def key_loc(self, path: Path) -> Loc:
        """Position of the key that introduces ``path`` (falls back to the value)."""
        mark = self.keys.get(path)
        return self.loc(path) if mark is None else Loc(mark.line + 1, mark.column + 1)


class _Reject(Exception):
    def __init__(self, code: str, node: Any, detail: str) -> None:
        super().__init__(detail)
        self.problem = LoadProblem(
            code, node.start_mark.line + 1, node.start_mark.column + 1, detail
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
            LoadProblem(TOO_LARGE.code, 1, 1, f"{len(raw)} 字节 > {MAX_FILE_BYTES} 字节 (bytes)")
        )
        return None, problems
    if b"\x00" in raw:
        offset = raw.index(b"\x00")
        line = raw.count(b"\n", 0, offset) + 1
        col = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
        problems.append(LoadProblem(ENCODING.code, line, col, "NUL 字节 (NUL byte)"))
        return None, problems
    if raw.startswith(b"\xef\xbb\xbf"):
        problems.append(LoadProblem(BOM.code, 1, 1, ""))
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        problems.append(
            LoadProblem(ENCODING.code, line, col, f"字节 0x{raw[exc.start]:02x} (byte)")
        )
        return None, problems
    control = _CONTROL.search(text)
    if control is not None:
        line, col = _position_of_offset(text, control.start())
        code = f"U+{ord(control.group()):04X}"
        problems.append(
            LoadProblem(ENCODING.code, line, col, f"控制字符 {code} (control character)")
        )
        return None, problems
    return text, problems


def load(raw: bytes) -> tuple[Document | None, list[LoadProblem]]:
    """Decode and parse file bytes: the document (or ``None``) and every problem on the way."""
    text, problems = decode(raw)
    if text is None:
        return None, problems
    doc, parse_problems = parse(text)
    return doc, problems + parse_problems


def parse(text: str) -> tuple[Document | None, list[LoadProblem]]:
    """Parse YAML text into a :class:`Document` (or report why not)."""
    parser = _Parser(text)
    try:
        root = parser.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        detail = " ".join(filter(None, [exc.context, exc.problem]))
        return None, [LoadProblem(SYNTAX.code, line, col, detail)]
    except yaml.YAMLError as exc:  # errors without a mark
        return None, [LoadProblem(SYNTAX.code, 1, 1, str(exc))]
    finally:
        parser.dispose()
    if root is None:
        return None, [LoadProblem(EMPTY.code, 1, 1, "")]
    doc = Document(data=None, text=text)
    try:
        doc.data = _build(root, (), doc, set())
    except _Reject as rejected:
        return None, [rejected.problem]
    if not isinstance(doc.data, dict):
        line = root.start_mark.line + 1
        return None, [LoadProblem(NOT_MAPPING.code, line, root.start_mark.column + 1, "")]
    return doc, []


def _build(node: Any, path: Path, doc: Document, seen: set[int]) -> Any:
    """Build the value of ``node``; ``seen`` holds every node already built.

    This is the hot loop of ``apimap check``: scalars are handled inline, and positions are
    stored as libyaml marks and turned into :class:`Loc` only when asked for.
    """
    if node.tag != _IMPLICIT_TAG:
        raise _Reject(TAG.code, node, f"标签 {node.tag} (tag)")
    if id(node) in seen:
        raise _Reject(TAG.code, node, "锚点与别名 (anchor / alias)")
    if len(path) > MAX_DEPTH:
        raise _Reject(TOO_LARGE.code, node, f"嵌套超过 {MAX_DEPTH} 层 (nested too deeply)")
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
            raise _Reject(TAG.code, key_node, "复杂键 (complex key)")
        key = key_node.value
        child = (*path, key)
        if key in result:
            first = doc.key_loc(child)
            raise _Reject(
                DUPLICATE_KEY.code,
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
