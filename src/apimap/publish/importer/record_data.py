"""Turn collected record data into a :class:`~apimap.record.model.Record`, keeping what the model rejects.

Whatever part of the data the model rejects (an ``http://`` link, an empty
parameter meaning, a malformed alias) is taken out and reported as a loss with
its source line, so that the rest of the page still becomes a record. Only a
rejected ``torch_api`` or ``category`` fails the page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from apimap.files.migrate import minimal
from apimap.publish.importer.problems import Problem
from apimap.record.import_codes import INVALID, INVALID_VALUE
from apimap.record.model import Record

_REQUIRED = {"torch_api", "category"}
_NESTED_LISTS = {"params", "examples", "notes", "torch_aliases", "torch_signature"}


@dataclass
class RecordData:
    """Record fields in model order, and the source line of each field and list item."""

    fields: dict[str, Any] = field(default_factory=dict)
    lines: dict[int, int] = field(default_factory=dict)
    """``id()`` of a list item (or nested case) -> its source line."""
    field_lines: dict[str, int] = field(default_factory=dict)

    def set(self, name: str, value: Any, line: int) -> None:
        """Set a top-level field read from ``line``."""
        self.fields[name] = value
        self.field_lines[name] = line

    def item(self, name: str, value: Any, line: int) -> None:
        """Append an item read from ``line`` to a list field."""
        self.fields.setdefault(name, []).append(value)
        self.lines[id(value)] = line
        self.field_lines.setdefault(name, line)

    def line_of(self, value: Any, name: str) -> int:
        """Where ``value`` (an item of field ``name``) came from."""
        return self.lines.get(id(value), self.field_lines.get(name, 1))


def _ordered(data: dict[str, Any]) -> dict[str, Any]:
    order = list(Record.model_fields)
    return {key: data[key] for key in sorted(data, key=order.index)}


def _remove(data: RecordData, loc: tuple[int | str, ...]) -> Problem | None:
    """Take the rejected part at ``loc`` out of ``data``; ``None`` if it cannot go."""
    name = str(loc[0])
    if name in _REQUIRED or name not in data.fields:
        return None
    value = data.fields[name]
    index = loc[1] if len(loc) > 1 else None
    if name in _NESTED_LISTS and isinstance(value, list) and isinstance(index, int):
        item = value[index]
        line = data.line_of(item, name)
        if name == "examples" and len(loc) > 3 and loc[2] == "cases":
            cases = item.get("cases", [])
            case_index = loc[3]
            if isinstance(case_index, int) and case_index < len(cases) and len(cases) > 1:
                case = cases.pop(case_index)
                return _loss(f"{name}[{index}].cases[{case_index}]", case, line)
        value.pop(index)
        if not value:
            del data.fields[name]
        return _loss(f"{name}[{index}]", item, line)
    del data.fields[name]
    return _loss(name, value, data.field_lines.get(name, 1))


def _loss(where: str, value: Any, line: int) -> Problem:
    kept = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return Problem(INVALID_VALUE, line, where, kept=kept)


@dataclass
class Validated:
    """The record (or ``None``) and the problems met while validating."""

    record: Record | None
    problems: list[Problem]


def _part(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """The part :func:`_remove` takes out for an error at ``loc``: a whole field, a list item,
    or one case of an example."""
    if str(loc[0]) not in _NESTED_LISTS or len(loc) < 2 or not isinstance(loc[1], int):
        return loc[:1]
    if loc[0] == "examples" and len(loc) > 3 and loc[2] == "cases" and isinstance(loc[3], int):
        return loc[:4]
    return loc[:2]


def _last_first(part: tuple[int | str, ...]) -> tuple[str, int, int]:
    """Items are taken out from the end, so that the positions of the others stay right."""
    numbers = [item for item in part[1:] if isinstance(item, int)] + [-1, -1]
    return str(part[0]), numbers[0], numbers[1]


def validate_data(data: RecordData) -> Validated:
    """Validate, dropping every rejected optional part of one validation at once (a page of
    thousands of bad rows costs a few validations, not one per row)."""
    problems: list[Problem] = []
    while True:
        try:
            record = Record.model_validate(_ordered(data.fields))
        except ValidationError as exc:
            errors = exc.errors()
            parts = sorted({_part(tuple(error["loc"])) for error in errors}, key=_last_first)
            for part in reversed(parts):
                removed = _remove(data, part)
                if removed is None:
                    error = next(e for e in errors if _part(tuple(e["loc"])) == part)
                    where = ".".join(str(item) for item in error["loc"])
                    line = data.field_lines.get(str(error["loc"][0]), 1)
                    problems.append(Problem(INVALID, line, f"{where}: {error['msg']}"))
                    return Validated(None, problems)
                problems.append(removed)
            continue
        return Validated(record, problems)


def record_fields(record: Record) -> dict[str, Any]:
    """The record as the loader reads its file: model order, defaults and derivable values left
    out, numbers as their text (the loader keeps every scalar but true, false and null as text)."""
    data: dict[str, Any] = _as_loaded(
        minimal(record.model_dump(mode="json", exclude_defaults=True))
    )
    return data


def _as_loaded(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _as_loaded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_loaded(item) for item in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value
