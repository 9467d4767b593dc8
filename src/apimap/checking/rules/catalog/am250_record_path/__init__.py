"""AM250: the file path is derived from the API name."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record.paths import record_path


def check(ctx: RecordContext) -> Iterator[Finding]:
    """``torch.nn.Conv2d`` lives at ``mappings/torch/nn/torch.nn.^Conv2d.yaml``."""
    expected = record_path(ctx.record.torch_api)
    if ctx.relpath is None:
        yield Finding(
            ctx.loc("torch_api"),
            "记录不在 mappings/ 目录下 (record is outside mappings/)",
            f"移动到 mappings/{expected} (move it there)",
        )
    elif ctx.relpath != expected:
        yield Finding(
            ctx.loc("torch_api"),
            f"应为 mappings/{expected} (expected path)",
            f"git mv 到 mappings/{expected}；大写字母前加 ^ (uppercase letters get a ^ prefix)",
        )


RULE = Rule(
    "AM250",
    "文件路径与 API 名称不符 (file path does not match the API)",
    Scope.RECORD,
    Severity.ERROR,
    "按 API 名称放置文件 (place the file by its API name)",
    why="路径由名称推导，任何人都能直接找到一个 API 的记录；大写字母前加 ^，在不区分大小写的磁盘上也不冲突。",
    check=check,
)
