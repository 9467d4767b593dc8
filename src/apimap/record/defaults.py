"""Comparing default values as signatures spell them, without importing either library.

Two defaults agree when they denote the same value: ``1e-05`` and ``1e-5``,
``1.0 / 8`` and ``1. / 8.``, ``()`` and ``torch.Size([])``, ``torch.float16``
and ``'float16'``, ``torch.long`` and ``'int64'``, ``torch.preserve_format`` and
``preserve_format``, the printed object ``<RedOpType.SUM: 0>`` and ``ReduceOp.SUM``,
``<function relu>`` and ``'relu'``. With ``repeated``, a number also agrees with a tuple that
repeats it (``1`` and ``(1, 1)``: per-dimension parameters take either). Only literals, signs, arithmetic on numbers,
tuples and lists, ``torch.Size(...)``, dotted names and printed enum members or functions are
understood; nothing is imported or called.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from typing import Any

from apimap.record import phrases, pycode

_DTYPE_PREFIXES = ("torch.", "paddle.", "np.", "numpy.")
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_SIZES = {"Size", "torch.Size"}
_TORCH_DTYPE_ALIASES = {
    "long": "int64",
    "int": "int32",
    "short": "int16",
    "float": "float32",
    "double": "float64",
    "half": "float16",
    "cfloat": "complex64",
    "cdouble": "complex128",
}
"""torch's other names of dtypes (``torch.long`` is ``torch.int64``)."""


_PRINTED = re.compile(
    r"<(?:function |built-in function )?(?P<name>[A-Za-z_][\w.]*)(?:: [^<>]*| at 0x[0-9a-f]+)?>"
)
"""How a signature prints an enum member (``<RedOpType.SUM: 0>``) or a function
(``<function relu at 0x7f...>``): the name it stands for."""


class _Name(str):
    """A dotted name that cannot be evaluated; compared by its last component."""


class _Unknown(Exception):
    pass


def value_of(text: str) -> Any:
    """The value a default's text denotes; raises ``ValueError`` when it is not understood."""
    printed = _PRINTED.fullmatch(text.strip())
    if printed is not None:
        return _Name(printed.group("name"))
    try:
        node = pycode.parse_expression(text.strip())
        return _value(node)
    except (SyntaxError, ValueError, TypeError, ZeroDivisionError, OverflowError) as exc:
        raise ValueError(text) from exc
    except (_Unknown, RecursionError, MemoryError):
        raise ValueError(text) from None


def _value(node: ast.expr) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _value(node.operand)
        if isinstance(operand, bool) or not isinstance(operand, int | float):
            raise _Unknown
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (left, right))
        if not numbers:
            raise _Unknown
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.Tuple | ast.List):
        return tuple(_value(item) for item in node.elts)
    if isinstance(node, ast.Call) and pycode.dotted_name(node.func) in _SIZES and not node.keywords:
        if not node.args:
            return ()
        inner = _value(node.args[0])
        if len(node.args) == 1 and isinstance(inner, tuple):
            return inner
        raise _Unknown
    name = pycode.dotted_name(node)
    if name is not None:
        if name.startswith("torch.") and name[6:] in _TORCH_DTYPE_ALIASES:
            return _TORCH_DTYPE_ALIASES[name[6:]]
        for prefix in _DTYPE_PREFIXES:
            if name.startswith(prefix):
                name = name[len(prefix) :]
        if name in {"inf", "math.inf"}:
            return math.inf
        return _Name(name)
    raise _Unknown


def _same(left: Any, right: Any, repeated: bool = False) -> bool:
    if isinstance(left, _Name) or isinstance(right, _Name):
        return str(left).rsplit(".", 1)[-1] == str(right).rsplit(".", 1)[-1]
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right
    if isinstance(left, int | float) and isinstance(right, int | float):
        if math.isnan(left) and math.isnan(right):
            return True
        return math.isclose(left, right, rel_tol=1e-12, abs_tol=0.0) or left == right
    if isinstance(left, tuple) and isinstance(right, tuple):
        return len(left) == len(right) and all(map(_same, left, right))
    if repeated and isinstance(left, tuple) != isinstance(right, tuple):
        items, single = (left, right) if isinstance(left, tuple) else (right, left)
        return _number(single) and bool(items) and all(_same(i, single) for i in items)
    return type(left) is type(right) and bool(left == right)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def same_default_text(left: str | None, right: str | None, repeated: bool = False) -> bool:
    """Whether two defaults (``None``: no default) denote the same value (``repeated``: or a
    number and a tuple that repeats it)."""
    if left is None or right is None:
        return left is right
    if "".join(left.split()) == "".join(right.split()):
        return True
    try:
        return _same(value_of(left), value_of(right), repeated)
    except ValueError:
        return False


def shown(default: str | None) -> str:
    """A default for a message or a remark: in backticks, or 无默认值."""
    return phrases.NO_DEFAULT if default is None else f"`{default}`"
