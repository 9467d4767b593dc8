"""Export the record model as the JSON Schema editors and CI use."""

from __future__ import annotations

import json

from apimap.record.model import Record

SCHEMA_PATH = "schema/mapping.schema.json"
SCHEMA_ID = "https://apimap.invalid/schema/mapping.schema.json"


def schema_text() -> str:
    """The JSON Schema of a record, as committed (deterministic)."""
    schema = Record.model_json_schema()
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID}
    document.update(schema)
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
