"""Compare a recorded signature with the library's: names, order, markers, defaults.

Positional-only and positional-or-keyword parameters count as the same kind
(records do not write ``/``). With several overloads, a recorded signature must
match one of them; drift is reported against the overload whose parameter names
match, or else the closest one.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from apimap.checking.rules.catalog.am802_params_drift import RULE as PARAMS_DRIFT
from apimap.checking.rules.catalog.am803_default_drift import RULE as DEFAULT_DRIFT
from apimap.checking.rules.catalog.am804_kind_drift import RULE as KIND_DRIFT
from apimap.record.signature import Param, ParamKind, Signature
from apimap.verify.defaults import Namespaces, same_default
from apimap.verify.readers import ApiSignatures, RealParam, RealSignature

_GROUP = {
    ParamKind.POSITIONAL_ONLY: "positional",
    ParamKind.POSITIONAL_OR_KEYWORD: "positional",
    ParamKind.VAR_POSITIONAL: "var_positional",
    ParamKind.KEYWORD_ONLY: "keyword_only",
    ParamKind.VAR_KEYWORD: "var_keyword",
}
_GROUP_NAMES = {
    "positional": "位置参数 (positional)",
    "var_positional": "可变位置参数 (*args)",
    "keyword_only": "仅关键字参数 (keyword-only)",
    "var_keyword": "可变关键字参数 (**kwargs)",
}


@dataclass(frozen=True)
class Drift:
    """One difference: the code and the detail."""

    code: str
    detail: str


def compare(recorded: Signature, actual: ApiSignatures, api: str) -> list[Drift]:
    """Differences between ``recorded`` and the best-matching overload (empty: it matches)."""
    names = [p.spelled for p in recorded.params]
    same_names = [o for o in actual.overloads if [p.spelled for p in o.params] == names]
    if not same_names:
        closest = max(actual.overloads, key=lambda o: _similarity(names, o))
        return [Drift(PARAMS_DRIFT.code, _names_detail(names, closest, api, actual))]
    candidates = [_param_drift(recorded, o, actual.namespaces) for o in same_names]
    return min(candidates, key=len)


def _similarity(names: list[str], overload: RealSignature) -> float:
    return SequenceMatcher(a=names, b=[p.spelled for p in overload.params]).ratio()


def _names_detail(names: list[str], closest: RealSignature, api: str, actual: ApiSignatures) -> str:
    real = [p.spelled for p in closest.params]
    first = _first_difference(names, real)
    installed = closest.text(api)
    which = "最接近的重载 (closest overload)" if len(actual.overloads) > 1 else "库中 (library)"
    return f"{first}；{which}：`{installed}`"


def _first_difference(names: list[str], real: list[str]) -> str:
    for index, (mine, theirs) in enumerate(zip(names, real, strict=False)):
        if mine != theirs:
            if theirs in names:
                return f"第 {index + 1} 个参数：记录为 `{mine}`，库中为 `{theirs}`（顺序不同，order differs）"
            return (
                f"第 {index + 1} 个参数：记录为 `{mine}`，库中为 `{theirs}` (recorded vs library)"
            )
    if len(names) > len(real):
        return f"库中没有 `{names[len(real)]}` (not in the library)"
    return f"缺少库中的 `{real[len(names)]}` (missing a library parameter)"


def _param_drift(
    recorded: Signature, overload: RealSignature, namespaces: Namespaces
) -> list[Drift]:
    out: list[Drift] = []
    leading = _leading(recorded) if overload.source != "inspect" else set()
    for mine, theirs in zip(recorded.params, overload.params, strict=True):
        if _GROUP[mine.kind] != _GROUP[theirs.kind]:
            out.append(
                Drift(
                    KIND_DRIFT.code,
                    f"`{mine.spelled}`：记录为{_GROUP_NAMES[_GROUP[mine.kind]]}，"
                    f"库中为{_GROUP_NAMES[_GROUP[theirs.kind]]}",
                )
            )
        problem = None if mine.name in leading else _default_problem(mine, theirs, namespaces)
        if problem is not None:
            out.append(Drift(DEFAULT_DRIFT.code, problem))
    return out


def _leading(recorded: Signature) -> set[str]:
    """Parameters documented with a default before a required one (``start=0, end``): the
    documentation's way of saying the leading one may be left out, not a default to compare
    (the libraries' own readers drop it, see :func:`apimap.verify.readers.without_leading_defaults`).
    Only against a stub or a docstring: a Python signature (``inspect``) cannot be written so,
    and a default it does not have is one the page made up."""
    positional = [
        p
        for p in recorded.params
        if p.kind in (ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD)
    ]
    required = [i for i, p in enumerate(positional) if p.default is None]
    last = required[-1] if required else -1
    return {p.name for p in positional[:last] if p.default is not None}


def _default_problem(mine: Param, theirs: RealParam, namespaces: Namespaces) -> str | None:
    if (mine.default is None and theirs.default is None) or (
        theirs.default is not None and theirs.default.opaque
    ):
        return None
    if mine.default is None:
        assert theirs.default is not None
        return f"`{mine.spelled}`：记录无默认值，库中为 `{theirs.default.text}` (library has a default)"
    if theirs.default is None:
        return f"`{mine.spelled}`：记录为 `{mine.default}`，库中无默认值 (library has none)"
    if same_default(mine.default, theirs.default, namespaces):
        return None
    return f"`{mine.spelled}`：记录为 `{mine.default}`，库中为 `{theirs.default.text}`"
