"""Checks a worker makes against its one library: do the APIs exist, do the signatures match?

The torch side checks the torch API (its signatures, its type, its aliases and
in-place variant); the paddle side checks the paddle API (its signatures, the
torch-style names it is said to accept, the in-place variant), or, for a
功能缺失 record, looks for paddle APIs whose name suggests a counterpart. A job may
also carry calls written in example code, checked against the library's signatures
(:mod:`apimap.verify.bindings`).
Besides the problems, each check returns what it could establish, so the stamp
can say what was proven.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

from apimap.checking.rules.catalog.am801_api_not_found import RULE as API_NOT_FOUND
from apimap.checking.rules.catalog.am805_alias_not_accepted import RULE as ALIAS_NOT_ACCEPTED
from apimap.checking.rules.catalog.am806_unreadable import RULE as UNREADABLE
from apimap.checking.rules.catalog.am807_not_installed import RULE as NOT_INSTALLED
from apimap.checking.rules.catalog.am817_api_type_drift import RULE as API_TYPE_DRIFT
from apimap.record.location import Path
from apimap.record.signature import ParamKind, Signature, SignatureError, parse_signature
from apimap.verify import bindings
from apimap.verify.aliases import Probe, call_accepts, documented_aliases
from apimap.verify.defaults import Default
from apimap.verify.drift import compare
from apimap.verify.libraries import ApiNotFound, Resolved, resolve
from apimap.verify.protocol import Issue
from apimap.verify.readers import ApiSignatures, RealParam, RealSignature, Unreadable, read


def api_type_of(resolved: Resolved) -> str:
    """What the object is: function, class, context_manager, method, attribute or constant."""
    obj = resolved.obj
    if resolved.owner_is_class:
        return "method" if callable(obj) else "attribute"
    if isinstance(obj, type):
        entering = hasattr(obj, "__enter__") and hasattr(obj, "__exit__")
        return "context_manager" if entering else "class"
    return "function" if callable(obj) else "constant"


_COMPATIBLE = {
    "function": {"function", "decorator"},
    "class": {"class"},
    "context_manager": {"context_manager", "class", "decorator"},
    "method": {"method"},
    "attribute": {"attribute"},
    "constant": {"constant"},
}
"""Actual type -> the record types that describe it (a function may be a decorator)."""


def check(job: dict[str, Any]) -> dict[str, Any]:
    """One side's checks: ``{"issues": [...], "facts": {...}}``. Besides what the signature
    checks establish, the facts say which of the names exist (``exists``), the parameters
    of the library's first signature (``params``) and which torch-style names the API
    takes (``accepts``): what a page says about each paddle release."""
    issues: list[Issue] = []
    facts: dict[str, Any] = {"signature": "none", "opaque": [], "exists": {}, "accepts": {}}
    api: str = job["api"]
    where: Path = tuple(job["where"])
    resolved = _resolve(api, where, issues)
    facts["exists"][api] = resolved is not None
    if resolved is not None:
        actual = api_type_of(resolved)
        facts["api_type"] = actual
        expected = job.get("api_type")
        if expected is not None and expected not in _COMPATIBLE[actual]:
            issues.append(
                Issue(
                    API_TYPE_DRIFT.code,
                    ("api_type",),
                    f"记录为 {expected}，库中为 {actual} (recorded {expected}, library {actual})",
                )
            )
        signatures = [(tuple(path), text) for path, text in job.get("signatures") or []]
        accepts: dict[str, str] = job.get("accepts") or {}
        if signatures or accepts:
            ignored = frozenset(job.get("ignore") or ())
            older = bool(job.get("older_release"))
            _signatures(resolved, signatures, accepts, issues, facts, ignored, older)
    for path, name in job.get("names") or []:
        facts["exists"][name] = _resolve(name, tuple(path), issues) is not None
    if job.get("candidates") is not None:
        facts["candidates"] = list(candidates(job["candidates"]))
    for call in job.get("calls") or []:
        issues += bindings.check(call)
    return {"issues": [issue.to_json() for issue in issues], "facts": facts}


def _signatures(
    resolved: Resolved,
    signatures: list[tuple[Path, str]],
    accepts: dict[str, str],
    issues: list[Issue],
    facts: dict[str, Any],
    ignored: frozenset[str] = frozenset(),
    older: bool = False,
) -> None:
    """Compare the recorded signatures with the library's; parameters named in ``ignored``
    (paddle's ``name``, which legacy pages may leave out) are left out on both sides. With
    ``older`` (a page written against an older release), the library's optional parameters
    the signature does not name are left out too (a release adds parameters with defaults,
    so their absence says when the page was written, not what it got wrong) and the order of
    keyword-only parameters is not compared."""
    if not callable(resolved.obj):
        facts["signature"] = "attribute"
        return
    try:
        actual = read(resolved)
    except Unreadable:
        facts["signature"] = "unreadable"
        issues.append(
            Issue(
                UNREADABLE.code,
                (signatures[0][0][0],) if signatures else ("paddle_accepts",),
                f"`{resolved.api}` 没有签名、存根或文档签名行 (no signature, stub or docstring line)",
            )
        )
        actual = None
    if actual is not None:
        facts["signature"] = "read"
        if actual.overloads:
            facts["params"] = [param.spelled for param in actual.overloads[0].params]
        opaque: set[str] = set()
        for where, text in signatures:
            try:
                recorded = parse_signature(text)
            except SignatureError:
                continue  # `apimap check` reports it (AM207)
            if ignored:
                recorded, compared = _without(recorded, actual, ignored)
            else:
                compared = actual
            if older:
                compared = _without_unnamed_optional(recorded, compared)
            for drift in compare(recorded, compared, resolved.api):
                issues.append(Issue(drift.code, where, drift.detail))
            opaque |= _opaque_defaults(actual, [p.spelled for p in recorded.params if p.default])
        facts["opaque"] = sorted(opaque)
    for alias, accepted, issue in _check_accepts(resolved, actual, accepts):
        facts["accepts"][alias] = accepted
        if issue is not None:
            issues.append(issue)


def _without(
    recorded: Signature, actual: ApiSignatures, ignored: frozenset[str]
) -> tuple[Signature, ApiSignatures]:
    """Both sides without the parameters named in ``ignored``."""
    mine = Signature(recorded.api, tuple(p for p in recorded.params if p.name not in ignored))
    theirs = ApiSignatures(
        [
            RealSignature(tuple(p for p in o.params if p.name not in ignored), o.source)
            for o in actual.overloads
        ],
        actual.namespaces,
    )
    return mine, theirs


def _without_unnamed_optional(recorded: Signature, actual: ApiSignatures) -> ApiSignatures:
    """The library's overloads as a page of an older release may write them: without the
    parameters that have a default and that ``recorded`` does not name, with the keyword-only
    ones in ``recorded``'s order (a call cannot tell their order), and with the optional
    parameters ``recorded`` names where the library takes ``**kwargs`` (which receives them)."""
    order = {p.name: index for index, p in enumerate(recorded.params)}

    def as_written(overload: RealSignature) -> RealSignature:
        kept = [p for p in overload.params if p.name in order or p.default is None]
        keywords = sorted(
            (p for p in kept if p.kind is ParamKind.KEYWORD_ONLY),
            key=lambda p: order.get(p.name, len(order)),
        )
        slots = iter(keywords)
        params = [next(slots) if p.kind is ParamKind.KEYWORD_ONLY else p for p in kept]
        return RealSignature(_with_received(recorded, params), overload.source)

    return ApiSignatures([as_written(o) for o in actual.overloads], actual.namespaces)


def _with_received(recorded: Signature, params: list[RealParam]) -> tuple[RealParam, ...]:
    """``params`` with the optional parameters of ``recorded`` that only the library's
    ``**kwargs`` receives, each placed after the parameter ``recorded`` writes before it
    (their kind as recorded, their default unknown); the ``**kwargs`` itself goes when
    ``recorded`` does not write it."""
    if not any(p.kind is ParamKind.VAR_KEYWORD for p in params):
        return tuple(params)
    names = {p.name for p in params}
    received = [
        p
        for p in recorded.params
        if p.name not in names and p.default is not None and p.kind not in _VARIADIC
    ]
    if not received:
        return tuple(params)
    if not any(p.kind is ParamKind.VAR_KEYWORD for p in recorded.params):
        params = [p for p in params if p.kind is not ParamKind.VAR_KEYWORD]
    out = list(params)
    previous: str | None = None
    for param in recorded.params:
        if param in received:
            at = next((i + 1 for i, p in enumerate(out) if p.name == previous), 0)
            out.insert(at, RealParam(param.name, param.kind, Default("...")))
        previous = param.name
    return tuple(out)


_VARIADIC = (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD)


def _opaque_defaults(actual: ApiSignatures, names: list[str]) -> set[str]:
    """Recorded defaults the library states only as ``...``: they stay unverified."""
    found: set[str] = set()
    for name in names:
        params = [p for overload in actual.overloads if (p := overload.find(name)) is not None]
        if params and all(p.default is not None and p.default.opaque for p in params):
            found.add(name)
    return found


def _resolve(api: str, where: Path, issues: list[Issue]) -> Resolved | None:
    try:
        return resolve(api)
    except ApiNotFound as missing:
        if missing.found is None:
            package = api.split(".", 1)[0]
            issues.append(Issue(NOT_INSTALLED.code, where, f"未安装 `{package}` (not installed)"))
        else:
            name = api[len(missing.found) + 1 :].split(".", 1)[0]
            issues.append(
                Issue(
                    API_NOT_FOUND.code,
                    where,
                    f"`{missing.found}` 中没有 `{name}` (no {name} in {missing.found})",
                )
            )
        return None


def _bound_method(paddle: Resolved) -> Any:
    """A ``paddle.Tensor`` method bound to a small tensor (calling the unbound function
    fails for the missing tensor before any keyword is looked at); anything else as it is."""
    import sys

    library = sys.modules.get("paddle")
    if library is None or not paddle.owner_is_class or paddle.owner is not library.Tensor:
        return paddle.obj
    name = paddle.api.rsplit(".", 1)[-1]
    return getattr(library.to_tensor([0.5, 1.5]), name, paddle.obj)


def _probe_values() -> list[Any]:
    """A value that stops any call early, then values C operators accept: a small tensor
    and the integer 0 (an axis, a count)."""
    import sys

    paddle = sys.modules.get("paddle")
    tensor = [] if paddle is None else [paddle.to_tensor([0.5])]
    return [Probe(), *tensor, 0]


def _required(actual: ApiSignatures | None) -> list[str]:
    """Parameters without a default that can be passed by keyword (first overload)."""
    if actual is None or not actual.overloads:
        return []
    keyword_kinds = {ParamKind.POSITIONAL_OR_KEYWORD, ParamKind.KEYWORD_ONLY}
    return [
        p.name for p in actual.overloads[0].params if p.default is None and p.kind in keyword_kinds
    ]


def _check_accepts(
    paddle: Resolved, actual: ApiSignatures | None, accepts: dict[str, str]
) -> Iterator[tuple[str, bool, Issue | None]]:
    """For each torch-style name: whether the API takes it, and the problem if it does not."""
    documented = documented_aliases(getattr(paddle.obj, "__doc__", None))
    for alias, target in accepts.items():
        where = ("paddle_accepts", alias)
        if alias.startswith("*"):
            problems = list(_check_varargs(paddle, alias, target, where))
            yield alias, not problems, (problems[0] if problems else None)
            continue
        if actual is not None and not any(o.find(target) for o in actual.overloads):
            detail = f"`{target}` 不是 `{paddle.api}` 的参数 (not a parameter)"
        elif (
            actual is not None and alias != target and any(o.find(alias) for o in actual.overloads)
        ):
            detail = f"`{alias}` 本身就是 Paddle 的参数，不是别名 (a parameter of its own)"
        elif alias in documented:
            if documented[alias] == target:
                yield alias, True, None
                continue
            detail = f"文档中 `{alias}` 是 `{documented[alias]}` 的别名 (docstring: alias of it)"
        else:
            function = _bound_method(paddle)
            accepted = call_accepts(function, alias, target, _required(actual), _probe_values())
            if accepted:
                yield alias, True, None
                continue
            detail = (
                f"调用时 `{alias}` 被拒绝 (rejected by a call)"
                if accepted is False
                else f"文档未提到 `{alias}`，调用也无法证实 (undocumented, not provable by a call)"
            )
        yield alias, False, Issue(ALIAS_NOT_ACCEPTED.code, where, detail)


def _check_varargs(paddle: Resolved, alias: str, target: str, where: Path) -> Iterator[Issue]:
    """``{'*shape': shape}``: the varargs form is proven by the calls that use it."""
    try:
        signature = inspect.signature(paddle.obj)
    except (TypeError, ValueError):
        return
    names = list(signature.parameters)
    has_varargs = any(
        p.kind is inspect.Parameter.VAR_POSITIONAL for p in signature.parameters.values()
    )
    if target not in names and not has_varargs:
        yield Issue(
            ALIAS_NOT_ACCEPTED.code,
            where,
            f"`{target}` 不是 `{paddle.api}` 的参数 (not a parameter for {alias})",
        )


_NAMESPACES = (
    ("torch.nn.functional.", ("paddle.nn.functional.", "paddle.compat.nn.functional.")),
    ("torch.nn.init.", ("paddle.nn.init.", "paddle.nn.initializer.")),
    ("torch.nn.utils.", ("paddle.nn.utils.",)),
    ("torch.nn.", ("paddle.nn.", "paddle.compat.nn.")),
    ("torch.linalg.", ("paddle.linalg.", "paddle.")),
    ("torch.fft.", ("paddle.fft.",)),
    ("torch.special.", ("paddle.special.", "paddle.")),
    ("torch.Tensor.", ("paddle.Tensor.",)),
    ("torch.optim.lr_scheduler.", ("paddle.optimizer.lr.",)),
    ("torch.optim.", ("paddle.optimizer.",)),
    ("torch.utils.data.", ("paddle.io.",)),
    ("torch.distributions.", ("paddle.distribution.",)),
    ("torch.distributed.", ("paddle.distributed.",)),
    ("torch.", ("paddle.", "paddle.compat.", "paddle.Tensor.")),
)
"""Where a paddle counterpart of a torch namespace would live (first match wins)."""


def candidate_names(torch_api: str) -> list[str]:
    """Paddle names to look at for a counterpart of ``torch_api``."""
    for prefix, homes in _NAMESPACES:
        if torch_api.startswith(prefix):
            rest = torch_api[len(prefix) :]
            return [home + rest for home in homes]
    return []


def candidates(torch_api: str) -> Iterator[str]:
    """Paddle APIs whose name matches ``torch_api`` (case-insensitively, in the namespaces above)."""
    for name in candidate_names(torch_api):
        parent, _, last = name.rpartition(".")
        try:
            owner = resolve(parent).obj
        except ApiNotFound:
            continue
        try:
            members = dir(owner)
        except Exception:
            continue
        for member in sorted(members):
            if member.lower() == last.lower():
                yield f"{parent}.{member}"
