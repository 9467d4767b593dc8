"""Bring record data written in record format 1 into format 2 (``apimap fmt`` does this).

Format 2 renamed fields whose names misled (``aliases`` -> ``torch_aliases``,
``paddle_param_aliases`` -> ``paddle_accepts``, ``paddle_skip_first`` ->
``self_param`` naming the parameter), moved the verification stamp out of the
record (``verified`` -> a stamp file written by ``apimap verify --update``),
turned the free ``reason`` of 功能缺失 into a structured ``missing`` block and
``no_value_compare`` into ``shape_only``, added the API type and a Chinese
name, and lets records leave out what can be derived. What only a person can
decide is written as ``TODO``, which ``apimap check`` reports (AM702).
"""

from __future__ import annotations

from typing import Any

from apimap.record.categories import guessed_section
from apimap.record.links import default_paddle_url, default_torch_url
from apimap.record.phrases import DEFAULT_DESCRIPTIONS, TODO_MARKER
from apimap.record.signature import SignatureError, parse_signature

_RENAMED = {"aliases": "torch_aliases", "paddle_param_aliases": "paddle_accepts"}
_V1_KEYS = {"aliases", "paddle_param_aliases", "paddle_skip_first", "verified", "reason"}


def is_format_one(data: dict[str, Any]) -> bool:
    """Whether ``data`` uses a field of record format 1."""
    if _V1_KEYS & data.keys() or "zh_name" not in data:
        return True
    examples = _dicts(data.get("examples"))
    cases = [case for example in examples for case in _dicts(example.get("cases"))]
    cases += [note["example"] for note in _dicts(data.get("notes")) if "example" in note]
    return any(isinstance(case, dict) and "no_value_compare" in case for case in cases)


def _dicts(value: Any) -> list[dict[str, Any]]:
    """The mappings in ``value`` when it is a list (data of any shape may be asked)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """The format 2 form of ``data`` (a new dict; ``data`` is left as it is)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in _RENAMED:
            out[_RENAMED[key]] = value
        elif key == "paddle_skip_first":
            if value is True:
                out["self_param"] = _first_paddle_param(data) or TODO_MARKER
        elif key == "verified":
            continue
        elif key == "reason":
            guessed = missing_reason(value) if isinstance(value, str) else None
            out["missing"] = {"reason": guessed, "detail": value} if guessed else {"detail": value}
        elif key == "params" and isinstance(value, list):
            out[key] = [_row(row) for row in value]
        elif key == "examples" and isinstance(value, list):
            out[key] = [_example(example) for example in value]
        elif key == "notes" and isinstance(value, list):
            out[key] = [_note(note) for note in value]
        else:
            out[key] = value
    _drop_default_links(out)
    if "zh_name" not in out:
        out["zh_name"] = TODO_MARKER
    api_type = _api_type(out)
    if api_type is not None and "api_type" not in out:
        out["api_type"] = api_type
    return out


def _first_paddle_param(data: dict[str, Any]) -> str | None:
    text = data.get("paddle_signature")
    if isinstance(text, list):
        text = text[0] if text else None
    if not isinstance(text, str):
        return None
    try:
        params = parse_signature(text).params
    except SignatureError:
        return None
    return params[0].name if params else None


def _row(row: Any) -> Any:
    if not isinstance(row, dict):
        return row
    out = dict(row)
    kind = out.get("kind")
    same_name = out.get("paddle") == out.get("torch")
    if kind in {None, "same"} and (same_name or "paddle" not in out):
        out.pop("kind", None)
        out.pop("paddle", None)
    elif kind == "rename" and "paddle" in out and not same_name:
        out.pop("kind")
    elif kind in {"default_diff", "type_diff", "usage_diff"} and same_name and "paddle" in out:
        out.pop("paddle")
    return out


def _case(case: Any) -> Any:
    if not isinstance(case, dict) or "no_value_compare" not in case:
        return case
    out = {key: value for key, value in case.items() if key != "no_value_compare"}
    outputs = case.get("outputs")
    names = outputs if isinstance(outputs, list) and outputs else [TODO_MARKER]
    out["shape_only"] = {name: "random" for name in names}
    return out


def _example(example: Any) -> Any:
    if not isinstance(example, dict) or not isinstance(example.get("cases"), list):
        return example
    return {**example, "cases": [_case(case) for case in example["cases"]]}


def _note(note: Any) -> Any:
    if not isinstance(note, dict) or "example" not in note:
        return note
    return {**note, "example": _case(note["example"])}


def minimal(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the values format 2 derives (same-name paddle sides, same/rename kinds,
    the common meaning of a parameter name, links at their default place, the section the API's
    name points to)."""
    out = dict(data)
    if isinstance(out.get("params"), list):
        out["params"] = [_without_common_desc(_row(row)) for row in out["params"]]
    _drop_default_links(out)
    api = out.get("torch_api")
    if isinstance(api, str) and out.get("section") == guessed_section(api).value:
        del out["section"]
    return out


def _without_common_desc(row: Any) -> Any:
    if not isinstance(row, dict) or row.get("desc") is None:
        return row
    torch = row.get("torch")
    if isinstance(torch, str) and DEFAULT_DESCRIPTIONS.get(torch) == row["desc"]:
        return {key: value for key, value in row.items() if key != "desc"}
    return row


_REASON_WORDS = (
    ("deprecated", ("弃用", "废弃", "deprecated")),
    ("experimental", ("实验", "不稳定", "experimental")),
    ("needs_kernels", ("底层", "算子", "kernel")),
    ("design_differs", ("设计", "差异过大", "差异较大")),
    ("cheap", ("可新增", "易于实现", "可以实现")),
)


def missing_reason(text: str) -> str | None:
    """The reason class a legacy 功能缺失 text names in words, or ``None`` when it names none."""
    for reason, words in _REASON_WORDS:
        if any(word in text for word in words):
            return reason
    return None


def _drop_default_links(out: dict[str, Any]) -> None:
    api, paddle = out.get("torch_api"), out.get("paddle_api")
    if "torch_url" in out and isinstance(api, str) and out["torch_url"] == default_torch_url(api):
        del out["torch_url"]
    if (
        "paddle_url" in out
        and isinstance(paddle, str)
        and out["paddle_url"] == default_paddle_url(paddle)
    ):
        del out["paddle_url"]


def _api_type(out: dict[str, Any]) -> str | None:
    """A first guess from the name; ``apimap verify`` checks it against the library."""
    api = out.get("torch_api")
    if not isinstance(api, str):
        return None
    parts = api.split(".")
    if len(parts) >= 3 and parts[-2][:1].isupper():
        return "method" if out.get("torch_signature") else "attribute"
    if parts[-1][:1].isupper():
        return "class"
    return None
