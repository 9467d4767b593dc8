"""Record paths are derived from the API name and never collide when case is ignored."""

from __future__ import annotations

from pathlib import PurePosixPath

from apimap.record.paths import decode_name, encode_name, record_path


def test_examples() -> None:
    assert record_path("torch.abs") == PurePosixPath("torch/torch.abs.yaml")
    assert record_path("torch.nn.Conv2d") == PurePosixPath("torch/nn/torch.nn.^Conv2d.yaml")
    assert record_path("torch.Tensor.T") == PurePosixPath("torch/tensor/torch.^Tensor.^T.yaml")
    assert record_path("torchvision.transforms.ToTensor") == PurePosixPath(
        "torchvision/transforms/torchvision.transforms.^To^Tensor.yaml"
    )


def test_names_differing_only_in_case_get_distinct_paths_on_case_insensitive_disks() -> None:
    names = [
        "torch.Tensor.T",
        "torch.Tensor.t",
        "torch.Tensor.mT",
        "torch.Tensor.mt",
        "torch.nn.ReLU",
        "torch.nn.Relu",
        "torch.nn.relu",
    ]
    folded = {str(record_path(name)).casefold() for name in names}
    assert len(folded) == len(names)


def test_encoding_round_trips() -> None:
    for name in ["torch.nn.BatchNorm1d", "torch.optim.lr_scheduler.StepLR", "torch.abs"]:
        assert decode_name(encode_name(name)) == name
