"""Which names a snippet assigns, and which of them are compared by default."""

from __future__ import annotations

from apimap.verify.snippets import assigned_names, default_outputs


def test_assignments_in_order_with_unpacking() -> None:
    source = "a, (b, *c) = f()\nd: int = 1\na += 1\nfor e in x: pass\nprint(g)\n"
    assert assigned_names(source) == ["a", "b", "c", "d"]


def test_nested_assignments_are_not_module_level() -> None:
    assert assigned_names("def f():\n    inner = 1\nif x:\n    y = 2\n") == []


def test_default_outputs_are_shared_names_minus_inputs() -> None:
    torch_code = "m = torch.nn.ReLU()\nx = x * 2\ny = m(x)\nonly_torch = 1\n"
    paddle_code = "m = paddle.nn.ReLU()\nx = x * 2\ny = m(x)\n"
    assert default_outputs(torch_code, paddle_code, ["x"]) == ["m", "y"]


def test_invalid_code_assigns_nothing() -> None:
    assert assigned_names("y = (") == []
