"""``apimap import``: read pages and tables, merge them, write one record per API.

Pages are read first; a mapping table then adds what only it knows (the
section, alias rows) to the records of its pages, and creates records for its
rows that have no page (功能缺失 entries, rows without a 差异对比 link).
Source files are read in sorted path order whatever order they are given in,
so a run is deterministic; when two pages hold the same API, the first wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from pydantic import ValidationError

from apimap.files.migrate import missing_reason
from apimap.publish.importer.findings import with_findings
from apimap.publish.importer.page import read_page
from apimap.publish.importer.problems import Problem
from apimap.publish.importer.record_data import RecordData, validate_data
from apimap.publish.importer.table import TableEntry, is_table_page, read_table_page
from apimap.publish.importer.writer import WriteError, record_text, write_new
from apimap.record.import_codes import (
    ALIAS_TARGET_MISSING,
    DUPLICATE,
    EXISTS,
    INVALID,
    NO_TITLE,
    ROW_NO_CATEGORY,
    ROW_PAGE_MISSING,
    TABLE_CONFLICT,
    UNREADABLE,
    UNWRITABLE,
    Severity,
)
from apimap.record.location import Path as DataPath
from apimap.record.model import Record
from apimap.record.paths import record_path
from apimap.record.phrases import MISSING_REASON_LABELS, TODO_MARKER

PAGE_SUFFIX = ".md"


class Kind(StrEnum):
    """What a unit of the import is."""

    PAGE = "page"
    ROW = "row"


class Outcome(StrEnum):
    """What became of a unit."""

    IMPORTED = "imported"
    VIOLATIONS = "violations"
    LOSSY = "lossy"
    MERGED = "merged"
    FAILED = "failed"


@dataclass
class Unit:
    """One page or table row, the record made from it, and its problems."""

    kind: Kind
    source: str
    record: Record | None
    problems: list[Problem] = field(default_factory=list)
    merged: bool = False
    written: Path | None = None
    code_lines: dict[DataPath, list[int]] = field(default_factory=dict)
    """The page lines of the record's code (a page's signatures and examples)."""

    @property
    def outcome(self) -> Outcome:
        """Failed, merged into a page, imported with losses, with violations, or cleanly."""
        severities = {problem.severity for problem in self.problems}
        if Severity.FAILURE in severities or (self.record is None and not self.merged):
            return Outcome.FAILED
        if self.merged:
            return Outcome.MERGED
        if Severity.LOSS in severities:
            return Outcome.LOSSY
        if Severity.VIOLATION in severities:
            return Outcome.VIOLATIONS
        return Outcome.IMPORTED


@dataclass
class ImportResult:
    """Every unit of a run, in source order."""

    files: int = 0
    table_files: int = 0
    units: list[Unit] = field(default_factory=list)


def iter_sources(paths: Iterable[Path]) -> Iterator[Path]:
    """Markdown files given directly or found below given folders, sorted."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob(f"*{PAGE_SUFFIX}") if p.is_file())
        else:
            yield path


def _decode(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None


@dataclass
class _Run:
    result: ImportResult = field(default_factory=ImportResult)
    by_api: dict[str, Unit] = field(default_factory=dict)
    tables: list[tuple[str, list[TableEntry]]] = field(default_factory=list)

    def read(self, path: Path) -> None:
        source = str(path)
        self.result.files += 1
        try:
            text = _decode(path.read_bytes())
        except OSError as exc:
            text = None
            detail = exc.strerror or ""
        else:
            detail = ""
        if text is None:
            self.result.units.append(
                Unit(Kind.PAGE, source, None, [Problem(UNREADABLE, 1, detail)])
            )
            return
        page = read_page(text)
        no_title = any(problem.reason is NO_TITLE for problem in page.problems)
        if no_title and is_table_page(text):
            self.result.table_files += 1
            table = read_table_page(text)
            self.tables.append((source, table.entries))
            for problem in table.problems:
                self.result.units.append(Unit(Kind.ROW, source, None, [problem]))
            return
        unit = Unit(Kind.PAGE, source, page.record, page.problems, code_lines=page.code_lines)
        self.result.units.append(unit)
        if page.record is None:
            return
        first = self.by_api.get(page.record.torch_api)
        if first is not None:
            unit.problems.append(Problem(DUPLICATE, 1, first.source))
            unit.record = None
            return
        self.by_api[page.record.torch_api] = unit

    def merge_tables(self) -> None:
        aliases: list[tuple[str, TableEntry]] = []
        for source, entries in self.tables:
            for entry in entries:
                if entry.alias_of is not None:
                    aliases.append((source, entry))
                elif entry.api in self.by_api:
                    self._merge(source, entry)
                else:
                    self._row_record(source, entry)
        for source, entry in aliases:
            self._alias(source, entry)

    def _merge(self, source: str, entry: TableEntry) -> None:
        unit = self.by_api[entry.api]
        record = unit.record
        assert record is not None
        row = Unit(Kind.ROW, source, None, merged=True)
        self.result.units.append(row)
        if unit.kind is Kind.ROW:
            row.merged = False
            row.problems.append(Problem(DUPLICATE, entry.line, unit.source))
            return
        conflicts = []
        if entry.category is not None and entry.category.category not in (None, record.category):
            conflicts.append(f"分类 {entry.category_text or entry.category.category}")
        if entry.paddle_api is not None and entry.paddle_api != record.paddle_api:
            conflicts.append(f"Paddle API {entry.paddle_api}")
        for name, value in (("torch_url", entry.torch_url), ("paddle_url", entry.paddle_url)):
            current = getattr(record, name)
            if value and current and value != current:
                conflicts.append(f"{name} {value}")
        if conflicts:
            detail = f"{entry.api}: {'，'.join(conflicts)}"
            row.problems.append(Problem(TABLE_CONFLICT, entry.line, detail))
        update: dict[str, object] = {}
        if record.section is None and entry.section is not None:
            update["section"] = entry.section
        for name, value in (("torch_url", entry.torch_url), ("paddle_url", entry.paddle_url)):
            if getattr(record, name) is None and value and value.startswith("https://"):
                update[name] = value
        if update:
            unit.record = record.model_copy(update=update)

    def _row_record(self, source: str, entry: TableEntry) -> None:
        unit = Unit(Kind.ROW, source, None)
        self.result.units.append(unit)
        if entry.page is not None:
            unit.problems.append(Problem(ROW_PAGE_MISSING, entry.line, entry.page))
            return
        if entry.category is None or entry.category.category is None:
            detail = f"{entry.api}: `{entry.category_text}`" if entry.category_text else entry.api
            unit.problems.append(Problem(ROW_NO_CATEGORY, entry.line, detail, kept=entry.source))
            return
        data = RecordData()
        fields: dict[str, object] = {
            "torch_api": entry.api,
            "torch_url": entry.torch_url,
            "paddle_api": entry.paddle_api,
            "paddle_package": entry.paddle_package,
            "paddle_url": entry.paddle_url,
            "category": entry.category.category.value,
            "section": entry.section.value if entry.section else None,
            "zh_name": entry.zh_name or TODO_MARKER,
            "missing": _missing(entry),
        }
        for name, value in fields.items():
            if value is not None:
                data.set(name, value, entry.line)
        for alias in entry.aliases:
            data.item("torch_aliases", alias, entry.line)
        validated = validate_data(data)
        unit.problems += validated.problems
        unit.record = validated.record
        if unit.record is not None:
            self.by_api[entry.api] = unit

    def _alias(self, source: str, entry: TableEntry) -> None:
        target = self.by_api.get(entry.alias_of or "")
        unit = Unit(Kind.ROW, source, None, merged=True)
        self.result.units.append(unit)
        if target is None or target.record is None:
            unit.merged = False
            unit.problems.append(
                Problem(ALIAS_TARGET_MISSING, entry.line, f"{entry.api} → {entry.alias_of}")
            )
            return
        record = target.record
        if entry.api not in record.torch_aliases:
            aliases = [*record.torch_aliases, entry.api]
            target.record = record.model_copy(update={"torch_aliases": aliases})

    def execute(self) -> None:
        """Run every page's signatures and examples against the installed libraries and
        report what fails at the page's lines (:mod:`apimap.publish.importer.execute`)."""
        pages = [
            unit
            for unit in self.result.units
            if unit.kind is Kind.PAGE
            and unit.record is not None
            and unit.outcome is not Outcome.FAILED
        ]
        from apimap.publish.importer.execute import findings_on_page, plan_page
        from apimap.verify.run import judge_plans  # torch and paddle workers: only here

        records = [unit.record for unit in pages if unit.record is not None]
        plans = [
            plan_page(record, unit.code_lines) for record, unit in zip(records, pages, strict=True)
        ]
        judgements = judge_plans(records, [page_plan.plan for page_plan in plans])
        for unit, page_plan, judgement in zip(pages, plans, judgements, strict=True):
            found = list(page_plan.problems)
            if judgement is not None:
                found += findings_on_page(judgement.findings, unit.code_lines)
            seen = {(p.code, p.line, p.detail) for p in unit.problems}
            for problem in found:
                if (problem.code, problem.line, problem.detail) not in seen:
                    seen.add((problem.code, problem.line, problem.detail))
                    unit.problems.append(problem)

    def write(self, out: Path, force: bool) -> None:
        for unit in self.result.units:
            record = unit.record
            if record is None or unit.outcome is Outcome.FAILED:
                continue
            target = out / record_path(record.torch_api)
            try:
                checked = Record.model_validate(record.model_dump())
                checked = unit.record = with_findings(checked, unit.source, unit.problems)
                text = record_text(checked)
                write_new(target, text, replace=force)
            except (WriteError, ValidationError) as exc:
                unit.problems.append(Problem(INVALID, 1, str(exc).splitlines()[0]))
            except FileExistsError:
                unit.problems.append(Problem(EXISTS, 1, str(target)))
            except OSError as exc:
                unit.problems.append(Problem(UNWRITABLE, 1, f"{target}: {exc.strerror}"))
            else:
                unit.written = target


def run_import(
    paths: Iterable[Path], out: Path, force: bool = False, execute: bool = False
) -> ImportResult:
    """Import every page and table below ``paths`` into records under ``out``; with
    ``execute``, first run what each page shows (needs torch and paddle; raises when a
    worker cannot start)."""
    run = _Run()
    for path in sorted(set(iter_sources(paths))):
        run.read(path)
    run.merge_tables()
    if execute:
        run.execute()
    run.write(out, force)
    return run.result


def _missing(entry: TableEntry) -> dict[str, str] | None:
    """A 功能缺失 row as a structured block: the 原因 cell names a reason class (current tables)
    or is the explanation itself (legacy tables, whose class is guessed from its words only
    when they name one)."""
    if entry.reason is None and entry.detail is None:
        return None
    labels = {label: reason for reason, label in MISSING_REASON_LABELS.items()}
    reason = labels.get(entry.reason or "")
    detail = entry.detail if reason else (entry.detail or entry.reason)
    block = {"detail": detail or "", "instead": entry.instead or ""}
    guessed = reason or missing_reason(detail or "")
    if guessed:
        block["reason"] = guessed
    return {key: value for key, value in block.items() if value}
