"""Rules of the file format, reported while a file is read, parsed and validated."""

from __future__ import annotations

from apimap.diagnostics import Severity
from apimap.rules.base import Rule, Scope

_E = Severity.ERROR

ENCODING = Rule(
    "AM001",
    "文件不是 UTF-8 文本 (file is not UTF-8 text)",
    Scope.FILE,
    _E,
    "以 UTF-8 编码保存为纯文本，去掉 NUL 与控制字符 (save as plain UTF-8 text)",
)
SYNTAX = Rule(
    "AM002",
    "YAML 语法错误 (YAML syntax error)",
    Scope.FILE,
    _E,
    "检查缩进、冒号与引号；含 `: ` 或 `#` 的文本请加引号或使用 `|` 块 (check indentation and quoting)",
)
DUPLICATE_KEY = Rule(
    "AM003",
    "重复的键 (duplicate key)",
    Scope.FILE,
    _E,
    "每个键只能出现一次，删除或合并重复的键 (keep one occurrence of each key)",
)
TAG = Rule(
    "AM004",
    "不允许使用 YAML 标签、锚点、别名或复杂键 (tags, anchors, aliases and complex keys are not allowed)",
    Scope.FILE,
    _E,
    "直接写出取值；记录只使用普通的映射、列表与字符串 (write plain values)",
)
TOO_LARGE = Rule(
    "AM005",
    "文件过大或嵌套过深 (file too large or nested too deeply)",
    Scope.FILE,
    _E,
    "一条记录只描述一个 API；请拆分或精简 (one record describes one API)",
)
EMPTY = Rule(
    "AM006",
    "文件为空 (empty file)",
    Scope.FILE,
    _E,
    "用 `apimap new TORCH_API` 生成草稿，或删除该文件 (draft a record or delete the file)",
)
BOM = Rule(
    "AM007",
    "文件以 BOM 开头 (file starts with a byte-order mark)",
    Scope.FILE,
    Severity.WARNING,
    "以不带 BOM 的 UTF-8 保存 (save as UTF-8 without BOM)",
)
NOT_MAPPING = Rule(
    "AM008",
    "顶层必须是映射 (top level must be a mapping)",
    Scope.FILE,
    _E,
    "记录以 `torch_api: ...` 等字段开头，而不是列表或标量 (start with fields such as torch_api)",
)
UNKNOWN_FIELD = Rule(
    "AM101",
    "未知字段 (unknown field)",
    Scope.FILE,
    _E,
    "检查拼写；可用字段见 schema/mapping.schema.json (see the schema for the allowed fields)",
)
MISSING_FIELD = Rule(
    "AM102",
    "缺少必填字段 (missing required field)",
    Scope.FILE,
    _E,
    "补上该字段 (add the field)",
)
WRONG_VALUE = Rule(
    "AM103",
    "字段类型或取值错误 (wrong type or value)",
    Scope.FILE,
    _E,
    "按 schema 填写；需要字符串时可加引号 (follow the schema; quote text)",
)

RULES = [
    ENCODING,
    SYNTAX,
    DUPLICATE_KEY,
    TAG,
    TOO_LARGE,
    EMPTY,
    BOM,
    NOT_MAPPING,
    UNKNOWN_FIELD,
    MISSING_FIELD,
    WRONG_VALUE,
]
