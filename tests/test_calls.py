"""Deriving the paddle side of a call from the rows, and the variations the probes run."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from apimap.record import pycode
from apimap.record.calls import (
    CallError,
    assigned,
    derive,
    drop_in,
    hooked,
    parameter_forms,
    parse_call,
    positional_form,
    positional_forms,
    recipe_parameter_forms,
    scalar_forms,
)
from apimap.record.model import Record


def record(**fields: Any) -> Record:
    base: dict[str, Any] = {"zh_name": "示例", "category": "identical"}
    return Record.model_validate({**base, **fields})


PAD = record(
    torch_api="torch.nn.functional.pad",
    torch_signature="torch.nn.functional.pad(input, pad, mode='constant', value=None)",
    paddle_api="paddle.nn.functional.pad",
    paddle_signature=(
        "paddle.nn.functional.pad(x, pad, mode='constant', value=0.0, data_format='NCHW', "
        "pad_from_left_axis=True, name=None)"
    ),
    params=[
        {"torch": "input", "paddle": "x", "desc": "输入"},
        {"torch": "pad", "desc": "填充"},
        {"torch": "mode", "desc": "方式"},
        {"torch": "value", "kind": "default_diff", "desc": "值", "paddle_value": "0.0"},
        {"paddle": "data_format", "kind": "paddle_only", "desc": "格式"},
        {
            "paddle": "pad_from_left_axis",
            "kind": "paddle_only",
            "desc": "方向",
            "paddle_value": "False",
        },
    ],
)
OUTER = record(
    torch_api="torch.Tensor.outer",
    api_type="method",
    torch_signature="torch.Tensor.outer(vec2)",
    paddle_api="paddle.outer",
    paddle_signature="paddle.outer(x, y, name=None)",
    self_param="x",
    params=[{"torch": "vec2", "paddle": "y", "desc": "向量"}],
)
LSTM = record(
    torch_api="torch.nn.LSTM",
    api_type="class",
    torch_signature="torch.nn.LSTM(input_size, hidden_size, batch_first=False)",
    paddle_api="paddle.nn.LSTM",
    paddle_signature="paddle.nn.LSTM(input_size, hidden_size, time_major=False)",
    params=[
        {"torch": "input_size", "desc": "输入"},
        {"torch": "hidden_size", "desc": "隐层"},
        {
            "torch": "batch_first",
            "paddle": "time_major",
            "kind": "usage_diff",
            "desc": "批在前",
            "diff": "含义相反",
            "convert": "not value",
            "paddle_value": "True",
            "action": "rewrite",
        },
    ],
)


def test_renames_defaults_and_paddle_values() -> None:
    found = derive(PAD, "torch.nn.functional.pad(x, (1, 2), mode='reflect')")
    assert found.torch == "result = torch.nn.functional.pad(x, (1, 2), mode='reflect')"
    assert found.paddle == (
        "result = paddle.nn.functional.pad(x=x, pad=(1, 2), mode='reflect', value=0.0, "
        "pad_from_left_axis=False)"
    )
    assert found.outputs == ["result"]
    assert found.passed == {"input", "pad", "mode"}
    assert found.set_rows == {3, 5}


def test_a_method_mapped_to_a_function_passes_the_object_first() -> None:
    found = derive(OUTER, "y = x.outer(v).sum(dtype=torch.float64)")
    assert found.paddle == "y = paddle.outer(x, y=v).sum(dtype=paddle.float64)"


def test_class_constructions_go_through_the_weight_hook_and_flags_convert() -> None:
    found = derive(LSTM, "y, _ = torch.nn.LSTM(3, 4)(x)")
    # the hook builds the layer itself (its source text keys the construction cache)
    assert found.torch == (
        "y, _ = __apimap_layer__.build(1, 'torch.nn.LSTM(3, 4)', torch.nn.LSTM, 3, 4)(x)"
    )
    assert found.paddle == (
        "y, _ = __apimap_layer__.build(1, "
        "'paddle.nn.LSTM(input_size=3, hidden_size=4, time_major=True)', "
        "paddle.nn.LSTM, input_size=3, hidden_size=4, time_major=True)(x)"
    )
    found = derive(LSTM, "y, _ = torch.nn.LSTM(3, 4, batch_first=True)(x)")
    assert "time_major=not True" in found.paddle
    assert found.paddle.startswith("y, _ = __apimap_layer__.build(")  # a converted literal
    assert found.outputs == ["y", "_"]


VGG = record(
    torch_api="torchvision.models.vgg16",
    torch_signature="torchvision.models.vgg16(*, weights=None, progress=True, **kwargs)",
    paddle_api="paddle.vision.models.vgg16",
    paddle_signature="paddle.vision.models.vgg16(pretrained=False, batch_norm=False, **kwargs)",
    category="input_usage_diff",
    params=[
        {
            "torch": "weights",
            "paddle": "pretrained",
            "kind": "usage_diff",
            "desc": "权重",
            "diff": "布尔值",
            "paddle_value": "False",
            "action": "rewrite",
        },
        {"torch": "progress", "kind": "torch_only", "action": "delete"},
    ],
)


def test_function_calls_with_literal_arguments_go_through_the_reuse_hook() -> None:
    # a model factory called the same way by every probe is made once per job and copied
    found = derive(VGG, "m = torchvision.models.vgg16()\ny = m(x)")
    assert found.torch.splitlines()[0] == (
        "m = __apimap_layer__.reuse(1, 'torchvision.models.vgg16()', torchvision.models.vgg16)"
    )
    assert found.paddle.splitlines()[0] == (
        "m = __apimap_layer__.reuse(1, 'paddle.vision.models.vgg16(pretrained=False)', "
        "paddle.vision.models.vgg16, pretrained=False)"
    )
    # an argument that is not a literal (an input, a setup name) leaves the call as it is
    found = derive(PAD, "y = torch.nn.functional.pad(x, (1, 1))")
    assert found.torch == "y = torch.nn.functional.pad(x, (1, 1))"
    assert "__apimap_layer__" not in found.paddle


@pytest.mark.parametrize(
    ("argument", "copied"),
    [
        ("{(2, 2): 18, (3, 4): 50}[tuple([2, 2])]", True),  # what a row's convert computes
        ("paddle.nn.Tanh if Block.expansion == 4 else paddle.nn.ReLU", True),
        ("len([1, 2]) * 3 - 1", True),
        ("x", False),  # an input: each probe changes it
        ("n + 1", False),
        ("np.random.rand(2).tolist()", False),  # a call other than a pure builtin
        ("Block().size", False),
    ],
)
def test_constructions_from_values_every_run_shares_are_copied(argument: str, copied: bool) -> None:
    # a construction is built once per job and copied after only when its arguments are the
    # same in every run: constants, shared names (the setup's), library names, and what
    # conversions compute from them
    construction = pycode.parse_expression(f"paddle.nn.Layer({argument})")
    hooked_text = ast.unparse(hooked(construction, 0, frozenset({"Block"})))
    assert hooked_text.startswith("__apimap_layer__.build(") is copied


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("y = torch.ones(3) + torch.nn.functional.pad(x, (1, 1))", "`torch.ones`"),
        ("import torch\ny = torch.nn.functional.pad(x, (1, 1))", "`import`"),
        ("y = x + 1", "没有调用"),
        ("y = torch.nn.functional.pad(x)", "缺少必需的 `pad`"),
        ("y = torch.nn.functional.pad(x, (1,), bogus=1)", "没有参数 `bogus`"),
        ("y = torch.nn.functional.pad(*args)", "不能使用 * 或 ** 展开实参"),
        ("y = (", "不是合法的 Python"),
    ],
)
def test_underivable_calls_say_why(code: str, message: str) -> None:
    with pytest.raises(CallError) as raised:
        derive(PAD, code)
    assert message in raised.value.detail


def test_arguments_that_need_a_rewrite_cannot_be_derived() -> None:
    rewrite = record(
        torch_api="torch.abs",
        torch_signature="torch.abs(input, *, out=None)",
        paddle_api="paddle.abs",
        paddle_signature="paddle.abs(x, name=None)",
        category="torch_more",
        params=[
            {"torch": "input", "paddle": "x", "desc": "输入"},
            {"torch": "out", "kind": "torch_only", "desc": "输出", "action": "rewrite"},
        ],
    )
    assert derive(rewrite, "torch.abs(a)").paddle == "result = paddle.abs(x=a)"
    with pytest.raises(CallError, match="需要转写"):
        derive(rewrite, "torch.abs(a, out=b)")


def test_varargs_need_paddle_to_accept_them() -> None:
    reshape = record(
        torch_api="torch.Tensor.reshape",
        api_type="method",
        torch_signature="torch.Tensor.reshape(*shape)",
        paddle_api="paddle.Tensor.reshape",
        paddle_signature="paddle.Tensor.reshape(shape, name=None)",
        params=[{"torch": "*shape", "paddle": "shape", "desc": "形状"}],
    )
    with pytest.raises(CallError, match="可变参数"):
        derive(reshape, "x.reshape(2, 3)")
    accepted = reshape.model_copy(update={"paddle_accepts": {"*shape": "shape"}})
    assert derive(accepted, "x.reshape(2, 3)").paddle == "result = x.reshape(2, 3)"


def test_attributes_and_constants_are_replaced_by_name() -> None:
    transposed = record(
        torch_api="torch.Tensor.T", api_type="attribute", paddle_api="paddle.Tensor.T"
    )
    assert derive(transposed, "x.T").paddle == "result = x.T"
    dtype = record(torch_api="torch.float32", api_type="constant", paddle_api="paddle.float32")
    assert derive(dtype, "x.to(torch.float32)").paddle == "result = x.to(paddle.float32)"


def test_positional_form_fills_skipped_defaults_and_keeps_naive_paddle_positions() -> None:
    pad_form = positional_form(PAD, "torch.nn.functional.pad(x, (1, 2), value=3.5)")
    assert pad_form == "result = torch.nn.functional.pad(x, (1, 2), 'constant', 3.5)"
    naive = derive(PAD, pad_form, naive=True)
    assert naive.paddle.startswith("result = paddle.nn.functional.pad(x, (1, 2), 'constant', 3.5")
    assert positional_form(PAD, "torch.nn.functional.pad(x)") is None


def test_scalar_forms_replace_one_tensor_argument_at_a_time() -> None:
    where = record(
        torch_api="torch.where",
        torch_signature="torch.where(condition, input, other)",
        paddle_api="paddle.where",
        paddle_signature="paddle.where(condition, x=None, y=None, name=None)",
        paddle_accepts={"input": "x", "other": "y"},
        params=[
            {"torch": "condition", "desc": "条件"},
            {"torch": "input", "desc": "真"},
            {"torch": "other", "desc": "假"},
        ],
    )
    forms = scalar_forms(where, "torch.where(c, x, y)", {"x", "y"})
    assert [(kind, param) for kind, param, _ in forms] == [
        ("scalar", "input"),
        ("int_scalar", "input"),
        ("scalar", "other"),
        ("int_scalar", "other"),
    ]
    assert forms[3][2] == "result = torch.where(c, x, 2)"


def test_assigned_names_in_order_with_unpacking() -> None:
    tree = parse_call("a, (b, *c) = f()\nd: int = 1\na += 1\nfor e in x: pass\nprint(g)\n")
    assert assigned(tree) == ["a", "b", "c", "d"]
    assert assigned(parse_call("def f():\n    inner = 1\nclass C:\n    field = 1\n")) == []


def test_assignments_inside_blocks_bind_module_names() -> None:
    code = (
        "with torch.no_grad():\n    a = x * 2\n"
        "if x:\n    b = 1\nelse:\n    c = 2\n"
        "try:\n    d = 3\nexcept E:\n    e = 4\nfinally:\n    f = 5\n"
    )
    assert assigned(parse_call(code)) == ["a", "b", "c", "d", "e", "f"]


AMAX = record(
    torch_api="torch.Tensor.amax",
    api_type="method",
    torch_signature="torch.Tensor.amax(dim=(), keepdim=False)",
    paddle_api="paddle.Tensor.amax",
    paddle_signature="paddle.Tensor.amax(axis=None, keepdim=False, name=None)",
    inplace={"torch": "torch.Tensor.amax_", "paddle": "paddle.Tensor.amax_"},
    paddle_accepts={"dim": "axis"},
    params=[
        {"torch": "dim", "kind": "default_diff", "desc": "维度", "paddle_value": "()"},
        {"torch": "keepdim", "desc": "保留"},
    ],
)


def test_a_default_is_not_repeated_for_an_argument_kept_in_place() -> None:
    positional = positional_form(AMAX, "y = x.amax(dim=1, keepdim=True)")
    assert positional == "y = x.amax(1, True)"
    assert derive(AMAX, positional, naive=True).paddle == "y = x.amax(1, True)"
    assert derive(AMAX, "y = x.amax()").paddle == "y = x.amax(dim=())"  # the default is set


def test_the_in_place_variant_gets_the_real_paddle_names() -> None:
    assert derive(AMAX, "y = x.amax(dim=1)").paddle == "y = x.amax(dim=1)"
    assert derive(AMAX, "x.amax_(dim=1)").paddle == "result = x.amax_(axis=1)"


EINSUM = record(
    torch_api="torch.einsum",
    torch_signature="torch.einsum(equation, *operands)",
    paddle_api="paddle.einsum",
    paddle_signature="paddle.einsum(equation, *operands)",
    params=[{"torch": "equation", "desc": "式子"}, {"torch": "*operands", "desc": "张量"}],
)
PROD = record(
    torch_api="torch.cartesian_prod",
    torch_signature="torch.cartesian_prod(*tensors)",
    paddle_api="paddle.atleast_1d",
    paddle_signature="paddle.atleast_1d(*inputs, name=None)",
    params=[
        {
            "torch": "*tensors",
            "paddle": "*inputs",
            "kind": "usage_diff",
            "desc": "张量",
            "diff": "示例",
            "convert": "[t for t in value]",
            "action": "rewrite",
        }
    ],
)


def test_a_parameter_before_varargs_comes_by_position() -> None:
    assert derive(EINSUM, "y = torch.einsum('ii->i', a)").paddle == "y = paddle.einsum('ii->i', a)"


def test_a_converted_varargs_argument_is_unpacked() -> None:
    derived_code = derive(PROD, "y = torch.cartesian_prod(a, b)").paddle
    assert derived_code == "y = paddle.atleast_1d(*[t for t in (a, b)])"


MESHGRID = record(
    torch_api="torch.meshgrid",
    torch_signature="torch.meshgrid(*tensors, indexing=None)",
    paddle_api="paddle.meshgrid",
    paddle_signature="paddle.meshgrid(*args, **kwargs)",
    params=[
        {"torch": "*tensors", "paddle": "*args", "desc": "张量"},
        {"torch": "indexing", "paddle": "**kwargs", "desc": "方式"},
    ],
)


def test_an_argument_paddle_takes_through_kwargs_keeps_its_name() -> None:
    derived_code = derive(MESHGRID, "a, b = torch.meshgrid(x, y, indexing='ij')").paddle
    assert derived_code == "a, b = paddle.meshgrid(x, y, indexing='ij')"


def test_a_naive_positional_form_drops_what_the_table_says_to_delete() -> None:
    vjp = record(
        torch_api="torch.autograd.functional.vjp",
        torch_signature="torch.autograd.functional.vjp(func, inputs, v=None, create_graph=False)",
        paddle_api="paddle.incubate.autograd.vjp",
        paddle_signature="paddle.incubate.autograd.vjp(func, xs, v=None)",
        category="torch_more",
        params=[
            {"torch": "func", "desc": "函数"},
            {"torch": "inputs", "paddle": "xs", "desc": "输入"},
            {"torch": "v", "desc": "向量"},
            {"torch": "create_graph", "kind": "torch_only", "desc": "建图", "action": "delete"},
        ],
    )
    code = "r = torch.autograd.functional.vjp(f, x, w, False)"
    assert derive(vjp, code, naive=True).paddle == "r = paddle.incubate.autograd.vjp(f, x, w)"
    assert derive(vjp, code).paddle == "r = paddle.incubate.autograd.vjp(func=f, xs=x, v=w)"


# --- the forms the probes of the second wave run ---------------------------------------------

CONV_T = record(
    torch_api="torch.nn.functional.conv_transpose2d",
    torch_signature=(
        "torch.nn.functional.conv_transpose2d(input, weight, bias=None, stride=1, padding=0, "
        "output_padding=0, groups=1, dilation=1)"
    ),
    paddle_api="paddle.nn.functional.conv2d_transpose",
    paddle_signature=(
        "paddle.nn.functional.conv2d_transpose(x, weight, bias=None, stride=1, padding=0, "
        "output_padding=0, dilation=1, groups=1, output_size=None, data_format='NCHW', name=None)"
    ),
    params=[
        {"torch": "input", "paddle": "x", "desc": "输入"},
        *({"torch": name, "desc": name} for name in ("weight", "bias", "stride", "padding")),
        *({"torch": name, "desc": name} for name in ("output_padding", "groups", "dilation")),
    ],
)


def test_positional_forms_reach_each_parameter_with_another_value() -> None:
    found = dict(positional_forms(CONV_T, "y = torch.nn.functional.conv_transpose2d(x, w)"))
    assert list(found) == ["stride", "padding", "output_padding", "groups", "dilation"]
    assert found["groups"] == "y = torch.nn.functional.conv_transpose2d(x, w, None, 1, 0, 0, 2)"
    naive = derive(CONV_T, found["groups"], naive=True)
    # paddle's 7th parameter is dilation: the value lands there, as it would for a person
    assert naive.paddle == "y = paddle.nn.functional.conv2d_transpose(x, w, None, 1, 0, 0, 2)"


def test_parameter_forms_flip_flags_and_change_numbers_and_modes() -> None:
    found = dict(parameter_forms(PAD, "y = torch.nn.functional.pad(x, (1, 1))"))
    # `value` defaults to None (no other value is known); `mode` tries every documented mode
    assert "mode:mode=reflect" in found and "mode:mode=constant" not in found
    assert not any(probe.startswith("value:value") for probe in found)
    pool = record(
        torch_api="torch.nn.functional.max_pool1d",
        torch_signature=(
            "torch.nn.functional.max_pool1d(input, kernel_size, stride=None, padding=0, "
            "ceil_mode=False, return_indices=False)"
        ),
        paddle_api="paddle.nn.functional.max_pool1d",
        params=[{"torch": "input", "paddle": "x", "desc": "输入"}],
    )
    forms = dict(parameter_forms(pool, "y = torch.nn.functional.max_pool1d(x, 2)"))
    assert forms == {
        "value:padding": "y = torch.nn.functional.max_pool1d(x, 2, padding=1)",
        "flag:ceil_mode": "y = torch.nn.functional.max_pool1d(x, 2, ceil_mode=True)",
        "flag:return_indices": "y = torch.nn.functional.max_pool1d(x, 2, return_indices=True)",
    }
    loss = record(
        torch_api="torch.nn.functional.l1_loss",
        torch_signature="torch.nn.functional.l1_loss(input, target, reduction='mean')",
        paddle_api="paddle.nn.functional.l1_loss",
        params=[{"torch": "input", "paddle": "x", "desc": "输入"}],
    )
    modes = [probe for probe, _ in parameter_forms(loss, "y = torch.nn.functional.l1_loss(a, b)")]
    assert modes == ["mode:reduction=none", "mode:reduction=sum"]


SCHEDULER = record(
    torch_api="torch.optim.lr_scheduler.StepLR",
    api_type="class",
    torch_signature="torch.optim.lr_scheduler.StepLR(optimizer, step_size, gamma=0.1, last_epoch=-1)",
    paddle_api="paddle.optimizer.lr.StepDecay",
    paddle_signature=(
        "paddle.optimizer.lr.StepDecay(learning_rate, step_size, gamma=0.1, last_epoch=-1, "
        "verbose=False)"
    ),
    category="context_change",
    params=[
        {
            "torch": "optimizer",
            "paddle": "learning_rate",
            "kind": "usage_diff",
            "desc": "优化器",
            "diff": "传入学习率",
            "action": "rewrite",
        },
        {"torch": "step_size", "desc": "间隔"},
        {"torch": "gamma", "desc": "系数"},
        {"torch": "last_epoch", "desc": "上一轮"},
    ],
)


def test_recipe_forms_set_the_same_value_on_both_hand_written_sides() -> None:
    torch_code = "s = torch.optim.lr_scheduler.StepLR(opt, 2)\nlr = s.get_last_lr()"
    paddle_code = "s = paddle.optimizer.lr.StepDecay(0.1, 2)\nlr = s.get_lr()"
    forms = {
        probe: (t, p) for probe, t, p in recipe_parameter_forms(SCHEDULER, torch_code, paddle_code)
    }
    assert list(forms) == ["value:gamma", "value:last_epoch"]
    torch_variant, paddle_variant = forms["value:last_epoch"]
    assert torch_variant.startswith("s = torch.optim.lr_scheduler.StepLR(opt, 2, last_epoch=2)")
    assert paddle_variant.startswith("s = paddle.optimizer.lr.StepDecay(0.1, 2, last_epoch=2)")
    # a parameter the paddle code already passes by position is not set twice
    passed = "s = paddle.optimizer.lr.StepDecay(0.1, 2, 0.5)\nlr = s.get_lr()"
    assert [p for p, _t, _p in recipe_parameter_forms(SCHEDULER, torch_code, passed)] == [
        "value:last_epoch"
    ]


CONCAT = record(
    torch_api="torch.cat",
    torch_signature="torch.cat(tensors, dim=0, *, out=None)",
    paddle_api="paddle.concat",
    paddle_signature="paddle.concat(x, axis=0, name=None)",
    paddle_accepts={"tensors": "x", "dim": "axis"},
    params=[{"torch": "tensors", "desc": "张量"}, {"torch": "dim", "desc": "维度"}],
)


def test_the_portable_form_uses_paddles_own_names() -> None:
    code = "y = torch.cat(tensors=[x, z], dim=1)"
    assert derive(CONCAT, code).paddle == "y = paddle.concat(tensors=[x, z], dim=1)"
    assert derive(CONCAT, code, portable=True).paddle == "y = paddle.concat(x=[x, z], axis=1)"


def test_varargs_a_newer_paddle_takes_become_one_list_in_the_portable_form() -> None:
    view = record(
        torch_api="torch.Tensor.view",
        api_type="method",
        torch_signature="torch.Tensor.view(*shape)",
        paddle_api="paddle.Tensor.view",
        paddle_signature="paddle.Tensor.view(shape_or_dtype, name=None)",
        paddle_accepts={"*shape": "shape_or_dtype"},
        params=[{"torch": "*shape", "paddle": "shape_or_dtype", "desc": "形状"}],
    )
    assert derive(view, "y = x.view(2, 3)").paddle == "y = x.view(2, 3)"
    assert derive(view, "y = x.view(2, 3)", portable=True).paddle == (
        "y = x.view(shape_or_dtype=[2, 3])"
    )


def test_a_drop_in_keeps_the_call_and_changes_the_name_only() -> None:
    renamed = drop_in(CONCAT, "y = torch.cat([x, z], dim=1, out=o)", "paddle.cat")
    assert renamed.paddle == "y = paddle.cat([x, z], dim=1, out=o)"
    method = drop_in(OUTER, "y = x.outer(v)", "paddle.Tensor.outer")
    assert method.paddle == "y = x.outer(v)"
    # the in-place torch API goes to the drop-in's in-place form, never out of place
    inplace = drop_in(AMAX, "x.amax_(dim=1)\ny = x.amax(1)", "paddle.Tensor.max")
    assert inplace.paddle == "x.max_(dim=1)\ny = x.max(1)"


@pytest.mark.parametrize(
    "source",
    [
        "y = torch.nn.LSTM(3, 4, batch_first=True)(x)[0].sum(dim=-1)",
        "with tempfile.TemporaryDirectory() as d:\n    for i, n in enumerate(['a', 'b']):\n"
        "        f = [k async for k in g] if d else {n: i}\n",
        "match x:\n    case [1, *rest] if rest:\n        pass\n",
    ],
)
def test_the_list_walk_sees_every_node_in_the_generators_order(source: str) -> None:
    tree = ast.parse(source)
    assert [id(node) for node in pycode.walk(tree)] == [id(node) for node in ast.walk(tree)]
    # the depth check's level walk lists the nodes of the tree it parsed in the same order
    parsed, nodes = pycode.parse_walked(source)
    assert [id(node) for node in nodes] == [id(node) for node in ast.walk(parsed)]
