"""Compare the results of the torch snippet with those of the paddle snippet.

* Tensors (torch or paddle, told apart by the module of their type; NumPy
  arrays too) by dtype name (``torch.float32`` and ``paddle.float32`` are both
  ``float32``), shape, and values: exact for bool, integer and string dtypes,
  ``numpy.isclose`` with the case's tolerances otherwise (NaN equals NaN).
* ``torch.Size`` and ``paddle.Size`` as shapes: tuples of ints.
* ``None``, bools, ints, floats, complex numbers and strings by type and value
  (floats within the tolerances).
* Lists, tuples and dicts by type, length or keys, then item by item.

With ``no_value_compare`` everything above is compared except values of
tensors and scalars. Anything else (layers, optimizers, datasets) is not
comparable.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

np: Any = importlib.import_module("numpy")

DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-6
MAX_MESSAGES = 5
"""Per compared name: the first few differences are enough to act on."""
MAX_SHOWN_ELEMENTS = 3

_SCALARS = (type(None), bool, int, float, complex, str)


@dataclass(frozen=True)
class Tolerance:
    """How closely values must agree, and whether they are compared at all."""

    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    values: bool = True


def library_of(value: Any) -> str | None:
    """``torch`` or ``paddle`` when the value's type comes from that library."""
    top = type(value).__module__.split(".", 1)[0]
    return top if top in {"torch", "paddle"} else None


def is_tensor(value: Any) -> bool:
    """A torch or paddle tensor (parameters included)."""
    return library_of(value) is not None and all(
        hasattr(value, attribute) for attribute in ("detach", "shape", "dtype")
    )


def is_shape(value: Any) -> bool:
    """``torch.Size`` or ``paddle.Size``."""
    return library_of(value) is not None and type(value).__name__ == "Size"


def _is_array(value: Any) -> bool:
    return is_tensor(value) or isinstance(value, np.ndarray | np.generic)


def comparable(value: Any) -> bool:
    """Whether the value (recursively) is something this module compares."""
    if isinstance(value, _SCALARS) or _is_array(value) or is_shape(value):
        return True
    if isinstance(value, list | tuple):
        return all(comparable(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, _SCALARS) and comparable(v) for k, v in value.items())
    return False


def _dtype_name(dtype: Any) -> str:
    return str(dtype).lower().rsplit(".", 1)[-1]


@dataclass(frozen=True)
class _Array:
    dtype: str
    shape: tuple[int, ...]
    data: Any

    def describe(self) -> str:
        return f"{self.dtype} {list(self.shape)}"


def _array(value: Any) -> _Array:
    library = library_of(value)
    if library == "torch":
        tensor = value.detach().cpu()
        if tensor.is_conj():
            tensor = tensor.resolve_conj()
        dtype = _dtype_name(tensor.dtype)
        if dtype == "bfloat16":
            tensor = tensor.float()
        return _Array(dtype, tuple(tensor.shape), tensor.numpy())
    if library == "paddle":
        tensor = value.detach()
        dtype = _dtype_name(tensor.dtype)
        if dtype == "bfloat16":
            tensor = tensor.astype("float32")
        return _Array(dtype, tuple(tensor.shape), np.asarray(tensor.numpy()))
    array = np.asarray(value)
    return _Array(_dtype_name(array.dtype), tuple(array.shape), array)


def _kind(value: Any) -> str:
    if _is_array(value):
        return "tensor"
    if is_shape(value):
        return "shape"
    return type(value).__name__


def compare(name: str, torch_value: Any, paddle_value: Any, tolerance: Tolerance) -> list[str]:
    """The differences between two results (empty when they agree)."""
    return list(_compare(name, torch_value, paddle_value, tolerance))[:MAX_MESSAGES]


def _compare(name: str, left: Any, right: Any, tolerance: Tolerance) -> Iterator[str]:
    kind, other = _kind(left), _kind(right)
    if kind != other:
        yield f"`{name}`：类型不同 (types differ)：torch {kind}，paddle {other}"
    elif kind == "tensor":
        yield from _compare_arrays(name, _array(left), _array(right), tolerance)
    elif kind == "shape":
        if tuple(left) != tuple(right):
            yield f"`{name}`：形状不同 (shape differs)：torch {list(left)}，paddle {list(right)}"
    elif isinstance(left, list | tuple):
        if len(left) != len(right):
            yield f"`{name}`：长度不同 (length differs)：torch {len(left)}，paddle {len(right)}"
            return
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            yield from _compare(f"{name}[{index}]", a, b, tolerance)
    elif isinstance(left, dict):
        if list(left) != list(right):
            yield (f"`{name}`：键不同 (keys differ)：torch {list(left)!r}，paddle {list(right)!r}")
            return
        for key in left:
            yield from _compare(f"{name}[{key!r}]", left[key], right[key], tolerance)
    elif tolerance.values and not _same_scalar(left, right, tolerance):
        yield f"`{name}`：数值不同 (values differ)：torch {left!r}，paddle {right!r}"


def _same_scalar(left: Any, right: Any, tolerance: Tolerance) -> bool:
    if isinstance(left, float | complex):
        if left != left and right != right:  # both NaN
            return True
        return bool(abs(left - right) <= tolerance.atol + tolerance.rtol * abs(right))
    return bool(left == right)


def _compare_arrays(name: str, left: _Array, right: _Array, tolerance: Tolerance) -> Iterator[str]:
    sides = f"torch {left.describe()}，paddle {right.describe()}"
    if left.shape != right.shape:
        yield f"`{name}`：形状不同 (shape differs)：{sides}"
        return
    problems = []
    if left.dtype != right.dtype:
        problems.append("dtype 不同 (dtype differs)")
    mismatch = _value_mismatch(left.data, right.data, tolerance) if tolerance.values else None
    if mismatch:
        problems.append(mismatch)
    if problems:
        yield f"`{name}`：{'；'.join(problems)}：{sides}"


def _value_mismatch(left: Any, right: Any, tolerance: Tolerance) -> str | None:
    """``None`` when the values agree, else how many differ and the first few."""
    exact = not (_inexact(left) or _inexact(right))
    try:
        if exact:
            same = np.asarray(left == right, dtype=bool)
        else:
            same = np.isclose(left, right, rtol=tolerance.rtol, atol=tolerance.atol, equal_nan=True)
    except (TypeError, ValueError) as exc:
        return f"无法比较数值 (cannot compare values: {exc})"
    same = np.broadcast_to(same, np.shape(left))
    if bool(same.all()):
        return None
    wrong = np.argwhere(~same)
    shown = "，".join(
        f"{list(map(int, index))}: torch {_element(left, index)} / paddle {_element(right, index)}"
        for index in wrong[:MAX_SHOWN_ELEMENTS]
    )
    limits = "完全相等 (exact)" if exact else f"rtol={tolerance.rtol}, atol={tolerance.atol}"
    return f"{len(wrong)}/{same.size} 个元素不同 (elements differ, {limits})；首个不同 (first): {shown}"


def _element(array: Any, index: Any) -> str:
    value = np.asarray(array)[tuple(index)].item()
    return f"{value:.7g}" if isinstance(value, float) else repr(value)


def _inexact(array: Any) -> bool:
    return bool(np.issubdtype(np.asarray(array).dtype, np.inexact))
