"""The input transforms of the probes: what each does to the arrays, and when it does nothing."""

from __future__ import annotations

import math

import numpy as np
import pytest

from apimap.verify.transforms import apply


def arrays(**values: object) -> dict[str, object]:
    return dict(values)


def test_integer_dtype_casts_integer_inputs_only() -> None:
    found = arrays(a=np.array([3, 4], dtype="int64"), x=np.array([0.5], dtype="float32"))
    _made, changed = apply(found, {"int_dtype": "int16"}, np)
    assert changed
    assert found["a"].dtype == np.int16 and found["x"].dtype == np.float32  # type: ignore[attr-defined]


@pytest.mark.parametrize("dtype", ["int8", "int16", "uint8", "bool", "float16"])
def test_a_zero_dim_input_cast_stays_an_array(dtype: str) -> None:
    found = arrays(v=np.array(-1.0, dtype="float32"))
    apply(found, {"dtype": dtype}, np)
    value = found["v"]
    assert isinstance(value, np.ndarray) and value.shape == () and value.dtype == np.dtype(dtype)


def test_a_probe_that_changes_nothing_says_so() -> None:
    floats = arrays(x=np.array([0.5, 1.5], dtype="float32"))
    assert apply(floats, {"int_dtype": "int8"}, np)[1] is False
    same_width = arrays(a=np.array([1, 2], dtype="int64"))
    assert apply(same_width, {"int_dtype": "int64"}, np)[1] is False
    single = arrays(x=np.array([1.0, 2.0], dtype="float32"))
    assert apply(single, {"broadcast": True}, np)[1] is False
    booleans = arrays(m=np.array([True, False]))
    assert apply(booleans, {"edge": "large"}, np)[1] is False
    # zeros scaled to large or small values stay zeros: the probe would repeat the call
    zeros = arrays(w=np.zeros((3, 2), dtype="float32"))
    assert apply(zeros, {"edge": "large"}, np)[1] is False
    assert apply(zeros, {"edge": "small"}, np)[1] is False
    integer_zeros = arrays(w=np.zeros((3, 2), dtype="float32"), i=np.zeros(2, dtype="int64"))
    assert apply(integer_zeros, {"edge": "zeros"}, np)[1] is False


@pytest.mark.parametrize(
    ("edge", "check"),
    [
        ("nan", lambda a: np.isnan(a[0]) and not np.isnan(a[1:]).any()),
        ("inf", lambda a: a[0] == np.inf and a[-1] == -np.inf),
        ("negzero", lambda a: a[0] == 0 and np.signbit(a[0])),
        ("zeros", lambda a: not a.any()),
        ("negative", lambda a: (a < 0).all()),
    ],
)
def test_edge_values_of_floating_inputs(edge: str, check: object) -> None:
    found = arrays(x=np.array([1.5, -2.0, 0.25], dtype="float32"))
    assert apply(found, {"edge": edge}, np)[1]
    assert check(found["x"])  # type: ignore[operator]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_large_and_small_values_overflow_and_underflow_their_squares(dtype: str) -> None:
    info = np.finfo(dtype)
    large = arrays(x=np.array([1.5, -2.0, 0.25], dtype=dtype))
    apply(large, {"edge": "large"}, np)
    values = large["x"]
    assert np.isfinite(values).all() and np.isfinite(values * 2).all()  # type: ignore[operator]
    with np.errstate(over="ignore"):
        assert np.isinf(values * values).all()  # type: ignore[operator]
    small = arrays(x=np.array([1.5, -2.0, 0.25], dtype=dtype))
    apply(small, {"edge": "small"}, np)
    tiny = small["x"]
    assert (tiny != 0).all()  # type: ignore[union-attr]
    with np.errstate(under="ignore"):
        assert (np.abs(tiny * tiny) < info.tiny).all()  # type: ignore[operator]


@pytest.mark.parametrize("dtype", ["int16", "int32", "int64"])
def test_large_integers_overflow_products_but_not_least_common_multiples(dtype: str) -> None:
    found = arrays(a=np.array([4, 6, 15], dtype=dtype), b=np.array([6, 10, 25], dtype=dtype))
    apply(found, {"edge": "large"}, np)
    a, b = (found[name].astype(object) for name in ("a", "b"))  # type: ignore[union-attr]
    top = int(np.iinfo(dtype).max)
    assert all(int(x) * int(y) > top for x, y in zip(a, b, strict=True))
    lcm = [math.lcm(int(x), int(y)) for x, y in zip(a, b, strict=True)]
    assert max(lcm) <= top


def test_a_mask_loses_every_true_value() -> None:
    found = arrays(m=np.array([[True, False], [True, True]]))
    assert apply(found, {"edge": "mask"}, np)[1]
    assert not found["m"].any()  # type: ignore[union-attr]


def test_broadcast_keeps_one_row_of_operands_shaped_like_the_first() -> None:
    found = arrays(
        x=np.zeros((3, 4), dtype="float32"),
        t=np.ones((3, 4), dtype="float32"),
        w=np.ones(4, dtype="float32"),
    )
    assert apply(found, {"broadcast": True}, np)[1]
    assert found["t"].shape == (1, 4) and found["w"].shape == (4,)  # type: ignore[union-attr]
