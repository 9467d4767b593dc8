"""Facts that follow from a record's fields, computed in one place for rules, verify and views.

A record may leave out what can be derived: a ``same`` row's paddle name, a
row's kind when it is ``same`` or ``rename``, the meaning of a row whose parameter name has
a common one (``input``, ``out``, …), the documentation links, the section the API's name
points to, and the category of groups 1 to 3. Everything that reads a record asks this module.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel

from apimap.record.categories import (
    Action,
    Category,
    RowKind,
    Section,
    computed_category,
    guessed_section,
)
from apimap.record.links import default_paddle_url, default_torch_url
from apimap.record.location import Path
from apimap.record.model import Case, Execution, ParamRow, Record, TextRole
from apimap.record.phrases import DEFAULT_DESCRIPTIONS
from apimap.record.signature import Param, Signature, SignatureError, parse_signature


def names(value: str | list[str] | None) -> list[str]:
    """A row side as a list of parameter names."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def torch_names(row: ParamRow) -> list[str]:
    """The torch parameters of a row."""
    return names(row.torch)


SAME_NAME_KINDS = frozenset(
    {None, RowKind.SAME, RowKind.DEFAULT_DIFF, RowKind.TYPE_DIFF, RowKind.USAGE_DIFF}
)
"""Kinds whose paddle side, when not written, is the parameter of the same name."""


def paddle_names(row: ParamRow) -> list[str]:
    """The paddle parameters of a row; left out, they are the torch names (kinds above)."""
    if row.paddle is not None:
        return names(row.paddle)
    if row.kind in SAME_NAME_KINDS:
        return torch_names(row)
    return []


def row_kind(row: ParamRow) -> RowKind:
    """The row's kind; when omitted, ``same`` if the names agree, else ``rename``."""
    if row.kind is not None:
        return row.kind
    if row.paddle is None or names(row.paddle) == torch_names(row):
        return RowKind.SAME
    return RowKind.RENAME


def filled_row(row: ParamRow) -> ParamRow:
    """The row with what a record may leave out written in: the paddle side of a same-name
    row (as the torch side is written) and the kind (:func:`row_kind`)."""
    update: dict[str, Any] = {"kind": row_kind(row)}
    if row.paddle is None and row.kind in SAME_NAME_KINDS:
        update["paddle"] = row.torch
    return row.model_copy(update=update)


def is_class_member(api: str) -> bool:
    """``torch.Tensor.outer``, ``torch.nn.Module.train``: a member of a class (by its name)."""
    parts = api.split(".")
    return len(parts) >= 3 and parts[-2][:1].isupper()


def row_actions(row: ParamRow) -> list[Action]:
    """Every action a row names: its ``action``, or those of its conditional ``actions``."""
    if row.actions:
        return [entry.action for entry in row.actions]
    return [row.action] if row.action is not None else []


def category(record: Record) -> Category:
    """The declared category, or the one the rows imply when it is left out."""
    if record.category is not None:
        return record.category
    return computed_category([row_kind(row) for row in record.params])


CONTEXT_FAMILIES = ("torch.optim.lr_scheduler.", "torch.nn.init.", "torch.nn.utils.clip")
"""The torch APIs the specification files under 用法不同：涉及上下文修改 by name."""
CONTEXT_OBJECTS = ("paddle.optimizer.lr.", "paddle.nn.initializer.", "paddle.nn.ClipGrad")
"""Paddle's objects that are handed to a layer or an optimizer instead of being called."""


def onto_context_object(record: Record) -> bool:
    """A scheduler, initializer or gradient clip mapped onto the paddle object that replaces it
    (``torch.nn.init.uniform_`` -> ``paddle.nn.initializer.Uniform``)."""
    return (
        record.torch_api.startswith(CONTEXT_FAMILIES)
        and record.paddle_api is not None
        and record.paddle_api.startswith(CONTEXT_OBJECTS)
    )


def changes_context(record: Record) -> bool:
    """The mapping changes code around the call: declared category 5, or onto a context
    object (whatever the record declares)."""
    return category(record) is Category.CONTEXT_CHANGE or onto_context_object(record)


def section(record: Record) -> Section:
    """The declared section, or the one the API's name points to when it is left out."""
    return record.section or guessed_section(record.torch_api)


def default_desc(row: ParamRow) -> str | None:
    """The description a row of this torch parameter has when it writes none."""
    return DEFAULT_DESCRIPTIONS.get(row.torch) if isinstance(row.torch, str) else None


def desc(row: ParamRow) -> str | None:
    """The row's description: written, or the common one of its torch parameter's name."""
    return row.desc if row.desc is not None else default_desc(row)


def torch_url(record: Record) -> str | None:
    """The torch documentation link: written, or derived from the name."""
    return record.torch_url or default_torch_url(record.torch_api)


def paddle_url(record: Record) -> str | None:
    """The paddle documentation link: written, or derived from the name."""
    if record.paddle_url is not None:
        return record.paddle_url
    return default_paddle_url(record.paddle_api) if record.paddle_api else None


def row_for(record: Record, torch_param: str) -> ParamRow | None:
    """The row that names ``torch_param`` on its torch side."""
    return next((row for row in record.params if torch_param in torch_names(row)), None)


def executions(record: Record) -> list[tuple[Path, Execution]]:
    """Every piece of code verify runs: calls, example cases, note examples and the cases of
    alternatives, with paths.

    A case with one side only (imported so from a legacy page, reported by AM237) cannot run.
    """
    found: list[tuple[Path, Execution]] = [
        (("calls", index), call) for index, call in enumerate(record.calls)
    ]
    for index, example in enumerate(record.examples):
        for case_index, case in enumerate(example.cases):
            if is_complete(case):
                found.append((("examples", index, "cases", case_index), case))
    for index, note in enumerate(record.notes):
        if note.example is not None and is_complete(note.example):
            found.append((("notes", index, "example"), note.example))
    for index, alternative in enumerate(record.alternatives):
        for case_index, case in enumerate(alternative.cases):
            if is_complete(case):
                found.append((("alternatives", index, "cases", case_index), case))
    return found


def is_complete(case: Case) -> bool:
    """The case has both its PyTorch and its Paddle code."""
    return case.torch is not None and case.paddle is not None


def texts(record: Record) -> list[tuple[Path, TextRole, str]]:
    """Every text value that has a role, with its path, in field order."""
    return list(_texts(record, ()))


def _texts(model: BaseModel, path: Path) -> Iterator[tuple[Path, TextRole, str]]:
    roles, nested = fields_of(type(model))
    for name in type(model).model_fields:
        value = getattr(model, name)
        if value is None:
            continue
        role = roles.get(name)
        if role is not None and isinstance(value, str):
            yield (*path, name), role, value
        elif name in nested:
            items = value if isinstance(value, list) else [value]
            for index, item in enumerate(items):
                if isinstance(item, BaseModel):
                    where = (*path, name, index) if isinstance(value, list) else (*path, name)
                    yield from _texts(item, where)


@cache
def fields_of(model: type[BaseModel]) -> tuple[dict[str, TextRole], dict[str, type[BaseModel]]]:
    """Which fields carry a text role, and which hold a nested model (alone or in a list)."""
    roles: dict[str, TextRole] = {}
    nested: dict[str, type[BaseModel]] = {}
    for name, info in model.model_fields.items():
        for item in info.metadata:
            if isinstance(item, TextRole):
                roles[name] = item
        for kind in _types_in(info.annotation):
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                nested[name] = kind
            for item in getattr(kind, "__metadata__", ()):
                if isinstance(item, TextRole):
                    roles[name] = item
    return roles, nested


def _types_in(annotation: Any) -> list[Any]:
    found = [annotation]
    for arg in typing.get_args(annotation):
        found += _types_in(arg)
    return found


def parse(text: str | None) -> Signature | None:
    """A recorded signature, parsed; ``None`` when absent or malformed (rules report those)."""
    if text is None:
        return None
    try:
        return parse_signature(text)
    except SignatureError:
        return None


def torch_param(record: Record, name: str) -> Param | None:
    """A torch parameter of any overload, by its spelling."""
    for text in record.torch_overloads:
        signature = parse(text)
        found = signature.find(name) if signature else None
        if found is not None:
            return found
    return None


def paddle_param(record: Record, name: str) -> Param | None:
    """A paddle parameter of any overload, by its spelling or an accepted torch-style name."""
    canonical = record.paddle_accepts.get(name, name)
    for text in record.paddle_overloads:
        signature = parse(text)
        found = signature.find(canonical) if signature else None
        if found is not None:
            return found
    return None


@dataclass(frozen=True)
class Defaults:
    """The default values of a row, as the signatures spell them (``None``: no default)."""

    torch: str | None
    paddle: str | None


def row_defaults(record: Record, row: ParamRow) -> Defaults:
    """Both defaults of a row's first parameters, read from the recorded signatures."""
    torch_side = torch_names(row)
    paddle_side = paddle_names(row)
    torch_found = torch_param(record, torch_side[0]) if torch_side else None
    paddle_found = paddle_param(record, paddle_side[0]) if paddle_side else None
    return Defaults(
        torch=torch_found.default if torch_found else None,
        paddle=paddle_found.default if paddle_found else None,
    )
