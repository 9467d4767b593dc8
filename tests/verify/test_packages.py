"""Code of a third-party API's record names the package without importing it."""

from __future__ import annotations

import sys

from apimap.record.model import Record
from apimap.verify.plan import outside_package, plan


def _record(torch_api: str, paddle_api: str | None) -> Record:
    return Record.model_validate(
        {"torch_api": torch_api, "zh_name": "测试", "paddle_api": paddle_api}
    )


def packages(record: Record) -> tuple[str | None, str | None]:
    return outside_package(record.torch_api), outside_package(record.paddle_api or "")


def test_only_packages_other_than_the_libraries_are_imported() -> None:
    assert packages(_record("einops.rearrange", "einops.rearrange")) == ("einops", "einops")
    assert packages(_record("torch.abs", "paddle.abs")) == (None, None)
    assert packages(_record("torchvision.ops.nms", "paddle.vision.ops.nms")) == (None, None)
    assert packages(_record("torch.utils.tensorboard.SummaryWriter", "visualdl.LogWriter")) == (
        None,
        "visualdl",
    )


def test_each_side_of_a_run_gets_its_package(torch_side: object, paddle_side: object) -> None:
    from apimap.verify.runtime import WeightStore, run

    record = Record.model_validate(
        {
            "torch_api": "einops.rearrange",
            "zh_name": "按模式重排维度",
            "torch_signature": "einops.rearrange(tensor, pattern, **axes_lengths)",
            "paddle_api": "einops.rearrange",
            "paddle_package": "einops",
            "paddle_signature": "einops.rearrange(tensor, pattern, **axes_lengths)",
            "category": "other_package",
            "params": [
                {"torch": "tensor", "desc": "要重排的 Tensor"},
                {"torch": "pattern", "desc": "重排的模式"},
            ],
            "calls": [
                {
                    "torch": "y = einops.rearrange(x, 'a b -> b a')",
                    "inputs": {"x": "np.arange(6, dtype='float32').reshape(2, 3)"},
                }
            ],
        }
    )
    spec = plan(record).runs[0]
    store = WeightStore()
    torch_out = run(spec.spec("torch"), torch_side, store)  # type: ignore[arg-type]
    paddle_out = run(spec.spec("paddle"), paddle_side, store)  # type: ignore[arg-type]
    assert torch_out["ok"] and paddle_out["ok"], (torch_out, paddle_out)
    assert torch_out["values"]["y"] == paddle_out["values"]["y"]


def test_the_module_of_the_api_is_imported_before_its_code_runs() -> None:
    # `torch.distributed.tensor.Replicate()` works only after `import torch.distributed.tensor`,
    # which a user's module has; the worker does the same for the record's API (not for
    # whatever an earlier record happened to import).
    from apimap.verify.runtime import import_home

    assert import_home("xml.dom.minidom.parseString") == "xml.dom.minidom"
    assert "xml.dom.minidom" in sys.modules
    assert import_home("json.JSONDecoder") == "json"
    assert import_home("no_such_package.thing") is None
