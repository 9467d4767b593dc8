"""Reading the torch-style aliases Paddle documents in its docstrings."""

from __future__ import annotations

from apimap.verify.aliases import call_accepts, documented_aliases

SENTENCE = """
    Sum.

    .. note::
        Alias Support: The parameter name ``input`` can be used as an alias for ``x`` and
        the parameter name ``dim`` can be used as an alias for ``axis``.
"""

ARGS_SECTION = """
    Abs.

    Args:
        x (Tensor): The input Tensor with data type int32.
            Alias: ``input``.
        axis (int|None, optional): The axis. alias: ``dim`` or ``dims``.
        other: An alias for ``y`` , with identical behavior.
        name (str|None, optional): Name for the operation.
            Not an alias: ``ignored`` here is prose.

    Returns:
        Tensor. alias: ``not_a_param``.
"""


def test_sentence_form() -> None:
    assert documented_aliases(SENTENCE) == {"input": "x", "dim": "axis"}


def test_args_section_forms() -> None:
    assert documented_aliases(ARGS_SECTION) == {
        "input": "x",
        "dim": "axis",
        "dims": "axis",
        "other": "y",
    }


def test_no_docstring() -> None:
    assert documented_aliases(None) == {}


def _strict(x: object, y: object) -> None:
    """Rejects unknown keywords, like any Python function."""


def _renaming(*args: object, **kwargs: object) -> None:
    """Accepts ``input`` for ``x`` as Paddle's alias decorators do."""
    if "input" in kwargs:
        kwargs["x"] = kwargs.pop("input")
    _strict(*args, **kwargs)


def _ignoring(**kwargs: object) -> None:
    """Ignores every keyword: no call can tell anything."""


def test_call_proves_an_alias() -> None:
    assert call_accepts(_renaming, "input", "x", ["x", "y"], [0.5]) is True


def test_call_refuses_an_unknown_keyword() -> None:
    assert call_accepts(_strict, "input", "x", ["x", "y"], [0.5]) is False


def test_call_cannot_tell_when_keywords_are_ignored() -> None:
    assert call_accepts(_ignoring, "input", "x", [], [0.5]) is None


def test_a_tensor_method_is_called_on_a_tensor(paddle_side: object) -> None:
    from apimap.verify.apis import _bound_method, _probe_values, _required
    from apimap.verify.libraries import resolve
    from apimap.verify.readers import read

    method = resolve("paddle.Tensor.all")
    required = _required(read(method))
    # the unbound function fails for the missing tensor before any keyword is looked at
    assert call_accepts(method.obj, "dim", "axis", required, _probe_values()) is None
    assert call_accepts(_bound_method(method), "dim", "axis", required, _probe_values()) is True


def test_a_c_operator_shows_the_value_reached_its_parameter(paddle_side: object) -> None:
    from apimap.verify.apis import _probe_values
    from apimap.verify.libraries import resolve

    tril = resolve("paddle.tril").obj
    assert call_accepts(tril, "input", "x", ["x"], _probe_values()) is True
    assert call_accepts(tril, "bogus", "x", ["x"], _probe_values()) is None
