"""``apimap verify``: records -> plans -> torch and paddle worker pools -> judgements -> stamps.

For every record the torch side runs first (its API checks and all its runs in
one job), then the paddle side of its runs, with the weights of any layer the
torch side built; paddle's API checks run meanwhile. Pools of both sides work
at the same time, so on two cores a torch worker and a paddle worker are busy
together. Results are compared in this process (:mod:`apimap.verify.evaluate`).

With ``--matrix`` the same torch results are also handed to a pool per older
paddle release; each release's judgement is compared with the pinned one's and
stored in the stamp as whether the mapping holds there, and what differs.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from apimap.checking.diagnostics import Diagnostic, Severity
from apimap.checking.rules.base import Rule
from apimap.checking.rules.catalog.am000_internal_error import RULE as INTERNAL_ERROR
from apimap.checking.rules.catalog.am001_encoding import RULE as ENCODING
from apimap.checking.rules.catalog.am261_example_import import RULE as EXAMPLE_IMPORTS
from apimap.checking.rules.catalog.am262_example_dynamic import RULE as EXAMPLE_DYNAMIC
from apimap.checking.rules.catalog.am263_example_internals import RULE as EXAMPLE_INTERNALS
from apimap.checking.rules.catalog.am264_example_files import RULE as EXAMPLE_FILES
from apimap.checking.rules.catalog.am701_stamp import RULE as STAMP
from apimap.checking.rules.catalog.am703_partial_stamp import RULE as PARTIAL_STAMP
from apimap.checking.rules.catalog.am819_environment_missing import RULE as ENVIRONMENT_MISSING
from apimap.checking.rules.registry import RECORD_RULES
from apimap.checking.runner import CheckResult, check_source, iter_record_files
from apimap.files import loader
from apimap.files.stamps import (
    VERIFIER_VERSION,
    Release,
    Stamp,
    StampFormatError,
    digest,
    parse_stamp,
    stamp_file,
    write_stamp,
)
from apimap.files.validate import validate
from apimap.record import derived
from apimap.record.location import Path as DataPath
from apimap.record.model import Record
from apimap.record.paths import relative_to_mappings
from apimap.record.pins import PADDLE_VERSION, pins_for
from apimap.verify.environments import (
    MAIN_PADDLE,
    Environment,
    VerificationUnavailable,
    check_versions,
    create_release_environment,
    environments,
    missing_here,
    older_releases,
    release_environment_name,
    torch_environment,
)
from apimap.verify.evaluate import Judgement, judge, release_facts
from apimap.verify.parts import Part
from apimap.verify.plan import RecordPlan, RunSpec, plan
from apimap.verify.pool import Job, JobResult, WorkerPool
from apimap.verify.runtime import RUN_SECONDS, labels
from apimap.verify.sandbox import Sandbox, detect
from apimap.verify.weight_files import FILES_KEY, WeightFiles, spilled

DEFAULT_TIMEOUT = 120.0
"""Seconds the jobs of one record may take on one side (calls, probes and examples together)."""
SAFETY_RULES = (EXAMPLE_IMPORTS, EXAMPLE_DYNAMIC, EXAMPLE_INTERNALS, EXAMPLE_FILES)
"""The example-code rules: a record that breaks one is reported and never run."""
BEFORE_STAMPING = tuple(rule for rule in RECORD_RULES if rule not in (STAMP, PARTIAL_STAMP))
"""Every record rule but the two about the stamp itself (see ``check_first``)."""


SLOWEST_SHOWN = 5
"""How many of the slowest records a verification names."""
RECORDS_IN_FLIGHT = 8
"""Records whose jobs are queued at a time, in the order they are judged: a record's jobs are
submitted as an earlier one is judged and let go, so the verifying process holds the results of
this many records at most, and the weight files of their models (see :mod:`weight_files`)."""


@dataclass
class VerifyResult(CheckResult):
    """A check result plus what the run measured."""

    records: int = 0
    runs: int = 0
    probes: int = 0
    derived_calls: int = 0
    not_executed: list[str] = field(default_factory=list)
    """Records of categories 1 to 3 for which no call ran (must be none)."""
    unacknowledged: int = 0
    seconds: float = 0.0
    startup_seconds: float = 0.0
    workers: int = 0
    environments: dict[str, dict[str, str]] = field(default_factory=dict)
    """Environment name -> the versions its workers reported."""
    stamped: list[str] = field(default_factory=list)
    sandbox: Sandbox | None = None
    releases: list[str] = field(default_factory=list)
    """The older paddle releases measured (``--matrix``)."""
    differing: dict[str, int] = field(default_factory=dict)
    """Older release -> how many records do not hold there as written."""
    drift: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Older release -> (record path, how it differs there) of each record that does not hold."""
    worker_seconds: dict[str, float] = field(default_factory=dict)
    """Record path -> the seconds its jobs took in the workers (both sides, every release):
    where the time of a verification goes."""

    def slowest(self, count: int = SLOWEST_SHOWN) -> list[tuple[str, float]]:
        """The ``count`` records whose jobs took longest, slowest first (ties by path)."""
        ranked = sorted(self.worker_seconds.items(), key=lambda item: (-item[1], item[0]))
        return ranked[:count]

    def figures(self) -> dict[str, object]:
        """The run's figures for the JSON report."""
        return {
            "records": self.records,
            "derived_calls": self.derived_calls,
            "runs": self.runs,
            "probes": self.probes,
            "not_executed": list(self.not_executed),
            "unacknowledged": self.unacknowledged,
            "seconds": round(self.seconds, 1),
            "environments": self.environments,
            "differing_by_release": self.differing,
            "differing_records": {
                version: [{"path": path, "how": how} for path, how in found]
                for version, found in self.drift.items()
            },
            "slowest": [[path, round(seconds, 1)] for path, seconds in self.slowest()],
        }


@dataclass(frozen=True)
class LoadedRecord:
    """A record that loads and validates, with the positions of its values."""

    path: str
    """The path as given (used in diagnostics)."""
    file: Path
    raw: bytes
    """The bytes that were verified (a stamp is only written for these)."""
    record: Record
    doc: loader.Document


def default_workers() -> int:
    """One worker per CPU and side, at most four."""
    return max(1, min(os.cpu_count() or 1, 4))


def load_record(file: Path) -> tuple[LoadedRecord | None, list[Diagnostic]]:
    """The record in ``file`` (``None`` if it does not load, or if its code does what the
    example-code rules forbid) and the load, schema and example-code findings."""
    display = str(file)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        message = ENCODING.message(str(exc.strerror))
        return None, [
            Diagnostic(display, 1, 1, ENCODING.code, message, ENCODING.hint, ENCODING.severity)
        ]
    loaded = check_source(display, raw, SAFETY_RULES, relative_to_mappings(file.resolve()))
    errors = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
    doc, _ = loader.load(raw)
    record = None if errors or doc is None else validate(doc)[0]
    if doc is None or record is None:
        return None, loaded.diagnostics
    return LoadedRecord(display, file, raw, record, doc), loaded.diagnostics


def _selected(loaded: LoadedRecord, stale_only: bool, part: Part | None) -> bool:
    if not stale_only and part is None:
        return True
    if part is not None and part.holds(loaded.record.torch_api):
        return True
    return stale_only and current_stamp(loaded) is None


def _check_errors(loaded: LoadedRecord) -> list[Diagnostic]:
    """The errors ``apimap check`` finds in the record, its stamp aside."""
    found = check_source(
        loaded.path, loaded.raw, BEFORE_STAMPING, relative_to_mappings(loaded.file.resolve())
    )
    return [d for d in found.diagnostics if d.severity is Severity.ERROR]


def current_stamp(loaded: LoadedRecord) -> Stamp | None:
    """The record's stamp, when it verified exactly this data with this verifier and pins."""
    location = stamp_file(loaded.file)
    if location is None or not location.is_file():
        return None
    try:
        stamp = parse_stamp(location.read_bytes())
    except (OSError, StampFormatError):
        return None
    current = (
        stamp.record == digest(loaded.doc.data)
        and stamp.verifier == VERIFIER_VERSION
        and all(stamp.versions.get(k) == v for k, v in pins_for(loaded.record.torch_api).items())
    )
    return stamp if current else None


def _diagnostic(
    loaded: LoadedRecord, rule: Rule, where: DataPath, detail: str, line: int | None = None
) -> Diagnostic:
    loc = loaded.doc.loc(where) if line is None else loaded.doc.text_loc(where, line)
    return Diagnostic(
        loaded.path,
        loc.line,
        loc.col,
        rule.code,
        rule.message(detail),
        rule.hint,
        rule.severity,
        loaded.record.torch_api,
    )


class _Pools:
    """The pools of the environments this run needs, started on first use."""

    def __init__(self, size: int, timeout: float, sandbox: Sandbox, result: VerifyResult) -> None:
        self.size = size
        self.timeout = timeout
        self.sandbox = sandbox
        self.result = result
        self.known = environments()
        self.pools: dict[str, WorkerPool] = {}
        self.weights = WeightFiles()
        self.slots = threading.Semaphore(size)
        """Jobs running at once across the pools: one per worker of a pool. A matrix run
        has five pools; with all their workers busy at once on a few CPUs, a heavy run took
        several times its own time and met its limit."""
        self.sandbox = replace(sandbox, readable=(*sandbox.readable, self.weights.path))
        self.run_seconds = min(RUN_SECONDS, timeout / 2)
        """Each run's own limit (Python code is interrupted; the job's timeout stops the rest)."""

    def batch_timeout(self, runs: int) -> float:
        """The seconds a job of ``runs`` runs may take: the timeout, or each run's own limit
        for every run where that is longer (a batch of heavy runs is not a hang)."""
        return max(self.timeout, runs * self.run_seconds)

    def start(self, names: set[str]) -> None:
        """Start the pools of ``names`` (in parallel); raise if one cannot start."""
        errors: list[Exception] = []

        def start_one(name: str) -> None:
            environment = self.known[name]
            assert environment.python is not None
            pool = WorkerPool(
                environment.python,
                environment.side,
                self.size,
                self.timeout,
                self.sandbox,
                weights=self.weights,
                slots=self.slots,
            )
            try:
                versions = pool.start()
                check_versions(environment, versions)
            except Exception as exc:
                pool.close()
                errors.append(exc)
                return
            self.pools[name] = pool
            self.result.environments[name] = versions

        began = time.monotonic()
        threads = [threading.Thread(target=start_one, args=(name,)) for name in sorted(names)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.result.startup_seconds += time.monotonic() - began
        if errors:
            self.close()
            raise errors[0]

    def close(self) -> None:
        for pool in self.pools.values():
            self.result.workers += pool.started
            pool.close()
        self.pools = {}
        self.weights.close()


BATCH_RUNS = 16
"""The most runs one job holds: a record's runs go in batches (a call with its probes, cut
to this size), so a record's work spreads over the workers and the timeout applies to each
batch rather than to hundreds of probes at once."""


def batches(runs: list[RunSpec]) -> list[list[int]]:
    """The indices of ``runs`` grouped into jobs: the runs of each call (its own code and its
    probes, which build the same layers and share their weights within a job) or of each
    example, at most :data:`BATCH_RUNS` at a time, in order."""
    groups: dict[object, list[int]] = {}
    for index, spec in enumerate(runs):
        key = ("call", spec.call) if spec.call is not None else ("code", spec.path)
        groups.setdefault(key, []).append(index)
    found = []
    for indices in groups.values():
        found += [indices[i : i + BATCH_RUNS] for i in range(0, len(indices), BATCH_RUNS)]
    return found


@dataclass
class _Pending:
    """The futures of one record's jobs: a torch job per batch of runs, and the paddle side's
    per batch and paddle environment."""

    batches: list[list[int]] = field(default_factory=list)
    torch_check: Future[JobResult] | None = None
    torch_runs: list[Future[JobResult]] = field(default_factory=list)
    paddle_checks: dict[str, Future[JobResult]] = field(default_factory=dict)
    paddle_runs: dict[str, list[Future[JobResult]]] = field(default_factory=dict)


class _Ids:
    def __init__(self) -> None:
        self.next = 0
        self.lock = threading.Lock()

    def __call__(self) -> int:
        with self.lock:
            self.next += 1
            return self.next


def _submit(
    plans: Sequence[RecordPlan],
    records: Sequence[Record],
    pools: _Pools,
    ids: _Ids,
    paddles: list[str],
) -> list[_Pending]:
    pending: list[_Pending] = []
    for record, record_plan in zip(records, plans, strict=True):
        item = _Pending(paddle_runs={name: [] for name in paddles})
        pending.append(item)
        torch = pools.pools.get(torch_environment(record.torch_api))
        if torch is None:
            continue
        item.torch_check = torch.submit(Job(ids(), "check", record_plan.torch_check))
        for name in paddles:
            if record_plan.paddle_check is not None:
                check = Job(ids(), "check", record_plan.paddle_check)
                item.paddle_checks[name] = pools.pools[name].submit(check)
        item.batches = batches(record_plan.runs)
        for batch in item.batches:
            runs = [record_plan.runs[index] for index in batch]
            specs = [spec.spec("torch", seconds=pools.run_seconds) for spec in runs]
            torch_future = torch.submit(
                Job(ids(), "runs", {"runs": specs}, pools.batch_timeout(len(runs)))
            )
            item.torch_runs.append(torch_future)
            for name in paddles:
                target: Future[JobResult] = Future()
                item.paddle_runs[name].append(target)
                torch_future.add_done_callback(_then_paddle(runs, target, pools.pools[name], ids))
    return pending


def _weights(outcome: Any) -> dict[str, Any] | None:
    return outcome.get("weights") if isinstance(outcome, dict) else None


def _paddle_job(job_id: int, specs: list[dict[str, Any]], torch_result: JobResult) -> Job:
    """The paddle side of ``specs`` with the files of the weights they copy from the torch
    job, each array once (see :class:`~apimap.verify.runtime.WeightStore`)."""
    files = spilled(torch_result.data)
    wanted = set().union(*(labels(spec.get("weights") or {}) for spec in specs))
    return Job(
        job_id,
        "runs",
        {
            "runs": specs,
            FILES_KEY: {label: files[label] for label in sorted(wanted) if label in files},
        },
    )


def _then_paddle(
    runs: list[RunSpec],
    target: Future[JobResult],
    paddle: WorkerPool,
    ids: _Ids,
    urgent: bool = False,
) -> Callable[[Future[JobResult]], None]:
    paddle_seconds = min(RUN_SECONDS, paddle.timeout / 2)

    def submit(done: Future[JobResult]) -> None:
        try:
            torch_result = done.result()
        except Exception as exc:
            target.set_exception(exc)
            return
        outcomes = torch_result.data.get("runs") if torch_result.data else None
        if not isinstance(outcomes, list):  # the torch job died: its runs are judged alone
            target.set_result(JobResult(0, {"runs": [SKIPPED] * len(runs)}))
            return
        wanted = [
            index
            for index, (spec, outcome) in enumerate(zip(runs, outcomes, strict=True))
            if spec.probe is None or (isinstance(outcome, dict) and outcome.get("ok"))
        ]
        specs = [
            runs[index].spec("paddle", _weights(outcomes[index]), paddle_seconds)
            for index in wanted
        ]
        job = _paddle_job(ids(), specs, torch_result)
        job.timeout = max(paddle.timeout, len(specs) * paddle_seconds)
        future = paddle.submit(job, urgent)
        future.add_done_callback(lambda finished: _forward(finished, target, wanted, len(outcomes)))

    return submit


SKIPPED = {"ok": False, "stage": "skipped", "error": "torch 报错，未运行 (torch raised: not run)"}
"""The paddle outcome of a probe torch rejects: such a probe tells nothing, and paddle may hang."""


def _forward(
    source: Future[JobResult], target: Future[JobResult], wanted: list[int], count: int
) -> None:
    """The paddle job's outcomes put back at the positions of the runs they belong to."""
    try:
        result = source.result()
    except Exception as exc:
        target.set_exception(exc)
        return
    runs = result.data.get("runs") if result.data else None
    if not isinstance(runs, list) or len(runs) != len(wanted):
        target.set_result(result)
        return
    placed: list[Any] = [SKIPPED] * count
    for index, outcome in zip(wanted, runs, strict=True):
        placed[index] = outcome
    target.set_result(JobResult(result.id, {**result.data, "runs": placed}, seconds=result.seconds))


def _job_seconds(item: _Pending) -> float:
    """The seconds a record's jobs took in the workers (they have all ended)."""
    futures = [item.torch_check, *item.torch_runs, *item.paddle_checks.values()]
    futures += [future for batch in item.paddle_runs.values() for future in batch]
    return sum(future.result().seconds for future in futures if future is not None)


SHOWN_RUNS = 3
"""How many of a release's differing runs a summary names."""


def how_it_differs(release: Release) -> str:
    """One line on why a record does not hold on an older release, for the person running
    verify (the page says it from the same facts): the API or names it lacks, the torch-style
    names it refuses, the runs that fail there, the probes that behave otherwise."""
    parts = [] if release.api else ["没有该 API (API missing)"]
    refused = sorted(name for name, taken in release.accepts.items() if not taken)
    if refused:
        parts.append(f"不接受参数名 {'、'.join(refused)} (refuses the torch-style names)")
    missing = sorted(name for name, exists in release.names.items() if not exists)
    if missing:
        parts.append(f"没有 {'、'.join(missing)} (names missing)")
    failing = [f"{where} {how}" for where, how in release.runs.items() if how != "ok"]
    parts += failing[:SHOWN_RUNS]
    if len(failing) > SHOWN_RUNS:
        parts.append(f"另有 {len(failing) - SHOWN_RUNS} 段代码 (more runs)")
    if release.probes:
        parts.append(f"{len(release.probes)} 个探测的结果不同 (probes differ)")
    return "；".join(parts) or "与固定版本不同 (differs)"


def _result(future: Future[JobResult] | None) -> JobResult | None:
    return None if future is None else future.result()


def _failed(result: JobResult | None) -> bool:
    return result is not None and (result.timed_out or result.crashed is not None)


def _runs(
    record: Record,
    record_plan: RecordPlan,
    item: _Pending,
    pools: _Pools,
    ids: _Ids,
    paddle_name: str = MAIN_PADDLE,
) -> tuple[JobResult | None, JobResult | None]:
    """The record's run results on one paddle environment, its batches put together in the
    order of the runs; a batch whose job died is run again one run per job (all at once), so
    that the run that hangs or crashes is reported where it is and the others still count."""
    if not record_plan.runs or not item.torch_runs:
        return None, None
    torch_outcomes: list[Any] = [None] * len(record_plan.runs)
    paddle_outcomes: list[Any] = [None] * len(record_plan.runs)
    seconds = 0.0
    for batch, torch_future, paddle_future in zip(
        item.batches, item.torch_runs, item.paddle_runs[paddle_name], strict=True
    ):
        torch_result, paddle_result = torch_future.result(), paddle_future.result()
        runs = [record_plan.runs[index] for index in batch]
        if _failed(torch_result) or _failed(paddle_result):
            torch_result, paddle_result = _one_by_one(record, runs, pools, ids, paddle_name)
        seconds += torch_result.seconds + paddle_result.seconds
        for side, result in ((torch_outcomes, torch_result), (paddle_outcomes, paddle_result)):
            found = result.data.get("runs") if result.data else None
            for position, index in enumerate(batch):
                outcome = (
                    found[position] if isinstance(found, list) and position < len(found) else None
                )
                side[index] = outcome if isinstance(outcome, dict) else _single(result)
    return (
        JobResult(0, {"runs": torch_outcomes}, seconds=seconds),
        JobResult(0, {"runs": paddle_outcomes}),
    )


def _one_by_one(
    record: Record, runs: list[RunSpec], pools: _Pools, ids: _Ids, paddle_name: str
) -> tuple[JobResult, JobResult]:
    """Each run of a batch in a job of its own, submitted together ahead of the queued jobs
    (the judging waits for them), the paddle side of each after its torch side."""
    torch_pool = pools.pools[torch_environment(record.torch_api)]
    paddle_pool = pools.pools[paddle_name]
    seconds = pools.run_seconds
    torch_futures = [
        torch_pool.submit(
            Job(ids(), "runs", {"runs": [spec.spec("torch", seconds=seconds)]}), urgent=True
        )
        for spec in runs
    ]
    paddle_futures: list[Future[JobResult]] = []
    for spec, future in zip(runs, torch_futures, strict=True):
        target: Future[JobResult] = Future()
        future.add_done_callback(_then_paddle([spec], target, paddle_pool, ids, urgent=True))
        paddle_futures.append(target)
    torch_outcomes = [_single(future.result()) for future in torch_futures]
    paddle_outcomes = [_single(future.result()) for future in paddle_futures]
    return JobResult(0, {"runs": torch_outcomes}), JobResult(0, {"runs": paddle_outcomes})


def _single(result: JobResult) -> dict[str, Any]:
    """The outcome of a job of one run, a hung or dead worker included."""
    if result.timed_out:
        return {"ok": False, "stage": "timeout", "error": f"超过 {result.seconds:.0f} 秒"}
    if result.crashed is not None:
        return {"ok": False, "stage": "crash", "error": result.crashed}
    if result.error is not None:
        return {"ok": False, "stage": "internal", "error": result.error}
    runs = result.data.get("runs")
    return runs[0] if isinstance(runs, list) and runs else {"ok": False, "stage": "internal"}


def run_verify(
    paths: Sequence[Path],
    workers: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    update: bool = False,
    stale_only: bool = False,
    matrix: bool = False,
    part: Part | None = None,
    check_first: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> VerifyResult:
    """Verify every record below ``paths``; with ``update``, stamp the records that pass; with
    ``matrix``, also measure every older paddle release (creating its environment if needed).
    ``stale_only`` and ``part`` narrow the records to those without a current stamp and to one
    part of the corpus; given both, a record is verified when either holds. With
    ``progress`` is told ``(records judged, records)`` as the judging goes on. With
    ``check_first`` (what ``apimap verify --update`` does), a record that ``apimap check``
    rejects is not stamped and its errors are reported. Raises
    :class:`~apimap.verify.environments.VerificationUnavailable` when there are records to
    verify and torch or paddle is not installed here."""
    began = time.monotonic()
    result = VerifyResult()
    records: list[LoadedRecord] = []
    for file in iter_record_files(paths):
        result.files += 1
        loaded, diagnostics = load_record(file)
        result.diagnostics += diagnostics
        if loaded is not None and _selected(loaded, stale_only, part):
            records.append(loaded)
    result.records = len(records)
    known = environments()
    needed = {torch_environment(loaded.record.torch_api) for loaded in records}
    unavailable = missing_here(needed | {MAIN_PADDLE}, known) if records else []
    if unavailable:
        raise VerificationUnavailable(unavailable)
    plans = [plan(loaded.record) for loaded in records]
    sandbox = detect()
    result.sandbox = sandbox
    pools = _Pools(workers or default_workers(), timeout, sandbox, result)
    if matrix and records:
        for version in older_releases():
            environment = create_release_environment(version)
            pools.known[environment.name] = environment
            result.releases.append(version)
    paddles = [MAIN_PADDLE, *(release_environment_name(v) for v in result.releases)]
    missing = {name for name in needed if pools.known[name].python is None}
    _report_missing(missing, records, pools, result)
    try:
        if records:
            pools.start((needed - missing) | set(paddles))
        ids = _Ids()

        def submit(start: int, stop: int) -> list[_Pending]:
            chosen = [loaded.record for loaded in records[start:stop]]
            return _submit(plans[start:stop], chosen, pools, ids, paddles)

        pending = deque(submit(0, RECORDS_IN_FLIGHT))
        for done, (loaded, record_plan) in enumerate(zip(records, plans, strict=True)):
            if progress is not None:
                progress(done, len(records))
            item = pending.popleft()
            main = judge(
                loaded.record,
                record_plan,
                (_result(item.torch_check), _result(item.paddle_checks.get(MAIN_PADDLE))),
                _runs(loaded.record, record_plan, item, pools, ids),
            )
            measured: dict[str, Release] = {}
            # another package's API (visualdl ...) does not change with paddle's release
            releases = [] if loaded.record.paddle_package else result.releases
            for version in releases:
                name = release_environment_name(version)
                other = judge(
                    loaded.record,
                    record_plan,
                    (_result(item.torch_check), _result(item.paddle_checks.get(name))),
                    _runs(loaded.record, record_plan, item, pools, ids, name),
                )
                measured[version] = release_facts(loaded.record, other, main)
            if item.torch_check is not None:  # else its environment is missing: reported above
                result.worker_seconds[loaded.path] = _job_seconds(item)
                stamped = measured if matrix else None
                _conclude(loaded, record_plan, main, stamped, result, update, check_first)
            # the judged record's results go (a model's weights travel with them) and its stamp
            # is written now, so a long run holds one record's results at a time and an
            # interrupted one keeps what it proved; the next record's jobs take its place
            del item
            pending += submit(done + RECORDS_IN_FLIGHT, done + RECORDS_IN_FLIGHT + 1)
    finally:
        pools.close()
    result.diagnostics.sort(key=lambda d: (d.path, d.line, d.col, d.code))
    result.seconds = time.monotonic() - began
    return result


def _conclude(
    loaded: LoadedRecord,
    record_plan: RecordPlan,
    judgement: Judgement,
    measured: dict[str, Release] | None,
    result: VerifyResult,
    update: bool,
    check_first: bool,
) -> None:
    """Add one judged record to ``result`` and, with ``update``, stamp it when it passed
    (``measured``: the older releases' facts of a matrix run)."""
    _collect(loaded, record_plan, judgement, result)
    for version, release in (measured or {}).items():
        result.differing[version] = result.differing.get(version, 0) + (not release.holds)
        if not release.holds:
            result.drift.setdefault(version, []).append((loaded.path, how_it_differs(release)))
    if update and not judgement.blocks_stamp:
        refused = _check_errors(loaded) if check_first else []
        if refused:
            result.diagnostics += refused
        else:
            _stamp(loaded, judgement, result, measured)


def judge_plans(
    records: Sequence[Record],
    plans: Sequence[RecordPlan],
    workers: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> list[Judgement | None]:
    """Run plans the caller built (``apimap import --run`` builds its own from legacy pages)
    on the pinned paddle release and judge each record; no stamp is written. ``None`` for a
    record whose torch environment is missing. Raises when a worker pool cannot start."""
    result = VerifyResult()
    pools = _Pools(workers or default_workers(), timeout, detect(), result)
    needed = {torch_environment(record.torch_api) for record in records}
    available = {name for name in needed if pools.known[name].python is not None}
    judgements: list[Judgement | None] = []
    try:
        if records:
            pools.start(available | {MAIN_PADDLE})
        ids = _Ids()
        pending = _submit(plans, records, pools, ids, [MAIN_PADDLE])
        for record, record_plan, item in zip(records, plans, pending, strict=True):
            if item.torch_check is None:
                judgements.append(None)
                continue
            judgements.append(
                judge(
                    record,
                    record_plan,
                    (_result(item.torch_check), _result(item.paddle_checks.get(MAIN_PADDLE))),
                    _runs(record, record_plan, item, pools, ids),
                )
            )
    finally:
        pools.close()
    return judgements


def _report_missing(
    missing: set[str], records: list[LoadedRecord], pools: _Pools, result: VerifyResult
) -> None:
    for name in sorted(missing):
        environment: Environment = pools.known[name]
        affected = [r for r in records if torch_environment(r.record.torch_api) == name]
        detail = (
            f"缺少 {name} 环境，{len(affected)} 条记录未验证 (environment missing, "
            f"{len(affected)} records not verified)：运行 {environment.setup}"
        )
        result.diagnostics.append(
            Diagnostic(
                "<verify>",
                1,
                1,
                ENVIRONMENT_MISSING.code,
                ENVIRONMENT_MISSING.message(detail),
                ENVIRONMENT_MISSING.hint,
                ENVIRONMENT_MISSING.severity,
            )
        )


def _collect(
    loaded: LoadedRecord, record_plan: RecordPlan, judgement: Judgement, result: VerifyResult
) -> None:
    result.diagnostics += [
        _diagnostic(loaded, finding.rule, finding.where, finding.detail, finding.line)
        for finding in judgement.findings
    ]
    result.runs += len(record_plan.runs)
    result.probes += judgement.proven.probes
    result.derived_calls += judgement.proven.calls
    result.unacknowledged += sum(1 for f in judgement.findings if f.rule.code == "AM815")
    record = loaded.record
    category = derived.category(record)
    if category.group <= 3 and record.paddle_api is not None and not record.calls:
        result.not_executed.append(loaded.path)


def _stamp(
    loaded: LoadedRecord,
    judgement: Judgement,
    result: VerifyResult,
    releases: dict[str, Release] | None,
) -> None:
    """Write the stamp with the pinned release's facts; without a matrix run, a previous
    stamp's results for the older releases are kept when they were measured for the same
    record facts by the same verifier."""
    location = stamp_file(loaded.file)
    if location is None:
        return
    if releases is None:
        previous = _previous_stamp(location)
        same = (
            previous is not None
            and previous.record == digest(loaded.doc.data)
            and previous.verifier == VERIFIER_VERSION
        )
        kept = previous.releases if same and previous is not None else {}
        releases = {version: facts for version, facts in kept.items() if version != PADDLE_VERSION}
    releases = {**releases, PADDLE_VERSION: release_facts(loaded.record, judgement, None)}
    versions: dict[str, str] = {}
    for name, found in result.environments.items():
        if name == MAIN_PADDLE or name == torch_environment(loaded.record.torch_api):
            versions.update(found)
    stamp = Stamp(
        record=digest(loaded.doc.data),
        verifier=VERIFIER_VERSION,
        versions=dict(sorted(versions.items())),
        date=datetime.now(UTC).date().isoformat(),
        proven=judgement.proven,
        behaviour=judgement.behaviour,
        releases=dict(sorted(releases.items())),
    )
    try:
        if loaded.file.read_bytes() != loaded.raw:
            raise OSError("验证期间文件被修改，未写入 (file changed while it was verified)")
        if write_stamp(location, stamp):
            result.stamped.append(loaded.path)
    except OSError as exc:
        result.diagnostics.append(
            _diagnostic(
                loaded, INTERNAL_ERROR, ("torch_api",), f"无法写入验证标记 (cannot stamp)：{exc}"
            )
        )


def _previous_stamp(location: Path) -> Stamp | None:
    try:
        return parse_stamp(location.read_bytes())
    except (OSError, StampFormatError):
        return None
