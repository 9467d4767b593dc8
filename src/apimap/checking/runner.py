"""Run every rule over a set of record files and collect diagnostics."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from apimap.checking.allowlist import Allowlist, apply_allowlist
from apimap.checking.check_cache import CheckCache
from apimap.checking.context import CorpusContext, RecordContext, RecordSummary
from apimap.checking.diagnostics import Diagnostic, Pending, Severity
from apimap.checking.results import FileResult
from apimap.checking.rules.base import Finding, Rule
from apimap.checking.rules.catalog.am001_encoding import RULE as ENCODING
from apimap.checking.rules.registry import (
    CORPUS_RULES,
    FILE_PROBLEM_RULES,
    INTERNAL_ERROR,
    RECORD_RULES,
    RULES_BY_CODE,
    is_selected,
    selected,
)
from apimap.files import loader
from apimap.files.canonical import NotFormattable
from apimap.files.stamps import stamp_file
from apimap.files.validate import validate
from apimap.record.location import Loc
from apimap.record.paths import relative_to_mappings


@dataclass
class CheckResult:
    """The outcome of a whole run."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    cached: int = 0

    def count(self, severity: Severity) -> int:
        """How many diagnostics of ``severity``."""
        return sum(1 for d in self.diagnostics if d.severity is severity)

    def figures(self) -> dict[str, object]:
        """What the run measured besides the diagnostics (for the JSON report)."""
        return {"cached": self.cached}


def refusal(refused: NotFormattable) -> str:
    """``line:col: why`` of a file that ``fmt`` or ``check --fix`` leaves alone; a load problem
    is named by its rule's code."""
    if refused.problem is None:
        return str(refused)
    code = FILE_PROBLEM_RULES[refused.problem.kind].code
    return f"{refused.line}:{refused.col}: {code} {refused.reason}"


def _diagnostic(rule: Rule, finding: Finding, path: str, api: str | None) -> Diagnostic:
    return Diagnostic(
        path=finding.path or path,
        line=finding.loc.line,
        col=finding.loc.col,
        code=rule.code,
        message=rule.message(finding.detail),
        hint=finding.hint or rule.hint,
        severity=rule.severity,
        api=finding.api or api,
    )


def check_source(
    path: str,
    raw: bytes,
    rules: Sequence[Rule],
    relpath: PurePosixPath | None = None,
    stamp: bytes | None = None,
) -> FileResult:
    """Check one file's bytes (and its stamp's). ``path`` is how diagnostics name the file."""
    out: list[Diagnostic] = []
    doc, problems = loader.load(raw)
    for problem in problems:
        rule = FILE_PROBLEM_RULES[problem.kind]
        out.append(
            _diagnostic(rule, Finding(Loc(problem.line, problem.col), problem.detail), path, None)
        )
    if doc is None:
        return FileResult(out, None)
    record, schema_problems = validate(doc)
    api = doc.data.get("torch_api") if isinstance(doc.data.get("torch_api"), str) else None
    out += [
        _diagnostic(
            FILE_PROBLEM_RULES[problem.kind],
            Finding(problem.loc, problem.detail, problem.hint),
            path,
            api,
        )
        for problem in schema_problems
    ]
    if record is None:
        return FileResult(out, None)
    ctx = RecordContext(
        path=path, relpath=relpath, doc=doc, record=record, text=doc.text, stamp=stamp
    )
    for rule in rules:
        out += _run_record_rule(rule, ctx)
    return FileResult(out, RecordSummary.of(ctx))


Job = tuple[str, bytes, PurePosixPath | None, bytes | None]
"""What checking one file needs: display path, content, path below ``mappings/``, stamp."""

PARALLEL_THRESHOLD = 200
"""Below this many files a worker pool costs more than it saves."""

_worker_rules: Sequence[Rule] = ()


def _check_job(job: Job) -> FileResult:
    return check_source(job[0], job[1], _worker_rules, job[2], job[3])


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Checking allocates many short-lived objects and no reference cycles worth collecting;
    the cyclic garbage collector's passes over them cost a quarter of a cold check."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _start_worker() -> None:
    gc.disable()  # as above; a worker lives for one run


def _forking(processes: int, jobs: int) -> bool:
    """Whether to check in forked workers: enough files, and a system that forks."""
    if processes <= 1 or jobs < PARALLEL_THRESHOLD:
        return False
    import multiprocessing  # only here: a pre-commit hook's few files never need it

    return "fork" in multiprocessing.get_all_start_methods()


def _check_jobs(jobs: list[Job], rules: Sequence[Rule], processes: int | None) -> list[FileResult]:
    """Check files, in forked worker processes when there are many of them."""
    global _worker_rules
    processes = processes or os.cpu_count() or 1
    if not _forking(processes, len(jobs)):
        return [check_source(d, raw, rules, rel, stamp) for d, raw, rel, stamp in jobs]
    import multiprocessing

    _worker_rules = rules  # inherited by the forked workers
    context = multiprocessing.get_context("fork")
    with context.Pool(processes, initializer=_start_worker) as pool:
        chunk = max(1, len(jobs) // (processes * 8))
        return pool.map(_check_job, jobs, chunksize=chunk)


def _findings(rule: Rule, target: RecordContext | CorpusContext) -> tuple[Rule, list[Finding]]:
    """What ``rule`` finds; a rule that crashes becomes one AM000 finding and the run goes on."""
    try:
        return rule, list(rule.check(target))
    except Exception as exc:
        detail = f"{rule.code} 执行失败 (rule crashed)：{type(exc).__name__}: {exc}"
        return INTERNAL_ERROR, [Finding(Loc(1, 1), detail)]


def _run_record_rule(rule: Rule, ctx: RecordContext) -> Iterator[Diagnostic]:
    reported, findings = _findings(rule, ctx)
    for finding in findings:
        yield _diagnostic(reported, finding, ctx.path, ctx.record.torch_api)


def read_stamp(record_file: Path) -> bytes | None:
    """The bytes of a record's stamp file, when it has one."""
    location = stamp_file(record_file)
    if location is None:
        return None
    try:
        return location.read_bytes()
    except OSError:
        return None


def iter_record_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Record files below ``paths``, plus named files as given.

    In a folder, records are the ``*.yaml`` files below a ``mappings`` folder (the folder
    itself may be one), outside hidden folders: ``apimap fmt .`` must never touch a CI
    workflow or a pre-commit configuration.
    """
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if _is_record_file(p))
        else:
            yield path


RECORD_SUFFIXES = frozenset({".yaml", ".yml"})


def _is_record_file(path: Path) -> bool:
    if path.suffix not in RECORD_SUFFIXES or not path.is_file():
        return False
    absolute = path.absolute()
    if any(part.startswith(".") for part in absolute.parts):
        return False
    return relative_to_mappings(absolute) is not None


def as_pending(diagnostic: Diagnostic) -> Diagnostic:
    """A finding of a rule that CI's verification resolves as a notice with the rule's
    pending hint (``--pending-stamps notice``); any other finding as it is."""
    rule = RULES_BY_CODE.get(diagnostic.code)
    if rule is None or rule.pending is None:
        return diagnostic
    return replace(diagnostic, hint=rule.pending, severity=Severity.NOTICE)


def run_check(
    paths: Sequence[Path],
    select: set[str] | None = None,
    ignore: set[str] | None = None,
    allowlist: Allowlist | None = None,
    cache_dir: Path | None = None,
    jobs: int | None = None,
    pending: Pending = Pending.ERROR,
) -> CheckResult:
    """Check every record file below ``paths``, in ``jobs`` processes (default: one per core).
    With ``pending`` :attr:`Pending.NOTICE` (a pull request), a missing or stale stamp is a
    notice instead of an error."""
    with _without_cycle_collection():
        return _run_check(paths, select, ignore, allowlist, cache_dir, jobs, pending)


def _run_check(
    paths: Sequence[Path],
    select: set[str] | None,
    ignore: set[str] | None,
    allowlist: Allowlist | None,
    cache_dir: Path | None,
    jobs: int | None,
    pending: Pending,
) -> CheckResult:
    record_rules = selected(RECORD_RULES, select, ignore)
    corpus_rules = selected(CORPUS_RULES, select, ignore)
    rules_key = ",".join(rule.code for rule in [*record_rules, *corpus_rules])
    cache = CheckCache(cache_dir, rules_key)
    result = CheckResult()
    results: list[FileResult] = []
    misses: list[tuple[str, Job]] = []
    for file in iter_record_files(paths):
        display = str(file)
        result.files += 1
        try:
            raw = file.read_bytes()
        except OSError as exc:
            detail = f"无法读取 (cannot read)：{exc.strerror}"
            result.diagnostics.append(
                _diagnostic(ENCODING, Finding(Loc(1, 1), detail), display, None)
            )
            continue
        stamp = read_stamp(file)
        key = cache.key(display, raw + b"\0" + (stamp or b""))
        cached = cache.get(display, key)
        if cached is None:
            misses.append((key, (display, raw, relative_to_mappings(file.absolute()), stamp)))
        else:
            result.cached += 1
            results.append(cached)
    for (key, job), file_result in zip(
        misses, _check_jobs([job for _, job in misses], record_rules, jobs), strict=True
    ):
        cache.put(job[0], key, file_result)
        results.append(file_result)
    summaries = [r.summary for r in results if r.summary is not None]
    for file_result in results:
        result.diagnostics += file_result.diagnostics
    corpus = CorpusContext(summaries)
    for rule in corpus_rules:
        reported, findings = _findings(rule, corpus)
        result.diagnostics += [_diagnostic(reported, f, "<corpus>", None) for f in findings]
    cache.save(path for path in paths if path.is_dir())
    result.diagnostics = [d for d in result.diagnostics if is_selected(d.code, select, ignore)]
    if allowlist is not None:
        checked_apis = {summary.api for summary in summaries}
        result.diagnostics = apply_allowlist(
            result.diagnostics,
            allowlist,
            checked_apis,
            lambda code: is_selected(code, select, ignore),
        )
    if pending is Pending.NOTICE:
        result.diagnostics = [as_pending(d) for d in result.diagnostics]
    result.diagnostics.sort(key=lambda d: (d.path, d.line, d.col, d.code))
    return result
