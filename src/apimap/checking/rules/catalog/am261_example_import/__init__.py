"""AM261: example code imports only the frameworks and a short list of harmless modules."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.example_code import Concern, findings


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Imports and members of ``os``, ``io``, ``pathlib`` and ``tempfile`` beyond the allowed."""
    yield from findings(ctx, Concern.IMPORT)


RULE = Rule(
    "AM261",
    "示例导入了不允许的模块 (example code imports a module it may not use)",
    Scope.RECORD,
    Severity.ERROR,
    "只导入 torch、torchvision、paddle、numpy、PIL 与 math、random 等无害模块；"
    "临时文件用 tempfile 与 os.path.join (import only the frameworks and harmless modules)",
    why="apimap verify 会在维护者的机器与 CI 中运行记录里的代码；示例只需要框架本身，"
    "os、sys、subprocess、socket、shutil 等能操作系统的模块一律不可导入，"
    "os 只能用 os.path 拼接路径。",
    check=check,
)
