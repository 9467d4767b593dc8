"""Comparing a recorded signature with the library's overloads."""

from __future__ import annotations

from apimap.record.signature import ParamKind, parse_signature
from apimap.verify.defaults import Default
from apimap.verify.drift import compare
from apimap.verify.readers import ApiSignatures, RealParam, RealSignature

P = ParamKind.POSITIONAL_OR_KEYWORD
K = ParamKind.KEYWORD_ONLY

SUM = ApiSignatures(
    [
        RealSignature(
            (RealParam("input", P), RealParam("dtype", K, Default("None", None))), "stub"
        ),
        RealSignature(
            (
                RealParam("input", P),
                RealParam("dim", P),
                RealParam("keepdim", P, Default("False", False)),
                RealParam("dtype", K, Default("None", None)),
            ),
            "stub",
        ),
    ]
)


def _codes(text: str) -> list[tuple[str, str]]:
    return [(d.code, d.detail) for d in compare(parse_signature(text), SUM, "torch.sum")]


def test_each_overload_can_match() -> None:
    assert _codes("torch.sum(input, *, dtype=None)") == []
    assert _codes("torch.sum(input, dim, keepdim=False, *, dtype=None)") == []


def test_wrong_name_names_position_and_closest_overload() -> None:
    [(code, detail)] = _codes("torch.sum(input, axis, keepdim=False, *, dtype=None)")
    assert code == "AM802"
    assert "第 2 个参数：记录为 `axis`，库中为 `dim`" in detail
    assert "torch.sum(input, dim, keepdim=False, *, dtype=None)" in detail


def test_order_is_compared() -> None:
    [(code, detail)] = _codes("torch.sum(dim, input, keepdim=False, *, dtype=None)")
    assert code == "AM802"
    assert "order differs" in detail


def test_missing_parameter() -> None:
    [(code, detail)] = _codes("torch.sum(input)")
    assert code == "AM802"
    assert "`dtype`" in detail


def test_keyword_only_marker() -> None:
    assert [c for c, _ in _codes("torch.sum(input, dtype=None)")] == ["AM804"]


def test_positional_only_counts_as_positional() -> None:
    library = ApiSignatures(
        [RealSignature((RealParam("x", ParamKind.POSITIONAL_ONLY),), "inspect")]
    )
    assert compare(parse_signature("f.g(x)"), library, "f.g") == []


def test_default_drift_and_missing_default() -> None:
    assert _codes("torch.sum(input, dim, keepdim=True, *, dtype=None)") == [
        ("AM803", "`keepdim`：记录为 `True`，库中为 `False`")
    ]
    [(code, detail)] = _codes("torch.sum(input, dim, keepdim, *, dtype=None)")
    assert code == "AM803"
    assert "记录无默认值" in detail


RANGE = ApiSignatures(
    [
        RealSignature(
            (
                RealParam("start", P),
                RealParam("end", P),
                RealParam("step", P, Default("1", 1)),
            ),
            "docstring",
        )
    ]
)


def test_a_documented_leading_default_is_not_compared() -> None:
    """``torch.range(start=0, end, step=1)``: the documentation's way of saying start may be
    left out, which the library's readers drop; a later default is still compared."""
    compared = compare(parse_signature("torch.range(start=0, end, step=1)"), RANGE, "torch.range")
    assert compared == []
    [drift] = compare(parse_signature("torch.range(start=0, end, step=2)"), RANGE, "torch.range")
    assert drift.code == "AM803"


def test_a_leading_default_a_python_signature_lacks_is_compared() -> None:
    """A function defined in Python never has a required parameter after a defaulted one: a
    page that writes ``(dataset=None, batch_size)`` gives ``dataset`` a default it lacks."""
    python = ApiSignatures(
        [RealSignature((RealParam("dataset", P), RealParam("batch_size", P)), "inspect")]
    )
    [drift] = compare(parse_signature("f(dataset=None, batch_size)"), python, "f")
    assert (drift.code, "库中无默认值" in drift.detail) == ("AM803", True)


def test_a_page_of_an_older_release_may_leave_out_optional_parameters() -> None:
    """``apimap import --run`` compares with ``older_release``: optional parameters a later
    release added are not drift; missing required ones, other names, order and kinds are."""
    from apimap.verify.apis import _without_unnamed_optional

    def older(text: str) -> list[str]:
        recorded = parse_signature(text)
        actual = _without_unnamed_optional(recorded, SUM)
        return [d.code for d in compare(recorded, actual, "torch.sum")]

    assert [d.code for d in compare(parse_signature("torch.sum(input, dim)"), SUM, "t")] == [
        "AM802"
    ]
    assert older("torch.sum(input)") == []
    assert older("torch.sum(input, dim)") == []
    assert older("torch.sum(input, dim, dtype=None)") == ["AM804"]
    assert older("torch.sum(inputs, dim)") == ["AM802"]
    assert older("torch.sum(dim, input)") == ["AM802"]
    assert older("torch.sum(input, dim, keepdim=True)") == ["AM803"]


def test_an_older_page_may_list_keyword_only_parameters_in_any_order() -> None:
    from apimap.verify.apis import _without_unnamed_optional

    real = ApiSignatures(
        [
            RealSignature(
                (
                    RealParam("input", P),
                    RealParam("out", K, Default("None", None)),
                    RealParam("dtype", K, Default("None", None)),
                    RealParam("layout", K, Default("None", None)),
                ),
                "stub",
            )
        ]
    )

    def older(text: str) -> list[str]:
        recorded = parse_signature(text)
        actual = _without_unnamed_optional(recorded, real)
        return [d.code for d in compare(recorded, actual, "torch.f")]

    assert [d.code for d in compare(parse_signature("torch.f(input, *, dtype=None)"), real, "t")]
    assert older("torch.f(input, *, dtype=None, out=None)") == []
    assert older("torch.f(input, *, layout=None, dtype=None)") == []
    assert older("torch.f(input, dtype=None, *, out=None)") == ["AM804"]


def test_an_older_page_may_name_the_keywords_that_kwargs_receives() -> None:
    from apimap.verify.apis import _without_unnamed_optional

    real = ApiSignatures(
        [
            RealSignature(
                (
                    RealParam("function", P),
                    RealParam("args", ParamKind.VAR_POSITIONAL),
                    RealParam("kwargs", ParamKind.VAR_KEYWORD),
                ),
                "inspect",
            )
        ]
    )

    def older(text: str) -> list[str]:
        recorded = parse_signature(text)
        actual = _without_unnamed_optional(recorded, real)
        return [d.code for d in compare(recorded, actual, "f")]

    assert older("f(function, keep=True, *args, **kwargs)") == []
    assert older("f(function, *args, keep=True, **kwargs)") == []
    assert older("f(function, keep=True, other=None)") == ["AM802"]  # *args is not optional
    assert older("f(fn, keep=True, *args, **kwargs)") == ["AM802"]
    assert older("f(function, keep, *args, **kwargs)") == ["AM802"]  # required: not received
