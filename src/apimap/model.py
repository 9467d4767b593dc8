"""The mapping record: one YAML file per torch API.

The model holds types and shape only. Every rule of the specification that
relates fields to each other lives in a rule unit under :mod:`apimap.rules`,
so that it is reported with a code and a location instead of stopping at the
first problem.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints

from apimap.categories import Action, Category, RowKind, Section

Text = Annotated[str, StringConstraints(min_length=1)]
ApiName = Annotated[
    str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
]
Url = Annotated[str, StringConstraints(pattern=r"^https://\S+$")]
Version = Annotated[str, StringConstraints(pattern=r"^\d+(\.\d+)*([a-z0-9.+-]*)$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class ParamRow(_Strict):
    """参数映射表的一行 / One row of the parameter mapping table."""

    torch: Text | None = None
    """PyTorch 参数名，可变参数写作 `*size` / torch parameter name (``*size`` for varargs)."""

    paddle: Text | None = None
    """Paddle 参数名 / paddle parameter name."""

    kind: RowKind
    """两侧参数的关系 / how the two parameters relate:
    same 一致, rename 仅参数名不一致, paddle_only PyTorch 无此参数,
    default_diff 默认值不一致, torch_only Paddle 无此参数, type_diff 输入类型不一致,
    usage_diff 输入用法不一致, return_diff 返回类型不一致."""

    desc: Text
    """参数含义，不以标点结尾 / what the parameter means, without final punctuation."""

    diff: Text | None = None
    """不一致之处（type_diff/usage_diff/return_diff 必填）/ how usage differs."""

    setting: Text | None = None
    """Paddle 应如何设置（paddle_only/default_diff，可选）/ how to set the paddle parameter."""

    action: Action | None = None
    """torch_only 与不一致行的处理方式 / what to do: rewrite 需要转写, none 暂无转写方式,
    delete 可直接删除."""

    note: Text | None = None
    """附加说明，完整句子并以 。 结尾 / an extra explanation, a full sentence ending in 。."""


class Case(_Strict):
    """一个转写示例 / one rewrite example."""

    when: Text | None = None
    """适用条件，如 `affine=False 时` / the condition this case covers."""

    torch: Text
    """PyTorch 写法 / the PyTorch code."""

    paddle: Text
    """Paddle 写法 / the equivalent Paddle code."""

    inputs: dict[Text, Text] = Field(default_factory=dict)
    """验证用的输入：变量名 → NumPy 表达式（可用 `np`），两侧分别转换为 torch / paddle 的 Tensor
    / inputs for verification: name -> NumPy expression, converted to each side's tensor."""

    outputs: list[Text] | None = None
    """要比较的结果变量；省略时比较两侧都赋值的顶层变量
    / result names to compare; default: top-level names both snippets assign."""

    rtol: float | None = None
    """相对误差容限 / relative tolerance for tensor values."""

    atol: float | None = None
    """绝对误差容限 / absolute tolerance for tensor values."""

    no_value_compare: Text | None = None
    """不比较数值的原因（随机或有状态的示例），仍比较类型、dtype 与形状
    / why values are not compared (random or stateful cases); types, dtypes and shapes still are."""


class Example(_Strict):
    """某个参数（或整个 API）的转写示例 / rewrite examples for one parameter or the API."""

    param: Text | None = None
    """对应的 PyTorch 参数名；省略表示整个 API / the torch parameter; omit for the whole API."""

    purpose: Text | None = None
    """参数功能（标题“参数名：功能”）；默认取该行的 desc / the heading's purpose text."""

    cases: list[Case] = Field(min_length=1)
    """一个或多个示例 / one or more cases."""


class Note(_Strict):
    """迁移注意事项 / a migration note."""

    text: Text
    """说明，以 。 结尾 / the note, ending in 。."""

    example: Case | None = None
    """演示该行为的示例 / an example that shows the behaviour."""


class Verified(_Strict):
    """验证时使用的库版本 / library versions the record was verified against."""

    torch: Version
    paddle: Version
    torchvision: Version | None = None
    """torchvision 记录另需 torchvision 的版本 / torchvision records also name its version."""


class Record(_Strict):
    """一条 PyTorch → Paddle API 映射记录 / one PyTorch → Paddle API mapping record."""

    torch_api: ApiName
    """PyTorch API 全称，如 `torch.nn.Conv2d` / full torch API name."""

    torch_signature: Text | list[Text] | None = None
    """PyTorch 签名（可多个重载）/ torch signature, or a list of overloads."""

    torch_url: Url | None = None
    """PyTorch 文档链接 / torch documentation URL."""

    paddle_api: ApiName | None = None
    """Paddle API 全称；组合替代实现与功能缺失时省略 / full paddle API name."""

    paddle_package: Text | None = None
    """对应 API 所在的包（对应 API 不在主框架）/ the package that holds the counterpart."""

    paddle_signature: Text | None = None
    """Paddle 签名 / paddle signature."""

    paddle_url: Url | None = None
    """Paddle 文档链接 / paddle documentation URL."""

    paddle_param_aliases: dict[Text, Text] = Field(default_factory=dict)
    """Paddle 接受的 PyTorch 风格参数别名，别名 → 参数，如 `{input: x}`
    / torch-style parameter aliases paddle accepts (alias -> parameter)."""

    paddle_skip_first: StrictBool = False
    """类成员映射为非类成员时忽略 Paddle 第一个参数 / skip paddle's first parameter."""

    category: Category
    """映射分类 / mapping category (see the specification)."""

    section: Section | None = None
    """映射表中的类别 / section of the mapping tables."""

    aliases: list[ApiName] = Field(default_factory=list)
    """PyTorch 别名，如 `torch.multiply` / torch aliases of this API."""

    summary: Text | None = None
    """一句话总结（覆盖默认）/ one-sentence summary overriding the generated one."""

    params: list[ParamRow] = Field(default_factory=list)
    """参数映射，按 PyTorch 签名顺序 / parameter rows, in torch signature order."""

    examples: list[Example] = Field(default_factory=list)
    """转写示例 / rewrite examples."""

    notes: list[Note] = Field(default_factory=list)
    """迁移注意事项 / migration notes."""

    reason: Text | None = None
    """功能缺失的原因 / why Paddle has no counterpart (category 7)."""

    verified: Verified | None = None
    """验证版本 / versions the record was verified against."""

    @property
    def torch_overloads(self) -> list[str]:
        """The torch signatures as a list (one entry per overload)."""
        if self.torch_signature is None:
            return []
        if isinstance(self.torch_signature, str):
            return [self.torch_signature]
        return list(self.torch_signature)
