"""AM101: every field is one the record format defines (reported by the schema stage)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import SchemaProblemKind

RULE = Rule(
    "AM101",
    "未知字段 (unknown field)",
    Scope.FILE,
    Severity.ERROR,
    "检查拼写；可用字段见 schema/mapping.schema.json (see the schema for the allowed fields)",
    why="拼错的字段名会被静默忽略，写下的事实就此丢失；报告它并给出最接近的字段名。",
    reports=SchemaProblemKind.UNKNOWN_FIELD,
)
