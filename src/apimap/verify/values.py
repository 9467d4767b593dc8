"""Results as plain data: encoded by a worker, compared by the parent.

A worker holds only one library, so results cross the process boundary as
JSON: tensors as their dtype name, shape, gradient flag and raw bytes (base64;
bfloat16 travels as float32 with its own dtype name), shapes, dtypes,
Python scalars, and lists, tuples and dicts of those. Nothing is pickled:
a hostile example cannot make the parent run code by returning an object.

Comparison (in the parent, NumPy only):

* tensors by dtype name, shape, gradient flag and values: exact for bool,
  integer and string dtypes, ``numpy.isclose`` with the tolerances otherwise
  (NaN equals NaN);
* shapes (``torch.Size``, ``paddle`` shape lists are lists) and dtypes by value;
* ``None``, bools, ints, floats, complex numbers and strings by type and value;
* lists, tuples and dicts by type, length or keys, then item by item.

Results compared by shape only (``shape_only``) skip the values of tensors
and scalars. Anything else (layers, optimizers, datasets) is opaque.

The reports of two module probes are compared by their own rules: a ``state``
report (the tensors a checkpoint holds) by names, shapes and whether each is
trained; an ``init`` report (statistics of freshly initialised weights, whose
values differ because the libraries draw different random numbers) by whether
a tensor is constant, its constant value, and, for 16 or more elements, its
spread and mean within what sampling allows.
"""

from __future__ import annotations

import base64
import importlib
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

np: Any = importlib.import_module("numpy")

DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-6
LOW_PRECISION = {"float16": (1e-2, 1e-2), "bfloat16": (2e-2, 2e-2)}
"""Tolerances for half-precision results (rtol, atol)."""
MAX_ELEMENTS = 1_000_000
"""The largest result (one array) a run sends back."""
MAX_WEIGHT_ELEMENTS = 160_000_000
"""The largest state (all weights of one layer together) copied from torch to paddle: a
ResNet-50 (25.6 million), an AlexNet (61 million) or a VGG-19 (144 million) fits; the
weights travel as one line of about 1 GB, read in linear time (``make bench-lines``)."""
MAX_MESSAGES = 5
MAX_SHOWN_ELEMENTS = 3
MAX_DEPTH = 20

_SCALARS = (type(None), bool, int, float, complex, str)


class TooLarge(ValueError):
    """A result too large or too deep to send back."""


# --- encoding (in the worker) ----------------------------------------------------------------


def encode(
    value: Any, side: Any, depth: int = 0, max_elements: int = MAX_ELEMENTS, raw: bool = False
) -> dict[str, Any]:
    """``value`` as JSON-ready data; ``side`` is the worker's :class:`~apimap.verify.sides.Side`.

    A sparse tensor is sent as its dense values plus its ``layout``; an array of more than
    ``max_elements`` elements raises :class:`TooLarge`. With ``raw`` an array's ``data`` is
    its bytes rather than their base64 (layer weights, which travel outside the JSON)."""
    if depth > MAX_DEPTH:
        raise TooLarge("嵌套过深 (nested too deeply)")
    if isinstance(value, bool) or value is None:
        return {"t": "bool" if isinstance(value, bool) else "none", "v": value}
    if isinstance(value, int):
        return {"t": "int", "v": str(value)}
    if isinstance(value, float):
        return {"t": "float", "v": repr(value)}
    if isinstance(value, complex):
        return {"t": "complex", "v": [repr(value.real), repr(value.imag)]}
    if isinstance(value, str):
        return {"t": "str", "v": value}
    if side.is_tensor(value):
        layout = side.sparse_layout(value)
        dtype, array, grad = side.array(value)
        encoded = _array(dtype, array, grad, "tensor", max_elements, raw)
        if layout is not None:
            encoded["layout"] = layout
        return encoded
    if isinstance(value, side.np.ndarray | side.np.generic):
        array = side.np.asarray(value)
        return _array(str(array.dtype), array, False, "ndarray", max_elements, raw)
    kind = type(value).__name__
    if kind == "Size" or (side.name == "paddle" and kind == "Shape"):
        return {"t": "shape", "v": [int(item) for item in value]}
    if kind in {"dtype", "DataType", "VarType"}:
        return {"t": "dtype", "v": str(value).rsplit(".", 1)[-1]}
    if isinstance(value, list | tuple):
        items = [encode(item, side, depth + 1, max_elements, raw) for item in value]
        return {"t": "list" if isinstance(value, list) else "tuple", "v": items}
    if isinstance(value, dict) and all(isinstance(key, str | int) for key in value):
        return {
            "t": "dict",
            "v": [
                [str(k), encode(v, side, depth + 1, max_elements, raw)] for k, v in value.items()
            ],
        }
    return {"t": "opaque", "v": f"{type(value).__module__}.{type(value).__qualname__}"}


def _array(
    dtype: str, array: Any, grad: bool, tag: str, max_elements: int, raw: bool
) -> dict[str, Any]:
    if array.size > max_elements:
        raise TooLarge(f"{array.size} 个元素 (elements)")
    data = np.asarray(array)
    if not data.flags.c_contiguous:
        data = data.copy(order="C")  # (ascontiguousarray would make a 0-d array 1-d)
    content = data.tobytes()
    return {
        "t": tag,
        "dtype": dtype,
        "shape": list(data.shape),
        "grad": grad,
        "storage": str(data.dtype),
        "data": content if raw else base64.b64encode(content).decode("ascii"),
    }


# --- decoding and comparing (in the parent) ---------------------------------------------------


@dataclass(frozen=True)
class Tolerance:
    """How closely values must agree, and whether values are compared at all."""

    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    values: bool = True
    grad: bool = True
    """Compare whether tensors require gradients (for the API's own results, not for the
    intermediate values an example happens to return)."""
    broken_equal: bool = False
    """Count NaN and infinities of either sign as the same value (edge probes: a result
    that overflowed is broken on both sides, however each spells it)."""
    scaled: bool = False
    """Measure the absolute tolerance against the result's own size (``rtol`` times its
    largest finite magnitude) instead of the default ``atol``: for inputs far from 1 (edge
    probes), where a fixed ``atol`` hides every tiny value and counts a 1e-28 next to 0 in a
    softmax. A looser ``atol`` that the record declares (statistics of random fills) still
    holds."""

    def for_dtype(self, dtype: str) -> Tolerance:
        """Half precision never agrees more closely than its own resolution."""
        low = LOW_PRECISION.get(dtype)
        if low is None:
            return self
        return replace(self, rtol=max(self.rtol, low[0]), atol=max(self.atol, low[1]))


def _storage(value: dict[str, Any]) -> Any:
    storage = np.dtype(value["storage"])
    if storage.hasobject:
        raise ValueError("object arrays are not accepted")
    return storage


def decode_array(value: dict[str, Any]) -> Any:
    return raw_array(base64.b64decode(value["data"]), value)


def raw_array(data: bytes, value: dict[str, Any]) -> Any:
    """The array ``value`` describes (its ``storage`` and ``shape``) from its raw bytes."""
    return np.frombuffer(data, dtype=_storage(value)).reshape(value["shape"])


def read_array(path: str, value: dict[str, Any]) -> Any:
    """The array ``value`` describes (its ``storage`` and ``shape``) from the raw bytes in
    the file at ``path``, mapped copy-on-write rather than read: the file was just written, so its
    pages are in memory already, and a VGG's half gigabyte is not copied once more per job."""
    storage = _storage(value)
    if os.path.getsize(path) == 0:  # (an empty file cannot be mapped)
        return np.fromfile(path, dtype=storage).reshape(value["shape"])
    return np.memmap(path, dtype=storage, mode="c").reshape(value["shape"])


def _scalar(value: dict[str, Any]) -> Any:
    kind = value["t"]
    if kind == "int":
        return int(value["v"])
    if kind == "float":
        return float(value["v"])
    if kind == "complex":
        return complex(float(value["v"][0]), float(value["v"][1]))
    return value["v"]


REPORT_KINDS = {"state": "{count} 项状态", "init": "{count} 项初始值"}
"""Module probe reports -> how the behaviour table describes one."""


def describe(value: dict[str, Any]) -> str:
    """A short description of a result: ``float32 [2, 3]``, ``int``, ``tuple(2)``."""
    kind = value.get("t")
    if kind in REPORT_KINDS:
        return REPORT_KINDS[str(kind)].format(count=len(value["v"]))
    if kind in {"tensor", "ndarray"}:
        layout = f" {value['layout']}" if "layout" in value else ""
        return f"{value['dtype']} {value['shape']}{layout}"
    if kind in {"list", "tuple", "dict"}:
        return f"{kind}({len(value['v'])})"
    if kind == "opaque":
        return str(value["v"]).rsplit(".", 1)[-1]
    return str(kind)


def comparable(value: dict[str, Any]) -> bool:
    """Whether the value (recursively) holds only what this module compares."""
    kind = value.get("t")
    if kind == "opaque":
        return False
    if kind in {"list", "tuple"}:
        return all(comparable(item) for item in value["v"])
    if kind == "dict":
        return all(comparable(item) for _key, item in value["v"])
    return True


def compare(
    name: str, left: dict[str, Any], right: dict[str, Any], tolerance: Tolerance
) -> list[str]:
    """The differences between torch's and paddle's result (empty when they agree)."""
    return list(_compare(name, left, right, tolerance))[:MAX_MESSAGES]


_ARRAYS = {"tensor", "ndarray"}


def _compare(
    name: str, left: dict[str, Any], right: dict[str, Any], tolerance: Tolerance
) -> Iterator[str]:
    kind, other = left["t"], right["t"]
    if kind == other == "state":
        yield from _compare_state(name, left["v"], right["v"])
    elif kind == other == "init":
        yield from _compare_init(name, left["v"], right["v"])
    elif kind in _ARRAYS and other in _ARRAYS:
        yield from _compare_arrays(name, left, right, tolerance)
    elif kind != other:
        yield f"`{name}`：类型不同 (types differ)：torch {describe(left)}，paddle {describe(right)}"
    elif kind in {"shape", "dtype"}:
        if left["v"] != right["v"]:
            yield f"`{name}`：{kind} 不同 (differs)：torch {left['v']}，paddle {right['v']}"
    elif kind in {"list", "tuple"}:
        if len(left["v"]) != len(right["v"]):
            yield (
                f"`{name}`：长度不同 (length differs)：torch {len(left['v'])}，"
                f"paddle {len(right['v'])}"
            )
            return
        for index, (a, b) in enumerate(zip(left["v"], right["v"], strict=True)):
            yield from _compare(f"{name}[{index}]", a, b, tolerance)
    elif kind == "dict":
        keys, other_keys = [k for k, _ in left["v"]], [k for k, _ in right["v"]]
        if keys != other_keys:
            yield f"`{name}`：键不同 (keys differ)：torch {keys}，paddle {other_keys}"
            return
        for (key, a), (_key, b) in zip(left["v"], right["v"], strict=True):
            yield from _compare(f"{name}[{key!r}]", a, b, tolerance)
    elif kind == "opaque":
        if left["v"].rsplit(".", 1)[-1] != right["v"].rsplit(".", 1)[-1]:
            yield f"`{name}`：对象类型不同：torch {left['v']}，paddle {right['v']}"
    elif tolerance.values and not _same_scalar(_scalar(left), _scalar(right), tolerance):
        yield f"`{name}`：数值不同 (values differ)：torch {_scalar(left)!r}，paddle {_scalar(right)!r}"


def _entries(report: list[list[Any]]) -> dict[tuple[str, str], list[Any]]:
    return {(str(entry[0]), str(entry[1])): entry[2:] for entry in report}


def _names(keys: list[tuple[str, str]]) -> str:
    shown = "、".join(name for _key, name in keys[:MAX_SHOWN_NAMES])
    return shown + (f" 等 {len(keys)} 项" if len(keys) > MAX_SHOWN_NAMES else "")


MAX_SHOWN_NAMES = 6


def _compare_state(name: str, left: list[list[Any]], right: list[list[Any]]) -> Iterator[str]:
    """The tensors of two states: which only one side has, shapes, trained or not."""
    torch, paddle = _entries(left), _entries(right)
    problems = []
    only_torch = sorted(set(torch) - set(paddle))
    only_paddle = sorted(set(paddle) - set(torch))
    if only_torch:
        problems.append(f"仅 PyTorch 有 (torch only)：{_names(only_torch)}")
    if only_paddle:
        problems.append(f"仅 Paddle 有 (paddle only)：{_names(only_paddle)}")
    both = sorted(set(torch) & set(paddle))
    shapes = [key for key in both if torch[key][0] != paddle[key][0]]
    if shapes:
        first = shapes[0]
        problems.append(
            f"形状不同 (shape differs)：{_names(shapes)}（如 torch {torch[first][0]}，"
            f"paddle {paddle[first][0]}）"
        )
    trained = [key for key in both if bool(torch[key][1]) != bool(paddle[key][1])]
    if trained:
        problems.append(f"是否训练不同 (trainable differs)：{_names(trained)}")
    if problems:
        yield f"`{name}`：{len(torch)} 项与 {len(paddle)} 项；{'；'.join(problems)}"


SPREAD_RATIO = 1.4
"""Standard deviations of freshly initialised weights agree within this factor."""
MIN_SAMPLE = 16
"""Fewer elements say nothing about a distribution: only constants are compared."""


def _init_differs(torch: list[Any], paddle: list[Any]) -> str | None:
    count, mean_t, std_t = float(torch[0]), float(torch[1]), float(torch[2])
    mean_p, std_p = float(paddle[1]), float(paddle[2])
    if (std_t == 0) != (std_p == 0):
        constant, spread = ("torch", "paddle") if std_t == 0 else ("paddle", "torch")
        return f"{constant} 为常数 {mean_t if std_t == 0 else mean_p:g}，{spread} 为随机值"
    if std_t == 0:
        if abs(mean_t - mean_p) > 1e-6 + 1e-3 * abs(mean_t):
            return f"常数不同：torch {mean_t:g}，paddle {mean_p:g}"
        return None
    if count < MIN_SAMPLE:
        return None
    ratio = std_p / std_t
    if not 1 / SPREAD_RATIO <= ratio <= SPREAD_RATIO:
        return f"标准差不同：torch {std_t:.3g}，paddle {std_p:.3g}"
    if abs(mean_t - mean_p) > 4 * max(std_t, std_p) / math.sqrt(count) + 1e-6:
        return f"均值不同：torch {mean_t:.3g}，paddle {mean_p:.3g}"
    return None


def _compare_init(name: str, left: list[list[Any]], right: list[list[Any]]) -> Iterator[str]:
    """Statistics of the freshly initialised tensors both sides have."""
    torch, paddle = _entries(left), _entries(right)
    found = []
    for key in sorted(set(torch) & set(paddle)):
        reason = _init_differs(torch[key], paddle[key])
        if reason is not None:
            found.append(f"{key[1]}：{reason}")
    if found:
        yield f"`{name}`：默认初始化不同 (initialisation differs)：{'；'.join(found[:MAX_SHOWN_NAMES])}"


def _same_scalar(left: Any, right: Any, tolerance: Tolerance) -> bool:
    if isinstance(left, float | complex) and isinstance(right, float | complex):
        if left != left and right != right:  # both NaN
            return True
        if isinstance(left, float) and math.isinf(left):
            return left == right
        return bool(abs(left - right) <= tolerance.atol + tolerance.rtol * abs(right))
    return bool(left == right)


def _compare_arrays(
    name: str, left: dict[str, Any], right: dict[str, Any], tolerance: Tolerance
) -> Iterator[str]:
    sides = f"torch {describe(left)}，paddle {describe(right)}"
    if left["shape"] != right["shape"]:
        yield f"`{name}`：形状不同 (shape differs)：{sides}"
        return
    problems = []
    if left["dtype"] != right["dtype"]:
        problems.append("dtype 不同 (dtype differs)")
    layouts = left.get("layout", "strided"), right.get("layout", "strided")
    if layouts[0] != layouts[1]:
        problems.append(f"布局不同 (layout differs)：torch {layouts[0]}，paddle {layouts[1]}")
    if tolerance.grad and left["grad"] != right["grad"]:
        problems.append(
            f"是否计算梯度不同 (requires grad differs)：torch {left['grad']}，paddle {right['grad']}"
        )
    if tolerance.values:
        mismatch = _value_mismatch(
            decode_array(left), decode_array(right), tolerance.for_dtype(left["dtype"])
        )
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
            atol = tolerance.atol
            if tolerance.scaled:
                finite = np.abs(np.asarray(left)).astype(float)
                finite = finite[np.isfinite(finite)]
                scale = tolerance.rtol * float(finite.max()) if finite.size else 0.0
                # a looser atol the record declares (statistics of random fills) still holds
                atol = max(scale, tolerance.atol) if tolerance.atol > DEFAULT_ATOL else scale
            same = np.isclose(left, right, rtol=tolerance.rtol, atol=atol, equal_nan=True)
            if tolerance.broken_equal:
                same = same | (~np.isfinite(left) & ~np.isfinite(right))
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
    if exact:
        limits = "完全相等 (exact)"
    elif tolerance.scaled:
        limits = f"rtol={tolerance.rtol}，按结果的大小 (relative to the result's size)"
        if tolerance.atol > DEFAULT_ATOL:
            limits += f"，至少 atol={tolerance.atol} (at least atol)"
    else:
        limits = f"rtol={tolerance.rtol}, atol={tolerance.atol}"
    return f"{len(wrong)}/{same.size} 个元素不同 (elements differ, {limits})；首个不同 (first): {shown}"


def _element(array: Any, index: Any) -> str:
    value = np.asarray(array)[tuple(index)].item()
    return f"{value:.7g}" if isinstance(value, float) else repr(value)


def _inexact(array: Any) -> bool:
    return bool(np.issubdtype(np.asarray(array).dtype, np.inexact))


def result_dtype(value: dict[str, Any]) -> str:
    """What a probe table shows for a result: the dtype of a tensor, else its kind."""
    if value.get("t") in REPORT_KINDS:
        return describe(value)
    if value.get("t") in _ARRAYS:
        return str(value["dtype"])
    if value.get("t") in {"list", "tuple"} and value["v"]:
        return f"{value['t']}[{result_dtype(value['v'][0])}]"
    return describe(value)
