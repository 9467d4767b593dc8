"""Default values: evaluating their text and deciding whether two defaults agree.

A recorded default and the library's default agree when

1. their texts are equal once whitespace is removed; or
2. the library's value cannot be known (a stub writes ``...``): then only the
   presence of a default is compared; or
3. both values can be evaluated and they are the same object, or of the same
   type and equal (``1e-05`` and ``1e-5`` agree; ``1`` and ``1.0`` do not; NaN
   agrees with NaN); or
4. the library's value is a ``functools.partial`` and the record writes
   ``functools.partial(f, *args, **kwargs)`` with the same function (by name, any public
   path to it) and equal arguments; or
5. one side is a name that cannot be evaluated and the last components of both
   dotted names are equal (``preserve_format`` and ``torch.preserve_format``).

Evaluating accepts literals, ``-x``, arithmetic on numbers (``1. / 3``), ``float('inf')``
and (dotted) names. A name is looked up in the namespaces of the API (its module's globals,
so a record may write ``generator=default_generator``), then among already imported modules.
Nothing is ever called except ``float`` on a string.
"""

from __future__ import annotations

import ast
import functools
import math
import operator
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from apimap.record import pycode

Namespaces = Sequence[Mapping[str, Any]]


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN: Any = _Unknown()
"""The value of a default that cannot be evaluated."""


@dataclass(frozen=True)
class Default:
    """A default as the library states it: its text and, when known, its value."""

    text: str
    value: Any = UNKNOWN

    @property
    def opaque(self) -> bool:
        """A stub's ``...``: the library does not say what the default is."""
        return self.text == "..."


class _Unevaluable(Exception):
    pass


def evaluate(text: str, namespaces: Namespaces) -> Any:
    """The value ``text`` denotes, or :data:`UNKNOWN`."""
    try:
        node = pycode.parse_expression(text.strip())
        return _evaluate(node, namespaces)
    except (SyntaxError, ValueError, _Unevaluable):
        return UNKNOWN


_ARITHMETIC: dict[type[ast.operator], Any] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
"""Arithmetic a documented default may be written in (``1. / 3``): numbers only."""


def _evaluate(node: ast.expr, namespaces: Namespaces) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _evaluate(node.operand, namespaces)
        if isinstance(operand, int | float | complex) and not isinstance(operand, bool):
            return -operand if isinstance(node.op, ast.USub) else operand
        raise _Unevaluable
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _evaluate(node.left, namespaces), _evaluate(node.right, namespaces)
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in (left, right)):
            try:
                return _ARITHMETIC[type(node.op)](left, right)
            except (ArithmeticError, ValueError):
                raise _Unevaluable from None
        raise _Unevaluable
    if isinstance(node, ast.Tuple | ast.List):
        items = [_evaluate(item, namespaces) for item in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.Name):
        return _lookup(node.id, namespaces)
    if isinstance(node, ast.Attribute):
        base = _evaluate(node.value, namespaces)
        try:
            return getattr(base, node.attr)
        except Exception:
            raise _Unevaluable from None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return float(node.args[0].value)
    raise _Unevaluable


def _lookup(name: str, namespaces: Namespaces) -> Any:
    for namespace in namespaces:
        if name in namespace:
            return namespace[name]
    if name in {"inf", "nan"}:
        return float(name)
    module = sys.modules.get(name)
    if module is not None:
        return module
    raise _Unevaluable


def same_value(left: Any, right: Any) -> bool:
    """Identical, or of the same type and equal (NaN equals NaN)."""
    if left is right:
        return True
    if type(left) is not type(right):
        return False
    if isinstance(left, float) and math.isnan(left) and math.isnan(right):
        return True
    if isinstance(left, tuple | list):
        return len(left) == len(right) and all(map(same_value, left, right))
    try:
        return bool(left == right)
    except Exception:
        return False


def _last_component(text: str) -> str:
    return "".join(text.split()).rsplit(".", 1)[-1]


def same_default(recorded: str, actual: Default, namespaces: Namespaces) -> bool:
    """Whether a recorded default agrees with the library's (see the module docstring)."""
    if "".join(recorded.split()) == "".join(actual.text.split()):
        return True
    if actual.opaque:
        return True
    if isinstance(actual.value, functools.partial):
        return _same_partial(recorded, actual.value, namespaces)
    recorded_value = evaluate(recorded, namespaces)
    if recorded_value is not UNKNOWN and actual.value is not UNKNOWN:
        return same_value(recorded_value, actual.value)
    return _last_component(recorded) == _last_component(actual.text)


def _same_partial(recorded: str, value: functools.partial[Any], namespaces: Namespaces) -> bool:
    """``functools.partial(torch.nn.LayerNorm, eps=1e-06)`` against the library's partial."""
    try:
        tree = pycode.parse(recorded, "eval")
    except SyntaxError:
        return False
    call = tree.body if isinstance(tree, ast.Expression) else None
    if not (
        isinstance(call, ast.Call)
        and ast.unparse(call.func) in {"functools.partial", "partial"}
        and call.args
        and all(keyword.arg is not None for keyword in call.keywords)
    ):
        return False
    if evaluate(ast.unparse(call.args[0]), namespaces) is not value.func:
        return False
    args = [evaluate(ast.unparse(arg), namespaces) for arg in call.args[1:]]
    keywords = {str(k.arg): evaluate(ast.unparse(k.value), namespaces) for k in call.keywords}
    return (
        len(args) == len(value.args)
        and all(same_value(a, b) for a, b in zip(args, value.args, strict=True))
        and keywords.keys() == value.keywords.keys()
        and all(same_value(keywords[k], value.keywords[k]) for k in keywords)
    )


def display(value: Any, namespaces: Namespaces) -> str:
    """How a default object is written in a signature: a literal, or the name it has."""
    text = repr(value)
    try:
        if same_value(ast.literal_eval(text), value):
            return text
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    if isinstance(value, float) and not math.isfinite(value):
        return f"float('{value}')"
    if type(value) in (tuple, list):  # of objects that are not literals: each by its name
        items = [display(item, namespaces) for item in value]
        if isinstance(value, list):
            return f"[{', '.join(items)}]"
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(value, functools.partial):
        parts = [display(value.func, namespaces)]
        parts += [display(arg, namespaces) for arg in value.args]
        parts += [f"{k}={display(v, namespaces)}" for k, v in value.keywords.items()]
        return f"functools.partial({', '.join(parts)})"
    for namespace in namespaces:
        for name, candidate in namespace.items():
            if candidate is value and not name.startswith("__"):
                return name
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str):
        return f"{module}.{qualname}"
    return text
