"""Judge one record from what its workers returned: diagnostics, probe results, what was proven.

Runs of the record's own code (calls, example cases, note examples) must run on
both sides and agree; errors here are errors of the record. Probe runs produce
:class:`~apimap.files.stamps.ProbeResult` entries; a difference the record does not
acknowledge is an error (AM815), an acknowledgement that found no difference a
warning (AM816).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from apimap.checking.rules.base import Rule
from apimap.checking.rules.catalog.am000_internal_error import RULE as INTERNAL_ERROR
from apimap.checking.rules.catalog.am221_call_derivable import RULE as UNDERIVABLE
from apimap.checking.rules.catalog.am807_not_installed import RULE as NOT_INSTALLED
from apimap.checking.rules.catalog.am810_example_raises import RULE as RAISES
from apimap.checking.rules.catalog.am811_example_differs import RULE as DIFFERS
from apimap.checking.rules.catalog.am812_example_timeout import RULE as TIMEOUT
from apimap.checking.rules.catalog.am813_example_setup import RULE as SETUP
from apimap.checking.rules.catalog.am814_worker_crashed import RULE as CRASHED
from apimap.checking.rules.catalog.am815_probe_difference import RULE as PROBE_DIFFERENCE
from apimap.checking.rules.catalog.am816_stale_acknowledgement import RULE as STALE_ACKNOWLEDGEMENT
from apimap.checking.rules.catalog.am818_missing_candidate import RULE as MISSING_CANDIDATE
from apimap.checking.rules.registry import RULES_BY_CODE
from apimap.files.stamps import NOT_RUN, OK, ProbeOutcome, ProbeResult, Proven, Release
from apimap.record import derived, phrases
from apimap.record.categories import Category, Needs, Refusal
from apimap.record.location import Path
from apimap.record.model import Record
from apimap.verify import probes
from apimap.verify.plan import RecordPlan, RunSpec, key_of
from apimap.verify.pool import JobResult
from apimap.verify.values import comparable, compare, result_dtype


@dataclass(frozen=True)
class Finding:
    """One problem, located by a path into the record (and a line of a code snippet)."""

    rule: Rule
    where: Path
    detail: str
    line: int | None = None


@dataclass
class Judgement:
    """Everything verify concludes about one record."""

    findings: list[Finding] = field(default_factory=list)
    behaviour: list[ProbeResult] = field(default_factory=list)
    proven: Proven = field(default_factory=Proven)
    outcomes: dict[str, str] = field(default_factory=dict)
    """Run key -> how the record's own code ran (:attr:`apimap.stamps.Release.runs`)."""
    paddle_facts: dict[str, Any] = field(default_factory=dict)
    """What the paddle side's API checks established (names, parameters, accepted names)."""

    @property
    def blocks_stamp(self) -> bool:
        """Errors block a stamp (warnings say what stayed unproven)."""
        return any(finding.rule.severity.value == "error" for finding in self.findings)


def _job_failure(result: JobResult, where: Path) -> Finding | None:
    if result.timed_out:
        detail = f"超过 {result.seconds:.0f} 秒 (more than {result.seconds:.0f} s)"
        return Finding(TIMEOUT, where, detail)
    if result.crashed is not None:
        return Finding(CRASHED, where, result.crashed)
    if result.error is not None:
        return Finding(INTERNAL_ERROR, where, f"验证代码出错 (verifier crashed)：{result.error}")
    return None


def _outcomes(result: JobResult, count: int) -> list[Any] | None:
    """The outcome of each of ``count`` runs, or ``None`` when the job did not give them."""
    outcomes = result.data.get("runs")
    return outcomes if isinstance(outcomes, list) and len(outcomes) == count else None


def _issues(result: JobResult | None) -> list[Finding]:
    if result is None:
        return []
    failure = _job_failure(result, ())
    if failure is not None:
        return [failure]
    return [
        Finding(RULES_BY_CODE[item["code"]], tuple(item["where"]), item["detail"], item.get("line"))
        for item in result.data.get("issues", [])
    ]


def _facts(result: JobResult | None) -> dict[str, Any]:
    if result is None or result.data is None:
        return {}
    facts = result.data.get("facts")
    return facts if isinstance(facts, dict) else {}


def _summary(outcome: dict[str, Any], spec: RunSpec) -> str:
    if not outcome.get("ok"):
        # the error's kind; for a worker that died, its exit status without its stderr
        return "✗ " + str(outcome.get("error", "")).split(":", 1)[0].split("；", 1)[0]
    found = outcome.get("values", {})
    shown = [result_dtype(found[name]) for name in spec.outputs if name in found]
    return "、".join(shown) or "-"


def _where_code(spec: RunSpec, side: str) -> Path:
    if spec.path[0] == "calls":
        return (*spec.path, "torch")
    return (*spec.path, side)


_FAILURE_RULES = {"timeout": TIMEOUT, "crash": CRASHED, "internal": INTERNAL_ERROR}
"""Stages of a run that failed outside the code's own exceptions."""


def _run_failure(spec: RunSpec, side: str, outcome: dict[str, Any]) -> Finding:
    stage = outcome.get("stage")
    error = str(outcome.get("error", ""))
    if stage == "inputs":
        return Finding(
            SETUP,
            (*spec.path, "inputs", str(outcome.get("input"))),
            f"输入 `{outcome.get('input')}` 的表达式出错 (input expression failed)：{error}",
        )
    if stage == "outputs":
        return Finding(SETUP, (*spec.path, "outputs"), error)
    if stage in _FAILURE_RULES:
        return Finding(_FAILURE_RULES[stage], _where_code(spec, side), f"{side}：{error}")
    line = outcome.get("line")
    if stage == "setup":
        where = f"{side} 准备代码第 {line} 行 (setup line {line})" if line else f"{side} 准备代码"
        return Finding(RAISES, (*spec.path, "setup", side), f"{where}：{error}", line)
    derived_side = spec.path[0] == "calls" and side == "paddle"
    if derived_side:
        detail = f"由参数映射推导的 Paddle 代码 `{spec.paddle}` 出错 (derived paddle code raised)：{error}"
        return Finding(RAISES, _where_code(spec, side), detail)
    where = f"{side} 代码第 {line} 行 (line {line})" if line else f"{side} 代码 (code)"
    return Finding(RAISES, _where_code(spec, side), f"{where}：{error}", line)


def _compare_outputs(
    spec: RunSpec, torch: dict[str, Any], paddle: dict[str, Any]
) -> tuple[list[str], int, list[Finding]]:
    """Differences, how many results were compared, and setup problems."""
    messages: list[str] = []
    setup: list[Finding] = []
    compared = 0
    for index, name in enumerate(spec.outputs):
        where: Path = (*spec.path, "outputs", index) if spec.explicit_outputs else spec.path
        missing = [
            side for side, found in (("torch", torch), ("paddle", paddle)) if name not in found
        ]
        if missing:
            detail = f"{'、'.join(missing)} 代码没有给 `{name}` 赋值 (`{name}` is not assigned)"
            setup.append(Finding(SETUP, where, detail))
            continue
        left, right = torch[name], paddle[name]
        if not (comparable(left) and comparable(right)):
            if spec.explicit_outputs:
                setup.append(Finding(SETUP, where, f"`{name}` 无法比较 (not comparable)"))
            continue
        compared += 1
        tolerance = spec.tolerance
        if name in spec.shape_only:
            tolerance = replace(tolerance, values=False)
        messages += compare(name, left, right, tolerance)
    return messages, compared, setup


def _own_run(spec: RunSpec, torch: dict[str, Any], paddle: dict[str, Any]) -> list[Finding]:
    if not torch.get("ok"):
        return [_run_failure(spec, "torch", torch)]
    if not paddle.get("ok"):
        return [_run_failure(spec, "paddle", paddle)]
    messages, compared, setup = _compare_outputs(spec, torch["values"], paddle["values"])
    findings = setup + [Finding(DIFFERS, spec.path, message) for message in messages]
    run_only = spec.explicit_outputs and not spec.outputs
    if compared == 0 and not findings and not run_only:
        detail = (
            "没有可比较的结果：把结果赋给变量，如 `y = m(x)` "
            "(nothing compared: assign a result, e.g. y = m(x))"
        )
        findings.append(Finding(SETUP, spec.path, detail))
    return findings


WANT_REFUSAL = re.compile(
    r"cuda|gpu|device|xpu|mtia|mps|accelerator|nccl|cudnn|compiled with|"
    r"not (?:available|compiled|supported)|network|connect",
    re.IGNORECASE,
)
"""What a library says when it refuses code for want of a device (``Torch not compiled with
CUDA enabled``, ``... is not supported in CPU-only PaddlePaddle``) or of the network."""
CODE_ERRORS = (
    "NameError",
    "SyntaxError",
    "IndentationError",
    "UnboundLocalError",
    "AttributeError",
    "ImportError",
    "ModuleNotFoundError",
    "TypeError",
)
"""Errors that, raised by the record's own lines, are the code's mistake (a typo, an API the
release lacks, a wrong argument), never a device's absence."""


def _refused_for_want(outcome: dict[str, Any]) -> bool:
    """The run raised for want of what its code needs: inside the library (a CPU build of
    paddle meets names only its GPU build defines), or from the record's own line with an
    error that speaks of a device or the network and is not one of the code's own mistakes."""
    if outcome.get("ok") or outcome.get("stage") not in {"setup", "code"}:
        return False
    if outcome.get("in_library"):
        return True
    error = str(outcome.get("error", ""))
    return not error.startswith(CODE_ERRORS) and WANT_REFUSAL.search(error) is not None


def _refused_as_needed(spec: RunSpec, torch: dict[str, Any], paddle: dict[str, Any]) -> bool:
    """Code that needs what this machine lacks, refused for want of it by the sides that lack
    it: both (a device, the network), paddle alone while torch ran (a feature paddle's
    package on the machine was built without), or torch alone while paddle ran (a toolkit
    only torch asks for). A typo's ``NameError`` or an unrelated error is not that: it is
    reported."""
    if spec.needs is None:
        return False
    if spec.needs.refusal is Refusal.PADDLE:
        return bool(torch.get("ok")) and _refused_for_want(paddle)
    if spec.needs.refusal is Refusal.TORCH:
        return bool(paddle.get("ok")) and _refused_for_want(torch)
    return _refused_for_want(torch) and _refused_for_want(paddle)


def not_executed(where: str, needs: Needs) -> str:
    """The sentence a page and a stamp give code that needs what the machine lacks."""
    return phrases.NOT_EXECUTED_NEEDS[needs.refusal].format(where=where, needs=needs.label)


def code_label(path: Path) -> str:
    """Where code lives in a record, as a reader names it: 第 1 个调用, 转写示例 2 …"""
    kind = path[0]
    number = int(path[1]) + 1 if len(path) > 1 and isinstance(path[1], int) else 1
    if kind == "calls":
        return phrases.CODE_LABELS["calls"].format(number=number)
    if kind == "notes":
        return phrases.CODE_LABELS["notes"].format(number=number)
    if kind == "alternatives":
        return phrases.CODE_LABELS["alternatives"].format(number=number)
    case = int(path[3]) + 1 if len(path) > 3 and isinstance(path[3], int) else 1
    return phrases.CODE_LABELS["examples"].format(number=number, case=case)


def _informative(torch: dict[str, Any], paddle: dict[str, Any]) -> bool:
    """A probe torch rejects tells nothing, nor one that changes nothing (``inapplicable``),
    nor one whose setup code paddle rejects: the difference is then in the code around the
    API, not in the API."""
    return bool(torch.get("ok")) and paddle.get("stage") != "setup"


def _unexplained_timeout(
    record: Record, spec: RunSpec, torch: dict[str, Any], paddle: dict[str, Any]
) -> bool:
    """A probe whose paddle side ran out of time and whose record does not say that paddle
    hangs on it (a note or ``accepted`` naming the probe makes the hang a difference)."""
    assert spec.probe is not None
    return (
        bool(torch.get("ok"))
        and paddle.get("stage") == "timeout"
        and probes.acknowledgement(record, spec.probe) is None
    )


def _probe_result(spec: RunSpec, torch: dict[str, Any], paddle: dict[str, Any]) -> ProbeResult:
    assert spec.probe is not None
    torch_summary, paddle_summary = _summary(torch, spec), _summary(paddle, spec)
    where = spec.path
    if not torch.get("ok"):
        return ProbeResult(spec.probe, where, torch_summary, paddle_summary, False)
    if not paddle.get("ok"):
        detail = f"Paddle 报错 (paddle raises)：{paddle.get('error', '')}"
        return ProbeResult(spec.probe, where, torch_summary, paddle_summary, True, detail)
    messages, _compared, setup = _compare_outputs(spec, torch["values"], paddle["values"])
    if setup or messages:
        detail = messages[0] if messages else setup[0].detail
        return ProbeResult(spec.probe, where, torch_summary, paddle_summary, True, detail)
    return ProbeResult(spec.probe, where, torch_summary, paddle_summary, False)


def _candidates(record: Record, facts: dict[str, Any]) -> list[Finding]:
    if record.missing is None:
        return []
    discussed = {item.paddle for item in record.missing.considered}
    return [
        Finding(
            MISSING_CANDIDATE,
            ("missing",),
            f"`{name}` 存在，记录没有说明它为什么不能对应 (exists; say why it does not map)",
        )
        for name in facts.get("candidates", [])
        if name not in discussed
    ]


def _unproven(
    record: Record, torch: dict[str, Any], paddle: dict[str, Any], runs: int
) -> list[str]:
    found = []
    for side, facts, recorded in (
        ("PyTorch", torch, record.torch_signature),
        ("Paddle", paddle, record.paddle_signature),
    ):
        if recorded is not None and facts.get("signature") == "unreadable":
            found.append(f"{side} 签名无法从库中读取 ({side} signature unreadable)")
        for name in facts.get("opaque", []):
            found.append(f"{side} 的 `{name}` 默认值库中未写明 (default not stated by {side})")
    if torch.get("not_installed"):
        found.append(f"未安装 `{torch['not_installed']}`，没有运行 (package not installed)")
    elif runs == 0 and record.category is not Category.MISSING:
        # a 功能缺失 record claims an absence, proven by the API checks and the search for
        # candidates (AM818); it has nothing to run unless it shows code
        found.append("没有可运行的调用或示例 (nothing was executed)")
    return found


def judge(
    record: Record,
    plan: RecordPlan,
    checks: tuple[JobResult | None, JobResult | None],
    runs: tuple[JobResult | None, JobResult | None],
) -> Judgement:
    """Diagnostics, probe results and proof of one record."""
    judgement = Judgement()
    findings = judgement.findings
    # a call that cannot be derived (what `apimap check` reports as AM221)
    findings += [Finding(UNDERIVABLE, path, detail, line) for path, detail, line in plan.errors]
    torch_check, paddle_check = checks
    findings += _issues(torch_check) + _issues(paddle_check)
    torch_facts, paddle_facts = _facts(torch_check), _facts(paddle_check)
    if any(f.rule is NOT_INSTALLED for f in findings):
        torch_facts = {**torch_facts, "not_installed": record.torch_api.split(".", 1)[0]}
    findings += _candidates(record, paddle_facts)
    torch_runs, paddle_runs = runs
    executed = 0
    probe_count = 0
    not_run = [not_executed(code_label(path), needs) for path, needs in plan.unrun]
    if torch_runs is not None and paddle_runs is not None and plan.runs:
        failure = _job_failure(torch_runs, ()) or _job_failure(paddle_runs, ())
        torch_outcomes = _outcomes(torch_runs, len(plan.runs))
        paddle_outcomes = _outcomes(paddle_runs, len(plan.runs))
        if torch_outcomes is None or paddle_outcomes is None:
            findings.append(failure or Finding(INTERNAL_ERROR, (), "验证结果不完整 (incomplete)"))
        elif failure is not None:
            findings.append(failure)
        else:
            for spec, torch, paddle in zip(plan.runs, torch_outcomes, paddle_outcomes, strict=True):
                if spec.probe is None and _refused_as_needed(spec, torch, paddle):
                    assert spec.needs is not None
                    judgement.outcomes[spec.key] = f"needs:{spec.needs}"
                    not_run.append(not_executed(code_label(spec.path), spec.needs))
                elif spec.probe is None:
                    own = _own_run(spec, torch, paddle)
                    findings += own
                    executed += not own
                    judgement.outcomes[spec.key] = _outcome(torch, paddle, own)
                elif _unexplained_timeout(record, spec, torch, paddle):
                    # ran out of time (a busy machine, or a hang the record does not name):
                    # a timeout, not a difference to write down
                    probe_count += 1
                    findings.append(_run_failure(spec, "paddle", paddle))
                else:
                    probe_count += torch.get("stage") != "inapplicable"
                    if _informative(torch, paddle):
                        judgement.behaviour.append(_probe_result(spec, torch, paddle))
    findings += _acknowledge(record, judgement.behaviour)
    judgement.paddle_facts = paddle_facts
    cases = sum(1 for path, _ in derived.executions(record) if path[0] != "calls")
    judgement.proven = Proven(
        signatures={
            "torch": str(torch_facts.get("signature", "none")),
            "paddle": str(paddle_facts.get("signature", "none")),
        },
        calls=len(record.calls),
        cases=cases,
        probes=probe_count,
        unproven=[*_unproven(record, torch_facts, paddle_facts, executed + len(not_run)), *not_run],
    )
    return judgement


_DIFFERENCE_KINDS = (
    ("形状不同", "shape"),
    ("dtype 不同", "dtype"),
    ("类型不同", "type"),
    ("梯度", "grad"),
    ("布局不同", "layout"),
    ("长度不同", "length"),
    ("键不同", "keys"),
)
"""What a comparison message says differs -> its kind (values otherwise)."""


def _outcome(torch: dict[str, Any], paddle: dict[str, Any], findings: list[Finding]) -> str:
    """How a run of the record's own code went, as a stamp records it."""
    if not torch.get("ok"):
        return f"torch:{torch.get('stage', 'failed')}"
    if not paddle.get("ok"):
        stage = str(paddle.get("stage", "failed"))
        if stage in {"timeout", "crash", "internal", "inputs", "outputs"}:
            return stage
        error = str(paddle.get("error", ""))
        kind = error.split(":", 1)[0].strip() or "Exception"
        return f"raises:{kind}"
    differing = [f for f in findings if f.rule is DIFFERS]
    if differing:
        detail = differing[0].detail
        kind = next((name for text, name in _DIFFERENCE_KINDS if text in detail), "values")
        return f"differs:{kind}"
    if findings:
        return "setup"
    return OK


def _acknowledge(record: Record, behaviour: list[ProbeResult]) -> list[Finding]:
    findings: list[Finding] = []
    differing: set[str] = set()
    for index, result in enumerate(behaviour):
        if not result.differs:
            continue
        differing.add(result.probe)
        explained = probes.acknowledgement(record, result.probe)
        if explained is not None:
            behaviour[index] = ProbeResult(
                result.probe,
                result.where,
                result.torch,
                result.paddle,
                True,
                result.detail,
                explained,
            )
            continue
        findings.append(
            Finding(
                PROBE_DIFFERENCE,
                result.where,
                f"`{result.probe}`：torch {result.torch}，paddle {result.paddle}；{result.detail}",
            )
        )
    for field_name, index, pattern in probes.stale_acknowledgements(record, differing):
        key = "probes" if field_name == "notes" else "probe"
        findings.append(
            Finding(
                STALE_ACKNOWLEDGEMENT,
                (field_name, index, key),
                f"`{pattern}` 没有发现差异 (no difference found)",
            )
        )
    return findings


_BEHAVIOUR = {PROBE_DIFFERENCE.code, STALE_ACKNOWLEDGEMENT.code}
"""Probe findings: the probe results themselves are compared instead."""


def probe_key(result: ProbeResult) -> str:
    """``dtype:float16@calls[0]``: a probe result's name in a stamp."""
    return f"{result.probe}@{key_of(result.where)}"


def release_facts(record: Record, judgement: Judgement, pinned: Judgement | None) -> Release:
    """What ``judgement`` measured on one release, as its stamp keeps it; ``pinned`` is the
    pinned release's judgement (``None`` for the pinned release itself, which holds)."""
    facts = judgement.paddle_facts
    exists: dict[str, bool] = dict(facts.get("exists", {}))
    api = exists.pop(record.paddle_api, True) if record.paddle_api else True
    params = facts.get("params")
    probes: dict[str, ProbeOutcome] = {}
    holds = True
    if pinned is not None:
        known = {(f.rule.code, f.where, f.detail) for f in pinned.findings}
        for found in judgement.findings:
            if found.rule.code in _BEHAVIOUR or found.rule.severity.value != "error":
                continue
            if (found.rule.code, found.where, found.detail) not in known:
                holds = False
        measured = {probe_key(result): result for result in judgement.behaviour}
        for result in pinned.behaviour:
            key = probe_key(result)
            there = measured.get(key)
            if there is None:
                probes[key] = ProbeOutcome(NOT_RUN, True)
            elif there.paddle != result.paddle or there.differs != result.differs:
                probes[key] = ProbeOutcome(there.paddle, there.differs)
        holds = holds and not probes
    return Release(
        holds=holds,
        api=bool(api),
        params=None if params is None else [str(name) for name in params],
        accepts={str(k): bool(v) for k, v in facts.get("accepts", {}).items()},
        names={str(k): bool(v) for k, v in sorted(exists.items())},
        runs=dict(sorted(judgement.outcomes.items())),
        probes=dict(sorted(probes.items())),
    )
