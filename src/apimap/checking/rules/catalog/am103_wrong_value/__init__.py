"""AM103: every value has the type and form the record format gives it (schema stage)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import SchemaProblemKind

RULE = Rule(
    "AM103",
    "字段类型或取值错误 (wrong type or value)",
    Scope.FILE,
    Severity.ERROR,
    "按 schema 填写；需要字符串时可加引号 (follow the schema; quote text)",
    why="取值不合法的记录会在生成页面或验证时出错；在这里就报告出错的位置。",
    reports=SchemaProblemKind.WRONG_VALUE,
)
