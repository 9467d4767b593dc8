"""Export the record model as the JSON Schema editors and CI use."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from apimap.record import model
from apimap.record.model import Record

SCHEMA_PATH = "schema/mapping.schema.json"
SCHEMA_ID = "https://apimap.invalid/schema/mapping.schema.json"


def attribute_docstrings() -> dict[str, dict[str, str]]:
    """Class name -> field -> the string literal written under the field in the model's source.

    They are the fields' descriptions in the schema. Reading them here, rather than having
    pydantic read them as it builds each model class, keeps the source parse off every
    ``import`` of the model (a third of the pre-commit hook's start-up).
    """
    tree = ast.parse(Path(inspect.getfile(model)).read_text(encoding="utf-8"))
    docs: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields = docs.setdefault(node.name, {})
        for before, after in zip(node.body, node.body[1:], strict=False):
            if (
                isinstance(before, ast.AnnAssign)
                and isinstance(before.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                fields[before.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _models() -> dict[str, type[BaseModel]]:
    """The model classes of the record module, by name (the schema's ``$defs`` keys)."""
    return {
        name: value
        for name, value in vars(model).items()
        if isinstance(value, type) and issubclass(value, BaseModel)
    }


def _describe(
    schema: dict[str, Any], cls: type[BaseModel], docs: dict[str, dict[str, str]]
) -> None:
    properties = schema.get("properties", {})
    for name, prop in properties.items():
        text = next(
            (
                docs[base.__name__][name]
                for base in cls.__mro__
                if name in docs.get(base.__name__, {})
            ),
            None,
        )
        if text is not None and "description" not in prop:
            prop["description"] = text
            properties[name] = dict(sorted(prop.items()))


def schema_text() -> str:
    """The JSON Schema of a record, as committed (deterministic)."""
    schema = Record.model_json_schema()
    docs = attribute_docstrings()
    models = _models()
    _describe(schema, Record, docs)
    for name, definition in schema.get("$defs", {}).items():
        if name in models:
            _describe(definition, models[name], docs)
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID}
    document.update(schema)
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
