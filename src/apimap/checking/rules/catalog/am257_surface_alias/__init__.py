"""AM257: every other name the public-surface table knows for the API is listed in its record."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Edit, Finding, Fix, Rule, Scope
from apimap.files.surface import load_surface
from apimap.record.location import Loc, Path


def _missing(ctx: RecordContext) -> Iterator[tuple[Path, Loc, list[str], list[str]]]:
    """``(field, where, listed, unnamed)`` for the API's aliases and the in-place variant's;
    ``where`` is the list when the record has one, else the name it would follow."""
    record = ctx.record
    listed = list(record.torch_aliases)
    unnamed = load_surface().unnamed([record.torch_api, *listed])
    if unnamed:
        where = ctx.key_loc("torch_aliases") if listed else ctx.loc("torch_api")
        yield ("torch_aliases",), where, listed, unnamed
    if record.inplace is not None:
        listed = list(record.inplace.aliases)
        unnamed = load_surface().unnamed([record.inplace.torch, *listed])
        if unnamed:
            where = ctx.key_loc("inplace", "aliases") if listed else ctx.loc("inplace", "torch")
            yield ("inplace", "aliases"), where, listed, unnamed


def check(ctx: RecordContext) -> Iterator[Finding]:
    """One finding per name the table knows and the record does not list."""
    for _field, where, _listed, unnamed in _missing(ctx):
        for name in unnamed:
            yield Finding(where, f"`{name}` 是同一 API 的另一个名称 (another name of the same API)")


def edits(ctx: RecordContext) -> list[Edit]:
    """Append the unnamed aliases to the list they belong to."""
    return [Edit(field, [*listed, *unnamed]) for field, _where, listed, unnamed in _missing(ctx)]


RULE = Rule(
    "AM257",
    "公开 API 表中的别名没有列出 (an alias of the public surface is not listed)",
    Scope.RECORD,
    Severity.ERROR,
    "把它加进 torch_aliases（原位版本的别名加进 inplace.aliases）"
    "(list it in torch_aliases, or in inplace.aliases for the in-place variant)",
    why=(
        "读者在代码里写的可能是别名（torch.concat、Tensor.clip_）；只有记录列出的名称才能在映射表、"
        "搜索与直接查找中找到，并在页面上显示为别名。"
    ),
    check=check,
    fix=Fix("把这些名称加进别名列表 (list the aliases)", edits),
)
