"""AM255: the record leaves out what can be derived."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Edit, Finding, Fix, Rule, Scope
from apimap.record import derived
from apimap.record.categories import guessed_section
from apimap.record.links import default_paddle_url, default_torch_url
from apimap.record.location import Path
from apimap.record.model import ParamRow, Record


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
    if record.section is not None and record.section is guessed_section(record.torch_api):
        yield ("section",), f"section: {record.section} 可由 API 名称推导 (follows from the name)"
    for index, row in enumerate(record.params):
        if row.desc is not None and row.desc == derived.default_desc(row):
            yield ("params", index, "desc"), f"`{row.torch}` 的通用含义 (the common meaning)"
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


def _calls_inputs(ctx: RecordContext) -> list[object]:
    """Each call's ``inputs`` as the file writes it (``None`` where it writes none)."""
    calls = ctx.doc.data.get("calls") if isinstance(ctx.doc.data, dict) else None
    if not isinstance(calls, list):
        return []
    return [call.get("inputs") if isinstance(call, dict) else None for call in calls]


def shareable_inputs(record: Record, written: list[object]) -> dict[str, str] | None:
    """The inputs two or more calls write alike, when the record has no shared ``inputs`` and
    every call writes its own (a call that writes none would take them on): written once at the
    record's level, the calls may leave them out."""
    if record.inputs or len(written) < 2 or any(inputs is None for inputs in written):
        return None
    # in the order written: inputs drawn from NumPy's seeded generator depend on it
    counts = Counter(
        tuple(inputs.items()) for inputs in written if isinstance(inputs, dict) and inputs
    )
    if not counts:
        return None
    common, times = counts.most_common(1)[0]
    return dict(common) if times >= 2 else None


def _repeated_inputs(written: list[object], shared: dict[str, str]) -> Iterator[tuple[Path, str]]:
    """The calls' ``inputs`` that the record's shared ``inputs`` hold (or would hold)."""
    if not shared:
        return
    for index, inputs in enumerate(written):
        if isinstance(inputs, dict) and list(inputs.items()) == list(shared.items()):
            yield (
                ("calls", index, "inputs"),
                "与其他调用相同，写在记录的 inputs 中 (shared: write them once, at the record)",
            )


def _found(ctx: RecordContext) -> tuple[list[tuple[Path, str]], dict[str, str] | None]:
    """What the record need not write, and the inputs to write once at its level (if any)."""
    written = _calls_inputs(ctx)
    new = shareable_inputs(ctx.record, written)
    repeated = _repeated_inputs(written, ctx.record.inputs or new or {})
    return [*_derivable(ctx), *repeated], new


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Each value the record need not write."""
    for path, detail in _found(ctx)[0]:
        yield Finding(ctx.key_loc(*path), detail)


def edits(ctx: RecordContext) -> list[Edit]:
    """Delete the derivable values; inputs two calls repeat move to the record."""
    derivable, shared = _found(ctx)
    found = [Edit(path, None) for path, _detail in derivable]
    if shared is not None:
        found.append(Edit(("inputs",), shared))
    return found


RULE = Rule(
    "AM255",
    "写了可以推导的值 (value can be derived)",
    Scope.RECORD,
    Severity.ERROR,
    "删除该字段：同名参数省略 paddle，same/rename 省略 kind，默认位置的文档链接、按名称推导出的 "
    "section、常用参数名的通用含义不写，多个调用相同的 inputs 写在记录一级 (delete it; apimap derives it)",
    why="能推导的值写出来只会多一处可能写错的地方；记录只写推导不出的事实。",
    check=check,
    fix=Fix("删除可推导的值 (delete derivable values)", edits),
)
