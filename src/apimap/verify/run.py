"""``apimap verify``: records -> jobs -> worker pool -> diagnostics (and stamps)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from apimap import loader
from apimap.check import CheckResult, check_source, iter_record_files, relative_to_mappings
from apimap.diagnostics import Diagnostic, Severity
from apimap.location import Path as DataPath
from apimap.model import Record
from apimap.pins import PINS
from apimap.rules import RULES_BY_CODE
from apimap.rules import stamp as codes
from apimap.rules.internal import INTERNAL_ERROR
from apimap.validate import validate
from apimap.verify.jobs import case_job, signature_job
from apimap.verify.pool import Job, JobResult, WorkerPool
from apimap.verify.stamp import StampError, write_stamp

DEFAULT_TIMEOUT = 60.0
"""Seconds one job (a case, or the signatures of a record) may take."""


class EnvironmentMismatch(RuntimeError):
    """The installed libraries are not the pinned versions."""


@dataclass
class VerifyResult(CheckResult):
    """A check result plus what the run measured."""

    records: int = 0
    cases: int = 0
    seconds: float = 0.0
    startup_seconds: float = 0.0
    workers: int = 0
    versions: dict[str, str] = field(default_factory=dict)
    stamped: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class LoadedRecord:
    """A record that loads and validates, with the positions of its values."""

    path: str
    """The path as given (used in diagnostics)."""
    file: Path
    raw: bytes
    """The bytes that were verified (a stamp is only written onto these)."""
    record: Record
    doc: loader.Document


@dataclass(frozen=True)
class JobOrigin:
    """Which record a job belongs to, and where in it (the case, or the record itself)."""

    record: int
    base: DataPath


def default_workers(jobs: int) -> int:
    """One worker per CPU, at most four, never more than there are jobs."""
    return max(1, min(os.cpu_count() or 1, 4, jobs))


def load_record(file: Path) -> tuple[LoadedRecord | None, list[Diagnostic]]:
    """The record in ``file`` (``None`` if it does not load) and the load and schema findings."""
    display = str(file)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        rule = RULES_BY_CODE["AM001"]
        return None, [
            Diagnostic(
                display, 1, 1, rule.code, rule.message(str(exc.strerror)), rule.hint, rule.severity
            )
        ]
    loaded = check_source(display, raw, [], relative_to_mappings(file.resolve()))
    errors = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
    text, _ = loader.decode(raw)
    doc = None if errors or text is None else loader.parse(text)[0]
    record = None if doc is None else validate(doc)[0]
    if doc is None or record is None:
        return None, loaded.diagnostics
    return LoadedRecord(display, file, raw, record, doc), loaded.diagnostics


def build_jobs(records: list[LoadedRecord]) -> tuple[list[Job], dict[int, JobOrigin]]:
    """One signature job per record and one job per example case, with their origins."""
    jobs: list[Job] = []
    origins: dict[int, JobOrigin] = {}

    def add(kind: str, payload: dict[str, object], origin: JobOrigin) -> None:
        origins[len(jobs)] = origin
        jobs.append(Job(len(jobs), kind, payload))

    for index, loaded in enumerate(records):
        data = loaded.record.model_dump(mode="json")
        add("signatures", signature_job(data), JobOrigin(index, ()))
        for e, example in enumerate(data["examples"]):
            for c, case in enumerate(example["cases"]):
                add("case", case_job(case), JobOrigin(index, ("examples", e, "cases", c)))
        for n, note in enumerate(data["notes"]):
            if note.get("example") is not None:
                add("case", case_job(note["example"]), JobOrigin(index, ("notes", n, "example")))
    return jobs, origins


def _diagnostic(
    loaded: LoadedRecord, where: DataPath, code: str, detail: str, line: int | None = None
) -> Diagnostic:
    rule = RULES_BY_CODE[code]
    loc = loaded.doc.loc(where) if line is None else loaded.doc.text_loc(where, line)
    return Diagnostic(
        loaded.path,
        loc.line,
        loc.col,
        code,
        rule.message(detail),
        rule.hint,
        rule.severity,
        loaded.record.torch_api,
    )


def _result_diagnostics(
    loaded: LoadedRecord, origin: JobOrigin, result: JobResult
) -> list[Diagnostic]:
    if result.timed_out:
        detail = f"超过 {result.seconds:.0f} 秒 (more than {result.seconds:.0f} s)"
        return [_diagnostic(loaded, origin.base, codes.EXAMPLE_TIMEOUT.code, detail)]
    if result.crashed is not None:
        return [_diagnostic(loaded, origin.base, codes.WORKER_CRASHED.code, result.crashed)]
    if result.error is not None:
        detail = f"验证代码出错 (verifier crashed)：{result.error}"
        return [_diagnostic(loaded, origin.base, INTERNAL_ERROR.code, detail)]
    return [
        _diagnostic(loaded, (*origin.base, *issue.where), issue.code, issue.detail, issue.line)
        for issue in result.issues
    ]


def run_verify(
    paths: Sequence[Path],
    workers: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    update: bool = False,
) -> VerifyResult:
    """Verify every record below ``paths``; with ``update``, stamp the records that pass."""
    began = time.monotonic()
    result = VerifyResult()
    records: list[LoadedRecord] = []
    for file in iter_record_files(paths):
        result.files += 1
        loaded, diagnostics = load_record(file)
        result.diagnostics += diagnostics
        if loaded is not None:
            records.append(loaded)
    jobs, origins = build_jobs(records)
    result.records = len(records)
    result.cases = sum(1 for job in jobs if job.kind == "case")
    if jobs:
        with WorkerPool(workers or default_workers(len(jobs)), timeout) as pool:
            result.versions = pool.start()
            result.startup_seconds = time.monotonic() - began
            check_versions(result.versions)
            outcomes = pool.run(jobs)
            result.workers = pool.started
        failed: set[int] = set()
        for job, outcome in zip(jobs, outcomes, strict=True):
            origin = origins[job.id]
            found = _result_diagnostics(records[origin.record], origin, outcome)
            if any(_blocks_stamp(d) for d in found):
                failed.add(origin.record)
            result.diagnostics += found
        if update:
            for index, loaded in enumerate(records):
                if index not in failed:
                    _stamp(loaded, result)
    result.diagnostics.sort(key=lambda d: (d.path, d.line, d.col, d.code))
    result.seconds = time.monotonic() - began
    return result


def _blocks_stamp(diagnostic: Diagnostic) -> bool:
    """Errors, and records whose package is missing (nothing of them was verified)."""
    return diagnostic.severity is Severity.ERROR or diagnostic.code == codes.NOT_INSTALLED.code


def check_versions(installed: dict[str, str]) -> None:
    """Raise :class:`EnvironmentMismatch` unless the installed versions are the pinned ones."""
    wrong = {name: version for name, version in installed.items() if PINS[name] != version}
    if wrong:
        listed = "，".join(
            f"{name} {version}（固定为 {PINS[name]}）" for name, version in wrong.items()
        )
        raise EnvironmentMismatch(
            f"已安装的版本与固定版本不符 (installed versions differ from the pins)：{listed}；"
            "请运行 pip install -e '.[verify]' (install the pinned versions)"
        )


def _stamp(loaded: LoadedRecord, result: VerifyResult) -> None:
    try:
        if write_stamp(loaded.file, result.versions, verified=loaded.raw):
            result.stamped.append(loaded.path)
    except (OSError, StampError) as exc:
        result.diagnostics.append(
            Diagnostic(
                loaded.path,
                1,
                1,
                INTERNAL_ERROR.code,
                INTERNAL_ERROR.message(f"无法写入验证标记 (cannot stamp)：{exc}"),
                INTERNAL_ERROR.hint,
                Severity.ERROR,
                loaded.record.torch_api,
            )
        )
