"""AM001: the file is UTF-8 text without NUL or control characters (reported by the loader)."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.files.problems import LoadProblemKind

RULE = Rule(
    "AM001",
    "文件不是 UTF-8 文本 (file is not UTF-8 text)",
    Scope.FILE,
    Severity.ERROR,
    "以 UTF-8 编码保存为纯文本，去掉 NUL 与控制字符 (save as plain UTF-8 text)",
    why="其他编码与控制字符在不同编辑器和终端中显示不同，双向控制字符还能让文本看起来与实际内容不同。",
    reports=LoadProblemKind.ENCODING,
)
