"""Runs in a process group: ranks forked from a worker, with a launcher's environment."""

from __future__ import annotations

from pathlib import Path

from apimap.verify import ranked, runtime
from apimap.verify.sides import Side


def _spec(code: str, setup: str, seconds: float = 20.0) -> dict[str, object]:
    return {
        "code": code,
        "setup": setup,
        "inputs": {"x": "np.array([rank + 1.0, 10.0], dtype='float32')"},
        "outputs": ["x"],
        "ranks": 2,
        "seconds": seconds,
    }


def test_each_rank_runs_in_the_group_and_the_results_come_rank_by_rank(
    torch_side: Side, paddle_side: Side
) -> None:
    for side, setup, code in (
        (
            torch_side,
            "torch.distributed.init_process_group('gloo')",
            "torch.distributed.all_reduce(x)",
        ),
        (paddle_side, "paddle.distributed.init_parallel_env()", "paddle.distributed.all_reduce(x)"),
    ):
        outcome = ranked.run(_spec(code, setup), side, runtime.WeightStore())
        assert outcome["ok"], outcome
        ranks = outcome["values"]["x"]["v"]
        assert len(ranks) == 2
        assert all(value["shape"] == [2] for value in ranks)  # [1+2, 10+10] on both


def test_a_rank_that_raises_is_the_runs_failure(torch_side: Side) -> None:
    spec = _spec(
        "if rank_id:\n    raise ValueError('only on rank 1')",
        "rank_id = int(__import__('os').environ['RANK'])",
    )
    outcome = ranked.run(spec, torch_side, runtime.WeightStore())
    assert not outcome["ok"] and "only on rank 1" in outcome["error"]


def test_a_group_that_never_forms_is_stopped(torch_side: Side) -> None:
    # rank 1 never joins: rank 0 waits for it until the run's deadline, then both are stopped
    setup = (
        "import os\nif os.environ['RANK'] == '0':\n    torch.distributed.init_process_group('gloo')"
    )
    outcome = ranked.run(_spec("y = 1", setup, seconds=2.0), torch_side, runtime.WeightStore())
    assert not outcome["ok"] and outcome["stage"] in {"timeout", "setup"}


def test_the_launcher_sets_what_torchrun_and_paddles_launcher_set() -> None:
    torch_env = ranked.launcher_environment("torch", 1, 2, [7000, 7001, 7002])
    assert torch_env["RANK"] == "1" and torch_env["WORLD_SIZE"] == "2"
    assert torch_env["MASTER_PORT"] == "7000"
    paddle_env = ranked.launcher_environment("paddle", 1, 2, [7000, 7001, 7002])
    assert paddle_env["PADDLE_TRAINER_ENDPOINTS"] == "127.0.0.1:7001,127.0.0.1:7002"
    assert paddle_env["PADDLE_CURRENT_ENDPOINT"] == "127.0.0.1:7002"
    assert paddle_env["PADDLE_DISTRI_BACKEND"] == "gloo"
    # and what its rpc mode sets: paddle.distributed.rpc.init_rpc reads these
    assert paddle_env["PADDLE_MASTER_ENDPOINT"] == "127.0.0.1:7000"
    assert paddle_env["PADDLE_WORKER_ENDPOINT"] == "127.0.0.1:7002"


def test_a_group_that_could_not_connect_is_formed_again(torch_side: Side, tmp_path: Path) -> None:
    tried = tmp_path / "tried"
    code = (
        f"if rank_id == 0 and not os.path.exists({str(tried)!r}):\n"
        f"    open({str(tried)!r}, 'w').close()\n"
        "    raise ConnectionResetError('Connection reset by peer')"
    )
    setup = "import os\nrank_id = int(os.environ['RANK'])"
    outcome = ranked.run(_spec(code, setup), torch_side, runtime.WeightStore())
    assert tried.exists() and outcome["ok"], outcome  # failed to connect once, then ran


def test_a_rank_whose_code_fails_is_not_run_again(torch_side: Side, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    code = f"open({str(runs)!r}, 'a').write('x')\nraise ValueError('wrong')"
    outcome = ranked.run(_spec(code, "y = 0"), torch_side, runtime.WeightStore())
    assert not outcome["ok"] and "wrong" in outcome["error"]
    assert runs.read_text() == "xx"  # each of the two ranks ran it once


def test_ranks_share_the_libraries_seeds_but_not_pythons_random(torch_side: Side) -> None:
    # each rank draws its own Python random numbers (libraries pick ports with them), while
    # torch's generator starts alike in every rank, as the inputs do
    spec = {
        "code": "import random\nr = random.random()\nt = torch.rand(1)",
        "setup": "torch.distributed.init_process_group('gloo')",
        "inputs": {},
        "outputs": ["r", "t"],
        "ranks": 2,
        "seconds": 20.0,
    }
    outcome = ranked.run(spec, torch_side, runtime.WeightStore())
    assert outcome["ok"], outcome
    python = [value["v"] for value in outcome["values"]["r"]["v"]]
    torch = [value["data"] for value in outcome["values"]["t"]["v"]]
    assert python[0] != python[1]
    assert torch[0] == torch[1]
