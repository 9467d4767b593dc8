"""AM255: the record leaves out what can be derived."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Edit, Finding, Fix, Rule, Scope
from apimap.record import derived
from apimap.record.links import default_paddle_url, default_torch_url
from apimap.record.location import Path
from apimap.record.model import ParamRow


def _derivable(ctx: RecordContext) -> Iterator[tuple[Path, str]]:
    record = ctx.record
    if record.torch_url is not None and record.torch_url == default_torch_url(record.torch_api):
        yield ("torch_url",), "torch_url 与按名称生成的链接相同 (equals the derived link)"
    if (
        record.paddle_url is not None
        and record.paddle_api is not None
        and record.paddle_url == default_paddle_url(record.paddle_api)
    ):
        yield ("paddle_url",), "paddle_url 与按名称生成的链接相同 (equals the derived link)"
    for index, row in enumerate(record.params):
        if row.kind is not None and row.kind is derived.row_kind(_without_kind(row)):
            yield (
                ("params", index, "kind"),
                f"kind: {row.kind} 可由名称推导 (follows from the names)",
            )
        if (
            row.paddle is not None
            and row.torch is not None
            and row.kind in derived.SAME_NAME_KINDS
            and derived.names(row.paddle) == derived.names(row.torch)
        ):
            yield ("params", index, "paddle"), "paddle 与 torch 同名 (same name as torch)"


def _without_kind(row: ParamRow) -> ParamRow:
    return row.model_copy(update={"kind": None})


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each value the record need not write."""
    for path, detail in _derivable(ctx):
        yield Finding(ctx.key_loc(*path), detail)


def edits(ctx: RecordContext) -> list[Edit]:
    """Delete the derivable values."""
    return [Edit(path, None) for path, _detail in _derivable(ctx)]


RULE = Rule(
    "AM255",
    "写了可以推导的值 (value can be derived)",
    Scope.RECORD,
    Severity.ERROR,
    "删除该字段：同名参数省略 paddle，same/rename 省略 kind，默认位置的文档链接不写 "
    "(delete it; apimap derives it)",
    why="能推导的值写出来只会多一处可能写错的地方；记录只写推导不出的事实。",
    check=check,
    fix=Fix("删除可推导的值 (delete derivable values)", edits),
)
