"""Signature job: does each API exist, and do its recorded signatures match the library?"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from apimap.location import Path
from apimap.rules import stamp as codes
from apimap.signature import ParamKind, SignatureError, parse_signature
from apimap.verify.aliases import Probe, call_accepts, documented_aliases
from apimap.verify.drift import compare
from apimap.verify.libraries import ApiNotFound, Resolved, resolve
from apimap.verify.protocol import Issue
from apimap.verify.readers import ApiSignatures, Unreadable, read


def check_apis(job: dict[str, Any]) -> list[Issue]:
    """Every problem with the record's APIs, signatures and paddle aliases."""
    issues: list[Issue] = []
    torch_api: str = job["torch_api"]
    torch = _resolve(torch_api, ("torch_api",), issues)
    signatures = [(tuple(where), text) for where, text in job["torch_signatures"]]
    if torch is not None and signatures:
        actual = _read(torch, ("torch_api",), issues)
        if actual is not None:
            issues += _check_signatures(torch, actual, signatures)
    for index, alias in enumerate(job["aliases"]):
        _resolve(alias, ("aliases", index), issues)
    paddle_api: str | None = job["paddle_api"]
    if paddle_api is None:
        return issues
    paddle = _resolve(paddle_api, ("paddle_api",), issues)
    if paddle is None:
        return issues
    text: str | None = job["paddle_signature"]
    aliases: dict[str, str] = job["paddle_param_aliases"]
    if text is None and not aliases:
        return issues
    actual = _read(paddle, ("paddle_api",), issues)
    if actual is not None and text is not None:
        issues += _check_signatures(paddle, actual, [(("paddle_signature",), text)])
    issues += _check_aliases(paddle, actual, aliases)
    return issues


def _resolve(api: str, where: Path, issues: list[Issue]) -> Resolved | None:
    try:
        return resolve(api)
    except ApiNotFound as missing:
        if missing.found is None:
            package = api.split(".", 1)[0]
            issues.append(
                Issue(codes.NOT_INSTALLED.code, where, f"未安装 `{package}` (not installed)")
            )
        else:
            name = api[len(missing.found) + 1 :].split(".", 1)[0]
            issues.append(
                Issue(
                    codes.API_NOT_FOUND.code,
                    where,
                    f"`{missing.found}` 中没有 `{name}` (no {name} in {missing.found})",
                )
            )
        return None


def _read(resolved: Resolved, where: Path, issues: list[Issue]) -> ApiSignatures | None:
    try:
        return read(resolved)
    except Unreadable:
        issues.append(
            Issue(
                codes.UNREADABLE.code,
                where,
                f"`{resolved.api}` 没有签名、存根或文档签名行 (no signature, stub or docstring line)",
            )
        )
        return None


def _check_signatures(
    resolved: Resolved, actual: ApiSignatures, signatures: list[tuple[Path, str]]
) -> Iterator[Issue]:
    for where, text in signatures:
        try:
            recorded = parse_signature(text)
        except SignatureError:
            continue  # `apimap check` reports it (AM207)
        for drift in compare(recorded, actual, resolved.api):
            yield Issue(drift.code, where, drift.detail)


def _probe_values() -> list[Any]:
    """A value that stops any call early, then a small tensor that C operators accept."""
    paddle = sys.modules.get("paddle")
    tensor = [] if paddle is None else [paddle.to_tensor([0.5])]
    return [Probe(), *tensor]


def _required(actual: ApiSignatures | None) -> list[str]:
    """Parameters without a default that can be passed by keyword (first overload)."""
    if actual is None or not actual.overloads:
        return []
    keyword_kinds = {ParamKind.POSITIONAL_OR_KEYWORD, ParamKind.KEYWORD_ONLY}
    return [
        p.name for p in actual.overloads[0].params if p.default is None and p.kind in keyword_kinds
    ]


def _check_aliases(
    paddle: Resolved, actual: ApiSignatures | None, aliases: dict[str, str]
) -> Iterator[Issue]:
    documented = documented_aliases(getattr(paddle.obj, "__doc__", None))
    for alias, target in aliases.items():
        where = ("paddle_param_aliases", alias)
        if actual is not None and not any(o.find(target) for o in actual.overloads):
            detail = f"`{target}` 不是 `{paddle.api}` 的参数 (not a parameter)"
        elif (
            actual is not None and alias != target and any(o.find(alias) for o in actual.overloads)
        ):
            detail = f"`{alias}` 本身就是 Paddle 的参数，不是别名 (a parameter of its own)"
        elif alias in documented:
            if documented[alias] == target:
                continue
            detail = f"文档中 `{alias}` 是 `{documented[alias]}` 的别名 (docstring: alias of it)"
        else:
            accepted = call_accepts(paddle.obj, alias, target, _required(actual), _probe_values())
            if accepted:
                continue
            detail = (
                f"调用时 `{alias}` 被拒绝 (rejected by a call)"
                if accepted is False
                else f"文档未提到 `{alias}`，调用也无法证实 (undocumented, not provable by a call)"
            )
        yield Issue(codes.ALIAS_NOT_ACCEPTED.code, where, detail)
