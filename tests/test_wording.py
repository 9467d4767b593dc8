"""The wording of a page: remarks, summaries and headings composed from kind, action and category."""

from __future__ import annotations

from typing import Any

import pytest

from apimap.record import phrases, wording
from apimap.record.model import Example, ParamRow, Record


def record(**fields: Any) -> Record:
    base: dict[str, Any] = {
        "torch_api": "torch.nn.Thing",
        "zh_name": "示例",
        "torch_signature": "torch.nn.Thing(input, eps=1e-05, momentum=0.1, affine=True)",
        "paddle_api": "paddle.nn.Thing",
        "paddle_signature": "paddle.nn.Thing(x, epsilon=1e-05, momentum=0.9, name=None)",
        "category": "identical",
    }
    base.update(fields)
    return Record.model_validate(base)


def row(**fields: Any) -> ParamRow:
    return ParamRow.model_validate(fields)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"torch": "input", "paddle": "x", "kind": "same", "desc": "输入"}, "输入。"),
        (
            {"torch": "eps", "paddle": "epsilon", "kind": "rename", "desc": "稳定项"},
            "稳定项，仅参数名不一致。",
        ),
        (
            {"paddle": "data_format", "kind": "paddle_only", "desc": "数据格式"},
            "数据格式，PyTorch 无此参数，Paddle 保持默认即可。",
        ),
        (
            {
                "paddle": "place",
                "kind": "paddle_only",
                "desc": "存放位置",
                "setting": "Paddle 需设置为 paddle.CPUPlace()",
            },
            "存放位置，PyTorch 无此参数，Paddle 需设置为 paddle.CPUPlace()。",
        ),
        (
            {"torch": "affine", "kind": "torch_only", "desc": "仿射", "action": "rewrite"},
            "仿射，Paddle 无此参数，需要转写。",
        ),
        (
            {"torch": "affine", "kind": "torch_only", "desc": "仿射", "action": "none"},
            "仿射，Paddle 无此参数，暂无转写方式。",
        ),
        (
            {"torch": "affine", "kind": "torch_only", "desc": "仿射", "action": "delete"},
            "仿射，Paddle 无此参数，一般对网络训练结果影响不大，可直接删除。",
        ),
        (
            {
                "torch": "momentum",
                "paddle": "momentum",
                "kind": "usage_diff",
                "desc": "动量",
                "diff": "两者定义相反",
                "action": "rewrite",
            },
            "动量，两者定义相反，需要转写。",
        ),
        (
            {
                "kind": "return_diff",
                "desc": "状态",
                "diff": "类型不同",
                "action": "none",
                "note": "另见说明。",
            },
            "状态，类型不同，暂无转写方式。另见说明。",
        ),
    ],
)
def test_remark_phrases(fields: dict[str, Any], expected: str) -> None:
    assert wording.remark(record(), row(**fields)) == expected


def test_a_remark_without_meaning_is_the_phrase_alone() -> None:
    rename = row(torch="eps", paddle="epsilon", kind="rename")
    torch_only = row(torch="affine", kind="torch_only", action="rewrite")
    assert wording.remark(record(), rename) == "仅参数名不一致。"
    assert wording.remark(record(), torch_only) == "Paddle 无此参数，需要转写。"


def test_a_conditional_action_is_one_clause_per_condition() -> None:
    conditional = row(
        torch="momentum",
        kind="usage_diff",
        desc="动量",
        diff="两者定义相反",
        actions=[
            {"when": "取 0 到 1 之间", "action": "rewrite"},
            {"when": "为 None", "action": "none"},
        ],
    )
    assert wording.remark(record(), conditional) == (
        "动量，两者定义相反，取 0 到 1 之间时需要转写，为 None 时暂无转写方式。"
    )


def test_default_diff_reads_both_signatures() -> None:
    rec = record()
    momentum = row(torch="momentum", paddle="momentum", kind="default_diff", desc="动量")
    assert wording.remark(rec, momentum) == (
        "动量，PyTorch 默认值为 `0.1`，Paddle 默认值为 `0.9`，Paddle 需设置为与 PyTorch 一致。"
    )


def test_default_diff_resolves_paddle_aliases_and_keeps_the_setting() -> None:
    rec = record(paddle_accepts={"eps": "epsilon"})
    eps = row(torch="eps", paddle="eps", kind="default_diff", desc="稳定项", setting="保持一致")
    assert (
        wording.remark(rec, eps)
        == "稳定项，PyTorch 默认值为 `1e-05`，Paddle 默认值为 `1e-05`，保持一致。"
    )


def test_default_diff_without_a_default_says_so() -> None:
    rec = record()
    first = row(torch="input", paddle="x", kind="default_diff", desc="输入")
    assert wording.remark(rec, first) == (
        "输入，PyTorch 无默认值，Paddle 无默认值，Paddle 需设置为与 PyTorch 一致。"
    )


def test_return_rows_show_the_return_label_on_both_sides() -> None:
    returns = row(kind="return_diff", desc="结果", diff="不同", action="none")
    assert wording.table_names(returns) == ("返回值", "返回值")
    assert wording.table_names(row(torch="affine", kind="torch_only", desc="x", action="none")) == (
        "affine",
        "-",
    )


@pytest.mark.parametrize(
    ("category", "expected"),
    [
        ("no_params", "两者功能一致，无参数。"),
        ("identical", "两者功能一致，参数完全一致，具体如下："),
        ("names_differ", "两者功能一致且参数用法一致，仅参数名不一致，具体如下："),
        ("paddle_more", "Paddle 相比 PyTorch 支持更多其他参数，具体如下："),
        ("defaults_differ", "两者功能一致且参数用法一致，仅参数默认值不一致，具体如下："),
        ("torch_more", "PyTorch 相比 Paddle 支持更多其他参数，具体如下："),
        (
            "context_change",
            "PyTorch 与 Paddle 对该 API 的设计思路与用法不同，需要分析上下文并联动修改：",
        ),
    ],
)
def test_fixed_summaries(category: str, expected: str) -> None:
    assert wording.summary(record(category=category)) == [expected]


def test_inconsistent_summary_names_the_torch_parameters() -> None:
    rows = [
        {
            "torch": "momentum",
            "paddle": "momentum",
            "kind": "usage_diff",
            "desc": "a",
            "diff": "b",
            "action": "rewrite",
        },
        {"torch": "affine", "kind": "torch_only", "desc": "c", "action": "rewrite"},
        {
            "torch": "eps",
            "paddle": "epsilon",
            "kind": "type_diff",
            "desc": "d",
            "diff": "e",
            "action": "none",
        },
    ]
    rec = record(category="input_usage_diff", params=rows)
    assert wording.summary(rec) == [
        "PyTorch 的 `momentum`、`eps` 参数与 Paddle 用法不一致，具体如下："
    ]
    with_return = record(
        category="return_type_diff",
        params=[*rows, {"kind": "return_diff", "desc": "f", "diff": "g", "action": "none"}],
    )
    assert wording.summary(with_return) == [
        "PyTorch 的 `momentum`、`eps` 参数与 Paddle 用法不一致，返回值类型也不一致，具体如下："
    ]


def test_summary_field_overrides_except_for_composite() -> None:
    assert wording.summary(record(summary="自定义总结。")) == ["自定义总结。"]
    composite = record(
        category="composite",
        paddle_api=None,
        paddle_signature=None,
        summary="计算乘积之和。",
    )
    assert wording.summary(composite) == ["计算乘积之和。", phrases.COMPOSITE_LEAD]


def test_other_package_summary_names_the_package() -> None:
    rec = record(category="other_package", paddle_api="paddlenlp.Thing", paddle_package="paddlenlp")
    assert wording.summary(rec) == ["Paddle 主框架中没有对应 API，对应 API 位于 `paddlenlp` 包中。"]


def test_example_heading_falls_back_to_the_row_meaning() -> None:
    rec = record(
        category="torch_more",
        params=[{"torch": "affine", "kind": "torch_only", "desc": "是否仿射", "action": "rewrite"}],
    )
    plain = Example.model_validate({"param": "affine", "cases": [{"torch": "a", "paddle": "b"}]})
    named = Example.model_validate(
        {"param": "affine", "purpose": "关闭仿射", "cases": [{"torch": "a", "paddle": "b"}]}
    )
    whole = Example.model_validate({"cases": [{"torch": "a", "paddle": "b"}]})
    assert wording.example_heading(rec, plain) == "affine：是否仿射"
    assert wording.example_heading(rec, named) == "affine：关闭仿射"
    assert wording.example_heading(rec, whole) is None


def test_no_rewrite_only_for_categories_two_to_five_without_examples() -> None:
    none_row = {"torch": "affine", "kind": "torch_only", "desc": "c", "action": "none"}
    assert wording.says_no_rewrite(record(category="torch_more", params=[none_row]))
    assert not wording.says_no_rewrite(record(category="other_package", params=[none_row]))
    delete_row = {**none_row, "action": "delete"}
    assert not wording.says_no_rewrite(record(category="torch_more", params=[delete_row]))


def test_paddle_value_is_said_when_no_setting_is_written() -> None:
    value = row(paddle="data_format", kind="paddle_only", desc="格式", paddle_value="'NCL'")
    assert wording.remark(record(), value) == "格式，PyTorch 无此参数，Paddle 需设置为 `'NCL'`。"


def test_one_to_many_rows_list_every_name() -> None:
    both = row(torch="bias", paddle=["bias_ih_attr", "bias_hh_attr"], desc="偏置")
    assert wording.table_names(both) == ("bias", "bias_ih_attr, bias_hh_attr")


def test_attributes_that_map_one_to_one_say_so_without_parameters() -> None:
    attribute = record(
        torch_api="torch.Tensor.T",
        api_type="attribute",
        torch_signature=None,
        paddle_api="paddle.Tensor.T",
        paddle_signature=None,
        category="no_params",
    )
    assert wording.summary(attribute) == [phrases.ATTRIBUTE_SUMMARY]
    assert wording.api_kind_line(attribute) == "属性"
    assert wording.api_kind_line(record()) is None


@pytest.mark.parametrize(
    ("summary", "sentence", "cell"),
    [
        ("✗ TypeError", "报错（TypeError）", "✗ TypeError"),
        (
            "✗ 退出码 136 (exit status)；, bool, phi",
            "进程异常退出（信号 SIGFPE）",
            "✗ 进程异常退出（信号 SIGFPE）",
        ),
        (
            "✗ 退出码 -11 (exit status)",
            "进程异常退出（信号 SIGSEGV）",
            "✗ 进程异常退出（信号 SIGSEGV）",
        ),
        (
            "✗ 退出码 3 (exit status)；tail",
            "进程异常退出（退出码 3）",
            "✗ 进程异常退出（退出码 3）",
        ),
        ("✗ 仍在运行 (still running)；tail", "运行超时", "✗ 运行超时"),
    ],
)
def test_a_failed_run_reads_as_its_error_kind_or_how_the_process_died(
    summary: str, sentence: str, cell: str
) -> None:
    assert wording.failed_run(summary) == sentence
    assert wording.result_cell(summary) == cell


def test_a_run_that_did_not_fail_is_shown_as_recorded() -> None:
    assert wording.result_cell("float32、int64") == "float32、int64"


def test_everything_a_call_may_need_has_a_label_and_a_treatment() -> None:
    from apimap.record.categories import Needs

    assert {needs.value: (needs.label, needs.refusal.value, needs.runs) for needs in Needs} == {
        "gpu": ("GPU", "both", True),
        "xpu": ("XPU", "both", True),
        "network": ("网络", "both", True),
        "rpc": ("Paddle 安装包中的 RPC 支持", "paddle", True),
        "cuda_toolkit": ("CUDA 工具包（CUDA_HOME）", "torch", True),
        "foreign_code": ("下载的仓库或编译的 C++ 扩展", "never_run", False),
    }


def test_what_stayed_unproven_is_said_once_per_device() -> None:
    needs = phrases.NOT_EXECUTED_NEEDS["both"]
    never = phrases.NOT_EXECUTED_NEEDS["never_run"]
    items = [
        needs.format(where="第 1 个调用", needs="XPU"),
        needs.format(where="第 1 种其他写法", needs="XPU"),
        "PyTorch 签名无法从库中读取",
        needs.format(where="第 2 个调用", needs="XPU"),
        never.format(where="第 3 个调用", needs="下载的仓库或编译的 C++ 扩展"),
        needs.format(where="第 1 种其他写法", needs="XPU"),
        needs.format(where="转写示例 1", needs="GPU"),
        never.format(where="转写示例 2", needs="下载的仓库或编译的 C++ 扩展"),
    ]
    assert wording.unproven_shown(items) == [
        needs.format(where="第 1 个调用、第 1 种其他写法、第 2 个调用", needs="XPU"),
        "PyTorch 签名无法从库中读取",
        never.format(where="第 3 个调用、转写示例 2", needs="下载的仓库或编译的 C++ 扩展"),
        needs.format(where="转写示例 1", needs="GPU"),
    ]
