"""``apimap diff BASE [HEAD]``: what a change does to the knowledge base, for reviewers.

Git says which record files were added, deleted, modified or renamed between
two revisions (read-only commands only); both versions of each file are then
compared as records: category, parameter rows (with the values format 2 derives
filled in, so leaving out a derivable value is no change), calls, examples and
other fields. A changed scalar shows its old and new value
(``paddle_api: paddle.cuda.manual_seed → paddle.cuda.seed``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import ValidationError

from apimap.checking.rules.registry import FILE_PROBLEM_RULES
from apimap.files import loader
from apimap.files.git import RECORD_SUFFIXES, run_git, verify_revision
from apimap.record import derived
from apimap.record.categories import Category
from apimap.record.model import ParamRow
from apimap.record.paths import decode_name

SECTION_FIELDS = ("torch_api", "category", "params", "calls", "examples")
"""Fields reported on their own; every other changed field is listed with its values."""
SHOWN_LENGTH = 60
"""Longer values are cut in the Markdown report (the JSON report has them whole)."""
REPORT_VERSION = 2


@dataclass(frozen=True)
class Version:
    """One side of a record: where it is and what it holds (``data`` is ``None`` if unreadable)."""

    path: str
    data: dict[str, Any] | None
    problem: str = ""

    @property
    def api(self) -> str:
        """The declared torch API, or the one the file name encodes."""
        api = self.data.get("torch_api") if self.data else None
        return api if isinstance(api, str) else decode_name(PurePosixPath(self.path).stem)

    @property
    def category(self) -> str | None:
        """The declared category, if it is a string."""
        value = self.data.get("category") if self.data else None
        return value if isinstance(value, str) else None

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--format json``."""
        return {"api": self.api, "path": self.path, "category": self.category}


def _version(path: str, raw: bytes | None) -> Version:
    if raw is None:
        return Version(path, None, "缺失 (missing)")
    doc, problems = loader.load(raw)
    if doc is None:
        code = FILE_PROBLEM_RULES[problems[0].kind].code
        return Version(path, None, f"{code} 无法解析 (cannot parse)")
    return Version(path, doc.data)


@dataclass(frozen=True)
class FieldChange:
    """One changed field; ``old`` and ``new`` are kept when both are scalars (or absent)."""

    name: str
    old: Any = None
    new: Any = None
    scalar: bool = False

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--format json``."""
        found: dict[str, Any] = {"field": self.name}
        if self.scalar:
            found.update({"from": self.old, "to": self.new})
        return found

    def markdown(self) -> str:
        """``name`` alone, or ``name：old → new``."""
        if not self.scalar:
            return self.name
        return f"{self.name}：{_shown(self.old)} → {_shown(self.new)}"


_SCALARS = (str, int, float, bool, type(None))


def field_changes(old: Any, new: Any) -> list[FieldChange]:
    """The fields whose values differ between two dicts, in order of first appearance."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return [] if old == new else [FieldChange("(值)", old, new, _scalar(old, new))]
    return [
        FieldChange(key, old.get(key), new.get(key), _scalar(old.get(key), new.get(key)))
        for key in dict.fromkeys([*old, *new])
        if old.get(key) != new.get(key)
    ]


def _scalar(old: Any, new: Any) -> bool:
    return isinstance(old, _SCALARS) and isinstance(new, _SCALARS)


def _shown(value: Any) -> str:
    if value is None:
        return "（无）"
    text = str(value).replace("\n", "⏎")
    if len(text) > SHOWN_LENGTH:
        text = text[: SHOWN_LENGTH - 1] + "…"
    return f"`{text}`"


@dataclass
class ListChange:
    """Items of a list matched by name: added, removed, changed (with the changed fields)."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[tuple[str, list[FieldChange]]] = field(default_factory=list)
    reordered: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed or self.reordered)

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--format json``."""
        return {
            "added": self.added,
            "removed": self.removed,
            "changed": [
                {"name": name, "fields": [change.to_json() for change in fields]}
                for name, fields in self.changed
            ],
            "reordered": self.reordered,
        }


def _named(items: Any, name_of: Any) -> dict[str, Any]:
    """``items`` keyed by their name; repeated names get ``#2``, ``#3``."""
    if not isinstance(items, list):
        return {}
    seen: Counter[str] = Counter()
    named: dict[str, Any] = {}
    for item in items:
        name = name_of(item)
        seen[name] += 1
        named[name if seen[name] == 1 else f"{name} #{seen[name]}"] = item
    return named


def _row_name(row: Any) -> str:
    if not isinstance(row, dict):
        return "?"
    if isinstance(row.get("torch"), str):
        return f"`{row['torch']}`"
    return f"`{row.get('paddle')}`（Paddle）"


def _example_name(example: Any) -> str:
    param = example.get("param") if isinstance(example, dict) else None
    return f"`{param}`" if isinstance(param, str) else "整个 API (whole API)"


def _call_name(call: Any) -> str:
    when = call.get("when") if isinstance(call, dict) else None
    if isinstance(when, str):
        return when
    code = call.get("torch") if isinstance(call, dict) else None
    return f"`{code.splitlines()[0]}`" if isinstance(code, str) and code.strip() else "?"


def row_facts(row: Any) -> Any:
    """A row as written, plus the values the record format derives for it
    (:func:`apimap.record.derived.filled_row`): the paddle side of a same-name row and the
    kind, when they are left out. A row that is not a valid row stays as written."""
    if not isinstance(row, dict) or "torch" not in row:
        return row
    try:
        filled = derived.filled_row(ParamRow.model_validate(row))
    except ValidationError:
        return row
    full = dict(row)
    if "paddle" not in full and filled.paddle is not None:
        full["paddle"] = filled.paddle
    if "kind" not in full:
        full["kind"] = str(filled.kind)
    return full


def _rows(value: Any) -> Any:
    return [row_facts(row) for row in value] if isinstance(value, list) else value


def compare_lists(old: Any, new: Any, name_of: Any) -> ListChange:
    """Match two lists by item name and say what changed."""
    before, after = _named(old, name_of), _named(new, name_of)
    change = ListChange(
        added=[name for name in after if name not in before],
        removed=[name for name in before if name not in after],
    )
    for name, item in after.items():
        if name in before and before[name] != item:
            change.changed.append((name, field_changes(before[name], item)))
    common_before = [name for name in before if name in after]
    common_after = [name for name in after if name in before]
    change.reordered = common_before != common_after
    return change


@dataclass
class RecordChange:
    """A record present on both sides (possibly under another path or name)."""

    old: Version
    new: Version
    category: tuple[str | None, str | None] | None = None
    rows: ListChange = field(default_factory=ListChange)
    calls: ListChange = field(default_factory=ListChange)
    examples: ListChange = field(default_factory=ListChange)
    fields: list[FieldChange] = field(default_factory=list)

    @property
    def renamed(self) -> bool:
        """The record moved to another path or another API name."""
        return self.old.path != self.new.path or self.old.api != self.new.api

    @property
    def content_changed(self) -> bool:
        """Anything beyond the name and the place changed."""
        return bool(self.category or self.rows or self.calls or self.examples or self.fields)

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--format json``."""
        return {
            "api": self.new.api,
            "path": self.new.path,
            "old_api": self.old.api,
            "old_path": self.old.path,
            "category": None
            if self.category is None
            else {"from": self.category[0], "to": self.category[1]},
            "rows": self.rows.to_json(),
            "calls": self.calls.to_json(),
            "examples": self.examples.to_json(),
            "fields": [change.to_json() for change in self.fields],
        }


def compare_records(old: Version, new: Version) -> RecordChange:
    """What changed between two readable versions of a record."""
    change = RecordChange(old, new)
    before, after = old.data or {}, new.data or {}
    if old.category != new.category:
        change.category = (old.category, new.category)
    change.rows = compare_lists(_rows(before.get("params")), _rows(after.get("params")), _row_name)
    change.calls = compare_lists(before.get("calls"), after.get("calls"), _call_name)
    change.examples = compare_lists(before.get("examples"), after.get("examples"), _example_name)
    change.fields = [
        found for found in field_changes(before, after) if found.name not in SECTION_FIELDS
    ]
    return change


@dataclass
class Report:
    """Every record change between two revisions."""

    base: str
    head: str
    added: list[Version] = field(default_factory=list)
    removed: list[Version] = field(default_factory=list)
    changed: list[RecordChange] = field(default_factory=list)
    unreadable: list[tuple[str, Version]] = field(default_factory=list)
    """(revision, version) of files that do not load."""

    def to_json(self) -> dict[str, Any]:
        """The report as one JSON-ready dict."""
        return {
            "version": REPORT_VERSION,
            "base": self.base,
            "head": self.head,
            "added": [v.to_json() for v in self.added],
            "removed": [v.to_json() for v in self.removed],
            "renamed": [
                {"from": c.old.to_json(), "to": c.new.to_json()} for c in self.changed if c.renamed
            ],
            "changed": [c.to_json() for c in self.changed if c.content_changed],
            "unreadable": [
                {"revision": rev, "path": v.path, "problem": v.problem}
                for rev, v in self.unreadable
            ],
        }


def _status_entries(output: bytes) -> list[tuple[str, list[str]]]:
    """Parse ``git diff --name-status -z``: (status letter, paths)."""
    fields = output.decode("utf-8", "surrogateescape").split("\0")
    entries = []
    index = 0
    while index < len(fields) - 1:
        status = fields[index]
        count = 2 if status[:1] in "RC" else 1
        entries.append((status[:1], fields[index + 1 : index + 1 + count]))
        index += 1 + count
    return entries


def _read_blobs(cwd: Path, specs: list[str]) -> list[bytes | None]:
    """Contents of ``REV:path`` objects through one ``git cat-file --batch``."""
    if not specs:
        return []
    output = run_git(
        cwd,
        "cat-file",
        "--batch",
        stdin="".join(s + "\n" for s in specs).encode("utf-8", "surrogateescape"),
    )
    blobs: list[bytes | None] = []
    position = 0
    for _spec in specs:
        end = output.index(b"\n", position)
        header = output[position:end].split()
        position = end + 1
        if len(header) != 3:  # "<spec> missing" or "ambiguous"
            blobs.append(None)
            continue
        size = int(header[2])
        blobs.append(output[position : position + size])
        position += size + 1
    return blobs


def _is_record(path: str) -> bool:
    return path.endswith(RECORD_SUFFIXES)


def _pair_moves(report: Report) -> None:
    """An added and a removed record with the same API are one renamed record."""
    removed = {v.api: v for v in report.removed if v.data is not None}
    for new in list(report.added):
        old = removed.pop(new.api, None)
        if old is not None and new.data is not None:
            report.added.remove(new)
            report.removed.remove(old)
            report.changed.append(compare_records(old, new))


def diff_revisions(base: str, head: str, folder: str = "mappings", cwd: Path = Path()) -> Report:
    """Compare the records below ``folder`` between two git revisions."""
    for rev in (base, head):
        verify_revision(cwd, rev)
    prefix = run_git(cwd, "rev-parse", "--show-prefix").decode().strip()
    status = run_git(
        cwd, "diff", "-z", "--name-status", "-M", "--relative", base, head, "--", folder
    )
    entries = [
        (letter, paths) for letter, paths in _status_entries(status) if any(map(_is_record, paths))
    ]
    specs = []
    for _letter, paths in entries:
        old_path, new_path = paths[0], paths[-1]
        specs += [f"{base}:{prefix}{old_path}", f"{head}:{prefix}{new_path}"]
    blobs = _read_blobs(cwd, specs)
    report = Report(base, head)
    for index, (letter, paths) in enumerate(entries):
        old = _version(paths[0], blobs[2 * index]) if letter != "A" else None
        new = _version(paths[-1], blobs[2 * index + 1]) if letter != "D" else None
        for rev, version in ((base, old), (head, new)):
            if version is not None and version.data is None:
                report.unreadable.append((rev, version))
        if old is None and new is not None:
            report.added.append(new)
        elif new is None and old is not None:
            report.removed.append(old)
        elif old is not None and new is not None and old.data is not None and new.data is not None:
            report.changed.append(compare_records(old, new))
    _pair_moves(report)
    report.added.sort(key=lambda v: (v.api, v.path))
    report.removed.sort(key=lambda v: (v.api, v.path))
    report.changed.sort(key=lambda c: (c.new.api, c.new.path))
    report.unreadable.sort(key=lambda item: (item[1].path, item[0]))
    return report


def _category_text(value: str | None) -> str:
    if value is None:
        return "（无）"
    try:
        return f"`{value}` {Category(value).label}"
    except ValueError:
        return f"`{value}`"


def _list_line(title: str, change: ListChange) -> str | None:
    if not change:
        return None
    parts = []
    if change.added:
        parts.append("新增 (added) " + "、".join(change.added))
    if change.removed:
        parts.append("删除 (removed) " + "、".join(change.removed))
    if change.changed:
        items = [
            f"{name}（{'；'.join(found.markdown() for found in fields)}）"
            for name, fields in change.changed
        ]
        parts.append("修改 (changed) " + "、".join(items))
    if change.reordered:
        parts.append("顺序变化 (reordered)")
    return f"- {title}：" + "；".join(parts)


def _ref(version: Version) -> str:
    category = f"：{_category_text(version.category)}" if version.category else ""
    return f"`{version.api}`{category}（`{version.path}`）"


def to_markdown(report: Report) -> str:
    """The report as a Markdown review comment."""
    renamed = [c for c in report.changed if c.renamed]
    changed = [c for c in report.changed if c.content_changed]
    lines = [
        "## apimap 变更报告 (knowledge base changes)",
        "",
        f"`{report.base}` → `{report.head}`：新增 {len(report.added)}，删除 {len(report.removed)}，"
        f"重命名 {len(renamed)}，修改 {len(changed)} "
        f"({len(report.added)} added, {len(report.removed)} removed, "
        f"{len(renamed)} renamed, {len(changed)} changed)",
    ]
    if not (report.added or report.removed or report.changed or report.unreadable):
        lines += ["", "没有记录变化 (no record changes)。"]
    if report.added:
        lines += ["", "### 新增 (added)", ""] + [f"- {_ref(v)}" for v in report.added]
    if report.removed:
        lines += ["", "### 删除 (removed)", ""] + [f"- {_ref(v)}" for v in report.removed]
    if renamed:
        lines += ["", "### 重命名 (renamed)", ""]
        lines += [
            f"- `{c.old.api}` → `{c.new.api}`（`{c.old.path}` → `{c.new.path}`）" for c in renamed
        ]
    if changed:
        lines += ["", "### 修改 (changed)"]
        for change in changed:
            lines += ["", f"#### `{change.new.api}`（`{change.new.path}`）", ""]
            if change.category is not None:
                old, new = change.category
                lines.append(f"- 分类 (category)：{_category_text(old)} → {_category_text(new)}")
            lines += filter(
                None,
                [
                    _list_line("参数行 (rows)", change.rows),
                    _list_line("调用 (calls)", change.calls),
                    _list_line("示例 (examples)", change.examples),
                ],
            )
            lines += [f"- {found.markdown()}" for found in change.fields if found.scalar]
            others = [found.name for found in change.fields if not found.scalar]
            if others:
                names = "、".join(f"`{name}`" for name in others)
                lines.append(f"- 其他字段 (other fields)：{names}")
    if report.unreadable:
        lines += ["", "### 无法读取 (unreadable)", ""]
        lines += [
            f"- `{rev}`:`{v.path}`：{v.problem}，请运行 apimap check (run apimap check)"
            for rev, v in report.unreadable
        ]
    return "\n".join(lines) + "\n"


def to_json(report: Report) -> str:
    """The report as JSON."""
    return json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n"
