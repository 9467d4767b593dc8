"""``apimap verify``: records -> jobs -> worker pool -> diagnostics (and stamps)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from apimap import loader
from apimap.check import CheckResult, check_source, iter_record_files, relative_to_mappings
from apimap.diagnostics import Diagnostic, Severity
from apimap.location import Path as DataPath
from apimap.model import Record
from apimap.pins import PINS, VISION_PINS, VISION_PREFIX
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
    """The versions of the main environment (torch 2.13.0, paddle 3.3.1)."""
    environments: list[dict[str, str]] = field(default_factory=list)
    """The versions of every environment that ran (the torchvision one too)."""
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


VISION_PYTHON_VARIABLE = "APIMAP_VISION_PYTHON"
DEFAULT_VISION_PYTHON = Path(".venv-vision/bin/python")


@dataclass(frozen=True)
class Environment:
    """An interpreter with pinned libraries and the records verified in it."""

    python: str
    pins: dict[str, str]
    records: frozenset[int]


def vision_python() -> str | None:
    """The interpreter that has torchvision: ``$APIMAP_VISION_PYTHON`` or ``.venv-vision``."""
    configured = os.environ.get(VISION_PYTHON_VARIABLE)
    if configured:
        return configured
    return str(DEFAULT_VISION_PYTHON.absolute()) if DEFAULT_VISION_PYTHON.is_file() else None


def environments(records: list[LoadedRecord]) -> list[Environment]:
    """torchvision records run in the torchvision interpreter when there is one.

    torchvision 0.29.1 needs torch 2.14.1, which cannot share an environment with the pinned
    torch 2.13.0; without that interpreter the records run here and report AM807.
    """
    vision = vision_python()
    is_vision = [
        vision is not None and r.record.torch_api.startswith(VISION_PREFIX) for r in records
    ]
    main = frozenset(i for i, flag in enumerate(is_vision) if not flag)
    found = [Environment(sys.executable, PINS, main)]
    if vision is not None:
        indices = frozenset(i for i, flag in enumerate(is_vision) if flag)
        found.append(Environment(vision, VISION_PINS, indices))
    return found


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
    failed: set[int] = set()
    stamps: dict[int, dict[str, str]] = {}
    for environment in environments(records):
        env_jobs = [job for job in jobs if origins[job.id].record in environment.records]
        if not env_jobs:
            continue
        size = workers or default_workers(len(env_jobs))
        starting = time.monotonic()
        with WorkerPool(size, timeout, python=environment.python) as pool:
            versions = pool.start()
            result.startup_seconds += time.monotonic() - starting
            check_versions(versions, environment.pins)
            outcomes = pool.run(env_jobs)
            result.workers += pool.started
        result.environments.append(versions)
        result.versions = result.versions or versions
        for index in environment.records:
            stamps[index] = {name: versions[name] for name in environment.pins}
        for job, outcome in zip(env_jobs, outcomes, strict=True):
            origin = origins[job.id]
            found = _result_diagnostics(records[origin.record], origin, outcome)
            if any(_blocks_stamp(d) for d in found):
                failed.add(origin.record)
            result.diagnostics += found
    if update:
        for index, loaded in enumerate(records):
            if index not in failed and index in stamps:
                _stamp(loaded, stamps[index], result)
    result.diagnostics.sort(key=lambda d: (d.path, d.line, d.col, d.code))
    result.seconds = time.monotonic() - began
    return result


def _blocks_stamp(diagnostic: Diagnostic) -> bool:
    """Errors, and records whose package is missing (nothing of them was verified)."""
    return diagnostic.severity is Severity.ERROR or diagnostic.code == codes.NOT_INSTALLED.code


def check_versions(installed: dict[str, str], pins: dict[str, str] = PINS) -> None:
    """Raise :class:`EnvironmentMismatch` unless the installed versions are the pinned ones."""
    wrong = {
        name: installed.get(name, "未安装 (missing)")
        for name, pinned in pins.items()
        if installed.get(name) != pinned
    }
    if wrong:
        listed = "，".join(
            f"{name} {version}（固定为 {pins[name]}）" for name, version in wrong.items()
        )
        raise EnvironmentMismatch(
            f"已安装的版本与固定版本不符 (installed versions differ from the pins)：{listed}；"
            "请运行 pip install -e '.[verify]' (install the pinned versions)"
        )


def _stamp(loaded: LoadedRecord, versions: dict[str, str], result: VerifyResult) -> None:
    try:
        if write_stamp(loaded.file, versions, verified=loaded.raw):
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
