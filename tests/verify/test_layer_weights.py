"""Layer weights copied from the torch run into the paddle run (real torch and paddle)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from apimap.verify import values
from apimap.verify.runtime import LAYER_HOOK, BuildCache, WeightStore, _Layers, run
from apimap.verify.sides import Side
from apimap.verify.worker import handle

INPUTS = {"x": "np.random.rand(2, 3, 8).astype('float32')"}
TORCH = (
    f"m = {LAYER_HOOK}(torch.nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=True), 0)\n"
    "y = m(x)"
)
PADDLE = f"m = {LAYER_HOOK}(paddle.nn.TransformerEncoderLayer(8, 2, 16, 0.0), 0)\ny = m(x)"
SPLIT_IN_PROJ = """\
for name in [n for n in state if '.in_proj_' in n]:
    base, kind = name.rsplit('.in_proj_', 1)
    for part, value in zip('qkv', np.split(state.pop(name), 3)):
        state[f'{base}.{part}_proj.{kind}'] = value
"""


STORE = WeightStore()
"""One store for the torch and the paddle run, as a job's weights travel in the pipes."""


def _torch_run(side: Side, code: str = TORCH) -> dict[str, Any]:
    found = run({"code": code, "inputs": INPUTS, "outputs": ["y"]}, side, STORE)
    assert found["ok"], found
    return found


def test_differently_named_weights_are_refused_by_name(torch_side: Side, paddle_side: Side) -> None:
    torch_run = _torch_run(torch_side)
    paddle_run = run(
        {"code": PADDLE, "inputs": INPUTS, "outputs": ["y"], "weights": torch_run["weights"]},
        paddle_side,
        STORE,
    )
    assert not paddle_run["ok"]
    assert "cannot copy the weights" in paddle_run["error"]
    assert "`self_attn.q_proj.weight`" in paddle_run["error"]


def test_the_calls_weights_code_renames_and_splits_them(
    torch_side: Side, paddle_side: Side
) -> None:
    torch_run = _torch_run(torch_side)
    spec = {
        "code": PADDLE,
        "inputs": INPUTS,
        "outputs": ["y"],
        "weights": torch_run["weights"],
        "rename_weights": SPLIT_IN_PROJ,
    }
    paddle_run = run(spec, paddle_side, STORE)
    assert paddle_run["ok"], paddle_run
    tolerance = values.Tolerance(1e-5, 1e-5)
    assert values.compare("y", torch_run["values"]["y"], paddle_run["values"]["y"], tolerance) == []


def test_weights_code_that_fails_is_reported(torch_side: Side, paddle_side: Side) -> None:
    torch_run = _torch_run(torch_side)
    spec = {
        "code": PADDLE,
        "inputs": INPUTS,
        "outputs": ["y"],
        "weights": torch_run["weights"],
        "rename_weights": "state[1] = state.pop('norm1.weight')",
    }
    paddle_run = run(spec, paddle_side, STORE)
    assert not paddle_run["ok"]
    assert "state keys must be names" in paddle_run["error"]


def test_weights_above_a_result_size_are_copied(torch_side: Side, paddle_side: Side) -> None:
    code = f"m = {LAYER_HOOK}(torch.nn.Linear(1100, 1000), 0)\ny = m(x).sum()"
    inputs = {"x": "np.random.rand(2, 1100).astype('float32')"}
    torch_run = run({"code": code, "inputs": inputs, "outputs": ["y"]}, torch_side, STORE)
    assert torch_run["ok"], torch_run.get("error")
    paddle_code = f"m = {LAYER_HOOK}(paddle.nn.Linear(1100, 1000), 0)\ny = m(x).sum()"
    spec = {"code": paddle_code, "inputs": inputs, "outputs": ["y"]}
    paddle_run = run({**spec, "weights": torch_run["weights"]}, paddle_side, STORE)
    tolerance = values.Tolerance(1e-4, 1e-3)
    assert values.compare("y", torch_run["values"]["y"], paddle_run["values"]["y"], tolerance) == []


def test_weights_above_the_copy_limit_are_refused(
    torch_side: Side, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(values, "MAX_WEIGHT_ELEMENTS", 100)
    code = f"m = {LAYER_HOOK}(torch.nn.Linear(10, 10), 0)"
    found = run({"code": code, "inputs": {}, "outputs": []}, torch_side, WeightStore())
    assert not found["ok"]
    assert "110" in found["error"] and "weights too large to copy across" in found["error"]


def test_a_jobs_runs_carry_each_weight_array_once(torch_side: Side, paddle_side: Side) -> None:
    """The probes of a call build the same layer again: the job's result holds its two
    arrays once, and every paddle run of the job copies them in."""
    code = f"m = {LAYER_HOOK}(torch.nn.Linear(4, 3), 0)\ny = m(x)"
    inputs = {"x": "np.random.rand(2, 4).astype('float32')"}
    runs = [{"code": code, "inputs": inputs, "outputs": ["y"]}] * 3
    torch_job = handle({"id": 1, "kind": "runs", "payload": {"runs": runs}}, torch_side)
    assert len(torch_job["blobs"]) == 2
    recorded = [outcome["weights"] for outcome in torch_job["runs"]]
    assert recorded[0] == recorded[1] == recorded[2]
    paddle_code = f"m = {LAYER_HOOK}(paddle.nn.Linear(4, 3), 0)\ny = m(x)"
    paddle_runs = [
        {"code": paddle_code, "inputs": inputs, "outputs": ["y"], "weights": weights}
        for weights in recorded
    ]
    blobs = {  # as the verifying process hands them on without a weights folder
        label: base64.b64encode(data).decode("ascii") for label, data in torch_job["blobs"].items()
    }
    paddle_job = handle(
        {"id": 2, "kind": "runs", "payload": {"runs": paddle_runs, "blobs": blobs}}, paddle_side
    )
    assert "blobs" not in paddle_job
    tolerance = values.Tolerance(1e-5, 1e-5)
    torch_y = torch_job["runs"][0]["values"]["y"]
    for outcome in paddle_job["runs"]:
        assert outcome["ok"], outcome
        assert values.compare("y", torch_y, outcome["values"]["y"], tolerance) == []


def test_weights_a_job_did_not_bring_are_reported(torch_side: Side, paddle_side: Side) -> None:
    torch_run = run(
        {"code": f"m = {LAYER_HOOK}(torch.nn.Linear(4, 3), 0)", "inputs": {}, "outputs": []},
        torch_side,
        WeightStore(),
    )
    paddle_run = run(
        {
            "code": f"m = {LAYER_HOOK}(paddle.nn.Linear(4, 3), 0)",
            "inputs": {},
            "outputs": [],
            "weights": torch_run["weights"],
        },
        paddle_side,
        WeightStore(),
    )
    assert not paddle_run["ok"]
    assert "weights missing from the job" in paddle_run["error"]


def test_a_class_whose_keywords_share_the_builders_names_is_built(torch_side: Side) -> None:
    """``torch.device(type='cuda', index=1)``: the class's ``index`` keyword is its own, not
    the builder's (whose parameters are positional-only)."""
    code = (
        f"d = {LAYER_HOOK}.build(0, \"torch.device(type='cuda', index=1)\", torch.device,"
        " type='cuda', index=1)\ni = d.index"
    )
    found = run({"code": code, "inputs": {}, "outputs": ["i"]}, torch_side, WeightStore())
    assert found["ok"], found
    assert found["values"]["i"] == {"t": "int", "v": "1"}


def test_paddle_draws_no_random_weights_it_will_overwrite(paddle_side: Side) -> None:
    paddle = paddle_side.lib
    with paddle_side.overwritten_weights():
        linear = paddle.nn.Linear(3, 2)
        norm = paddle.nn.BatchNorm1D(2)
        given = paddle.nn.Linear(2, 1, weight_attr=paddle.nn.initializer.Assign([[0.5], [-1.0]]))
    assert not linear.weight.numpy().any()  # a random initialiser: zeros, to be overwritten
    assert (norm.weight.numpy() == 1).all() and (norm._variance.numpy() == 1).all()
    assert given.weight.numpy().ravel().tolist() == [0.5, -1.0]  # assigned values are kept
    assert paddle.nn.Linear(3, 2).weight.numpy().any()  # outside, initialisers draw again


def test_a_construction_copied_between_runs_carries_torch_weights(
    torch_side: Side, paddle_side: Side
) -> None:
    # built through the hook's cache with zeros first, the paddle layer still holds torch's
    # weights: its outputs equal torch's in every run of the job
    torch_code = f"m = {LAYER_HOOK}.build(0, 'L', torch.nn.Linear, 3, 2)\ny = m(x)"
    paddle_code = f"m = {LAYER_HOOK}.build(0, 'L', paddle.nn.Linear, 3, 2)\ny = m(x)"
    inputs = {"x": "np.random.rand(4, 3).astype('float32')"}
    torch_run = run({"code": torch_code, "inputs": inputs, "outputs": ["y"]}, torch_side, STORE)
    spec = {
        "code": paddle_code,
        "inputs": inputs,
        "outputs": ["y"],
        "weights": torch_run["weights"],
    }
    cache = BuildCache()
    for _ in range(2):
        paddle_run = run(spec, paddle_side, STORE, cache)
        assert paddle_run["ok"], paddle_run
        torch_y = values.decode_array(torch_run["values"]["y"])
        paddle_y = values.decode_array(paddle_run["values"]["y"])
        assert abs(torch_y - paddle_y).max() < 1e-6


def test_a_layer_a_function_returns_is_made_once_per_job(torch_side: Side) -> None:
    # the probes of a call to a model factory copy the first model the job made; a result
    # that is not a layer is made again by every call
    made: list[str] = []

    def factory(kind: str) -> Any:
        made.append(kind)
        return torch_side.lib.nn.Linear(2, 2) if kind == "layer" else torch_side.lib.zeros(2)

    cache = BuildCache()
    models = []
    for _ in range(3):  # three runs of one job
        hook = _Layers(torch_side, WeightStore(), None, cache=cache)
        models.append(hook.reuse(1, "f('layer')", factory, "layer"))
        hook.reuse(2, "f('tensor')", factory, "tensor")
    assert made == ["layer", "tensor", "tensor", "tensor"]
    assert models[1] is not models[2]  # each run gets its own copy of the first model
    assert all(torch_side.lib.equal(m.weight, models[0].weight) for m in models)
