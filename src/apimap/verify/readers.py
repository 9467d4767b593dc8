"""Read the real signature of an API from the installed library.

Order of sources: :func:`inspect.signature`; for torch builtins the ``.pyi``
stubs shipped in the torch wheel (overloads included, see :mod:`stubs`) and
the signature lines that open the docstring (``torch.linalg``, ``torch.fft``,
``torch.special`` have only those). Stubs and docstrings both ship with the
library and occasionally disagree (the stub of ``torch.numel`` names its
parameter ``self``, the docstring and the function ``input``), so a builtin's
overloads are the union of both: a recorded signature matching either is not
drift. A signature that is only ``(*args, **kwargs)`` says nothing and counts
as unreadable.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from apimap.record.signature import (
    ParamKind,
    SignatureError,
    parse_signature,
    spelling,
    split_parameters,
)
from apimap.verify import stubs
from apimap.verify.defaults import Default, Namespaces, display, evaluate
from apimap.verify.libraries import Resolved

_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: ParamKind.POSITIONAL_ONLY,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: ParamKind.POSITIONAL_OR_KEYWORD,
    inspect.Parameter.VAR_POSITIONAL: ParamKind.VAR_POSITIONAL,
    inspect.Parameter.KEYWORD_ONLY: ParamKind.KEYWORD_ONLY,
    inspect.Parameter.VAR_KEYWORD: ParamKind.VAR_KEYWORD,
}


@dataclass(frozen=True)
class RealParam:
    """One parameter as the library declares it."""

    name: str
    kind: ParamKind
    default: Default | None = None

    @property
    def spelled(self) -> str:
        """``*size`` for varargs, ``**kwargs`` for keywords, else the name."""
        return spelling(self.name, self.kind)


@dataclass(frozen=True)
class RealSignature:
    """One overload of an API as the library declares it."""

    params: tuple[RealParam, ...]
    source: str
    """``inspect``, ``stub`` or ``docstring``."""

    def find(self, name: str) -> RealParam | None:
        """The parameter spelled ``name``."""
        return next((p for p in self.params if p.spelled == name), None)

    def text(self, api: str) -> str:
        """The signature as a record writes it: ``api(a, /, b=1, *, c=None)``."""
        parts: list[str] = []
        star_written = False
        for index, param in enumerate(self.params):
            after = self.params[index + 1] if index + 1 < len(self.params) else None
            positional_only = param.kind is ParamKind.POSITIONAL_ONLY
            if param.kind is ParamKind.KEYWORD_ONLY and not star_written:
                parts.append("*")
                star_written = True
            if param.kind is ParamKind.VAR_POSITIONAL:
                star_written = True
            shown = param.default is not None and not param.default.opaque
            default = "=" + param.default.text if shown and param.default else ""
            parts.append(param.spelled + default)
            if positional_only and (after is None or after.kind is not ParamKind.POSITIONAL_ONLY):
                parts.append("/")
        return f"{api}({', '.join(parts)})"


@dataclass(frozen=True)
class ApiSignatures:
    """Every overload of one API, and where names in its defaults are looked up."""

    overloads: list[RealSignature]
    namespaces: Namespaces = field(default_factory=list)


class Unreadable(LookupError):
    """No source gave a signature."""


def namespaces_of(resolved: Resolved) -> list[dict[str, Any]]:
    """Globals of the API's module, then of its library."""
    out: list[dict[str, Any]] = []
    globals_ = getattr(resolved.obj, "__globals__", None)
    if isinstance(globals_, dict):
        out.append(globals_)
    module = sys.modules.get(getattr(resolved.obj, "__module__", None) or "")
    if module is not None:
        out.append(vars(module))
    library = sys.modules.get(resolved.api.split(".", 1)[0])
    if library is not None:
        out.append(vars(library))
    return out


def read(resolved: Resolved) -> ApiSignatures:
    """The API's overloads from the first source that knows them; raises :class:`Unreadable`."""
    namespaces = namespaces_of(resolved)
    obj = resolved.obj
    if not callable(obj):
        return ApiSignatures([RealSignature((), "attribute")], namespaces)
    from_inspect = _from_inspect(resolved, namespaces)
    if from_inspect is not None:
        return ApiSignatures([from_inspect], namespaces)
    overloads = optional_by_overload(
        [_from_stub(sig, namespaces) for sig in stubs.lookup(resolved)]
    )
    overloads += _from_docstring(resolved, namespaces)
    if overloads:
        return ApiSignatures(overloads, namespaces)
    raise Unreadable(resolved.api)


def _drops_self(resolved: Resolved) -> bool:
    """Methods looked up on their class declare ``self``, which records leave out."""
    if not resolved.owner_is_class or isinstance(resolved.obj, type):
        return False
    name = resolved.api.rsplit(".", 1)[-1]
    try:
        static = inspect.getattr_static(resolved.owner, name)
    except AttributeError:
        return False
    return not isinstance(static, staticmethod | classmethod)


def _from_inspect(resolved: Resolved, namespaces: Namespaces) -> RealSignature | None:
    try:
        signature = inspect.signature(resolved.obj)
    except (ValueError, TypeError):
        return None
    params = [
        RealParam(
            p.name,
            _KINDS[p.kind],
            None
            if p.default is inspect.Parameter.empty
            else _inspect_default(p.default, namespaces),
        )
        for p in signature.parameters.values()
    ]
    if params and _drops_self(resolved):
        params = params[1:]
    opaque = [p.kind for p in params] == [ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD]
    return None if opaque else RealSignature(tuple(params), "inspect")


def _inspect_default(value: Any, namespaces: Namespaces) -> Default:
    return Default(display(value, namespaces), value)


def _from_stub(stub: stubs.StubSignature, namespaces: Namespaces) -> RealSignature:
    params = tuple(
        RealParam(
            p.name,
            p.kind,
            None if p.default is None else _text_default(p.default, namespaces),
        )
        for p in stub.params
    )
    return RealSignature(params, "stub")


def optional_by_overload(overloads: list[RealSignature]) -> list[RealSignature]:
    """Give an unknown default to parameters that another overload simply leaves out.

    Stubs spell an optional argument as two overloads: ``rand(*size, generator, ...)``
    and ``rand(*size, ...)``. The parameter then has a default, whose value the stubs
    do not state (:attr:`Default.opaque`).
    """
    names = {tuple(p.spelled for p in overload.params) for overload in overloads}
    out = []
    for overload in overloads:
        spelled = tuple(p.spelled for p in overload.params)
        params = tuple(
            RealParam(p.name, p.kind, Default("..."))
            if p.default is None
            and p.kind not in {ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD}
            and tuple(n for n in spelled if n != p.spelled) in names
            else p
            for p in overload.params
        )
        out.append(RealSignature(params, overload.source))
    return out


def _text_default(text: str, namespaces: Namespaces) -> Default:
    return Default(text, evaluate(text, namespaces))


_DOC_NAME = re.compile(r"^[A-Za-z_][\w.]*\s*\(")


def _parameter_list(entry: str) -> str | None:
    """``(a, b=1)`` of ``name(a, b=1) -> Tensor``; ``None`` if it is not a signature line."""
    opening = _DOC_NAME.match(entry)
    if opening is None:
        return None
    depth = 0
    start = opening.end() - 1
    for index in range(start, len(entry)):
        depth += {"(": 1, ")": -1}.get(entry[index], 0)
        if depth == 0:
            rest = entry[index + 1 :].strip()
            return entry[start : index + 1] if not rest or rest.startswith("->") else None
    return None


def docstring_signature_lines(doc: str) -> Iterator[str]:
    """The parameter lists of the signature lines that open a docstring, with the
    reStructuredText escapes of their markers undone (``\\*`` is ``*``)."""
    lines = doc.strip().splitlines()
    entry = ""
    for line in lines:
        if not line.strip():
            break
        entry = f"{entry} {line.strip()}" if entry else line.strip()
        if entry.count("(") > entry.count(")"):
            continue
        params = _parameter_list(entry)
        if params is None:
            return
        yield params.replace("\\*", "*")
        entry = ""


def without_leading_defaults(params: str) -> str:
    """``(start=0, end, step=1)`` -> ``(start, end, step=1)``.

    Docstrings write defaults Python cannot express: a defaulted parameter before
    a required one. Such defaults are dropped; the parameters stay.
    """
    parts = split_parameters(params[1:-1])
    positional_end = next((i for i, part in enumerate(parts) if part.startswith("*")), len(parts))
    required = [i for i in range(positional_end) if "=" not in parts[i]]
    last_required = required[-1] if required else -1
    fixed = [
        part.split("=", 1)[0].strip() if index < last_required else part
        for index, part in enumerate(parts)
    ]
    return "(" + ", ".join(fixed) + ")"


def _from_docstring(resolved: Resolved, namespaces: Namespaces) -> Iterator[RealSignature]:
    doc = getattr(resolved.obj, "__doc__", None)
    if not isinstance(doc, str):
        return
    for params in docstring_signature_lines(doc):
        # without the defaults Python cannot express (``range(start=0, end)``: the record
        # parser accepts them, but ``torch.range(4)`` raises, so ``start`` has none)
        try:
            parsed = parse_signature(f"{resolved.api}{without_leading_defaults(params)}")
        except SignatureError:
            try:
                parsed = parse_signature(f"{resolved.api}{params}")
            except SignatureError:
                continue
        yield RealSignature(
            tuple(
                RealParam(
                    p.name,
                    p.kind,
                    None if p.default is None else _text_default(p.default, namespaces),
                )
                for p in parsed.params
            ),
            "docstring",
        )
