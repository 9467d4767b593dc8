"""Turn parsed YAML into a :class:`Record`, translating schema errors into problems."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from apimap.files.loader import Document
from apimap.files.problems import SchemaProblemKind
from apimap.record.location import Loc, Path
from apimap.record.model import Record

_YAML11_BOOLEANS = {"yes", "no", "on", "off", "y", "n", "Yes", "No", "On", "Off", "True", "False"}


@dataclass(frozen=True)
class SchemaProblem:
    """One schema error: its kind, where, the specific detail, and optionally a better hint."""

    kind: SchemaProblemKind
    loc: Loc
    detail: str
    hint: str | None = None


def validate(doc: Document) -> tuple[Record | None, list[SchemaProblem]]:
    """Validate the document; on failure return one problem per schema error and place."""
    try:
        return Record.model_validate(doc.data), []
    except ValidationError as exc:
        by_place: dict[tuple[SchemaProblemKind, int, int], SchemaProblem] = {}
        for error in exc.errors(include_url=False):
            problem = _problem(doc, error)
            by_place.setdefault((problem.kind, *problem.loc), problem)
        return None, list(by_place.values())


def _model_at(path: Path) -> type[BaseModel] | None:
    """The model class that owns the mapping at ``path`` (for field suggestions)."""
    model: type[BaseModel] | None = Record
    for part in path:
        if model is None or isinstance(part, int):
            continue
        field = model.model_fields.get(part)
        model = _nested_model(field.annotation) if field else None
    return model


def _nested_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _nested_model(arg)
        if found is not None:
            return found
    return None


def _data_path(doc: Document, loc: tuple[int | str, ...]) -> Path:
    """Drop the union-branch labels pydantic adds (``str``, ``list[...]``) from a path."""
    path: list[int | str] = []
    value: Any = doc.data
    for part in loc:
        if isinstance(value, dict) and part in value:
            value = value[part]
            path.append(part)
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
            path.append(part)
        elif isinstance(value, dict) and isinstance(part, str) and not _is_union_label(part):
            path.append(part)
            break
    return tuple(path)


def _is_union_label(part: str) -> bool:
    """Pydantic names union branches after their type (``str``, ``list[...]``)."""
    return "[" in part or part in {"str", "bool", "int", "float", "constrained-str"}


def _problem(doc: Document, error: Any) -> SchemaProblem:
    path = _data_path(doc, error["loc"])
    dotted = ".".join(str(part) for part in path) or "(顶层)"
    kind = error["type"]
    if kind == "extra_forbidden":
        model = _model_at(path[:-1])
        allowed = sorted(model.model_fields) if model else []
        close = difflib.get_close_matches(str(path[-1]), allowed, n=1)
        suggestion = f"你是想写 `{close[0]}` 吗？(did you mean)" if close else None
        return SchemaProblem(
            SchemaProblemKind.UNKNOWN_FIELD, doc.key_loc(path), f"`{dotted}`", suggestion
        )
    if kind == "missing":
        return SchemaProblem(SchemaProblemKind.MISSING_FIELD, doc.loc(path[:-1]), f"`{dotted}`")
    value = error.get("input")
    detail = f"`{dotted}`：{_explain(error)}"
    hint: str | None = None
    if isinstance(value, str) and value in _YAML11_BOOLEANS:
        hint = f"`{value}` 在 YAML 1.1 中是布尔值，这里只接受 true / false (write true or false)"
    elif isinstance(value, bool):
        hint = "若要写文本 true/false，请加引号 (quote it to keep the text)"
    elif value is None:
        hint = "值为空；填写内容或删除该字段 (fill in the value or delete the field)"
    return SchemaProblem(SchemaProblemKind.WRONG_VALUE, doc.loc(path), detail, hint)


def _explain(error: Any) -> str:
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "string_type":
        return "应为字符串 (expected a string)"
    if kind == "string_too_short":
        return "不能为空字符串 (must not be empty)"
    if kind == "string_pattern_mismatch":
        return f"格式不符合 {ctx.get('pattern')} (does not match the pattern)"
    if kind == "bool_type":
        return "应为 true 或 false (expected a boolean)"
    if kind in {"list_type", "too_short"}:
        return "应为非空列表 (expected a non-empty list)"
    if kind in {"model_type", "dict_type", "model_attributes_type"}:
        return "应为映射 (expected a mapping)"
    if kind == "enum":
        return f"取值应为 {ctx.get('expected')} 之一 (expected one of)"
    return str(error.get("msg", kind))
