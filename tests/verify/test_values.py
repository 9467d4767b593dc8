"""Results encoded by each side's worker and compared in the parent (real torch and paddle)."""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
import pytest

from apimap.verify.sides import Side
from apimap.verify.values import Tolerance, TooLarge, comparable, compare, encode

EXACT = Tolerance()


def _both(torch_side: Side, paddle_side: Side, left: Any, right: Any) -> tuple[Any, Any]:
    return encode(left, torch_side), encode(right, paddle_side)


def test_tensors_become_arrays_with_dtype_and_gradient_flag(
    torch_side: Side, paddle_side: Side
) -> None:
    torch = torch_side.lib
    value = encode(torch.ones(2, 3, requires_grad=True), torch_side)
    assert (value["t"], value["dtype"], value["shape"], value["grad"]) == (
        "tensor",
        "float32",
        [2, 3],
        True,
    )
    weight = encode(paddle_side.lib.nn.Linear(2, 2).weight, paddle_side)
    assert weight["grad"] is True
    assert encode(paddle_side.lib.nn.Linear(2, 2), paddle_side)["t"] == "opaque"


def test_equal_tensors(torch_side: Side, paddle_side: Side) -> None:
    data = np.arange(6, dtype="float32").reshape(2, 3)
    left, right = _both(
        torch_side, paddle_side, torch_side.lib.from_numpy(data), paddle_side.lib.to_tensor(data)
    )
    assert compare("y", left, right, EXACT) == []


def test_dtype_mismatch_shows_both_sides(torch_side: Side, paddle_side: Side) -> None:
    data = np.ones(3, dtype="float32")
    left, right = _both(
        torch_side,
        paddle_side,
        torch_side.lib.from_numpy(data),
        paddle_side.lib.to_tensor(data.astype("float64")),
    )
    [message] = compare("y", left, right, EXACT)
    assert "dtype" in message
    assert "torch float32 [3]，paddle float64 [3]" in message


def test_gradient_flags_differ_only_where_compared(torch_side: Side, paddle_side: Side) -> None:
    weight = paddle_side.lib.nn.Linear(2, 2).weight
    left, right = _both(torch_side, paddle_side, torch_side.lib.zeros(2, 2), weight * 0)
    assert "requires grad differs" in compare("y", left, right, EXACT)[0]
    assert compare("y", left, right, Tolerance(grad=False)) == []


def test_bfloat16_travels_as_float32(torch_side: Side, paddle_side: Side) -> None:
    left = encode(torch_side.lib.ones(2, dtype=torch_side.lib.bfloat16), torch_side)
    right = encode(paddle_side.lib.ones([2], dtype="bfloat16"), paddle_side)
    assert (left["dtype"], left["storage"]) == ("bfloat16", "float32")
    assert compare("y", left, right, EXACT) == []


def test_half_precision_has_its_own_tolerance(torch_side: Side, paddle_side: Side) -> None:
    left = encode(torch_side.lib.tensor([1.0], dtype=torch_side.lib.float16), torch_side)
    right = encode(paddle_side.lib.to_tensor([1.004], dtype="float16"), paddle_side)
    assert compare("y", left, right, EXACT) == []


def test_tolerance(torch_side: Side, paddle_side: Side) -> None:
    left, right = _both(
        torch_side,
        paddle_side,
        torch_side.lib.tensor([1.0, 2.0, 3.0]),
        paddle_side.lib.to_tensor([1.0, 2.0 + 1e-4, 3.5]),
    )
    [message] = compare("y", left, right, Tolerance(rtol=0.0, atol=1e-3))
    assert "1/3" in message
    assert "[2]: torch 3 / paddle 3.5" in message
    assert compare("y", left, right, Tolerance(rtol=0.0, atol=1.0)) == []


def test_integer_values_are_exact(torch_side: Side, paddle_side: Side) -> None:
    left, right = _both(
        torch_side, paddle_side, torch_side.lib.tensor([1, 2]), paddle_side.lib.to_tensor([1, 3])
    )
    [message] = compare("i", left, right, EXACT)
    assert "exact" in message
    assert "[1]: torch 2 / paddle 3" in message


def test_nan_equals_nan(torch_side: Side, paddle_side: Side) -> None:
    nan = float("nan")
    left, right = _both(
        torch_side, paddle_side, torch_side.lib.tensor([nan]), paddle_side.lib.to_tensor([nan])
    )
    assert compare("y", left, right, EXACT) == []
    assert compare("y", encode(nan, torch_side), encode(nan, paddle_side), EXACT) == []


def test_containers(torch_side: Side, paddle_side: Side) -> None:
    def same(left: Any, right: Any) -> list[str]:
        return compare("t", encode(left, torch_side), encode(right, paddle_side), EXACT)

    assert same([1, (2, "a")], [1, (2, "a")]) == []
    assert same([1, 2], [1, 2, 3]) == ["`t`：长度不同 (length differs)：torch 2，paddle 3"]
    assert same([1, 2], (1, 2)) == ["`t`：类型不同 (types differ)：torch list(2)，paddle tuple(2)"]
    assert "键不同" in same({"a": 1}, {"b": 1})[0]
    [message] = compare(
        "d",
        encode({"a": [torch_side.lib.ones(1)]}, torch_side),
        encode({"a": [paddle_side.lib.zeros([1])]}, paddle_side),
        EXACT,
    )
    assert message.startswith("`d['a'][0]`")


def test_scalars_by_type_and_value(torch_side: Side) -> None:
    def same(left: Any, right: Any) -> list[str]:
        return compare("n", encode(left, torch_side), encode(right, torch_side), EXACT)

    assert same(1, 1.0) == ["`n`：类型不同 (types differ)：torch int，paddle float"]
    assert same(True, 1) != []
    assert same(0.1 + 0.2, 0.3) == []
    assert same("mean", "sum") != []
    assert same(10**30, 10**30) == []


def test_shapes_and_dtypes_compare_by_value(torch_side: Side, paddle_side: Side) -> None:
    torch, paddle = torch_side.lib, paddle_side.lib
    left, right = _both(
        torch_side, paddle_side, torch.zeros(2, 3).shape, paddle.zeros([2, 3]).shape
    )
    assert left["t"] == right["t"] == "shape"
    assert compare("s", left, right, EXACT) == []
    left, right = _both(torch_side, paddle_side, torch.float32, paddle.float32)
    assert (left, right) == ({"t": "dtype", "v": "float32"}, {"t": "dtype", "v": "float32"})


def test_values_off_keeps_structure(torch_side: Side, paddle_side: Side) -> None:
    shape_only = Tolerance(values=False)
    left, right = _both(torch_side, paddle_side, torch_side.lib.rand(2), paddle_side.lib.rand([2]))
    assert compare("y", left, right, shape_only) == []
    left, right = _both(torch_side, paddle_side, torch_side.lib.rand(2), paddle_side.lib.rand([3]))
    assert compare("y", left, right, shape_only) != []


def test_layers_are_not_comparable(torch_side: Side) -> None:
    assert not comparable(encode(torch_side.lib.nn.Linear(2, 2), torch_side))
    assert not comparable(encode([torch_side.lib.nn.Linear(2, 2)], torch_side))
    assert comparable(encode({"w": torch_side.lib.zeros(1), "n": [1, None, "x"]}, torch_side))


def test_huge_results_are_refused(torch_side: Side) -> None:
    with pytest.raises(TooLarge):
        encode(torch_side.lib.zeros(1001, 1000), torch_side)


def test_a_zero_dim_tensor_keeps_its_shape(torch_side: Side, paddle_side: Side) -> None:
    assert encode(torch_side.lib.tensor(3.0), torch_side)["shape"] == []
    assert encode(paddle_side.lib.to_tensor(3.0), paddle_side)["shape"] == []


def test_a_square_linear_weight_is_transposed_too(torch_side: Side, paddle_side: Side) -> None:
    torch_layer = torch_side.lib.nn.Linear(3, 3)
    paddle_layer = paddle_side.lib.nn.Linear(3, 3)
    arrays = {k: v.detach().numpy() for k, v in torch_layer.state_dict().items()}
    assert paddle_side.load_state(paddle_layer, arrays, set(arrays)) == []
    x = np.random.rand(2, 3).astype("float32")
    expected = torch_layer(torch_side.lib.tensor(x)).detach().numpy()
    assert np.allclose(paddle_layer(paddle_side.lib.to_tensor(x)).numpy(), expected, atol=1e-6)


def test_sparse_results_compare_by_values_and_layout(torch_side: Side, paddle_side: Side) -> None:
    data = np.array([[0.0, 1.0], [2.0, 0.0]], dtype="float32")
    torch_dense, paddle_dense = torch_side.lib.from_numpy(data), paddle_side.lib.to_tensor(data)
    left, right = _both(
        torch_side, paddle_side, torch_dense.to_sparse(), paddle_dense.to_sparse_coo(2)
    )
    assert (left["layout"], right["layout"]) == ("sparse_coo", "sparse_coo")
    assert compare("y", left, right, EXACT) == []
    left, right = _both(torch_side, paddle_side, torch_dense.to_sparse_csr(), paddle_dense)
    [message] = compare("y", left, right, EXACT)
    assert "layout differs" in message
    assert "torch float32 [2, 2] sparse_csr，paddle float32 [2, 2]" in message


def _report(kind: str, entries: list[list[object]]) -> dict[str, object]:
    return {"t": kind, "v": entries}


def test_states_compare_names_shapes_and_training() -> None:
    torch = _report(
        "state",
        [
            ["1", "bias", [3], True],
            ["1", "num_batches_tracked", [], False],
            ["1", "weight", [3, 2], True],
        ],
    )
    same = _report("state", [["1", "bias", [3], True], ["1", "weight", [3, 2], True]])
    [message] = compare("state_dict", torch, same, Tolerance())
    assert message == "`state_dict`：3 项与 2 项；仅 PyTorch 有 (torch only)：num_batches_tracked"
    other = _report(
        "state",
        [["1", "bias", [3], False], ["1", "weight", [2, 3], True], ["1", "bias_hh", [3], True]],
    )
    [message] = compare("state_dict", _report("state", torch["v"][::2]), other, Tolerance())  # type: ignore[index]
    assert "仅 Paddle 有 (paddle only)：bias_hh" in message
    assert "形状不同 (shape differs)：weight（如 torch [3, 2]，paddle [2, 3]）" in message
    assert "是否训练不同 (trainable differs)：bias" in message
    assert compare("state_dict", same, same, Tolerance()) == []


def test_initial_weights_compare_by_what_sampling_allows() -> None:
    uniform = ["1", "weight", 64.0, 0.01, 0.136]
    assert (
        compare(
            "init",
            _report("init", [uniform]),
            _report("init", [["1", "weight", 64.0, -0.02, 0.15]]),
            Tolerance(),
        )
        == []
    )
    [spread] = compare(
        "init",
        _report("init", [uniform]),
        _report("init", [["1", "weight", 64.0, 0.0, 0.33]]),
        Tolerance(),
    )
    assert "weight：标准差不同：torch 0.136，paddle 0.33" in spread
    [zeros] = compare(
        "init",
        _report("init", [["1", "bias", 4.0, 0.05, 0.12]]),
        _report("init", [["1", "bias", 4.0, 0.0, 0.0]]),
        Tolerance(),
    )
    assert "bias：paddle 为常数 0，torch 为随机值" in zeros
    # a handful of random values says nothing about their spread
    assert (
        compare(
            "init",
            _report("init", [["1", "b", 4.0, 0.0, 0.1]]),
            _report("init", [["1", "b", 4.0, 0.0, 0.3]]),
            Tolerance(),
        )
        == []
    )


def test_edge_probes_count_every_broken_value_as_one() -> None:
    nan, inf = _tensor([float("nan"), 1.0]), _tensor([float("inf"), 1.0])
    assert compare("y", nan, inf, Tolerance()) != []
    assert compare("y", nan, inf, Tolerance(broken_equal=True)) == []
    assert compare("y", _tensor([5.0, 1.0]), inf, Tolerance(broken_equal=True)) != []


def test_scaled_probes_compare_to_the_result_s_size_or_a_declared_atol() -> None:
    tiny, zero = _tensor([1.4e-30, 0.0]), _tensor([0.0, 0.0])
    # the default atol would hide a tiny result: scaled probes measure against its size
    assert compare("y", tiny, zero, Tolerance(rtol=1e-3, scaled=True)) != []
    assert (
        compare("y", _tensor([3.0, 1e-9]), _tensor([3.0, 0.0]), Tolerance(rtol=1e-3, scaled=True))
        == []
    )
    # statistics of random fills declare a looser atol, which holds under the probe too
    mean, other = _tensor([0.997]), _tensor([1.002])
    assert compare("m", mean, other, Tolerance(rtol=1e-3, scaled=True)) != []
    assert compare("m", mean, other, Tolerance(rtol=1e-3, atol=0.02, scaled=True)) == []
    # complex results are measured by their magnitude
    assert (
        compare(
            "z",
            _complex([1e20j, 1.0]),
            _complex([1e20j, 1.0 + 1e10]),
            Tolerance(rtol=1e-3, scaled=True),
        )
        == []
    )


def _tensor(values: list[float]) -> dict[str, Any]:
    data = np.asarray(values, dtype="float32")
    return {
        "t": "tensor",
        "dtype": "float32",
        "shape": list(data.shape),
        "grad": False,
        "storage": "float32",
        "data": base64.b64encode(data.tobytes()).decode("ascii"),
    }


def _complex(values: list[complex]) -> dict[str, Any]:
    data = np.asarray(values, dtype="complex64")
    return {
        "t": "tensor",
        "dtype": "complex64",
        "shape": list(data.shape),
        "grad": False,
        "storage": "complex64",
        "data": base64.b64encode(data.tobytes()).decode("ascii"),
    }
