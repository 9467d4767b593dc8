"""Comparing the results of the two snippets (real torch and paddle objects)."""

from __future__ import annotations

import numpy as np

from apimap.verify.libraries import Libraries
from apimap.verify.values import Tolerance, comparable, compare, is_tensor

EXACT = Tolerance()


def test_tensors_are_told_apart_by_module(libs: Libraries) -> None:
    assert is_tensor(libs.torch.zeros(2))
    assert is_tensor(libs.paddle.zeros([2]))
    assert is_tensor(libs.paddle.nn.Linear(2, 2).weight)
    assert not is_tensor(libs.paddle.nn.Linear(2, 2))
    assert not is_tensor(libs.torch.Size([2]))


def test_equal_tensors(libs: Libraries) -> None:
    data = np.arange(6, dtype="float32").reshape(2, 3)
    assert compare("y", libs.torch.from_numpy(data), libs.paddle.to_tensor(data), EXACT) == []


def test_dtype_mismatch_shows_both_sides(libs: Libraries) -> None:
    data = np.ones(3, dtype="float32")
    [message] = compare(
        "y", libs.torch.from_numpy(data), libs.paddle.to_tensor(data.astype("float64")), EXACT
    )
    assert "dtype" in message
    assert "torch float32 [3]，paddle float64 [3]" in message


def test_shape_mismatch(libs: Libraries) -> None:
    [message] = compare("y", libs.torch.zeros(2, 3), libs.paddle.zeros([3, 2]), EXACT)
    assert "形状不同" in message
    assert "torch float32 [2, 3]，paddle float32 [3, 2]" in message


def test_tolerance(libs: Libraries) -> None:
    left = libs.torch.tensor([1.0, 2.0, 3.0])
    right = libs.paddle.to_tensor([1.0, 2.0 + 1e-4, 3.5])
    [message] = compare("y", left, right, Tolerance(rtol=0.0, atol=1e-3))
    assert "1/3" in message
    assert "[2]: torch 3 / paddle 3.5" in message
    assert compare("y", left, right, Tolerance(rtol=0.0, atol=1.0)) == []


def test_integer_values_are_exact(libs: Libraries) -> None:
    [message] = compare("i", libs.torch.tensor([1, 2]), libs.paddle.to_tensor([1, 3]), EXACT)
    assert "exact" in message
    assert "[1]: torch 2 / paddle 3" in message


def test_nan_equals_nan(libs: Libraries) -> None:
    nan = float("nan")
    assert compare("y", libs.torch.tensor([nan]), libs.paddle.to_tensor([nan]), EXACT) == []
    assert compare("y", nan, nan, EXACT) == []


def test_containers(libs: Libraries) -> None:
    assert compare("t", [1, (2, "a")], [1, (2, "a")], EXACT) == []
    assert compare("t", [1, 2], [1, 2, 3], EXACT) == [
        "`t`：长度不同 (length differs)：torch 2，paddle 3"
    ]
    assert compare("t", [1, 2], (1, 2), EXACT) == [
        "`t`：类型不同 (types differ)：torch list，paddle tuple"
    ]
    assert "键不同" in compare("d", {"a": 1}, {"b": 1}, EXACT)[0]
    [message] = compare("d", {"a": [libs.torch.ones(1)]}, {"a": [libs.paddle.zeros([1])]}, EXACT)
    assert message.startswith("`d['a'][0]`")


def test_scalars_by_type_and_value() -> None:
    assert compare("n", 1, 1.0, EXACT) == ["`n`：类型不同 (types differ)：torch int，paddle float"]
    assert compare("b", True, 1, EXACT) != []
    assert compare("f", 0.1 + 0.2, 0.3, EXACT) == []
    assert compare("s", "mean", "sum", EXACT) != []


def test_shapes_compare_as_tuples(libs: Libraries) -> None:
    torch_shape = libs.torch.zeros(2, 3).shape
    assert compare("s", torch_shape, libs.paddle.zeros([2, 3]).shape, EXACT) == []
    assert compare("s", torch_shape, libs.paddle.zeros([3]).shape, EXACT) != []


def test_opt_out_keeps_structure_but_not_values(libs: Libraries) -> None:
    opt_out = Tolerance(values=False)
    assert compare("y", libs.torch.rand(2), libs.paddle.rand([2]), opt_out) == []
    assert compare("y", 1.0, 2.0, opt_out) == []
    assert compare("y", libs.torch.rand(2), libs.paddle.rand([3]), opt_out) != []
    assert compare("y", [1.0], [1.0, 2.0], opt_out) != []


def test_layers_are_not_comparable(libs: Libraries) -> None:
    assert not comparable(libs.torch.nn.Linear(2, 2))
    assert not comparable([libs.paddle.nn.Linear(2, 2)])
    assert comparable({"w": libs.torch.zeros(1), "n": [1, None, "x"]})
