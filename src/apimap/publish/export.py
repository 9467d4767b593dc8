"""``apimap export``: the knowledge base as one versioned JSON document for converters.

Per torch API: its type and Chinese name, the Paddle target, the category
(id, Chinese label, group), parameter renames, torch-only parameters with what
to do about them, Paddle-only parameters and the values they must take,
defaults a converter must inject (default_diff rows: the Paddle parameter is
set to the torch default), the rows that need a rewrite, aliases, the in-place
variant, the 功能缺失 reason, and what verification proved (from the stamp). Plus an alias index and a reverse
index (Paddle API -> torch APIs). Keys are sorted and lists keep a stable
order, so the same records always give byte-identical output.

The document's JSON Schema is generated from the models below
(``apimap export --schema``) and committed as ``schema/export.schema.json``.
``apimap export --format paddle-docs DIR`` writes Markdown pages instead
(:mod:`apimap.publish.paddle_docs`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from apimap.checking.corpus import CorpusError, Entry, load_entries
from apimap.files.releases import guide
from apimap.files.stamps import Stamp
from apimap.record import derived
from apimap.record.categories import Action, ApiType, Category, MissingReason, RowKind
from apimap.record.model import ParamRow, Record
from apimap.record.pins import PADDLE_VERSION

SCHEMA_VERSION: Final = "3.0"
EXPORT_SCHEMA_PATH = "schema/export.schema.json"
EXPORT_SCHEMA_ID = "https://apimap.invalid/schema/export.schema.json"

_RENAMING_KINDS = (RowKind.SAME, RowKind.RENAME, RowKind.DEFAULT_DIFF)
_DIFFERENCE_KINDS = (RowKind.TYPE_DIFF, RowKind.USAGE_DIFF, RowKind.RETURN_DIFF)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class CategoryInfo(_Model):
    """映射分类 / the mapping category."""

    id: Category
    label: str
    """中文名称 / Chinese name."""
    group: int = Field(ge=1, le=7)
    """规范中的大类 1–7 / the specification's category number."""


class ConditionalActionInfo(_Model):
    """某个条件下的处理方式 / what to do under one condition."""

    when: str
    action: Action


class TorchOnlyParam(_Model):
    """Paddle 没有的 PyTorch 参数 / a torch parameter paddle lacks."""

    param: str
    action: Action | None
    """rewrite 需要转写, none 暂无转写方式, delete 可直接删除; null: not stated, or conditional."""
    conditional: list[ConditionalActionInfo]
    """处理方式取决于条件时，每个条件一项 / one entry per condition when what to do depends on one."""


class PaddleOnlyParam(_Model):
    """PyTorch 没有的 Paddle 参数 / a paddle parameter torch lacks."""

    param: str
    setting: str | None
    """如何设置；null 表示保持默认 / how to set it; null: keep the default."""
    value: str | None
    """与 PyTorch 行为一致时应传的值（Python 表达式）/ the value to pass, a Python expression."""


class DefaultSetting(_Model):
    """默认值不同、需按说明设置的参数 / a default difference with its own instruction."""

    torch: str
    paddle: str
    setting: str


class Difference(_Model):
    """用法或类型不一致、需要转写的参数或返回值 / a row that needs a rewrite."""

    torch: list[str]
    paddle: list[str]
    kind: RowKind
    action: Action | None
    conditional: list[ConditionalActionInfo]
    diff: str | None
    convert: str | None
    """把 PyTorch 实参 `value` 转为 Paddle 实参的表达式 / converts the torch argument ``value``."""


class MissingInfo(_Model):
    """功能缺失的原因 / why paddle has no counterpart."""

    reason: MissingReason | None
    label: str | None
    detail: str
    instead: str | None


class WayInfo(_Model):
    """在某个 Paddle 版本上可用的写法 / a way to write the call that works on a release."""

    kind: str
    """drop_in 只改 API 名、accepting 沿用 PyTorch 参数名、portable 使用 Paddle 自己的参数名、
    rewrite 改写（见 alternatives）、examples 按示例改写 / how much changes, least first."""
    api: str | None


class ReleaseInfo(_Model):
    """在一个 Paddle 版本上测量的结果 / what verify measured on one paddle release."""

    same_as_pinned: bool
    """与固定版本的写法相同 / needs what the pinned release needs."""
    api: bool
    """paddle_api 存在 / the paddle API exists there."""
    unaccepted: dict[str, str]
    """不接受的 PyTorch 风格参数名 → 应写的 Paddle 参数名 / torch-style names not taken."""
    missing_params: list[str]
    """记录的 Paddle 签名中该版本没有的参数 / recorded paddle parameters missing there."""
    ways: list[WayInfo]
    """可用的写法，改动最少的在前 / the ways that work there, fewest changes first."""


class Verification(_Model):
    """验证结果 / what ``apimap verify`` proved."""

    versions: dict[str, str]
    complete: bool
    unproven: list[str]
    date: str
    paddle_releases: dict[str, ReleaseInfo]
    """Paddle 版本 → 测量结果（只含测量过的版本）/ release -> what was measured there."""


class InplaceInfo(_Model):
    """原位版本 / the in-place variant."""

    torch: str
    paddle: str


class ExportedApi(_Model):
    """一个 PyTorch API 的映射 / the mapping of one torch API."""

    api_type: ApiType
    zh_name: str
    paddle_api: str | None
    """null：组合替代实现或功能缺失 / none for composite and missing."""
    paddle_package: str | None
    category: CategoryInfo
    section: str | None
    torch_signatures: list[str]
    paddle_signatures: list[str]
    renames: dict[str, list[str]]
    """PyTorch 参数名 → Paddle 参数名（用法一致、名称不同；一对多时多个）/ torch -> paddle names."""
    torch_only: list[TorchOnlyParam]
    paddle_only: list[PaddleOnlyParam]
    inject_defaults: dict[str, str]
    """Paddle 参数 → 应设置的值（PyTorch 默认值的 Python 表达式）/ paddle param -> torch default."""
    default_settings: list[DefaultSetting]
    differences: list[Difference]
    paddle_accepts: dict[str, str]
    """Paddle 也接受的 PyTorch 风格参数名 → Paddle 参数 / torch-style names paddle accepts."""
    self_param: str | None
    """Tensor 方法映射为函数时接收该 Tensor 的 Paddle 参数 / receives the method's object."""
    aliases: list[str]
    inplace: InplaceInfo | None
    missing: MissingInfo | None
    verified: Verification | None
    """null：没有当前的验证标记 / no current stamp."""


class ExportDocument(_Model):
    """apimap 知识库导出 / the apimap knowledge base export."""

    schema_version: Literal["3.0"]
    apis: dict[str, ExportedApi]
    """PyTorch API 全称 → 映射 / torch API -> mapping."""
    aliases: dict[str, str]
    """PyTorch 别名 → 记录的 API / torch alias -> the API of its record."""
    reverse: dict[str, list[str]]
    """Paddle API → 映射到它的 PyTorch API 与别名（排序）/ paddle API -> torch APIs."""


def default_injection(record: Record, row: ParamRow) -> tuple[str, str] | None:
    paddle_side = derived.paddle_names(row)
    if row.setting is not None or len(paddle_side) != 1:
        return None
    value = row.paddle_value or derived.row_defaults(record, row).torch
    return None if value is None else (paddle_side[0], value)


def _conditional(row: ParamRow) -> list[ConditionalActionInfo]:
    return [ConditionalActionInfo(when=entry.when, action=entry.action) for entry in row.actions]


def _releases(record: Record, stamp: Stamp) -> dict[str, ReleaseInfo]:
    found = guide(record, stamp)
    if found is None:
        return {}
    pinned = found.by_release[PADDLE_VERSION]
    return {
        version: ReleaseInfo(
            same_as_pinned=there == pinned,
            api=there.api,
            unaccepted=dict(there.unaccepted),
            missing_params=list(there.missing_params),
            ways=[WayInfo(kind=way.kind.name.lower(), api=way.api) for way in there.ways],
        )
        for version, there in found.by_release.items()
        if there.measured
    }


def _verification(record: Record, stamp: Stamp | None) -> Verification | None:
    if stamp is None:
        return None
    return Verification(
        versions=dict(stamp.versions),
        complete=stamp.complete,
        unproven=list(stamp.proven.unproven),
        date=stamp.date,
        paddle_releases=_releases(record, stamp),
    )


def exported_api(entry: Entry) -> ExportedApi:
    """The export entry of one record."""
    record = entry.record
    rows = record.params
    kinds = [derived.row_kind(row) for row in rows]
    category = derived.category(record)
    injected = [
        pair
        for row, kind in zip(rows, kinds, strict=True)
        if kind is RowKind.DEFAULT_DIFF
        if (pair := default_injection(record, row))
    ]
    missing = record.missing
    return ExportedApi(
        api_type=record.api_type,
        zh_name=record.zh_name,
        paddle_api=record.paddle_api,
        paddle_package=record.paddle_package,
        category=CategoryInfo(id=category, label=category.label, group=category.group),
        section=derived.section(record).value,
        torch_signatures=record.torch_overloads,
        paddle_signatures=record.paddle_overloads,
        renames={
            derived.torch_names(row)[0]: derived.paddle_names(row)
            for row, kind in zip(rows, kinds, strict=True)
            if kind in _RENAMING_KINDS
            and derived.torch_names(row)
            and derived.paddle_names(row) != derived.torch_names(row)
        },
        torch_only=[
            TorchOnlyParam(param=name, action=row.action, conditional=_conditional(row))
            for row, kind in zip(rows, kinds, strict=True)
            if kind is RowKind.TORCH_ONLY
            for name in derived.torch_names(row)
        ],
        paddle_only=[
            PaddleOnlyParam(param=name, setting=row.setting, value=row.paddle_value)
            for row, kind in zip(rows, kinds, strict=True)
            if kind is RowKind.PADDLE_ONLY
            for name in derived.paddle_names(row)
        ],
        inject_defaults=dict(injected),
        default_settings=[
            DefaultSetting(
                torch=derived.torch_names(row)[0],
                paddle=derived.paddle_names(row)[0],
                setting=row.setting,
            )
            for row, kind in zip(rows, kinds, strict=True)
            if kind is RowKind.DEFAULT_DIFF and row.setting and derived.paddle_names(row)
        ],
        differences=[
            Difference(
                torch=derived.torch_names(row),
                paddle=derived.paddle_names(row),
                kind=kind,
                action=row.action,
                conditional=_conditional(row),
                diff=row.diff,
                convert=row.convert,
            )
            for row, kind in zip(rows, kinds, strict=True)
            if kind in _DIFFERENCE_KINDS
        ],
        paddle_accepts=dict(record.paddle_accepts),
        self_param=record.self_param,
        aliases=list(record.torch_aliases),
        inplace=(
            InplaceInfo(torch=record.inplace.torch, paddle=record.inplace.paddle)
            if record.inplace
            else None
        ),
        missing=(
            MissingInfo(
                reason=missing.reason,
                label=missing.reason.label if missing.reason else None,
                detail=missing.detail,
                instead=missing.instead,
            )
            if missing
            else None
        ),
        verified=_verification(record, entry.stamp),
    )


def export_document(entries: list[Entry]) -> ExportDocument:
    """The export of ``entries`` (their order does not matter)."""
    ordered = sorted(entries, key=lambda entry: entry.api)
    reverse: dict[str, set[str]] = {}
    for entry in ordered:
        record = entry.record
        if record.paddle_api is not None:
            names = [record.torch_api, *record.torch_aliases]
            reverse.setdefault(record.paddle_api, set()).update(names)
        if record.inplace is not None:
            reverse.setdefault(record.inplace.paddle, set()).add(record.inplace.torch)
    return ExportDocument(
        schema_version=SCHEMA_VERSION,
        apis={entry.api: exported_api(entry) for entry in ordered},
        aliases={alias: entry.api for entry in ordered for alias in entry.record.torch_aliases},
        reverse={paddle: sorted(torch) for paddle, torch in sorted(reverse.items())},
    )


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def export_text(entries: list[Entry]) -> str:
    """The export document as deterministic JSON text."""
    return _dumps(export_document(entries).model_dump(mode="json"))


def export_schema_text() -> str:
    """The JSON Schema of the export document, as committed."""
    document: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": EXPORT_SCHEMA_ID,
    }
    document.update(ExportDocument.model_json_schema())
    return _dumps(document)


def _write(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    target = Path(output)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(target)
    print(f"已写入 (wrote) {target}", file=sys.stderr)


def run_command(args: argparse.Namespace) -> int:
    """Write the export (or its schema) to ``--output`` or standard output."""
    if args.schema:
        _write(export_schema_text(), args.output)
        return 0
    try:
        entries = load_entries(Path(args.mappings))
    except CorpusError as exc:
        print(
            "apimap export: 记录有误，未导出 (records are broken, nothing exported)",
            file=sys.stderr,
        )
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    if args.format == "paddle-docs":
        from apimap.publish import paddle_docs

        if args.directory is None:
            print("apimap export: --format paddle-docs 需要输出目录 (needs DIR)", file=sys.stderr)
            return 2
        written = paddle_docs.write_pages(entries, Path(args.directory))
        print(f"已写入 (wrote) {len(written)} 个页面 (pages) → {args.directory}", file=sys.stderr)
        return 0
    _write(export_text(entries), args.output)
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap export``."""
    parser.add_argument("--mappings", default="mappings", help="记录目录，默认 mappings/")
    parser.add_argument("--output", help="输出文件；默认写到标准输出 (default: stdout)")
    parser.add_argument(
        "--schema", action="store_true", help="输出导出文档的 JSON Schema (write the JSON Schema)"
    )
    parser.add_argument(
        "--format",
        choices=("json", "paddle-docs"),
        default="json",
        help="json：一个 JSON 文档；paddle-docs：每条记录一个上游文档仓库格式的 Markdown 页面，"
        "写入 DIR (one JSON document, or one upstream-layout Markdown page per record into DIR)",
    )
    parser.add_argument(
        "directory", nargs="?", metavar="DIR", help="paddle-docs 页面的输出目录 (pages go here)"
    )
    parser.set_defaults(handler=run_command)
