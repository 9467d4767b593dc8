"""What a probe does to a run's inputs, in the worker, before the code runs.

The inputs are NumPy arrays evaluated from the record's expressions; a probe
names one transform (see :mod:`apimap.verify.probes` for the families):

* ``dtype``: every floating array cast to one dtype (integer and boolean targets
  keep the values deterministic: rounded multiples, or a threshold);
* ``int_dtype``: every integer array cast to one integer dtype;
* ``int_mix``: integer versions of the numeric arrays, int32 for the first and
  int64 for the others;
* ``edge``: values at the edges of the dtype (NaN, infinities, -0.0, zeros,
  magnitudes whose squares overflow or underflow, negative values, an
  all-False boolean mask);
* ``broadcast``: arrays shaped like the first one keep only their first row,
  so the operation must broadcast them;
* ``shape``: the first array without its batch dimension (``unbatched``, and
  every array batched like it), empty, or 0-d.

:func:`apply` reports whether the transform changed anything: a probe that
changes nothing would only repeat the run it varies, and is not run.

NumPy is passed in: like the rest of the worker, this imports neither library.
"""

from __future__ import annotations

from typing import Any

from apimap.verify.sides import BFLOAT16

INTEGER_DTYPES = ("uint8", "int8", "int16", "int32", "int64")
EDGES = ("nan", "inf", "negzero", "zeros", "large", "small", "negative", "mask")
"""The edge transforms, in the order they are probed."""

_LARGE_BASE = {"int16": 200, "int32": 50_000, "int64": 4_000_000_000}
"""A base whose square is past the integer dtype's limit while 56 times it (the largest least
common multiple of two factors from 1 to 8) is well inside: products of the probe's values
overflow, their sums, greatest common divisors and least common multiples do not (uint8 and
int8 are too narrow to tell the two apart)."""


def cast(array: Any, dtype: str, np: Any) -> Any:
    """A probe's dtype applied to a floating array (integers and booleans keep their values
    deterministic: rounded multiples, or a threshold). A 0-d array stays an array (numpy's
    arithmetic turns it into a scalar, which the code would receive instead of a tensor)."""
    if dtype == "bool":
        return np.asarray(array > 0.5)
    if dtype in INTEGER_DTYPES:
        scaled = np.round(array * 4)
        return np.asarray((np.abs(scaled) if dtype == "uint8" else scaled).astype(dtype))
    if dtype == BFLOAT16:
        return array.astype("float32")
    return array.astype(dtype)


def _edge_float(array: Any, edge: str, np: Any) -> Any | None:
    """A floating array moved to one edge; ``None`` when the edge does not apply."""
    if array.size == 0:
        return None
    out = np.array(array, copy=True)
    flat = out.reshape(-1)
    info = np.finfo(out.dtype)
    if edge == "nan":
        flat[0] = np.nan
    elif edge == "inf":
        flat[0] = np.inf
        if flat.size > 1:
            flat[-1] = -np.inf
    elif edge == "negzero":
        flat[flat == 0] = -0.0
        flat[0] = -0.0
    elif edge == "zeros":
        out = np.zeros_like(array)
    elif edge == "large":
        # above sqrt(max): the squares overflow while the values and their sums do not
        root = float(np.sqrt(info.max)) * 1.2
        out = (np.sign(array) * root * (1 + np.minimum(np.abs(array), 3) / 4)).astype(array.dtype)
    elif edge == "small":
        # below sqrt(tiny): the squares underflow to zero
        root = float(np.sqrt(info.tiny)) / 1000
        out = (np.sign(array) * root * (1 + np.minimum(np.abs(array), 3) / 4)).astype(array.dtype)
    elif edge == "negative":
        out = (-np.abs(array) - 0.5).astype(array.dtype)
    else:
        return None
    return out


def _edge_integer(array: Any, edge: str, np: Any) -> Any | None:
    """An integer array moved to one edge; ``None`` when the edge does not apply."""
    if array.size == 0:
        return None
    dtype = str(array.dtype)
    if edge == "zeros":
        return np.zeros_like(array)
    if edge == "large" and dtype in _LARGE_BASE:
        # multiples of one large base: their products overflow, while their sums, greatest
        # common divisors and least common multiples do not
        base = _LARGE_BASE[dtype]
        factors = 1 + np.abs(array.astype("int64")) % 8
        signs = np.where(array < 0, -1, 1) if dtype != "uint8" else 1
        return (base * factors * signs).astype(array.dtype)
    if edge == "negative" and dtype != "uint8":
        return (-np.abs(array.astype("int64")) - 1).astype(array.dtype)
    return None


def _edge(arrays: dict[str, Any], names: list[str], edge: str, np: Any) -> bool:
    changed = False
    for name in names:
        array = arrays[name]
        kind = array.dtype.kind
        if kind == "f":
            moved = _edge_float(array, edge, np)
        elif kind in "iu":
            moved = _edge_integer(array, edge, np)
        elif kind == "b" and edge == "mask" and array.size and bool(array.any()):
            moved = np.zeros_like(array)
        else:
            moved = None
        if moved is not None and not _same(moved, array, np):
            arrays[name] = moved
            changed = True
    return changed


def _same(moved: Any, array: Any, np: Any) -> bool:
    """An edge value that leaves an input as it was (zeros scaled stay zeros): the probe
    would only repeat the call, so it does not apply."""
    if moved.shape != array.shape or moved.dtype != array.dtype:
        return False
    equal = moved == array
    if array.dtype.kind == "f":
        equal = equal | (np.isnan(moved) & np.isnan(array))
    return bool(equal.all())


def _broadcast(arrays: dict[str, Any], names: list[str]) -> bool:
    if len(names) < 2:
        return False
    first = arrays[names[0]]
    if first.ndim < 1 or first.shape[0] < 2:
        return False
    changed = False
    for name in names[1:]:
        other = arrays[name]
        if other.shape == first.shape:
            arrays[name] = other[:1]
            changed = True
    return changed


def _shape(arrays: dict[str, Any], names: list[str], shape: str, np: Any) -> bool:
    if not names:
        return False
    first = names[0]
    array = arrays[first]
    if shape == "unbatched" and array.ndim >= 2:
        # every input batched like the first one loses its batch dimension
        for name in names:
            other = arrays[name]
            if other.ndim == array.ndim and other.shape[0] == array.shape[0]:
                arrays[name] = other[0]
        return True
    if shape == "empty" and array.ndim >= 1:
        arrays[first] = array[:0]
        return True
    if shape == "zero_dim" and array.size:
        arrays[first] = np.asarray(array.reshape(-1)[0])
        return True
    return False


def apply(arrays: dict[str, Any], probe: dict[str, Any], np: Any) -> tuple[dict[str, str], bool]:
    """Change the arrays as the probe says (in place). Returns the dtype each tensor is made
    with (bfloat16 travels as float32) and whether the probe changed anything."""
    made_as: dict[str, str] = {}
    names = [name for name, value in arrays.items() if isinstance(value, np.ndarray)]
    changed = False
    dtype = probe.get("dtype")
    if dtype is not None:
        for name in names:
            if arrays[name].dtype.kind == "f":
                arrays[name] = cast(arrays[name], dtype, np)
                changed = True
                if dtype == BFLOAT16:
                    made_as[name] = BFLOAT16
    integer = probe.get("int_dtype")
    if integer is not None:
        for name in names:
            if arrays[name].dtype.kind in "iu":
                changed = changed or str(arrays[name].dtype) != integer
                arrays[name] = arrays[name].astype(integer)
    if probe.get("int_mix"):
        numeric = [name for name in names if arrays[name].dtype.kind in "fiu"]
        for index, name in enumerate(numeric):
            width = "int32" if index == 0 else "int64"
            source = arrays[name]
            rounded = np.round(source * 4) if source.dtype.kind == "f" else source
            arrays[name] = rounded.astype(width)
        changed = changed or len(numeric) >= 2
    edge = probe.get("edge")
    if edge is not None:
        changed = _edge(arrays, names, str(edge), np) or changed
    if probe.get("broadcast"):
        changed = _broadcast(arrays, names) or changed
    shape = probe.get("shape")
    if shape is not None:
        changed = _shape(arrays, names, str(shape), np) or changed
    return made_as, changed
