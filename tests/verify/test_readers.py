"""Reading real signatures: inspect, the torch stubs, docstrings, paddle aliases."""

from __future__ import annotations

import pytest

from apimap.verify.aliases import call_accepts, documented_aliases
from apimap.verify.libraries import ApiNotFound, resolve
from apimap.verify.readers import read, without_leading_defaults
from apimap.verify.sides import Side


def _texts(api: str) -> list[tuple[str, str]]:
    return [(o.source, o.text(api)) for o in read(resolve(api)).overloads]


def test_python_signature(torch_side: Side, paddle_side: Side) -> None:
    assert _texts("torch.nn.utils.rnn.pack_padded_sequence") == [
        (
            "inspect",
            "torch.nn.utils.rnn.pack_padded_sequence(input, lengths, batch_first=False, "
            "enforce_sorted=True)",
        )
    ]


def test_builtin_from_stub(torch_side: Side, paddle_side: Side) -> None:
    assert ("stub", "torch.abs(input, *, out=None)") in _texts("torch.abs")


def test_stub_overloads(torch_side: Side, paddle_side: Side) -> None:
    stubs = [text for source, text in _texts("torch.sum") if source == "stub"]
    assert "torch.sum(input, *, dtype=None)" in stubs
    assert "torch.sum(input, dim, keepdim=False, *, dtype=None, out=None)" in stubs


def test_tensor_method_from_stub_without_self(torch_side: Side, paddle_side: Side) -> None:
    stubs = [text for source, text in _texts("torch.Tensor.view") if source == "stub"]
    assert "torch.Tensor.view(*size)" in stubs
    assert "torch.Tensor.view(dtype)" in stubs


def test_docstring_only(torch_side: Side, paddle_side: Side) -> None:
    assert _texts("torch.linalg.norm") == [
        (
            "docstring",
            "torch.linalg.norm(input, ord=None, dim=None, keepdim=False, *, out=None, dtype=None)",
        )
    ]


def test_docstring_with_an_escaped_marker(torch_side: Side, paddle_side: Side) -> None:
    """torch's docstrings escape ``*`` for reStructuredText (``fill_value, \\*, dtype``)."""
    assert (
        "docstring",
        "torch.full_like(input, fill_value, *, dtype=None, layout=torch.strided, device=None, "
        "requires_grad=False, memory_format=torch.preserve_format)",
    ) in _texts("torch.full_like")


def test_optional_by_overload_has_an_unknown_default(torch_side: Side, paddle_side: Side) -> None:
    signatures = read(resolve("torch.rand"))
    generators = [
        o.find("generator")
        for o in signatures.overloads
        if o.source == "stub" and o.find("generator")
    ]
    assert generators
    assert all(g is not None and g.default is not None and g.default.opaque for g in generators)


def test_docstring_defaults_python_cannot_express() -> None:
    assert without_leading_defaults("(start=0, end, step=1, *, out=None)") == (
        "(start, end, step=1, *, out=None)"
    )


def test_a_docstring_default_python_cannot_express_is_not_read(
    torch_side: Side, paddle_side: Side
) -> None:
    # torch's docstring writes range(start=0, end, ...), but torch.range(4) raises: no default
    docstrings = [text for source, text in _texts("torch.range") if source == "docstring"]
    assert docstrings and all(
        text.startswith("torch.range(start, end, step=1") for text in docstrings
    )


def test_paddle_signature_and_method(torch_side: Side, paddle_side: Side) -> None:
    assert _texts("paddle.abs") == [("inspect", "paddle.abs(x, name=None, *, out=None)")]
    assert _texts("paddle.Tensor.reshape") == [
        ("inspect", "paddle.Tensor.reshape(shape, name=None)")
    ]


def test_attribute_wins_over_submodule(torch_side: Side, paddle_side: Side) -> None:
    assert callable(resolve("paddle.nn.utils.clip_grad_value_").obj)


def test_missing_api(torch_side: Side, paddle_side: Side) -> None:
    with pytest.raises(ApiNotFound) as missing:
        resolve("torch.nn.BatchNorm1D")
    assert missing.value.found == "torch.nn"
    with pytest.raises(ApiNotFound) as missing:
        resolve("nosuchpackage.api")
    assert missing.value.found is None


def test_paddle_aliases(torch_side: Side, paddle_side: Side) -> None:
    assert documented_aliases(paddle_side.lib.sum.__doc__) == {"input": "x", "dim": "axis"}
    tensor = [paddle_side.lib.to_tensor([0.5])]
    assert call_accepts(paddle_side.lib.multiply, "input", "x", ["x", "y"], tensor) is True
    assert call_accepts(paddle_side.lib.nn.functional.relu, "input", "x", ["x"], tensor) is False


def test_a_module_attribute_its_class_defines_resolves_and_an_invented_one_does_not(
    torch_side: Side, paddle_side: Side
) -> None:
    # torch.backends.cudnn is a module object whose class holds benchmark_limit (None without
    # cuDNN); paddle.compat's __getattr__ answers None for any name
    assert resolve("torch.backends.cudnn.benchmark_limit").obj is None
    with pytest.raises(ApiNotFound):
        resolve("paddle.compat.no_such_name")
