"""AM213: the names rows use exist in their signatures.

A signature that takes ``**kwargs`` takes other keywords too: rows may name them
(``transformers.GenerationConfig(**kwargs)`` documents ``max_length`` and the rest). A
signature that writes ``*kwargs`` meant ``**kwargs``: that is reported once, at the
signature, and its rows are read as keywords it takes.
"""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.signature import Param, ParamKind, Signature


def _takes_keywords(signatures: list[Signature]) -> bool:
    """Some overload takes ``**kwargs`` (or writes it ``*kwargs``)."""
    return any(
        p.kind is ParamKind.VAR_KEYWORD or _one_star_kwargs(p)
        for sig in signatures
        for p in sig.params
    )


def _one_star_kwargs(param: Param) -> bool:
    return param.kind is ParamKind.VAR_POSITIONAL and param.name == "kwargs"


def _one_star_findings(ctx: RecordContext) -> Iterator[Finding]:
    """``*kwargs`` where ``**kwargs`` is meant, once per signature."""
    for side, signatures in (
        ("torch_signature", ctx.torch_signatures),
        ("paddle_signature", ctx.paddle_signatures),
    ):
        value = getattr(ctx.record, side)
        for index, signature in enumerate(signatures):
            if any(_one_star_kwargs(p) for p in signature.params):
                path = (side,) if isinstance(value, str) else (side, index)
                yield Finding(
                    ctx.loc(*path),
                    "`*kwargs` 应写作 `**kwargs`，参数表中的关键字参数由它接收 "
                    "(write **kwargs: the rows are keywords it takes)",
                )


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Row names and ``paddle_accepts`` targets are parameters of their signatures."""
    if not ctx.signatures_complete:
        return
    yield from _one_star_findings(ctx)
    torch_names = set(ctx.torch_params())
    torch_keywords = _takes_keywords(ctx.torch_signatures)
    paddle_keywords = _takes_keywords(ctx.paddle_signatures)
    has_paddle = bool(ctx.paddle_signatures)
    for accepted, target in ctx.record.paddle_accepts.items():
        if not has_paddle or not any(sig.find(target) for sig in ctx.paddle_signatures):
            yield Finding(
                ctx.loc("paddle_accepts", accepted),
                f"`{accepted}` 对应的 `{target}` 不在 Paddle 签名中 (target not in the signature)",
            )
    for index, row in enumerate(ctx.record.params):
        for name in derived.torch_names(row):
            if ctx.torch_signatures and name not in torch_names and not torch_keywords:
                yield Finding(
                    ctx.loc("params", index, "torch"),
                    f"PyTorch 签名中没有 `{name}` (not in the torch signature)",
                )
        if not has_paddle:
            continue
        for name in derived.paddle_names(row):
            if ctx.paddle_find(name) is None and not paddle_keywords:
                yield Finding(
                    ctx.loc("params", index, "paddle" if row.paddle is not None else "torch"),
                    f"Paddle 签名中没有 `{name}` (not in the paddle signature)",
                    "Paddle 3.x 接受的 PyTorch 风格参数名写进 paddle_accepts "
                    "(list torch-style names paddle accepts in paddle_accepts)",
                )


RULE = Rule(
    "AM213",
    "参数名不在签名中 (parameter name not in the signature)",
    Scope.RECORD,
    Severity.ERROR,
    "检查拼写；可变参数写作 `*size` (check the spelling; varargs are written `*size`)",
    why="参数表里的名称要能在签名中找到，否则是拼写错误或签名已经过时。",
    check=check,
)
