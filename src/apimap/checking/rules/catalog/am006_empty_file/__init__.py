"""AM006: the file holds a record (reported by the loader)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import LoadProblemKind

RULE = Rule(
    "AM006",
    "文件为空 (empty file)",
    Scope.FILE,
    Severity.ERROR,
    "用 `apimap new TORCH_API` 生成草稿，或删除该文件 (draft a record or delete the file)",
    why="空文件或只有注释的文件不描述任何 API，多半是忘了填写或忘了删除。",
    reports=LoadProblemKind.EMPTY,
)
