"""Which public API a dotted torch path names: aten operators are the functions they call."""

from __future__ import annotations

import pytest

from apimap.files.surface import Surface
from apimap.survey.scan.public import aten_operator, public_api


@pytest.mark.parametrize(
    ("path", "api"),
    [
        ("torch.ops.aten.mm.default", "torch.mm"),
        ("torch.ops.aten.mm", "torch.mm"),
        ("torch.ops.aten.linalg_vector_norm.default", "torch.linalg.vector_norm"),
        ("torch.ops.aten.special_erfcx.default", "torch.special.erfcx"),
        ("torch.ops.aten.fft_fft.default", "torch.fft.fft"),
        ("torch.ops.aten.gelu.default", "torch.nn.functional.gelu"),
        ("torch.ops.aten.add_.Tensor", "torch.Tensor.add_"),
    ],
)
def test_an_aten_operator_is_the_public_function_it_calls(
    surface: Surface, path: str, api: str
) -> None:
    assert aten_operator(surface, path) == api
    assert public_api(surface, path) == api


@pytest.mark.parametrize(
    "path",
    [
        "torch.mm",
        "torch.ops.aten.",
        "torch.ops.aten.__.default",
        "torch.ops.aten.no_such_op.default",
    ],
)
def test_other_paths_are_no_aten_operator(surface: Surface, path: str) -> None:
    assert aten_operator(surface, path) is None


def test_an_unknown_aten_operator_stays_a_name_outside_the_surface(surface: Surface) -> None:
    path = "torch.ops.aten.no_such_op.default"
    assert public_api(surface, path) == path
