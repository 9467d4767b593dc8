"""The kinds of problem that keep a file from becoming a record, by the step that finds them.

The loader (:mod:`apimap.files.loader`) and the schema validation
(:mod:`apimap.files.validate`) report problems of these kinds; each kind is reported as the rule
whose package names it (``Rule.reports``). They live apart from both steps so that the rule
packages, which verification workers import for their codes, need neither PyYAML nor pydantic
(an older paddle release's environment has neither).
"""

from __future__ import annotations

from enum import Enum


class LoadProblemKind(Enum):
    """What kept a file from being read as data. The checker reports each kind as the rule
    whose package names it (``Rule.reports``); the rule says code, title, hint and severity."""

    ENCODING = "encoding"
    """Not UTF-8 text, or NUL, control or line-break characters."""
    SYNTAX = "syntax"
    """Not valid YAML."""
    DUPLICATE_KEY = "duplicate_key"
    """A mapping with the same key twice."""
    TAG = "tag"
    """A tag, an anchor or alias, or a complex key."""
    TOO_LARGE = "too_large"
    """Too many bytes, or nested too deeply."""
    EMPTY = "empty"
    """No document at all."""
    BOM = "bom"
    """A UTF-8 byte order mark (the text is still read)."""
    NOT_MAPPING = "not_mapping"
    """The document is not a mapping."""


class SchemaProblemKind(Enum):
    """How data breaks the record model. The checker reports each kind as the rule whose
    package names it (``Rule.reports``)."""

    UNKNOWN_FIELD = "unknown_field"
    MISSING_FIELD = "missing_field"
    WRONG_VALUE = "wrong_value"
