"""Each run starts from the same library state, whatever the worker's earlier runs changed."""

from __future__ import annotations

from apimap.verify.runtime import WeightStore, run
from apimap.verify.sides import Side


def test_distributions_check_their_arguments_after_a_run_switched_it_off(
    torch_side: Side,
) -> None:
    # the first torch.compile in a process switches the check off for good (dynamo's patches)
    switched = "torch.distributions.Distribution.set_default_validate_args(False)\ny = 1"
    assert run({"code": switched, "inputs": {}, "outputs": ["y"]}, torch_side, WeightStore())["ok"]
    invalid = "d = torch.distributions.Bernoulli(probs=torch.tensor([2.0]))\ny = d.mean"
    found = run({"code": invalid, "inputs": {}, "outputs": ["y"]}, torch_side, WeightStore())
    assert not found["ok"] and found["error"].startswith("ValueError"), found
