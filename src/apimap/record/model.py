"""The mapping record: one YAML file per torch API (record format 2).

The model holds types and shape only. Every rule of the specification that
relates fields to each other lives in a rule unit under :mod:`apimap.checking.rules`,
so that it is reported with a code and a location instead of stopping at the
first problem. Facts that follow from other fields (a ``same`` row's paddle
name, the documentation links, the category of groups 1 to 3) may be left out;
:mod:`apimap.record.derived` computes them.

Every text field carries its :class:`TextRole`, so the text rules find every
prose field of the model by itself: a new field cannot escape them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from apimap.record.categories import (
    Action,
    ApiType,
    Category,
    MissingReason,
    Needs,
    RowKind,
    Section,
    ShapeOnly,
)


class TextRole(StrEnum):
    """What a text field holds, for the rules that check text."""

    NAME = "name"
    """A short name (二维卷积层): no final punctuation."""
    INLINE = "inline"
    """Text that a generated phrase or a colon continues: no final punctuation."""
    SENTENCE = "sentence"
    """One or more full sentences: ends with 。"""
    SUMMARY = "summary"
    """The summary under the signatures: ends with 。 or ："""
    HEADING = "heading"
    """The text of a heading (an example's purpose): nothing continues it, and the
    specification does not say how it ends."""
    CODE = "code"
    """Python code."""


PROSE_ROLES = frozenset(role for role in TextRole if role is not TextRole.CODE)
"""The roles of text a reader reads (everything but code)."""

_TEXT = StringConstraints(min_length=1, pattern=r"\S")

Text = Annotated[str, _TEXT]
"""Any non-blank text."""
Name = Annotated[str, _TEXT, TextRole.NAME]
Inline = Annotated[str, _TEXT, TextRole.INLINE]
Sentence = Annotated[str, _TEXT, TextRole.SENTENCE]
Summary = Annotated[str, _TEXT, TextRole.SUMMARY]
HeadingText = Annotated[str, _TEXT, TextRole.HEADING]
Code = Annotated[str, _TEXT, TextRole.CODE]

ApiName = Annotated[
    str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
]
ParamName = Annotated[str, StringConstraints(pattern=r"^(\*{1,2})?[A-Za-z_][A-Za-z0-9_]*$")]
"""A parameter as a row writes it: ``dim``, ``*size`` for varargs, ``**kwargs``."""
Identifier = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
PackageName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_.-]*$")]
ProbeId = Annotated[str, StringConstraints(pattern=r"^(\*|[a-z_*]+(:[A-Za-z0-9_*=.\-]+)?)$")]
"""A probe of ``apimap verify``: ``positional``, ``dtype:uint8``, ``scalar:other`` ..."""
Url = Annotated[str, StringConstraints(pattern=r"^https://[^\s<>\"'`]+$")]
Names = ParamName | list[ParamName]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ConditionalAction(_Strict):
    """某个条件下的处理方式 / what to do under one condition."""

    when: Inline
    """条件，备注中写作「条件时」，如 `两侧设备相同` / the condition (the remark adds 时)."""

    action: Action
    """该条件下的处理方式 / what to do then."""


class ParamRow(_Strict):
    """参数映射表的一行 / One row of the parameter mapping table."""

    torch: Names | None = None
    """PyTorch 参数名，可变参数写作 `*size`；一行对应多个参数时写列表
    / torch parameter (``*size`` for varargs); a list when several map together."""

    paddle: Names | None = None
    """Paddle 参数名；与 PyTorch 相同（same）时省略；对应多个参数时写列表
    / paddle parameter; omitted when it is the torch name; a list when one maps to several."""

    kind: RowKind | None = None
    """两侧参数的关系；省略时按名称推导为 same 或 rename / how the parameters relate
    (omitted: same when the names agree, rename otherwise): same 一致, rename 仅参数名不一致,
    paddle_only PyTorch 无此参数, default_diff 默认值不一致, torch_only Paddle 无此参数,
    type_diff 输入类型不一致, usage_diff 输入用法不一致, return_diff 返回类型不一致."""

    desc: Inline | None = None
    """参数含义，不以标点结尾；省略时，常用的参数名（input、out、keepdim……）取通用的含义，其余
    参数的备注只有固定短语 / what the parameter means, without final punctuation; left out, a
    common parameter name (input, out, keepdim, …) has its usual meaning, any other row's
    remark is only the fixed phrase."""

    diff: Inline | None = None
    """不一致之处（type_diff/usage_diff/return_diff 必填）/ how usage differs."""

    setting: Inline | None = None
    """Paddle 应如何设置（paddle_only/default_diff，可选）/ how to set the paddle parameter."""

    paddle_value: Text | None = None
    """不传该参数时，Paddle 参数应取什么值才与 PyTorch 的默认行为一致（Python 表达式）；
    验证时传给 Paddle（paddle_only、default_diff、type_diff、usage_diff）
    / the value (a Python expression) paddle needs to behave as torch's default; verify
    passes it."""

    convert: Text | None = None
    """把 PyTorch 实参转为 Paddle 实参的 Python 表达式，`value` 表示 PyTorch 的实参
    / a Python expression turning the torch argument ``value`` into the paddle argument."""

    action: Action | None = None
    """torch_only 与不一致行的处理方式 / what to do: rewrite 需要转写, none 暂无转写方式,
    delete 可直接删除."""

    actions: list[ConditionalAction] = Field(default_factory=list)
    """处理方式取决于条件时代替 action，按顺序写出每个条件，如「相同时需要转写，不同时暂无转写方式」
    / instead of action when what to do depends on a condition: one entry per condition."""

    note: Sentence | None = None
    """附加说明，完整句子并以 。 结尾 / an extra explanation, a full sentence ending in 。."""


class Execution(_Strict):
    """如何运行并比较一段代码 / how code is run and its results compared."""

    inputs: dict[Identifier, Text] = Field(default_factory=dict)
    """验证用的输入：变量名 → NumPy 表达式（可用 `np`），两侧分别转换为 torch / paddle 的 Tensor
    / inputs: name -> NumPy expression, converted to each side's tensor."""

    outputs: list[Identifier] | None = None
    """要比较的结果变量；省略时比较两侧都赋值的顶层变量（调用为表达式时比较其值）；
    `[]` 表示只确认两侧都能运行，用于返回值不同、无法比较的 API
    / result names to compare; default: names both sides assign (or the expression's value);
    `[]` only checks that both sides run, for APIs whose results cannot be compared."""

    rtol: float | None = None
    """相对误差容限 / relative tolerance for tensor values."""

    atol: float | None = None
    """绝对误差容限 / absolute tolerance for tensor values."""

    shape_only: dict[Identifier, ShapeOnly] = Field(default_factory=dict)
    """只比较类型、dtype 与形状的结果及原因（random 随机、uninitialized 未初始化、device
    只影响设备）；random 与 device 还须有一个按数值比较的结果，如统计量
    / results compared by type, dtype and shape only, with the reason."""

    ranks: int | None = Field(default=None, ge=2, le=4)
    """在几个进程组成的进程组中运行（gloo 后端，本机回环）：每侧启动这么多个进程，环境变量与
    启动器（torchrun、paddle.distributed.launch）设置的相同，`setup` 中初始化进程组，输入表达式可用
    `rank`；结果按进程逐个比较 / run in a process group of this many processes on each side
    (gloo over loopback, the launcher's environment variables set; `setup` initialises the
    group; inputs may use `rank`); results are compared rank by rank."""

    needs: Needs | None = None
    """这段代码需要而验证机器可能没有的东西。gpu 需要 GPU，xpu 需要 XPU（PyTorch 指 Intel GPU，
    Paddle 指昆仑芯），network 需要网络：没有时只确认两侧都因此报错（在库的代码中报错，或报错信息说到
    设备或网络；代码本身的 NameError、TypeError 等不算）。rpc 需要Paddle 安装包中的 RPC 支持：
    PyTorch 一侧照常运行，Paddle 一侧须在库中报错；cuda_toolkit 需要 CUDA 工具包（CUDA_HOME）：Paddle 一侧照常
    运行，PyTorch 一侧须因此报错。foreign_code 是会运行记录之外的代码（下载的仓库、
    编译的 C++ 扩展）的代码：验证从不运行它，示例代码规则也不检查它。徽章都为部分验证，页面写明没有
    执行的部分 / what the code needs that the verifying machine may lack: gpu, xpu, network
    (both sides must refuse for want of it; the code's own NameError, TypeError… are reported);
    rpc (torch runs as usual, paddle's package lacks RPC and must raise inside paddle);
    cuda_toolkit (paddle runs as usual, torch must raise for want of the CUDA toolkit);
    foreign_code (code that would run a downloaded repository or compiled C++: never run, and
    the example-code rules do not apply). The badge says partly verified, naming what did not
    run."""


class Setup(_Strict):
    """调用前两侧各自运行的准备代码，如构造要调用其方法的对象
    / code each side runs before the call, e.g. building the object whose method is called."""

    torch: Code
    """PyTorch 侧的准备代码 / the torch side."""

    paddle: Code
    """Paddle 侧的准备代码 / the paddle side."""


class _CallCode(_Strict):
    when: Inline | None = None
    """这次调用说明什么 / what this call shows."""

    setup: Setup | None = None
    """准备代码；其中构造的层在两侧使用相同的权重 / setup code; layers it builds get the same
    weights on both sides."""

    torch: Code
    """调用本 API 的 PyTorch 代码（一个表达式或几行语句）；除本 API 与 dtype 外不使用 torch
    / torch code calling this API (an expression or statements); no other torch name."""

    weights: Code | None = None
    """两侧权重名称或排列不同时，Paddle 侧在复制前改写 PyTorch 权重的代码：`state` 是
    PyTorch 权重名 → NumPy 数组的字典，代码就地改写它（改名、拆分、转置），如把
    `in_proj_weight` 拆成 `q_proj.weight` 等三项
    / paddle-side code that rewrites torch's weights before they are copied, when names or
    layouts differ: it changes `state` (torch weight name -> NumPy array) in place."""


class Call(Execution, _CallCode):
    """可执行的参数映射：一段 PyTorch 代码，Paddle 代码由参数映射推导
    / an executable parameter map: torch code whose paddle side is derived from the rows."""


class _CaseCode(_Strict):
    when: Inline | None = None
    """适用条件，如 `affine=False 时` / the condition this case covers."""

    torch: Code | None = None
    """PyTorch 写法；省略只在导入只有一侧代码的旧页面时出现（AM237 报告）
    / the PyTorch code; missing only in a case imported with one side (AM237 reports it)."""

    paddle: Code | None = None
    """Paddle 写法；省略同上 / the equivalent Paddle code; missing only as above."""


class Case(Execution, _CaseCode):
    """一个转写示例 / one rewrite example."""


class Example(_Strict):
    """某个参数（或整个 API）的转写示例 / rewrite examples for one parameter or the API."""

    param: ParamName | None = None
    """对应的 PyTorch 参数名；省略表示整个 API / the torch parameter; omit for the whole API."""

    purpose: HeadingText | None = None
    """参数功能（标题“参数名：功能”）；默认取该行的 desc / the heading's purpose text."""

    cases: list[Case] = Field(min_length=1)
    """一个或多个示例 / one or more cases."""


class Note(_Strict):
    """迁移注意事项 / a migration note."""

    text: Sentence
    """说明，以 。 结尾 / the note, ending in 。."""

    example: Case | None = None
    """演示该行为的示例 / an example that shows the behaviour."""

    probes: list[ProbeId] = Field(default_factory=list)
    """本条说明所解释的探测差异，如 `dtype:uint8` / probe differences this note explains."""


class Accepted(_Strict):
    """接受的探测差异 / a probe difference accepted without a note."""

    probe: ProbeId
    """探测的名称，如 `positional`、`dtype:bfloat16` / the probe."""

    reason: Sentence
    """为什么可以接受 / why it does not matter for migration."""


class Considered(_Strict):
    """看起来像对应 API、但不能对应的 Paddle API / a paddle API that looks like a counterpart."""

    paddle: ApiName
    """Paddle API 全称 / the paddle API."""

    why: Sentence
    """为什么不能对应 / why it is not the counterpart."""


class Missing(_Strict):
    """功能缺失的原因 / why Paddle has no counterpart (category 7)."""

    reason: MissingReason | None = None
    """原因分类（必填，导入的旧记录可能暂缺）：cheap 可低成本新增、needs_kernels 需要新的底层设计、
    design_differs 设计差异过大、deprecated PyTorch 已弃用、experimental PyTorch 实验性功能
    / the class of reason (required; an imported record may lack it until a person decides)."""

    detail: Sentence
    """具体说明 / the explanation."""

    instead: Sentence | None = None
    """可以怎么做 / what to do instead."""

    considered: list[Considered] = Field(default_factory=list)
    """名称相近但不能对应的 Paddle API / similar paddle APIs and why they do not map."""


ImportCode = Annotated[str, StringConstraints(pattern=r"^IM[0-9]{3}$")]
"""A code of ``apimap import``'s report, such as ``IM301``."""


class ImportFinding(_Strict):
    """导入时发现的原页面问题，处理后删除 / a problem of the source page found on import;
    delete it once a person has dealt with it."""

    line: int = Field(ge=1)
    """原页面中的行号 / the line in the source page."""

    code: ImportCode
    """`apimap import` 的诊断代码，如 `IM301` / the import report's code."""

    detail: Text | None = None
    """具体说明 / what exactly."""

    text: Text | None = None
    """原文：记录中没有位置的文字，或导入时改写了的文字
    / the source text: text the record has no place for, or text the import rewrote."""


class Imported(_Strict):
    """导入的来源与尚待处理的问题；处理完后删除整个字段
    / where an imported record came from and what is left to review; delete it when done."""

    source: Text
    """导入的页面 / the page the record was imported from."""

    findings: list[ImportFinding] = Field(min_length=1)
    """原页面违反规范之处（导入时已规范化）与记录无法容纳的原文，`apimap check` 逐条报告
    / the page's violations the import normalised and the text the record cannot hold;
    ``apimap check`` reports each."""


class Alternative(_Strict):
    """另一种 Paddle 写法 / another way to write the call in paddle."""

    paddle: ApiName
    """Paddle API 全称，如 `paddle.cat`、`paddle.compat.max` / the paddle API."""

    cases: list[Case] = Field(default_factory=list)
    """改写示例；省略表示只需把 PyTorch API 的名称换成它、参数原样保留（验证时记录的每个调用
    都这样运行），如 `paddle.cat` 之于 `torch.cat`
    / rewrite cases; omitted: only the API's name changes and the arguments stay as torch
    takes them (verify runs every call of the record so)."""


class InplaceVariant(_Strict):
    """原位版本 / the in-place variant of the API."""

    torch: ApiName
    """PyTorch 原位 API，如 `torch.Tensor.add_` / the torch in-place API."""

    paddle: ApiName
    """对应的 Paddle 原位 API / its paddle counterpart."""

    aliases: list[ApiName] = Field(default_factory=list)
    """原位版本的其他名称，如 `torch.Tensor.clip_` 之于 `torch.Tensor.clamp_`
    / other names of the torch in-place API."""


class Record(_Strict):
    """一条 PyTorch → Paddle API 映射记录 / one PyTorch → Paddle API mapping record."""

    @model_validator(mode="before")
    @classmethod
    def _calls_share_inputs(cls, data: Any) -> Any:
        return with_shared_inputs(data)

    torch_api: ApiName
    """PyTorch API 全称，如 `torch.nn.Conv2d` / full torch API name."""

    api_type: ApiType = ApiType.FUNCTION
    """API 的类型：function 函数、class 类、method 方法、attribute 属性、constant 常量（含 dtype）、
    context_manager 上下文管理器、decorator 装饰器 / what kind of object the torch API is."""

    zh_name: Name
    """API 功能的中文简称，如 `二维卷积层` / a short Chinese name of what the API does."""

    torch_aliases: list[ApiName] = Field(default_factory=list)
    """同一 PyTorch API 的其他名称，如 `torch.multiply` / other names of the same torch API."""

    inplace: InplaceVariant | None = None
    """映射方式相同的原位版本 / the in-place variant, when it maps the same way."""

    torch_signature: Text | list[Text] | None = None
    """PyTorch 签名（可多个重载）；属性与常量不写 / torch signature, or a list of overloads."""

    torch_url: Url | None = None
    """PyTorch 文档链接；省略时按 API 名称生成 / torch documentation URL (default: derived)."""

    paddle_api: ApiName | None = None
    """Paddle API 全称；组合替代实现与功能缺失时省略 / full paddle API name."""

    paddle_package: PackageName | None = None
    """对应 API 所在的包（对应 API 不在主框架）/ the package that holds the counterpart."""

    paddle_signature: Text | list[Text] | None = None
    """Paddle 签名（可多个重载）/ paddle signature, or a list of overloads."""

    paddle_url: Url | None = None
    """Paddle 文档链接；省略时按 API 名称生成 / paddle documentation URL (default: derived)."""

    paddle_accepts: dict[ParamName, Identifier] = Field(default_factory=dict)
    """Paddle 还接受的 PyTorch 风格参数名：名称 → Paddle 参数，如 `{input: x}`；
    `{'*shape': shape}` 表示也接受可变参数写法
    / torch-style names paddle also accepts: name -> paddle parameter."""

    self_param: Identifier | None = None
    """Tensor 方法映射为 Paddle 函数时，接收该 Tensor 的 Paddle 参数，如 `x`
    / the paddle parameter that receives the object a torch method is called on."""

    alternatives: list[Alternative] = Field(default_factory=list)
    """其他写法：只需改名的 PyTorch 风格 API（如 `paddle.cat`、`paddle.compat.max`），或
    `paddle_api` 在较早版本中不存在时可用的改写；在每个 Paddle 版本上验证，页面按版本给出改动最少的写法
    / other ways: torch-style paddle APIs that take the call with only the name changed, or
    a rewrite for releases that lack ``paddle_api``; verified on every release."""

    category: Category | None = None
    """映射分类；第 1–3 类可由参数映射推导，`apimap check --fix` 会填写
    / mapping category; groups 1-3 are computed from the rows."""

    section: Section | None = None
    """映射表中的类别 / section of the mapping tables."""

    summary: Summary | None = None
    """一句话总结（覆盖默认）/ one-sentence summary overriding the generated one."""

    params: list[ParamRow] = Field(default_factory=list)
    """参数映射，按 PyTorch 签名顺序 / parameter rows, in torch signature order."""

    inputs: dict[Identifier, Text] = Field(default_factory=dict)
    """调用共用的输入：没有写 `inputs` 的调用用它（写 `inputs: {}` 的调用没有输入）
    / the inputs of every call that writes none (a call with ``inputs: {}`` has none)."""

    calls: list[Call] = Field(default_factory=list)
    """可执行的参数映射：PyTorch 调用，Paddle 调用由参数映射推导
    / torch calls whose paddle side verify derives from the rows."""

    examples: list[Example] = Field(default_factory=list)
    """转写示例 / rewrite examples."""

    notes: list[Note] = Field(default_factory=list)
    """迁移注意事项 / migration notes."""

    accepted: list[Accepted] = Field(default_factory=list)
    """接受的探测差异及原因 / probe differences accepted without a note."""

    missing: Missing | None = None
    """功能缺失的原因（仅功能缺失）/ why paddle has no counterpart (category missing only)."""

    imported: Imported | None = None
    """从旧页面导入时发现、尚待人工处理的问题 / problems found when importing a legacy page,
    until a person has dealt with them."""

    @property
    def torch_overloads(self) -> list[str]:
        """The torch signatures as a list (one entry per overload)."""
        return _overloads(self.torch_signature)

    @property
    def paddle_overloads(self) -> list[str]:
        """The paddle signatures as a list (one entry per overload)."""
        return _overloads(self.paddle_signature)


def _overloads(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def with_shared_inputs(data: Any) -> Any:
    """Record data whose calls without ``inputs`` carry the record's ``inputs`` (a new dict;
    data of any shape is returned as it is)."""
    if not isinstance(data, dict) or not isinstance(data.get("inputs"), dict):
        return data
    calls = data.get("calls")
    if not isinstance(calls, list):
        return data
    shared = data["inputs"]
    return {
        **data,
        "calls": [
            {**call, "inputs": dict(shared)}
            if isinstance(call, dict) and "inputs" not in call
            else call
            for call in calls
        ],
    }
