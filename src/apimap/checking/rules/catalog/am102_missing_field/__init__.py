"""AM102: required fields are present (reported by the schema stage)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import SchemaProblemKind

RULE = Rule(
    "AM102",
    "缺少必填字段 (missing required field)",
    Scope.FILE,
    Severity.ERROR,
    "补上该字段 (add the field)",
    why="没有 API 名称、中文名称或参数含义的记录无法生成页面。",
    reports=SchemaProblemKind.MISSING_FIELD,
)
