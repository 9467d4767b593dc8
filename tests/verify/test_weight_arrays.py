"""How a job's weight arrays are kept and converted (NumPy only, no torch or paddle)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from apimap.verify import sides, values
from apimap.verify.runtime import WeightStore
from apimap.verify.sides import _mean_std, c_order


@pytest.mark.parametrize("shape", [(1, 1), (3, 200), (130, 70), (64, 128)])
def test_c_order_transposes_in_blocks_exactly(shape: tuple[int, int]) -> None:
    array = np.arange(shape[0] * shape[1], dtype="float64").reshape(shape)
    made = c_order(array, "float32", True, np)
    assert made.flags.c_contiguous and made.dtype == np.float32
    assert np.array_equal(made, array.T.astype("float32"))


def test_c_order_copies_only_what_is_not_in_c_order_already() -> None:
    array = np.ones((4, 5), dtype="float32")
    assert c_order(array, "float32", False, np) is array
    fortran = np.asfortranarray(array)
    assert c_order(fortran, "float32", False, np).flags.c_contiguous


def test_mean_and_deviation_by_chunks_agree_with_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sides, "_CHUNK", 1000)  # many chunks, the last one short
    array = (np.random.default_rng(0).standard_normal(10_501) * 0.02 + 0.3).astype("float32")
    wide = array.astype("float64")
    mean, std = _mean_std(array, np)
    assert mean == pytest.approx(float(wide.mean()), rel=1e-12)
    assert std == pytest.approx(float(wide.std()), rel=1e-12)


def test_a_store_keeps_recorded_weights_raw_and_each_once() -> None:
    store = WeightStore({"w0": "AAAA"})  # a label the job brought
    data = np.arange(6, dtype="float32").tobytes()
    item = {"t": "tensor", "dtype": "float32", "shape": [2, 3], "storage": "float32"}
    first = store.put({**item, "data": data})
    again = store.put({**item, "data": bytes(data)})
    assert first["blob"] == again["blob"] == "w1"
    assert store.made == {"w1": data}
    assert np.array_equal(store.array(first), np.arange(6, dtype="float32").reshape(2, 3))


def test_a_store_converts_an_array_once_per_job() -> None:
    store = WeightStore()
    item = {"t": "tensor", "dtype": "float32", "shape": [3, 2], "storage": "float32"}
    recorded = store.put({**item, "data": np.ones((3, 2), dtype="float32").tobytes()})
    array = store.array(recorded)
    made = store.converted(array, "float32", True)
    assert made.shape == (2, 3)
    assert store.converted(array, "float32", True) is made
    assert store.converted(array, "float32", False) is array
    other = np.ones((3, 2), dtype="float32")  # as the call's weights code makes one per run
    assert store.converted(other, "float32", True) is not store.converted(other, "float32", True)


def test_a_weights_file_is_mapped_and_changes_stay_private(tmp_path: Path) -> None:
    path = tmp_path / "w0"
    np.arange(6, dtype="float32").tofile(path)
    path.chmod(0o444)  # as the sandbox binds the weights folder: read-only
    array = values.read_array(str(path), {"storage": "float32", "shape": [2, 3]})
    array *= 2  # weights code may change what it is given
    assert array.tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    assert np.fromfile(path, dtype="float32").tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    empty = tmp_path / "w1"
    empty.write_bytes(b"")
    assert values.read_array(str(empty), {"storage": "float32", "shape": [0, 3]}).shape == (0, 3)
