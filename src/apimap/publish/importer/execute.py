"""``apimap import --run``: run what an imported page shows against the installed libraries.

Legacy pages were never run. With ``--run`` the importer hands each record to the sandboxed
verifier (:func:`apimap.verify.run.judge_plans`) and reports, at the page's line, what fails:

* the documented signatures against the libraries' (IM403: names, order, kinds, defaults;
  optional parameters a later release added, which the page leaves out, are not reported);
* each example case whose two sides define everything they use: both sides run, and the
  results they both assign are compared, those the torch side computes with the page's API
  (not the inputs built for it; IM401 when a side raises, IM402 when they differ;
  code that draws random numbers or builds layers with random weights is only run);
* each case whose sides use inputs they never define (``torch.abs(x)``): its calls of
  torch and paddle APIs are checked against the libraries' signatures instead (IM401);
* a side that uses a module it never imports (``nn.Conv2D``, ``os.cpu_count()``) while the
  other side does without it: it cannot run as written (IM401; both sides writing ``nn.``
  is the shorthand of an import each side has).

What only the machine lacks is not the page's fault and is not reported: a GPU, a process
group, the network, a dataset on disk; nor are timeouts. Code that the example-code rules
(AM261–AM264) would refuse is never run.
"""

from __future__ import annotations

import ast
import builtins
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from apimap.checking.rules.catalog.am232_example_python import parse_code
from apimap.checking.rules.example_code import Piece, issues
from apimap.publish.importer.problems import Problem
from apimap.record import derived, pycode
from apimap.record.import_codes import EXAMPLE_DIFFERS, EXAMPLE_RAISES, SIGNATURE_DRIFT, Reason
from apimap.record.location import Path
from apimap.record.model import Case, Record
from apimap.verify.plan import RecordPlan, RunSpec, outside_package, paddle_check, torch_check
from apimap.verify.values import DEFAULT_ATOL, DEFAULT_RTOL, Tolerance

_ROOTS = {"torch": ("torch", "torchvision"), "paddle": ("paddle",)}
_PRELOADED = {"torch": {"np", "torch", "torchvision"}, "paddle": {"np", "paddle"}}
"""What a worker defines before the code runs (and the package of the record's API)."""
_MODULE_ALIASES = frozenset({"nn", "F", "optim", "init", "dist", "functional"})
"""Names examples give modules (``import torch.nn as nn``)."""
_BUILTINS = frozenset(dir(builtins))
_NAMES_AS_VALUES = frozenset({"input", "help"})
"""Builtins that examples use as variables: unbound unless called."""
_REPORTED: dict[str, Reason] = {
    "AM810": EXAMPLE_RAISES,
    "AM811": EXAMPLE_DIFFERS,
    "AM802": SIGNATURE_DRIFT,
    "AM803": SIGNATURE_DRIFT,
    "AM804": SIGNATURE_DRIFT,
}
"""The verifier's findings that say something about the page (what the import reports)."""
_MACHINE = re.compile(
    r"CUDA|cuda|GPU|gpu|cudnn|NCCL|nccl|XPU|xpu|process group|init_process_group|"
    r"distributed|network|No such file|not found on disk|download|Errno|没有安装|not installed|"
    r"AssertionError|removed|deprecated",
)
"""Errors that say what this machine lacks (a GPU, the network, a dataset), that the example
raises on purpose (an assertion), or that the API the page documents is gone from the
installed release: not what the page got wrong."""
_RANDOM = re.compile(
    r"\b(?:rand\w*|normal_?|uniform_?|bernoulli_?|multinomial|poisson|dropout\w*|Dropout\w*|"
    r"shuffle|randperm|empty\w*|initializer|init\.\w+|seed|manual_seed|"
    r"(?:nn|optim|optimizer|models|transforms)\.[A-Z]\w*)\b"
)
"""Code whose results are random (random draws, layers with random weights, uninitialised
memory): both sides are run, their values not compared."""


@dataclass
class _Code:
    """What the analysis of one side's code found."""

    tree: ast.Module | None
    free: dict[str, int] = field(default_factory=dict)
    """Names used but never bound, with the line of their first use."""
    bound: set[str] = field(default_factory=set)
    calls: list[dict[str, Any]] = field(default_factory=list)
    """Calls of the side's library, as :mod:`apimap.verify.bindings` takes them."""


def _bound_names(tree: ast.AST) -> set[str]:
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update(node.names)
    return bound


def _aliases(tree: ast.AST, side: str) -> dict[str, str]:
    """Local name -> the dotted name it stands for, for the side's library."""
    found = {root: root for root in _ROOTS[side]}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    found[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return found


def analyse(source: str, side: str, package: str | None = None) -> _Code:
    """Free names and library calls of one side's code (``tree`` is ``None`` when it does
    not parse: AM232 reports that); ``package`` is bound too (the record API's package, as
    the worker binds it)."""
    parsed = parse_code(source)
    if isinstance(parsed, SyntaxError):
        return _Code(None)
    tree = parsed
    own = _bound_names(tree)
    code = _Code(tree, bound=own | _PRELOADED[side] | ({package} if package else set()))
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
            continue
        name = node.id
        builtin = name in _BUILTINS and not (name in _NAMES_AS_VALUES and id(node) not in called)
        if name not in code.bound and not builtin:
            code.free[name] = min(code.free.get(name, node.lineno), node.lineno)
    aliases = _aliases(tree, side)
    roots = _ROOTS[side]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        dotted = pycode.dotted_name(node.func)
        if dotted is None:
            continue
        head, _, rest = dotted.partition(".")
        if head not in aliases or (head in own and head not in _imported(tree)):
            continue
        callee = aliases[head] + (f".{rest}" if rest else "")
        if callee.split(".", 1)[0] not in roots or callee in roots:
            continue
        code.calls.append(
            {
                "callee": callee,
                "positional": sum(1 for a in node.args if not isinstance(a, ast.Starred)),
                "keywords": [k.arg for k in node.keywords if k.arg is not None],
                "star": any(isinstance(a, ast.Starred) for a in node.args),
                "starstar": any(k.arg is None for k in node.keywords),
                "line": node.lineno,
            }
        )
    return code


def _package(api: str | None) -> str | None:
    return outside_package(api) if api else None


def _module_like(name: str) -> bool:
    """A name that stands for a module: one examples give a module, or a standard module
    (``os``, ``collections``) used without its import."""
    return name in _MODULE_ALIASES or name in sys.stdlib_module_names


def _imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
    return names


@dataclass
class PagePlan:
    """What running one page's record involves, and what its code showed before any run."""

    plan: RecordPlan
    problems: list[Problem]


def _safe(path: Path, case: Case) -> bool:
    """Neither side does what the example-code rules forbid."""
    return not any(
        issues(Piece((*path, side), source))
        for side, source in (("torch", case.torch or ""), ("paddle", case.paddle or ""))
    )


def _page_line(lines: dict[Path, list[int]], where: Path, line: int | None) -> int:
    """The page line of a place in the record's code (its first line when unknown)."""
    found = lines.get(where)
    if not found:
        return 1
    if line is not None and 1 <= line <= len(found):
        return found[line - 1]
    return found[0]


def plan_page(record: Record, lines: dict[Path, list[int]]) -> PagePlan:
    """The verifier's plan for one imported record, and what the code shows without running."""
    problems: list[Problem] = []
    calls: dict[str, list[dict[str, Any]]] = {"torch": [], "paddle": []}
    runs: list[RunSpec] = []
    for path, execution in derived.executions(record):
        if path[0] == "calls" or not isinstance(execution, Case):
            continue
        if not _safe(path, execution):
            continue
        apis = {"torch": record.torch_api, "paddle": record.paddle_api}
        sides = {
            side: analyse(getattr(execution, side) or "", side, _package(apis[side]))
            for side in ("torch", "paddle")
        }
        if any(code.tree is None for code in sides.values()):
            continue
        torch_code, paddle_code = sides["torch"], sides["paddle"]
        if not torch_code.free and not paddle_code.free:
            runs.append(_run(record, path, execution))
            continue
        for side, code, other in (
            ("torch", torch_code, paddle_code),
            ("paddle", paddle_code, torch_code),
        ):
            stray = sorted(  # the other side's module of that name would be its import
                name
                for name in code.free
                if _module_like(name) and name not in other.bound and name not in other.free
            )
            if stray:
                first = min(code.free[name] for name in stray)
                shown = "、".join(f"`{name}`" for name in stray)
                detail = (
                    f"{side} 代码第 {first} 行：使用了没有导入的模块 {shown} "
                    f"(uses the module {shown} without importing it)"
                )
                at = _page_line(lines, (*path, side), first)
                problems.append(Problem(EXAMPLE_RAISES, at, detail))
            for call in code.calls:
                calls[side].append({**call, "where": [*path, side]})
    torch_job = torch_check(record)
    torch_job["calls"] = calls["torch"]
    torch_job["older_release"] = True
    paddle_job = paddle_check(record)
    if paddle_job is None and calls["paddle"]:
        paddle_job = {"api": "paddle", "where": ["paddle_api"]}
    if paddle_job is not None:
        paddle_job["calls"] = calls["paddle"]
        paddle_job["ignore"] = ["name"]  # the specification: paddle's name may be left out
        paddle_job["older_release"] = True
    return PagePlan(RecordPlan(torch_job, paddle_job, runs), problems)


def _run(record: Record, path: Path, case: Case) -> RunSpec:
    torch_code, paddle_code = case.torch or "", case.paddle or ""
    random = bool(_RANDOM.search(torch_code) or _RANDOM.search(paddle_code))
    try:
        torch_names = _assigned(torch_code)
        paddle_names = set(_assigned(paddle_code))
    except SyntaxError:
        torch_names, paddle_names = [], set()
    shown = _results_of(torch_code, record.torch_api.rsplit(".", 1)[-1])
    outputs = [] if random else [n for n in torch_names if n in paddle_names and n in shown]
    return RunSpec(
        path,
        torch_code,
        paddle_code,
        {},
        outputs,
        True,
        Tolerance(DEFAULT_RTOL, DEFAULT_ATOL, grad=False),
        frozenset(),
        apis=(record.torch_api, record.paddle_api),
    )


def _results_of(source: str, name: str) -> set[str]:
    """The names a snippet assigns with a statement that uses ``name`` (the API the page is
    about): the example's results, not the inputs it builds for them."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    found: set[str] = set()
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        uses = any(
            (isinstance(item, ast.Name) and item.id == name)
            or (isinstance(item, ast.Attribute) and item.attr == name)
            for item in ast.walk(node.value)
        )
        if uses:
            found.update(
                item.id
                for target in node.targets
                for item in ast.walk(target)
                if isinstance(item, ast.Name)
            )
    return found


def _assigned(source: str) -> list[str]:
    """Top-level names a snippet assigns, in order."""
    tree = ast.parse(source)
    names: list[str] = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            for item in ast.walk(target):
                if isinstance(item, ast.Name) and item.id not in names:
                    names.append(item.id)
    return names


def findings_on_page(
    judgement_findings: Sequence[Any], lines: dict[Path, list[int]]
) -> Iterator[Problem]:
    """The verifier's findings that concern the page, at the page's lines."""
    for found in judgement_findings:
        reason = _REPORTED.get(found.rule.code)
        if reason is None:
            continue
        if reason is EXAMPLE_RAISES and _MACHINE.search(found.detail):
            continue
        where: Path = tuple(found.where)
        if where[:1] in (("examples",), ("notes",)):
            case = where[:4] if where[0] == "examples" else where[:3]
            rest = where[len(case) :]
            where = (*case, rest[0] if rest[:1] in (("torch",), ("paddle",)) else "torch")
        yield Problem(reason, _page_line(lines, where, found.line), found.detail)
