"""Write record data as YAML in the one canonical form.

The form, in short:

* keys in the order of the record model's fields (unknown keys after them, as
  written); free-form mappings such as ``inputs`` keep their order;
* two-space indentation, list items indented under their key (``  - ``);
* every string on one line, never folded; plain unless YAML would read it as
  something else (then single quotes, or double quotes when it needs escapes);
* multi-line strings (code) as literal blocks (``|``, ``|-`` or ``|+``);
* ``true``/``false``/``null``; numbers plain only in numeric fields, and only
  when written in decimal (``1e-05``, ``0.5``), which every YAML reader and
  Python read as the same number (``0x10``, ``1_0`` or ``010`` stay quoted);
* characters the loader refuses raw (control, line-separator and bidirectional
  characters) always as escapes in a double-quoted string, so the output loads;
* no blank lines; comments kept next to the node they belong to, an
  end-of-line comment two spaces after the value.
"""

from __future__ import annotations

import functools
import re
import typing
from dataclasses import dataclass, field
from typing import Any

import yaml
from pydantic import BaseModel

from apimap.files.yamlcomments import Comments
from apimap.record.location import Path
from apimap.record.model import Record
from apimap.record.textchars import REFUSED_CHARACTERS


@dataclass(frozen=True)
class Shape:
    """Field order and nested models of one record model."""

    order: dict[str, int]
    children: dict[str, Shape] = field(default_factory=dict)
    numeric: frozenset[str] = frozenset()


def _annotation_types(annotation: Any) -> list[Any]:
    """``list[Case] | None`` -> ``[list[Case], Case, NoneType]`` (all nested types)."""
    found = [annotation]
    for arg in typing.get_args(annotation):
        found += _annotation_types(arg)
    return found


def shape_of(model: type[BaseModel]) -> Shape:
    """The :class:`Shape` of ``model`` and of the models inside it."""
    children: dict[str, Shape] = {}
    numeric: set[str] = set()
    for name, info in model.model_fields.items():
        for kind in _annotation_types(info.annotation):
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                children[name] = shape_of(kind)
            elif kind in (float, int):
                numeric.add(name)
    order = {name: index for index, name in enumerate(model.model_fields)}
    return Shape(order, children, frozenset(numeric))


RECORD_SHAPE = shape_of(Record)

_YAML11_RESOLVERS: dict[str, list[tuple[str, re.Pattern[str]]]] = (
    yaml.resolver.Resolver.yaml_implicit_resolvers
)
"""PyYAML's YAML 1.1 implicit types, by the first character of the plain scalar."""
_TYPED_FIRST_CHARS = frozenset(filter(None, _YAML11_RESOLVERS))
_YAML12_NUMBER = (
    r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
"""Numbers that YAML 1.1, YAML 1.2 and Python all read the same (no hex, octal, ``_``, ``.inf``)."""
_NON_STRING = re.compile(
    f"^(?:{_YAML12_NUMBER}|true|True|TRUE|false|False|FALSE|null|Null|NULL|~)$"
)
"""Plain scalars that the YAML 1.2 core schema does not read as strings."""
_SIMPLY_PLAIN = re.compile(
    r"[^-?:,\[\]{}#&*!|>'\"%@`\s+.0-9~<=yYnNtTfFoO\x00-\x1f\x7f-\x9f\ud800-\udfff\ufeff-\uffff"
    f"{REFUSED_CHARACTERS}]"
    r"(?:[^\s:\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff"
    f"{REFUSED_CHARACTERS}]|[ ](?!#|$)|:(?![ ]|$))*"
)
"""Common strings that are plain for sure: no indicator first, no `: `, ` #`, edge spaces,
breaks or characters that need escapes, and a first character no YAML type starts with."""
_NOT_PLAIN = re.compile(r"""^[-?:,\[\]{}#&*!|>'"%@`\s]|\s$|:$|: | #|\t|^---|^\.\.\.""")
_NEEDS_ESCAPES = re.compile(
    "[^\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
    f"|[{REFUSED_CHARACTERS}]"
)
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}


def _resolved_tag(text: str) -> str:
    """The tag a YAML 1.1 reader gives the plain scalar ``text``."""
    for tag, pattern in _YAML11_RESOLVERS.get(text[:1], []):
        if pattern.match(text):
            return tag
    return "tag:yaml.org,2002:str"


def _can_be_plain(text: str) -> bool:
    """Plain, ``text`` reads back as the same string in YAML 1.1 and 1.2 (and in our loader)."""
    if not text or _NOT_PLAIN.search(text):
        return False
    if text[0] not in _TYPED_FIRST_CHARS:
        return True
    return not _NON_STRING.match(text) and _resolved_tag(text) == "tag:yaml.org,2002:str"


def _double_quoted(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif not _NEEDS_ESCAPES.match(char):
            out.append(char)
        elif ord(char) <= 0xFF:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


def inline_scalar(text: str) -> str:
    """A one-line string as a plain, single-quoted or double-quoted scalar."""
    if "\n" in text or _NEEDS_ESCAPES.search(text):
        return _double_quoted(text)
    if _can_be_plain(text):
        return text
    return "'" + text.replace("'", "''") + "'"


def _literal_block(text: str) -> tuple[str, list[str]] | None:
    """``(indicator, lines)`` of a literal block, or ``None`` if one cannot hold ``text``."""
    if "\n" not in text or _NEEDS_ESCAPES.search(text) or not text.strip():
        return None
    body = text.rstrip("\n")
    lines = body.split("\n")
    first = next(line for line in lines if line)  # the line that sets the indentation
    if first[0].isspace() or any(line.strip() == "" and line for line in lines):
        return None
    trailing = len(text) - len(body)
    if trailing == 0:
        return "|-", lines
    if trailing == 1:
        return "|", lines
    return "|+", lines + [""] * (trailing - 1)


def _scalar(value: Any, numeric: bool) -> tuple[str, list[str]]:
    """The inline text of a scalar and, for a literal block, its content lines."""
    if value is None:
        return "null", []
    if value is True:
        return "true", []
    if value is False:
        return "false", []
    text = str(value)
    if numeric and _DECIMAL.fullmatch(text):
        return text, []
    block = _literal_block(text)
    if block is not None:
        return block
    return inline_scalar(text), []


@functools.lru_cache(maxsize=4096)
def _key_text(key: str) -> str:
    return inline_scalar(key)


class _Writer:
    def __init__(self, comments: Comments) -> None:
        self.leading = comments.leading
        self.eol = comments.eol
        self.plain = not (comments.leading or comments.eol)
        """No comment inside the body: lines need no lookup by path."""
        self.lines: list[str] = []

    def _open(self, prefix: str, path: Path, text: str) -> None:
        """Write a node's first line, preceded by its comments."""
        if path in self.leading:
            indent = " " * (len(prefix) - len(prefix.lstrip()))
            self.lines += [indent + comment for comment in self.leading[path]]
        line = prefix + text
        eol = self.eol.get(path) if self.eol else None
        self.lines.append(line if eol is None else f"{line}  {eol}")

    def value(
        self, prefix: str, column: int, path: Path, value: Any, shape: Shape | None, numeric: bool
    ) -> None:
        """Write one value after ``prefix`` (``"key: "`` or ``"- "`` starting at ``column``).

        Nested blocks and literal lines go two columns deeper than ``column``.
        """
        if isinstance(value, str) and _SIMPLY_PLAIN.fullmatch(value):
            self._open(prefix, path, value)
            return
        depth = column + 2
        if isinstance(value, dict) and value:
            self._open(prefix.rstrip(), path, "")
            self.mapping(" " * depth, path, value, shape)
        elif isinstance(value, list) and value:
            self._open(prefix.rstrip(), path, "")
            self.sequence(" " * depth, path, value, shape)
        elif isinstance(value, dict | list):
            self._open(prefix, path, "{}" if isinstance(value, dict) else "[]")
        else:
            text, block = _scalar(value, numeric)
            self._open(prefix, path, text)
            self.lines += [" " * depth + line if line else "" for line in block]

    def mapping(
        self, first_prefix: str, path: Path, data: dict[str, Any], shape: Shape | None
    ) -> None:
        """Entries in model order; the first line starts with ``first_prefix``."""
        indent = " " * len(first_prefix)
        keys = list(data)
        if shape is not None:
            known = sorted((k for k in keys if k in shape.order), key=shape.order.__getitem__)
            keys = known + [k for k in keys if k not in shape.order]
        for index, key in enumerate(keys):
            prefix = (first_prefix if index == 0 else indent) + _key_text(key) + ": "
            value = data[key]
            if self.plain and isinstance(value, str) and _SIMPLY_PLAIN.fullmatch(value):
                self.lines.append(prefix + value)  # the common case, kept cheap for AM301
                continue
            child = shape.children.get(key) if shape else None
            numeric = shape is not None and key in shape.numeric
            self.value(prefix, len(indent), (*path, key), value, child, numeric)

    def sequence(self, indent: str, path: Path, items: list[Any], shape: Shape | None) -> None:
        """One ``- `` item per element; a mapping item starts on the dash line."""
        for index, item in enumerate(items):
            item_path = (*path, index)
            if isinstance(item, dict) and item:
                self.lines += [indent + comment for comment in self.leading.get(item_path, ())]
                self.mapping(indent + "- ", item_path, item, shape)
            else:
                self.value(indent + "- ", len(indent), item_path, item, shape, False)


def render(data: dict[str, Any], comments: Comments) -> str:
    """The canonical text of ``data`` with ``comments`` in place."""
    writer = _Writer(comments)
    writer.lines += comments.head
    writer.mapping("", (), data, RECORD_SHAPE)
    writer.lines += comments.tail
    return "\n".join(writer.lines) + "\n"
