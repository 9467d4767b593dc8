"""Helpers of the importer tests: render a record as a page of the format specification's
Markdown layout (``templates/api.md.j2`` beside this file, the layout the site rendered before it
rendered HTML itself, and the one legacy pages follow), compare pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from apimap.checking.corpus import Entry
from apimap.publish.importer.inline import unescape
from apimap.publish.importer.record_data import record_fields
from apimap.publish.site import markdown, views
from apimap.record import derived
from apimap.record.categories import Category, RowKind
from apimap.record.model import Record
from apimap.record.pages import api_docname

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
_YAML_BREAKS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}


def _yaml_string(text: str) -> str:
    """``text`` as a double-quoted YAML scalar on one line (JSON string syntax)."""
    quoted = json.dumps(text, ensure_ascii=False)
    for raw, escaped in _YAML_BREAKS.items():
        quoted = quoted.replace(raw, escaped)
    return quoted


def _link(text: str, target: str | None) -> str:
    return markdown.inline(text) if target is None else markdown.link(text, target)


_ENV = Environment(
    loader=FileSystemLoader(str(Path(__file__).resolve().parent / "templates")),
    undefined=StrictUndefined,
    autoescape=False,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
_ENV.filters.update(
    {
        "inline": markdown.inline,
        "cell": markdown.cell,
        "code": markdown.code,
        "fence": markdown.fence,
        "link": _link,
        "yaml_string": _yaml_string,
    }
)

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_HEADING = re.compile(r"^(#{1,6})(\s.*)$")
_SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
_ANGLE_LINK = re.compile(r"\]\(<([^>]*)>\)")


def render_page(record: Record) -> str:
    """The site renderer's page for ``record`` (as unverified: a legacy page has no stamp)."""
    page = views.api_page(Entry(record, "", ""))
    text = _ENV.get_template("api.md.j2").render(docname=api_docname(record.torch_api), page=page)
    return text.rstrip("\n") + "\n"


_GENERATED_LEAD = re.compile(r"^(\[.*\]\{\.apimap-badge.*\}|TODO|未经验证的部分：.*)$")
"""Lines the site adds under the title that a legacy page never has: the verification badge,
and the Chinese name an imported record still owes (``TODO``)."""


def _without_site_frame(lines: list[str]) -> list[str]:
    """Drop the MyST front matter, the generated lines under the title and the footer."""
    if lines and lines[0] == "---" and "---" in lines[1:]:
        lines = lines[lines.index("---", 1) + 1 :]
    lines = [line for line in lines if not _GENERATED_LEAD.match(line.strip())]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    if len(lines) >= 2 and lines[-1].endswith("tables.md)") and "---" in lines[-3:]:
        lines = lines[: len(lines) - 3 + lines[-3:].index("---")]
    return lines


def _table_line(line: str) -> str:
    if _SEPARATOR.match(line):
        return "|" + "---|" * (line.count("|") - 1)
    cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
    return "| " + " | ".join(cells) + " |"


def _outside_fences(lines: list[str]) -> list[str]:
    outside: list[str] = []
    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            outside.append(line)
    return outside


def normalise(page: str) -> str:
    """``page`` with its layout differences from the specification normalised away.

    Whitespace (trailing spaces, blank-line runs, table cell padding), heading
    depth (the title becomes ``##`` as in the specification), the site's front
    matter and footer, ``<url>`` link destinations, Markdown backslash escapes
    and the dash count of table separator rows.
    """
    lines = _without_site_frame([line.rstrip() for line in page.splitlines()])
    in_fence = False
    top = min(
        (len(h.group(1)) for h in map(_HEADING.match, _outside_fences(lines)) if h), default=2
    )
    out: list[str] = []
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
            out.append(line.strip())
            continue
        if in_fence:
            out.append(line)
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            line = "#" * (len(heading.group(1)) - top + 2) + heading.group(2)
        line = unescape(_ANGLE_LINK.sub(r"](\1)", line))
        if line.startswith("|"):
            line = _table_line(line)
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip() + "\n"


def as_shown(record: Record) -> Record:
    """``record`` without what the site does not show: verification inputs, calls, probe
    acknowledgements, settings written as values, the torch-style names paddle accepts, the
    signature and section of a 功能缺失 record (it has no page), the device or process group a
    case needs, and whether a rewritten row
    of a usage-differs record differs in type or in usage (both say 需要转写; in a record of
    another category the importer reads a rewritten row as a type difference when its text
    talks about 类型 in its difference), and the value verify passes for a row whose remark does not show it
    (only a 参数不一致 remark of Paddle 更多 or 默认值不一致 says 需设置为 `value`)."""
    data = record_fields(record)
    for name in ("calls", "accepted", "alternatives"):  # alternatives: in the release section
        data.pop(name, None)
    # the torch-style names paddle takes show on the rows that name them (起也接受)
    shown = {
        name
        for row in record.params
        if derived.row_kind(row) is not RowKind.RETURN_DIFF
        for name in derived.torch_names(row)
    }
    accepts = {k: v for k, v in record.paddle_accepts.items() if k in shown}
    data.pop("paddle_accepts", None)
    if accepts:
        data["paddle_accepts"] = accepts
    for row in data.get("params", []):
        # a row that names paddle's own name for an accepted torch-style one reads the same
        # on a page as a row that leaves it to paddle_accepts: the importer writes the latter
        torch_names, paddle_names = (
            derived.names(row.get("torch")),
            derived.names(row.get("paddle")),
        )
        pairs = zip(torch_names, paddle_names, strict=False)
        if (
            paddle_names
            and len(torch_names) == len(paddle_names)
            and all(accepts.get(t) == p for t, p in pairs)
        ):
            row.pop("paddle")
    if record.category is Category.MISSING:
        for name in ("torch_signature", "section"):
            data.pop(name, None)
    shown_values = (RowKind.PADDLE_ONLY, RowKind.DEFAULT_DIFF)
    for row, model_row in zip(data.get("params", []), record.params, strict=True):
        row.pop("convert", None)
        if row.get("setting") or derived.row_kind(model_row) not in shown_values:
            row.pop("paddle_value", None)
        if row.get("kind") not in ("type_diff", "usage_diff"):
            continue
        if record.category is Category.INPUT_USAGE_DIFF:
            row["kind"] = "usage_diff"
        elif record.category is not Category.INPUT_TYPE_DIFF:
            row["kind"] = "type_diff" if "类型" in (row.get("diff") or "") else "usage_diff"
    for note in data.get("notes", []):
        note.pop("probes", None)
    cases = [case for example in data.get("examples", []) for case in example["cases"]]
    cases += [note["example"] for note in data.get("notes", []) if "example" in note]
    for case in cases:
        for name in ("inputs", "outputs", "rtol", "atol", "shape_only", "needs", "ranks"):
            case.pop(name, None)
        for side in ("torch", "paddle"):
            if case.get(side) is not None:
                case[side] = case[side].rstrip("\n") + "\n"
    return Record.model_validate(data)
