"""Deciding whether a recorded default agrees with the library's."""

from __future__ import annotations

import math

from apimap.verify.defaults import UNKNOWN, Default, display, evaluate, same_default


class _Generator:
    pass


GENERATOR = _Generator()
NAMESPACES = [{"default_generator": GENERATOR, "math": math}]


def test_float_spellings_agree() -> None:
    assert same_default("1e-5", Default("1e-05", 1e-05), NAMESPACES)
    assert same_default("0.10", Default("0.1", 0.1), NAMESPACES)


def test_int_and_float_differ() -> None:
    assert not same_default("1", Default("1.0", 1.0), NAMESPACES)
    assert not same_default("True", Default("1", 1), NAMESPACES)


def test_different_values_differ() -> None:
    assert not same_default("1e-3", Default("1e-05", 1e-05), NAMESPACES)
    assert not same_default("'mean'", Default("'sum'", "sum"), NAMESPACES)


def test_object_default_written_by_name() -> None:
    actual = Default("default_generator", GENERATOR)
    assert same_default("default_generator", actual, NAMESPACES)
    assert not same_default("None", actual, NAMESPACES)


def test_opaque_stub_default_accepts_anything() -> None:
    assert same_default("None", Default("..."), NAMESPACES)


def test_unevaluable_names_compare_by_last_component() -> None:
    actual = Default("torch.preserve_format", UNKNOWN)
    assert same_default("preserve_format", actual, NAMESPACES)
    assert not same_default("contiguous_format", actual, NAMESPACES)


def test_evaluate_accepts_only_safe_forms() -> None:
    assert evaluate("-2", NAMESPACES) == -2
    assert evaluate("float('inf')", NAMESPACES) == math.inf
    assert evaluate("math.pi", NAMESPACES) == math.pi
    assert evaluate("(1, [2, 3])", NAMESPACES) == (1, [2, 3])
    assert evaluate("open('x')", NAMESPACES) is UNKNOWN
    assert evaluate("no_such_name", NAMESPACES) is UNKNOWN
    assert evaluate("1 +", NAMESPACES) is UNKNOWN


def test_arithmetic_on_numbers_is_its_value() -> None:
    assert same_default("1. / 3", Default("0.3333333333333333", 1 / 3), NAMESPACES)
    assert not same_default("1. / 4", Default("0.3333333333333333", 1 / 3), NAMESPACES)
    assert evaluate("2 * 3 - 1", NAMESPACES) == 5
    assert evaluate("1 / 0", NAMESPACES) is UNKNOWN
    assert evaluate("'a' * 3", NAMESPACES) is UNKNOWN
    assert evaluate("2 ** 64", NAMESPACES) is UNKNOWN


def test_display_prefers_literals_then_names() -> None:
    assert display(1e-05, NAMESPACES) == "1e-05"
    assert display("NCL", NAMESPACES) == "'NCL'"
    assert display(math.inf, NAMESPACES) == "float('inf')"
    assert display(GENERATOR, NAMESPACES) == "default_generator"
    # a tuple of objects that are not literals: each by its name, not its repr
    assert display((GENERATOR,), NAMESPACES) == "(default_generator,)"
    assert display([GENERATOR, 1], NAMESPACES) == "[default_generator, 1]"
    assert display((1, 2), NAMESPACES) == "(1, 2)"


def _norm(x: float, eps: float = 1e-5) -> float:
    return x / eps


def test_a_partial_default_compares_its_function_and_arguments() -> None:
    import functools

    value = functools.partial(_norm, eps=1e-06)
    namespaces = [{"functools": functools, "norm": _norm, "math": math}]
    actual = Default(display(value, namespaces), value)
    assert actual.text == "functools.partial(norm, eps=1e-06)"
    assert same_default("functools.partial(norm, eps=1e-6)", actual, namespaces)
    assert same_default("partial(norm, eps=0.000001)", actual, namespaces)
    assert not same_default("functools.partial(norm, eps=1e-05)", actual, namespaces)
    assert not same_default("functools.partial(math.sqrt, eps=1e-06)", actual, namespaces)
    assert not same_default("functools.partial(norm, 2, eps=1e-06)", actual, namespaces)
    assert not same_default("None", actual, namespaces)
