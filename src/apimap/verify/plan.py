"""What verify runs for one record: API checks per side, and runs (calls, probes, examples).

Everything here happens in the parent, from the record alone: the paddle side of
every call is derived from the rows (:mod:`apimap.record.calls`), the probes are
variations of the calls (:mod:`apimap.verify.probes`), and examples run as
their two sides are written.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Any

from apimap.record import derived
from apimap.record.calls import (
    CallError,
    assigned,
    derive,
    drop_in,
    parameter_forms,
    parse_call,
    positional_form,
    positional_forms,
    recipe_parameter_forms,
    scalar_forms,
)
from apimap.record.categories import ApiType, Category, Needs, ShapeOnly
from apimap.record.location import Path
from apimap.record.model import Call, Case, Execution, Record
from apimap.record.packages import PADDLE, package_of
from apimap.verify import probes
from apimap.verify.apis import candidate_names
from apimap.verify.values import DEFAULT_ATOL, DEFAULT_RTOL, Tolerance


@dataclass(frozen=True)
class RunSpec:
    """One piece of code to run on both sides and compare."""

    path: Path
    """Where the code lives in the record: a call, an example case or a note's example."""
    torch: str
    paddle: str
    inputs: dict[str, str]
    outputs: list[str]
    explicit_outputs: bool
    tolerance: Tolerance
    shape_only: frozenset[str]
    probe: str | None = None
    """``None`` for the record's own code; else the probe's id."""
    transform: dict[str, Any] = field(default_factory=dict)
    call: int | None = None
    """The call the run belongs to (calls and their probes)."""
    setup: tuple[str, str] | None = None
    """The call's setup code (torch, paddle), run first on each side."""
    apis: tuple[str | None, str | None] = (None, None)
    """Each side's API: its module is imported before the code runs, as the user's module
    does (``torch.distributed.tensor.Replicate()`` needs ``import torch.distributed.tensor``),
    and a package other than the libraries (``einops``) is bound by name."""
    weights: str | None = None
    """The call's code that rewrites torch's weights for paddle (names, splits)."""
    key: str = ""
    """The run's name in a stamp's facts: ``calls[0]``, ``calls[0]:portable``,
    ``alternatives[1].calls[0]``, ``examples[0].cases[1]`` (a probe has its call's)."""
    ranks: int | None = None
    """Run in a process group of this many processes (:mod:`apimap.verify.ranked`)."""
    needs: Needs | None = None
    """A device the code needs: without it, both sides raising is all verify can check."""

    def spec(
        self, side: str, weights: dict[str, Any] | None = None, seconds: float | None = None
    ) -> dict[str, Any]:
        """What a worker of ``side`` runs (``seconds``: the run's own time limit)."""
        found: dict[str, Any] = {
            "code": self.torch if side == "torch" else self.paddle,
            "inputs": self.inputs,
            "outputs": self.outputs,
            "probe": self.transform,
            "seconds": seconds,
        }
        if self.ranks is not None:
            found["ranks"] = self.ranks
        if self.setup is not None:
            found["setup"] = self.setup[0] if side == "torch" else self.setup[1]
        api = self.apis[0] if side == "torch" else self.apis[1]
        if api is not None:
            found["api"] = api
            package = outside_package(api)
            if package is not None:
                found["package"] = package
        if side == "paddle":
            found["weights"] = weights or {}
            if self.weights is not None:
                found["rename_weights"] = self.weights
        return found


@dataclass
class RecordPlan:
    """Everything verify does for one record."""

    torch_check: dict[str, Any]
    paddle_check: dict[str, Any] | None
    runs: list[RunSpec]
    errors: list[tuple[Path, str, int | None]] = field(default_factory=list)
    """Calls that could not be derived: (path, detail, line); ``apimap check`` says why too."""
    unrun: list[tuple[Path, Needs]] = field(default_factory=list)
    """Code verify never runs (it would run code from outside the record), with its need."""


def _tolerance(execution: Execution) -> Tolerance:
    return Tolerance(
        DEFAULT_RTOL if execution.rtol is None else execution.rtol,
        DEFAULT_ATOL if execution.atol is None else execution.atol,
        grad=isinstance(execution, Call),
    )


def _outputs(execution: Execution, default: list[str]) -> tuple[list[str], bool]:
    if execution.outputs is not None:
        return list(execution.outputs), True
    return [name for name in default if name not in execution.inputs], False


def _case_outputs(torch_code: str, paddle_code: str) -> list[str]:
    try:
        paddle_names = set(assigned(parse_call(paddle_code)))
        return [name for name in assigned(parse_call(torch_code)) if name in paddle_names]
    except CallError:
        return []


def _signatures(value: str | list[str] | None, field_name: str) -> list[list[Any]]:
    if value is None:
        return []
    if isinstance(value, str):
        return [[[field_name], value]]
    return [[[field_name, index], text] for index, text in enumerate(value)]


def torch_check(record: Record) -> dict[str, Any]:
    """The torch side's API checks: the API, its signatures and type, its other names."""
    names = [[["torch_aliases", i], alias] for i, alias in enumerate(record.torch_aliases)]
    if record.inplace is not None:
        names.append([["inplace", "torch"], record.inplace.torch])
    return {
        "api": record.torch_api,
        "where": ["torch_api"],
        "api_type": record.api_type.value,
        "signatures": _signatures(record.torch_signature, "torch_signature"),
        "names": names,
    }


def paddle_check(record: Record) -> dict[str, Any] | None:
    """The paddle side's checks; for 功能缺失, the search for candidates."""
    category = derived.category(record)
    if category is Category.MISSING:
        if not candidate_names(record.torch_api):
            return None
        return {"api": PADDLE, "where": ["torch_api"], "candidates": record.torch_api}
    if record.paddle_api is None or package_of(record.paddle_api) != PADDLE:
        return None
    names: list[list[Any]] = []
    if record.inplace is not None:
        names.append([["inplace", "paddle"], record.inplace.paddle])
    for index, alternative in enumerate(record.alternatives):
        names.append([["alternatives", index, "paddle"], alternative.paddle])
    return {
        "api": record.paddle_api,
        "where": ["paddle_api"],
        "signatures": _signatures(record.paddle_signature, "paddle_signature"),
        "accepts": dict(record.paddle_accepts),
        "names": names,
    }


def key_of(path: Path) -> str:
    """``("examples", 0, "cases", 1)`` -> ``examples[0].cases[1]``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


PORTABLE = "portable"
"""The key suffix of a call in its portable form (paddle's own parameter names only)."""


def _call_runs(
    record: Record, index: int, errors: list[tuple[Path, str, int | None]]
) -> list[RunSpec]:
    call = record.calls[index]
    path: Path = ("calls", index)
    shared = _shared_names(call)
    try:
        base = derive(record, call.torch, shared=shared)
    except CallError as exc:
        errors.append(((*path, "torch"), exc.detail, exc.line))
        return []
    try:
        portable = derive(record, call.torch, portable=True, shared=shared)
    except CallError:  # paddle's own names cannot express it (two names go to one parameter)
        portable = base
    outputs, explicit = _outputs(call, base.outputs)

    setup = (call.setup.torch, call.setup.paddle) if call.setup else None

    def run(
        torch: str,
        paddle: str,
        probe: str | None,
        transform: dict[str, Any],
        key: str = key_of(path),
        where: Path = path,
    ) -> RunSpec:
        tolerance = _tolerance(call)
        return RunSpec(
            where,
            torch,
            paddle,
            dict(call.inputs),
            outputs,
            explicit,
            tolerance if probe is None else probes.tolerance_for(probe, tolerance),
            frozenset(call.shape_only),
            probe,
            transform,
            index,
            setup,
            (record.torch_api, record.paddle_api),
            call.weights,
            key=key,
            ranks=call.ranks,
            needs=call.needs,
        )

    runs = [run(base.torch, base.paddle, None, {})]
    if portable.paddle != base.paddle:
        runs.append(run(portable.torch, portable.paddle, None, {}, f"{key_of(path)}:{PORTABLE}"))
    for number, alternative in enumerate(record.alternatives):
        if alternative.cases:
            continue
        where: Path = ("alternatives", number, "paddle")
        try:
            renamed = drop_in(record, call.torch, alternative.paddle, shared)
        except CallError as exc:
            errors.append((where, exc.detail, exc.line))
            continue
        key = f"alternatives[{number}].{key_of(path)}"
        runs.append(run(renamed.torch, renamed.paddle, None, {}, key, where))
    if call.ranks is not None or call.needs is not None:
        return runs  # probes of a process group or a missing device would only repeat it
    # the probes vary the portable form (what every paddle release takes) where there is one
    can_port = portable is not base
    positional = positional_form(record, call.torch)
    if positional is not None:
        try:
            naive = derive(record, positional, naive=True, portable=can_port)
        except CallError:
            pass
        else:
            runs.append(run(naive.torch, naive.paddle, "positional", {}))
    arrays = probes.array_inputs(call.inputs)
    for kind, param, code in scalar_forms(record, call.torch, arrays):
        try:
            variant = derive(record, code, portable=can_port)
        except CallError:
            continue
        runs.append(run(variant.torch, variant.paddle, f"{kind}:{param}", {}))
    random = any(reason is not ShapeOnly.UNINITIALIZED for reason in call.shape_only.values())
    values = _compares_values(outputs, call.shape_only)
    shapes = probes.call_shapes(record)
    for probe in probes.input_probes(len(arrays), shapes, random, values):
        runs.append(run(portable.torch, portable.paddle, probe.id, probe.transform))
    if index == 0:
        runs += _parameter_runs(record, call.torch, run, can_port)
        if record.api_type is ApiType.CLASS:
            runs += _module_runs(portable.torch, portable.paddle, run, random or not values)
    return runs


def _shared_names(call: Call) -> frozenset[str]:
    """What the call's setup binds on both sides, when the setup does not read the inputs
    (then every run of the call, probes included, binds them the same way)."""
    if call.setup is None:
        return frozenset()
    try:
        trees = [parse_call(call.setup.torch), parse_call(call.setup.paddle)]
    except CallError:
        return frozenset()
    used = {node.id for tree in trees for node in ast.walk(tree) if isinstance(node, ast.Name)}
    if used & set(call.inputs):
        return frozenset()
    return frozenset(assigned(trees[0])) & frozenset(assigned(trees[1]))


def _compares_values(outputs: list[str], shape_only: dict[str, ShapeOnly]) -> bool:
    """Whether a run compares some value (not every result by its shape only)."""
    return not outputs or any(name not in shape_only for name in outputs)


def _parameter_runs(record: Record, code: str, run: Any, portable: bool) -> list[RunSpec]:
    """The first call with the parameters it leaves out passed by position up to each one,
    which takes another value than its default; and each such parameter set by keyword."""
    found: list[RunSpec] = []
    for param, variant_code in positional_forms(record, code):
        try:
            naive = derive(record, variant_code, naive=True, portable=portable)
        except CallError:
            continue
        found.append(run(naive.torch, naive.paddle, f"positional:{param}", {}))
    for probe, variant_code in parameter_forms(record, code):
        try:
            variant = derive(record, variant_code, portable=portable)
        except CallError:
            continue
        found.append(run(variant.torch, variant.paddle, probe, {}))
    return found


def _module_runs(torch: str, paddle: str, run: Any, blind: bool) -> list[RunSpec]:
    """The layers of the first call in eval mode (unless its results are random or compared
    by shape only: eval mode changes values), their state, their initial weights."""
    found = []
    for probe in probes.MODULE_PROBES:
        report = probes.REPORT_OUTPUTS.get(str(probe.transform["module"]))
        if report is None and blind:
            continue
        spec = run(torch, paddle, probe.id, probe.transform)
        if report is not None:
            spec = replace(spec, outputs=[report], explicit_outputs=True, shape_only=frozenset())
        found.append(spec)
    return found


def plan(record: Record) -> RecordPlan:
    """The checks and runs of one record."""
    errors: list[tuple[Path, str, int | None]] = []
    runs: list[RunSpec] = []
    unrun: list[tuple[Path, Needs]] = []
    for index, call in enumerate(record.calls):
        if call.needs is not None and not call.needs.runs:
            unrun.append((("calls", index), call.needs))
            continue
        runs += _call_runs(record, index, errors)
    recipes = derived.category(record) in probes.RECIPE_CATEGORIES
    for path, execution in derived.executions(record):
        if not isinstance(execution, Case):
            continue
        if execution.needs is not None and not execution.needs.runs:
            unrun.append((path, execution.needs))
            continue
        torch_code, paddle_code = execution.torch, execution.paddle
        assert torch_code is not None and paddle_code is not None  # executions are complete
        outputs, explicit = _outputs(execution, _case_outputs(torch_code, paddle_code))
        case = RunSpec(
            path,
            torch_code,
            paddle_code,
            dict(execution.inputs),
            outputs,
            explicit,
            _tolerance(execution),
            frozenset(execution.shape_only),
            apis=(record.torch_api, record.paddle_api),
            key=key_of(path),
            ranks=execution.ranks,
            needs=execution.needs,
        )
        runs.append(case)
        if recipes and path[0] == "examples" and execution.ranks is None and not execution.needs:
            arrays = probes.array_inputs(execution.inputs)
            random = any(r is not ShapeOnly.UNINITIALIZED for r in execution.shape_only.values())
            values = _compares_values(outputs, execution.shape_only)
            runs += [
                replace(
                    case,
                    probe=probe.id,
                    transform=probe.transform,
                    tolerance=probes.tolerance_for(probe.id, case.tolerance),
                )
                for probe in probes.input_probes(len(arrays), "plain", random, values)
            ]
            runs += [
                replace(case, torch=torch_variant, paddle=paddle_variant, probe=probe)
                for probe, torch_variant, paddle_variant in recipe_parameter_forms(
                    record, torch_code, paddle_code
                )
            ]
    return RecordPlan(torch_check(record), paddle_check(record), runs, errors, unrun)


_LIBRARIES = frozenset({"torch", "torchvision", "paddle", "numpy"})


def outside_package(api: str) -> str | None:
    """The top-level package of an API when it is not one of the libraries
    (``einops.rearrange``): code names it without importing it, as a user's module does."""
    root = api.split(".", 1)[0]
    return root if root and root not in _LIBRARIES else None
