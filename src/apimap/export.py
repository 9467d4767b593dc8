"""``apimap export``: the knowledge base as one versioned JSON document for converters.

Per torch API: the Paddle target, the category (id, Chinese label, group),
parameter renames, torch-only parameters with what to do about them,
Paddle-only parameters, defaults a converter must inject (default_diff rows:
the Paddle parameter is set to the torch default), the rows that need a
rewrite, aliases and verified versions. Plus an alias index and a reverse
index (Paddle API -> torch APIs). Keys are sorted and lists keep a stable
order, so the same records always give byte-identical output.

The document's JSON Schema is generated from the models below
(``apimap export --schema``) and committed as ``schema/export.schema.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from apimap.categories import Action, Category, RowKind
from apimap.model import ParamRow, Record
from apimap.render import phrases
from apimap.render.corpus import RenderError, load_entries

SCHEMA_VERSION: Final = "1.0"
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


class TorchOnlyParam(_Model):
    """Paddle 没有的 PyTorch 参数 / a torch parameter paddle lacks."""

    param: str
    action: Action | None
    """rewrite 需要转写, none 暂无转写方式, delete 可直接删除; null: not stated."""


class PaddleOnlyParam(_Model):
    """PyTorch 没有的 Paddle 参数 / a paddle parameter torch lacks."""

    param: str
    setting: str | None
    """如何设置；null 表示保持默认 / how to set it; null: keep the default."""


class DefaultSetting(_Model):
    """默认值不同、需按说明设置的参数 / a default difference with its own instruction."""

    torch: str
    paddle: str
    setting: str


class Difference(_Model):
    """用法或类型不一致、需要转写的参数或返回值 / a row that needs a rewrite."""

    torch: str | None
    paddle: str | None
    kind: RowKind
    action: Action | None
    diff: str | None


class ExportedApi(_Model):
    """一个 PyTorch API 的映射 / the mapping of one torch API."""

    paddle_api: str | None
    """null：组合替代实现或功能缺失 / none for composite and missing."""
    paddle_package: str | None
    category: CategoryInfo
    section: str | None
    torch_signatures: list[str]
    paddle_signature: str | None
    renames: dict[str, str]
    """PyTorch 参数名 → Paddle 参数名（仅名称不同、用法一致的参数）/ torch name -> paddle name."""
    torch_only: list[TorchOnlyParam]
    paddle_only: list[PaddleOnlyParam]
    inject_defaults: dict[str, str]
    """Paddle 参数 → 应设置的值（PyTorch 默认值的 Python 表达式）/ paddle param -> torch default."""
    default_settings: list[DefaultSetting]
    differences: list[Difference]
    paddle_param_aliases: dict[str, str]
    paddle_skip_first: bool
    aliases: list[str]
    reason: str | None
    verified: dict[str, str] | None
    """验证所用的库版本，库名 → 版本 / library -> version the record was verified with."""


class ExportDocument(_Model):
    """apimap 知识库导出 / the apimap knowledge base export."""

    schema_version: Literal["1.0"]
    apis: dict[str, ExportedApi]
    """PyTorch API 全称 → 映射 / torch API -> mapping."""
    aliases: dict[str, str]
    """PyTorch 别名 → 记录的 API / torch alias -> the API of its record."""
    reverse: dict[str, list[str]]
    """Paddle API → 映射到它的 PyTorch API 与别名（排序）/ paddle API -> torch APIs."""


def _inject(record: Record, row: ParamRow) -> tuple[str, str] | None:
    default = phrases.row_defaults(record, row).torch
    if row.setting is not None or row.paddle is None or default is None:
        return None
    return row.paddle, default


def exported_api(record: Record) -> ExportedApi:
    """The export entry of one record."""
    rows = record.params
    injected = [
        pair for row in rows if row.kind is RowKind.DEFAULT_DIFF if (pair := _inject(record, row))
    ]
    return ExportedApi(
        paddle_api=record.paddle_api,
        paddle_package=record.paddle_package,
        category=CategoryInfo(
            id=record.category, label=record.category.label, group=record.category.group
        ),
        section=record.section.value if record.section else None,
        torch_signatures=record.torch_overloads,
        paddle_signature=record.paddle_signature,
        renames={
            row.torch: row.paddle
            for row in rows
            if row.kind in _RENAMING_KINDS and row.torch and row.paddle and row.torch != row.paddle
        },
        torch_only=[
            TorchOnlyParam(param=row.torch, action=row.action)
            for row in rows
            if row.kind is RowKind.TORCH_ONLY and row.torch
        ],
        paddle_only=[
            PaddleOnlyParam(param=row.paddle, setting=row.setting)
            for row in rows
            if row.kind is RowKind.PADDLE_ONLY and row.paddle
        ],
        inject_defaults=dict(injected),
        default_settings=[
            DefaultSetting(torch=row.torch, paddle=row.paddle, setting=row.setting)
            for row in rows
            if row.kind is RowKind.DEFAULT_DIFF and row.torch and row.paddle and row.setting
        ],
        differences=[
            Difference(
                torch=row.torch, paddle=row.paddle, kind=row.kind, action=row.action, diff=row.diff
            )
            for row in rows
            if row.kind in _DIFFERENCE_KINDS
        ],
        paddle_param_aliases=dict(record.paddle_param_aliases),
        paddle_skip_first=record.paddle_skip_first,
        aliases=list(record.aliases),
        reason=record.reason,
        verified=record.verified.model_dump(exclude_none=True) if record.verified else None,
    )


def export_document(records: list[Record]) -> ExportDocument:
    """The export of ``records`` (their order does not matter)."""
    ordered = sorted(records, key=lambda record: record.torch_api)
    reverse: dict[str, set[str]] = {}
    for record in ordered:
        if record.paddle_api is not None:
            reverse.setdefault(record.paddle_api, set()).update([record.torch_api, *record.aliases])
    return ExportDocument(
        schema_version=SCHEMA_VERSION,
        apis={record.torch_api: exported_api(record) for record in ordered},
        aliases={alias: record.torch_api for record in ordered for alias in record.aliases},
        reverse={paddle: sorted(torch) for paddle, torch in sorted(reverse.items())},
    )


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def export_text(records: list[Record]) -> str:
    """The export document as deterministic JSON text."""
    return _dumps(export_document(records).model_dump(mode="json"))


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
    except RenderError as exc:
        print(
            "apimap export: 记录有误，未导出 (records are broken, nothing exported)",
            file=sys.stderr,
        )
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    _write(export_text([entry.record for entry in entries]), args.output)
    return 0


def add_parser(commands: Any) -> None:
    """Register ``export`` on the subcommand parsers of ``apimap``."""
    parser = commands.add_parser(
        "export", help="把知识库导出为一个 JSON 文档 (export the knowledge base as JSON)"
    )
    parser.add_argument("--mappings", default="mappings", help="记录目录，默认 mappings/")
    parser.add_argument("--output", help="输出文件；默认写到标准输出 (default: stdout)")
    parser.add_argument(
        "--schema", action="store_true", help="输出导出文档的 JSON Schema (write the JSON Schema)"
    )
    parser.set_defaults(handler=run_command)
