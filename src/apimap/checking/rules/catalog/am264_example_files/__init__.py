"""AM264: example code opens files only inside a directory that ``tempfile`` made."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.example_code import Concern, findings


def check(ctx: RecordContext) -> Iterator[Finding]:
    """``open``, ``io.open`` and ``pathlib`` paths built from ``tempfile.mkdtemp()`` and
    literal parts that do not climb out of it."""
    yield from findings(ctx, Concern.FILE)


RULE = Rule(
    "AM264",
    "示例读写临时目录以外的文件 (example code touches files outside a temporary directory)",
    Scope.RECORD,
    Severity.ERROR,
    "路径写成 os.path.join(tempfile.mkdtemp(), 'x.pt') 或 pathlib.Path(tempfile.mkdtemp()) / 'x.pt'；"
    "需要类似文件的对象时用 io.BytesIO (build paths inside tempfile.mkdtemp())",
    why="演示保存与读取文件的示例只需要一个临时目录；打开其他位置的文件可能读到维护者机器上的机密，"
    "或改写不属于示例的文件。",
    check=check,
)
