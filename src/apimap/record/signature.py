"""Parse recorded signatures such as ``torch.abs(input, *, out=None)``."""

from __future__ import annotations

import ast
import keyword
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache

from apimap.record import pycode

_VARARGS = re.compile(r"[(,]\s*\*\s*[A-Za-z_]")
_BARE_STAR = re.compile(r",\s*\*\s*(?=[,)])")
_REPR = re.compile(r"<[^<>()]*>")
_ATTRIBUTE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_KEYWORD_NAME = re.compile(
    r"([(,]\s*)(" + "|".join(sorted(keyword.kwlist, key=len, reverse=True)) + r")(?=\s*[=,)])"
)
"""A parameter named like a Python keyword, as documentation writes one
(``torch.Tensor.uniform_(from=0, to=1)``)."""
_KEYWORD_MARK = "__apimap_keyword__"
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


def split_parameters(text: str) -> list[str]:
    """The top-level parts of ``a, b=(1, 2), c='x,y'`` (brackets and quotes respected)."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    quote: str | None = None
    for char in text:
        if quote is not None:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [part for part in parts if part]


def _leading_defaults(parameters: str) -> tuple[str, dict[str, str]]:
    """``(start=0, end, step=1)`` -> ``(start, end, step=1)`` and ``{"start": "0"}``.

    Documentation writes an optional leading parameter with its default before a required one
    (``torch.range(start=0, end, ...)``), which Python cannot say; the default is kept apart
    and given back to the parameter after parsing."""
    parts = split_parameters(parameters[1:-1])
    positional_end = next((i for i, part in enumerate(parts) if part.startswith("*")), len(parts))
    required = [i for i in range(positional_end) if "=" not in parts[i]]
    last_required = required[-1] if required else -1
    leading: dict[str, str] = {}
    for index in range(last_required):
        name, equals, default = parts[index].partition("=")
        if equals:
            leading[name.strip()] = default.strip()
            parts[index] = name.strip()
    return "(" + ", ".join(parts) + ")", leading


class SignatureError(ValueError):
    """The text is not ``dotted.name(parameters)``."""


@lru_cache(maxsize=8192)
def parse_signature(text: str) -> Signature:
    """Parse ``dotted.name(a, b=1, *, c=None)``, or an attribute's bare ``dotted.name``
    (no parameters); raise :class:`SignatureError`."""
    source = " ".join(text.split())
    if _ATTRIBUTE.match(source):
        return Signature(source, ())  # an attribute's "signature" is its name
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
    leading: dict[str, str] = {}
    try:
        module = pycode.parse_module(definition)
    except SyntaxError as exc:
        parameters, leading = _leading_defaults(parameters)
        parameters = _KEYWORD_NAME.sub(
            lambda m: f"{m.group(1)}{_KEYWORD_MARK}{m.group(2)}", parameters
        )
        definition = f"def _{parameters}: pass"
        try:
            module = pycode.parse_module(definition)
        except SyntaxError:
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

    params = []
    for param in params_of(function.args, spell):
        name = param.name.removeprefix(_KEYWORD_MARK)
        default = leading.get(name)
        shown = param.default if default is None else reprs.get(default, default)
        params.append(Param(name, param.kind, shown))
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
