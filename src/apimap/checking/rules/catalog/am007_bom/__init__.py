"""AM007: the file does not start with a byte-order mark (reported by the loader)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import LoadProblemKind

RULE = Rule(
    "AM007",
    "文件以 BOM 开头 (file starts with a byte-order mark)",
    Scope.FILE,
    Severity.WARNING,
    "以不带 BOM 的 UTF-8 保存 (save as UTF-8 without BOM)",
    why="BOM 在差异对比中不可见，却会让文件在字节上与规范格式不同。",
    reports=LoadProblemKind.BOM,
)
