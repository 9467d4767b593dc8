"""Parse recorded signatures such as ``torch.abs(input, *, out=None)``."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache

from apimap.record import pycode

_VARARGS = re.compile(r"[(,]\s*\*\s*[A-Za-z_]")
_BARE_STAR = re.compile(r",\s*\*\s*(?=[,)])")
_REPR = re.compile(r"<[^<>()]*>")
"""A default shown as its ``repr``, such as ``<RedOpType.SUM: 0>``: not Python, kept as text."""


class ParamKind(StrEnum):
    """Python parameter kinds, as in :class:`inspect.Parameter`."""

    POSITIONAL_ONLY = "positional_only"
    POSITIONAL_OR_KEYWORD = "positional_or_keyword"
    VAR_POSITIONAL = "var_positional"
    KEYWORD_ONLY = "keyword_only"
    VAR_KEYWORD = "var_keyword"


@dataclass(frozen=True)
class Param:
    """One parameter of a recorded signature."""

    name: str
    kind: ParamKind
    default: str | None = None

    @property
    def spelled(self) -> str:
        """The name as a parameter row writes it: ``*size``, ``**kwargs``."""
        return spelling(self.name, self.kind)


def spelling(name: str, kind: ParamKind) -> str:
    """``*size`` for varargs, ``**kwargs`` for keywords, else the name."""
    if kind is ParamKind.VAR_POSITIONAL:
        return "*" + name
    if kind is ParamKind.VAR_KEYWORD:
        return "**" + name
    return name


@dataclass(frozen=True, eq=False)
class Signature:
    """A parsed ``api(params)`` text."""

    api: str
    params: tuple[Param, ...]

    @cached_property
    def _by_spelling(self) -> dict[str, Param]:
        return {param.spelled: param for param in self.params}

    def find(self, spelled: str) -> Param | None:
        """The parameter a row names, by its spelling (``*size`` for varargs)."""
        return self._by_spelling.get(spelled)


class SignatureError(ValueError):
    """The text is not ``dotted.name(parameters)``."""


@lru_cache(maxsize=8192)
def parse_signature(text: str) -> Signature:
    """Parse ``dotted.name(a, b=1, *, c=None)``; raise :class:`SignatureError`."""
    source = " ".join(text.split())
    open_paren = source.find("(")
    if open_paren <= 0 or not source.endswith(")"):
        raise SignatureError("应为 `名称(参数, ...)` 的形式 (expected `name(params)`)")
    api = source[:open_paren].strip()
    if not all(part.isidentifier() for part in api.split(".")):
        raise SignatureError(f"`{api}` 不是合法的 API 名称 (invalid API name)")
    parameters = source[open_paren:]
    if _VARARGS.search(parameters):
        # PyTorch documents ``zeros(*size, *, out=None)``; Python spells it without the bare star.
        parameters = _BARE_STAR.sub("", parameters)
    reprs: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        name = f"__apimap_repr_{len(reprs)}__"
        reprs[name] = match.group()
        return name

    parameters = _REPR.sub(placeholder, parameters)
    definition = f"def _{parameters}: pass"
    try:
        module = pycode.parse_module(definition)
    except SyntaxError as exc:
        raise SignatureError(
            f"参数列表不是合法的 Python：{exc.msg} (invalid parameter list)"
        ) from None
    function = module.body[0]
    assert isinstance(function, ast.FunctionDef)
    encoded = definition.encode()

    def spell(node: ast.expr | None) -> str | None:
        # The definition is one line, so column offsets (in UTF-8 bytes) slice the default out.
        if node is None:
            return None
        text = encoded[node.col_offset : node.end_col_offset].decode()
        return reprs.get(text, text)

    params = params_of(function.args, spell)
    names = [param.name for param in params]
    for name in names:
        if names.count(name) > 1:
            raise SignatureError(f"参数 `{name}` 重复 (duplicate parameter)")
    return Signature(api, tuple(params))


def params_of(args: ast.arguments, text: Callable[[ast.expr | None], str | None]) -> list[Param]:
    """The parameters of a parsed ``def``; ``text`` spells a default value (or ``None``)."""
    params: list[Param] = []
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += args.defaults
    for index, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        kind = (
            ParamKind.POSITIONAL_ONLY
            if index < len(args.posonlyargs)
            else ParamKind.POSITIONAL_OR_KEYWORD
        )
        params.append(Param(arg.arg, kind, text(default)))
    if args.vararg is not None:
        params.append(Param(args.vararg.arg, ParamKind.VAR_POSITIONAL))
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        params.append(Param(arg.arg, ParamKind.KEYWORD_ONLY, text(kw_default)))
    if args.kwarg is not None:
        params.append(Param(args.kwarg.arg, ParamKind.VAR_KEYWORD))
    return params
