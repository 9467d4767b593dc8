"""What a page says about each paddle release, worked out from the facts of a stamp."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apimap.checking.corpus import load_entries
from apimap.files.releases import (
    Way,
    WayKind,
    guide,
    guide_from_json,
    guide_to_json,
    sentences,
    way_text,
)
from apimap.files.stamps import ProbeOutcome, Proven, Release, Stamp
from apimap.publish.site.views import accepted_from, portable_row, versions_view
from apimap.record.categories import Category
from apimap.record.model import Record
from apimap.record.pins import PADDLE_RELEASES, PADDLE_VERSION

CAT = Record.model_validate(
    {
        "torch_api": "torch.cat",
        "zh_name": "按维度拼接",
        "torch_signature": "torch.cat(tensors, dim=0, *, out=None)",
        "paddle_api": "paddle.concat",
        "paddle_signature": "paddle.concat(x, axis=0, name=None, *, out=None)",
        "paddle_accepts": {"tensors": "x", "dim": "axis"},
        "alternatives": [{"paddle": "paddle.cat"}],
        "params": [
            {"torch": "tensors", "desc": "要拼接的 Tensor"},
            {"torch": "dim", "desc": "维度"},
            {"torch": "out", "desc": "保存结果的 Tensor"},
        ],
        "calls": [{"torch": "y = torch.cat([x, z])", "inputs": {"x": "np.ones(2)"}}],
    }
)
OLD = Release(
    holds=False,
    params=["x", "axis", "name"],
    accepts={"tensors": False, "dim": False},
    names={"paddle.cat": False},
    runs={
        "calls[0]": "raises:TypeError",
        "calls[0]:portable": "ok",
        "alternatives[0].calls[0]": "raises:AttributeError",
    },
)
NEW = Release(
    holds=True,
    params=["x", "axis", "name", "out"],
    accepts={"tensors": True, "dim": True},
    names={"paddle.cat": True},
    runs={"calls[0]": "ok", "calls[0]:portable": "ok", "alternatives[0].calls[0]": "ok"},
)


def stamp(releases: dict[str, Release]) -> Stamp:
    return Stamp(
        "digest",
        3,
        {"torch": "2.13.0", "paddle": PADDLE_VERSION},
        "2026-12-02",
        Proven(),
        releases=releases,
    )


def cat_stamp() -> Stamp:
    old, new = PADDLE_RELEASES[:2], PADDLE_RELEASES[2:]
    return stamp({**dict.fromkeys(old, OLD), **dict.fromkeys(new, NEW)})


def test_releases_that_need_the_same_form_one_span() -> None:
    found = guide(CAT, cat_stamp())
    assert found is not None
    assert [span.versions for span in found.spans] == [PADDLE_RELEASES[:2], PADDLE_RELEASES[2:]]
    old, new = (span.guidance for span in found.spans)
    assert old.category is Category.NAMES_DIFFER and new.category is Category.IDENTICAL
    assert old.unaccepted == (("tensors", "x"), ("dim", "axis"))
    assert old.missing_params == ("out",) and new.missing_params == ()
    assert old.ways == (Way(WayKind.PORTABLE, "paddle.concat"),)
    assert new.ways == (
        Way(WayKind.DROP_IN, "paddle.cat", 0),
        Way(WayKind.ACCEPTING, "paddle.concat"),
        Way(WayKind.PORTABLE, "paddle.concat"),
    )
    assert found.valid_on("3.0.0") and found.valid_on(PADDLE_VERSION)


def test_sentences_say_what_to_write_without_tool_output() -> None:
    found = guide(CAT, cat_stamp())
    assert found is not None
    old, new = found.spans
    assert sentences(CAT, old) == [
        "本页的映射在这些版本上属于「仅参数名不一致」。",
        "不接受 PyTorch 的参数名 `tensors`、`dim`，要写作 `x`、`axis`。",
        "`paddle.concat` 没有参数 `out`，这些版本上不能传入。",
        "改动最少的写法：使用 `paddle.concat`，参数按上表改写。",
    ]
    assert sentences(CAT, new)[0] == (
        "改动最少的写法：把 `torch.cat` 换成 `paddle.cat`，参数原样保留。"
    )


def test_the_table_shows_paddle_names_and_from_when_torch_names_are_taken() -> None:
    since = accepted_from(cat_stamp())
    assert since == {"tensors": PADDLE_RELEASES[2], "dim": PADDLE_RELEASES[2]}
    row = portable_row(CAT, CAT.params[0], since)
    assert (row.torch, row.paddle) == ("tensors", "x")
    assert row.remark == (
        f"要拼接的 Tensor，仅参数名不一致。Paddle {PADDLE_RELEASES[2]} 起也接受 PyTorch 的参数名 "
        "`tensors`。"
    )
    out = portable_row(CAT, CAT.params[2], since)
    assert (out.paddle, out.remark) == ("out", "保存结果的 Tensor。")


def test_the_page_view_lists_spans_newest_first_and_the_older_category() -> None:
    view = versions_view(CAT, guide(CAT, cat_stamp()))
    assert view is not None
    assert view.text == f"适用于 Paddle {PADDLE_RELEASES[2]}–{PADDLE_VERSION}"
    assert view.older_category == (
        f"Paddle {PADDLE_RELEASES[0]}–{PADDLE_RELEASES[1]} 上属于「仅参数名不一致」"
    )
    assert [span.label for span in view.spans] == [
        f"{PADDLE_RELEASES[2]}–{PADDLE_VERSION}",
        f"{PADDLE_RELEASES[0]}–{PADDLE_RELEASES[1]}",
    ]


def _missing_before(**extra: Any) -> Record:
    return Record.model_validate(
        {
            "torch_api": "torch.Tensor.mul",
            "api_type": "method",
            "zh_name": "逐元素相乘",
            "torch_signature": "torch.Tensor.mul(other)",
            "paddle_api": "paddle.Tensor.mul",
            "paddle_signature": "paddle.Tensor.mul(other)",
            "params": [{"torch": "other", "desc": "另一个 Tensor"}],
            "calls": [{"torch": "y = x.mul(o)", "inputs": {"x": "np.ones(2)", "o": "np.ones(2)"}}],
            **extra,
        }
    )


def test_a_release_without_the_api_gets_the_verified_rewrite() -> None:
    rewrite = {
        "paddle": "paddle.multiply",
        "cases": [{"torch": "y = x.mul(o)", "paddle": "y = paddle.multiply(x, o)"}],
    }
    record = _missing_before(alternatives=[rewrite])
    missing = Release(
        holds=False,
        api=False,
        names={"paddle.multiply": True},
        runs={"calls[0]": "raises:AttributeError", "alternatives[0].cases[0]": "ok"},
    )
    present = Release(
        holds=True,
        names={"paddle.multiply": True},
        runs={"calls[0]": "ok", "alternatives[0].cases[0]": "ok"},
    )
    found = guide(record, stamp({"3.0.0": missing, PADDLE_VERSION: present}))
    assert found is not None
    first = found.spans[0]
    assert first.versions == ("3.0.0",)
    assert sentences(record, first) == [
        "没有 `paddle.Tensor.mul`。",
        "改动最少的写法：改用 `paddle.multiply`，写法见下面的示例。",
    ]
    view = versions_view(record, guide(record, stamp({"3.0.0": missing, PADDLE_VERSION: present})))
    assert view is not None
    assert view.spans[-1].cases[0].code.endswith("y = paddle.multiply(x, o)")
    # a release verify did not measure says so, and no way is claimed for it
    assert sentences(record, found.spans[1]) == ["还没有在这些版本上验证。"]
    assert not found.valid_on("3.1.1")


def test_a_release_without_the_api_and_without_a_rewrite_says_so() -> None:
    record = _missing_before()
    missing = Release(holds=False, api=False, runs={"calls[0]": "raises:AttributeError"})
    present = Release(holds=True, runs={"calls[0]": "ok"})
    found = guide(record, stamp({"3.0.0": missing, PADDLE_VERSION: present}))
    assert found is not None
    assert sentences(record, found.spans[0]) == [
        "没有 `paddle.Tensor.mul`。",
        "这些版本上没有验证过的写法。",
    ]


def test_probes_that_behave_otherwise_are_named_in_words() -> None:
    record = _missing_before()
    older = Release(
        holds=False,
        runs={"calls[0]": "ok"},
        probes={
            "dtype:float16@calls[0]": ProbeOutcome("✗ RuntimeError", True),
            "edge:nan@calls[0]": ProbeOutcome("float32", False),
        },
    )
    found = guide(
        record, stamp({"3.0.0": older, PADDLE_VERSION: Release(True, runs={"calls[0]": "ok"})})
    )
    assert found is not None
    assert sentences(record, found.spans[0])[0] == (
        f"与 Paddle {PADDLE_VERSION} 的行为不同：float16 类型的输入时报错（RuntimeError）；"
        "含 NaN 的输入时结果与 PyTorch 一致。"
    )


def test_a_torch_way_of_passing_items_one_by_one_is_said_in_words() -> None:
    permute = Record.model_validate(
        {
            "torch_api": "torch.Tensor.permute",
            "api_type": "method",
            "zh_name": "重排维度",
            "torch_signature": "torch.Tensor.permute(*dims)",
            "paddle_api": "paddle.Tensor.transpose",
            "paddle_signature": "paddle.Tensor.transpose(perm, name=None)",
            "paddle_accepts": {"*dims": "perm"},
            "params": [{"torch": "*dims", "paddle": "perm", "desc": "维度的新顺序"}],
            "calls": [{"torch": "y = x.permute(1, 0)", "inputs": {"x": "np.ones((2, 3))"}}],
        }
    )
    accepting = Way(WayKind.ACCEPTING, "paddle.Tensor.transpose")
    assert way_text(permute, accepting) == (
        "使用 `paddle.Tensor.transpose`，参数可以照 PyTorch 的写法逐个传入"
    )
    assert way_text(CAT, Way(WayKind.ACCEPTING, "paddle.concat")) == (
        "使用 `paddle.concat`，可以沿用 PyTorch 的参数名 `tensors`、`dim`"
    )


def test_a_guide_kept_as_json_comes_back_the_same() -> None:
    # the site build keeps each record's guide between builds in this form
    corpus = Path(__file__).resolve().parent / "site" / "corpus" / "mappings"
    found = [entry.guide for entry in load_entries(corpus)]
    found.append(guide(CAT, cat_stamp()))
    assert any(g is not None and any(s.guidance.ways for s in g.spans) for g in found)
    for one in found:
        assert guide_from_json(guide_to_json(one)) == one
