"""Every fixed Chinese phrase of the specification, and the names of every enumeration value.

This module is the one place that knows them: the renderer composes remarks
and summaries from them, the importer recognises them in legacy pages, and the
rule against hand-typed phrases derives its list from them. It imports
nothing from apimap, so that every other module can use it.
"""

from __future__ import annotations

CATEGORY_LABELS = {
    "no_params": "无参数",
    "identical": "参数完全一致",
    "names_differ": "仅参数名不一致",
    "paddle_more": "paddle 参数更多",
    "defaults_differ": "仅参数默认值不一致",
    "torch_more": "torch 参数更多",
    "input_type_diff": "输入参数类型不一致",
    "input_usage_diff": "输入参数用法不一致",
    "return_type_diff": "返回参数类型不一致",
    "composite": "组合替代实现",
    "context_change": "用法不同：涉及上下文修改",
    "other_package": "对应 API 不在主框架",
    "missing": "功能缺失",
}
"""Category value -> the name the specification gives it."""

UPSTREAM_CATEGORY_LABELS = {
    "no_params": "API 完全一致",
    "identical": "API 完全一致",
    "names_differ": "仅参数名不一致",
    "paddle_more": "paddle 参数更多",
    "defaults_differ": "参数默认值不一致",
    "torch_more": "torch 参数更多",
    "input_type_diff": "输入参数类型不一致",
    "input_usage_diff": "输入参数用法不一致",
    "return_type_diff": "返回参数类型不一致",
    "composite": "组合替代实现",
    "context_change": "涉及上下文修改",
    "other_package": "对应 API 不在主框架",
    "missing": "功能缺失",
}
"""Category value -> the name the upstream documentation repository's pages use today (its
category list merged 无参数 and 参数完全一致 into API 完全一致; the rows tell them apart)."""

TEMPLATE_CATEGORY_NAMES = {"仅 paddle 参数更多": "paddle_more"}
"""Titles the specification's own templates use besides the names in its list."""

DELETABLE_LABEL = "可删除"
"""A category of newer upstream pages that the specification does not have (the torch call
can simply be removed)."""

GROUP_NAMES = {
    1: "API 完全一致",
    2: "torch 参数更多",
    3: "参数不一致",
    4: "组合替代实现",
    5: "用法不同：涉及上下文修改",
    6: "对应 API 不在主框架",
    7: "功能缺失",
}
"""Category number -> its name."""

ACTION_PHRASES = {
    "rewrite": "需要转写",
    "none": "暂无转写方式",
    "delete": "一般对网络训练结果影响不大，可直接删除",
}
"""What a user does with a torch-only or inconsistent parameter."""

API_TYPE_LABELS = {
    "function": "函数",
    "class": "类",
    "method": "方法",
    "attribute": "属性",
    "constant": "常量",
    "context_manager": "上下文管理器",
    "decorator": "装饰器",
}

MISSING_REASON_LABELS = {
    "cheap": "可新增，框架已有实现所需的基础能力",
    "needs_kernels": "可新增，但需要新的底层设计或算子",
    "design_differs": "有类似功能，但设计差异过大，无法映射",
    "deprecated": "PyTorch 已弃用，无需新增",
    "experimental": "PyTorch 中为实验性或不稳定功能，暂不新增",
}
"""The five reasons the upstream documentation gives for a 功能缺失 API."""

SURFACE_KIND_LABELS = {
    "function": "函数",
    "class": "类",
    "method": "方法",
    "property": "属性",
    "attribute": "属性",
    "dtype": "数据类型",
    "constant": "常量",
}
"""The kinds of public names in the public-surface table."""

SHAPE_ONLY_LABELS = {
    "random": "结果是随机的",
    "uninitialized": "结果是未初始化的内存",
    "device": "只影响设备，CPU 上无可比较的数值",
}
"""Why a result's values are not compared."""

NEEDS_LABELS = {
    "gpu": "GPU",
    "xpu": "XPU",
    "network": "网络",
    "rpc": "Paddle 安装包中的 RPC 支持",
    "cuda_toolkit": "CUDA 工具包（CUDA_HOME）",
    "foreign_code": "下载的仓库或编译的 C++ 扩展",
}
"""What a piece of code needs that a verifying machine may lack (or, ``foreign_code``, the code
from outside the record it would run)."""
NOT_EXECUTED_NEEDS = {
    "both": "{where}需要 {needs}：验证的机器上没有，只确认了两侧都因此报错，结果没有比较",
    "paddle": "{where}需要 {needs}：验证的机器上没有，只确认了 PyTorch 一侧能运行、"
    "Paddle 一侧因此报错，结果没有比较",
    "torch": "{where}需要 {needs}：验证的机器上没有，只确认了 Paddle 一侧能运行、"
    "PyTorch 一侧因此报错，结果没有比较",
    "never_run": "{where}会运行记录之外的代码（{needs}）：验证从不执行这类代码，结果没有比较",
}
"""What stayed unproven for code that needs what the machine lacks, by how verify treats it
(:class:`apimap.record.categories.Refusal`)."""
CODE_LABELS = {
    "calls": "第 {number} 个调用",
    "examples": "第 {number} 组转写示例的第 {case} 个",
    "notes": "第 {number} 条注意事项的示例",
    "alternatives": "第 {number} 种其他写法",
}
"""Where code lives in a record, as a page names it."""

# Remarks of the parameter table.
RENAMED = "仅参数名不一致"
TORCH_LACKS = "PyTorch 无此参数"
PADDLE_LACKS = "Paddle 无此参数"
KEEP_DEFAULT = "Paddle 保持默认即可"
MATCH_TORCH = "Paddle 需设置为与 PyTorch 一致"
SET_TO = "Paddle 需设置为 {value}"
TORCH_DEFAULT = "PyTorch 默认值为 {value}"
PADDLE_DEFAULT = "Paddle 默认值为 {value}"
TORCH_NO_DEFAULT = "PyTorch 无默认值"
PADDLE_NO_DEFAULT = "Paddle 无默认值"
NO_DEFAULT = "无默认值"
CONDITIONAL_ACTION = "{when}时{phrase}"
"""One clause of a remark whose action depends on a condition (相同时需要转写)."""
RETURN_LABEL = "返回值"
"""What the table shows in both columns of a return_diff row."""

# Summaries under the signatures.
FIXED_SUMMARIES = {
    "no_params": "两者功能一致，无参数。",
    "identical": "两者功能一致，参数完全一致，具体如下：",
    "names_differ": "两者功能一致且参数用法一致，仅参数名不一致，具体如下：",
    "paddle_more": "Paddle 相比 PyTorch 支持更多其他参数，具体如下：",
    "defaults_differ": "两者功能一致且参数用法一致，仅参数默认值不一致，具体如下：",
    "torch_more": "PyTorch 相比 Paddle 支持更多其他参数，具体如下：",
    "context_change": (
        "PyTorch 与 Paddle 对该 API 的设计思路与用法不同，需要分析上下文并联动修改："
    ),
}
ATTRIBUTE_SUMMARY = "两者功能一致。"
"""The summary of an attribute or a constant that maps one to one (it has no parameters)."""
FOLLOWED = "，具体如下："
PARAMS_DIFFER = "PyTorch 的 {names} 参数与 Paddle 用法不一致"
RETURNS_DIFFER = "返回值类型也不一致"
ONLY_RETURNS_DIFFER = "PyTorch 与 Paddle 的返回值类型不一致"
USAGE_DIFFERS = "PyTorch 与 Paddle 的参数用法不一致"
OTHER_PACKAGE = "Paddle 主框架中没有对应 API，对应 API 位于 {package} 包中"
OTHER_PACKAGE_UNNAMED = "其他包"
COMPOSITE_LEAD = "Paddle 目前无对应 API，可使用如下代码组合替代实现："
NO_REWRITE = "Paddle 暂无转写方式。"

# Headings and lines of the rewrite examples.
TORCH_CODE = "# PyTorch 写法"
PADDLE_CODE = "# Paddle 写法"
HEADING = "{param}：{purpose}"
WHEN = "{when}："

# The badge.
PROBE_LABELS = {
    "positional": "按位置传入参数",
    "dtype": "{arg} 类型的输入",
    "int": "{arg} 类型的整数输入",
    "scalar": "`{arg}` 为 Python 浮点数",
    "int_scalar": "`{arg}` 为 Python 整数",
    "int_mix": "int32 与 int64 的输入混用",
    "broadcast": "需要广播的输入",
    "unbatched": "不带批维度的输入",
    "empty": "没有元素的 Tensor",
    "zero_dim": "0 维 Tensor",
    "edge:nan": "含 NaN 的输入",
    "edge:inf": "含 inf 与 -inf 的输入",
    "edge:negzero": "含 -0.0 的输入",
    "edge:zeros": "全为 0 的输入",
    "edge:large": "很大的数值（平方会溢出）",
    "edge:small": "很小的数值（平方会下溢为 0）",
    "edge:negative": "负数输入",
    "edge:mask": "全为 False 的布尔掩码",
    "positional:*": "按位置传入参数直到 `{arg}`，`{arg}` 取非默认值",
    "flag": "`{arg}` 取相反的布尔值",
    "value": "`{arg}` 取非默认值",
    "mode": "`{param}` 为 `{value}`",
    "eval": "层处于 eval 模式",
    "state_dict": "state_dict 的名称、形状与是否训练",
    "init": "新建层的默认初始化",
}
"""Probe id, or the family before its ``:`` -> what the probe tries, for the behaviour table."""

SAME_BEHAVIOUR = "一致"
DIFFERS_RAISES = "不一致：Paddle 报错"
DIFFERS_TYPE = "不一致：结果类型不同"
DIFFERS_VALUE = "不一致：结果不同"
EXPLAINED = "{verdict}，见{where}"
ACCEPTED = "{verdict}，可以接受：{reason}"

RELEASE_RANGE = "适用于 Paddle {low}–{high}"
RELEASE_ONLY = "只适用于 Paddle {version}"

# What each paddle release needs (apimap.releases): sentences from the measured facts.
OUTCOME_RAISES = "报错（{error}）"
OUTCOME_DIFFERS = {
    "values": "结果的数值不同",
    "dtype": "结果的数据类型不同",
    "shape": "结果的形状不同",
    "type": "结果的类型不同",
    "grad": "是否计算梯度不同",
    "layout": "结果的布局不同",
    "length": "结果的长度不同",
    "keys": "结果的键不同",
}
WORKER_EXITED = "退出码 {status} (exit status)"
WORKER_STILL_RUNNING = "仍在运行 (still running)"
"""How verify's worker pool says a worker that stopped answering ended (its stderr follows
after ``；``); a stamp keeps it, :func:`apimap.record.wording.failed_run` rewords it."""
OUTCOME_DIED = "进程异常退出（{how}）"
DIED_BY_SIGNAL = "信号 {name}"
DIED_WITH_STATUS = "退出码 {status}"
OUTCOME_OTHER = {
    "timeout": "运行超时",
    "crash": "进程异常退出",
    "failed": "无法运行",
}
WAY_DROP_IN = "把 `{torch}` 换成 `{paddle}`，参数原样保留"
WAY_ACCEPTING = "使用 `{paddle}`，可以沿用 PyTorch 的参数名 {names}"
WAY_ACCEPTING_AS_TORCH = "使用 `{paddle}`，参数可以照 PyTorch 的写法逐个传入"
WAY_PORTABLE = "使用 `{paddle}`，参数按上表改写"
WAY_REWRITE = "改用 `{paddle}`，写法见下面的示例"
WAY_EXAMPLES = "按本页的示例改写"
NOT_MEASURED = "还没有在这些版本上验证。"
API_MISSING = "没有 `{api}`。"
CATEGORY_THERE = "本页的映射在这些版本上属于「{label}」。"
NAMES_NOT_TAKEN = "不接受 PyTorch 的参数名 {torch}，要写作 {paddle}。"
PARAMS_MISSING = "`{api}` 没有参数 {names}，这些版本上不能传入。"
PAGE_FAILS = "按本页的写法运行时{outcomes}。"
PROBE_THERE = "{probe}时{outcome}"
PROBE_DIFFERS = "结果与 PyTorch 不同"
PROBE_AGREES = "结果与 PyTorch 一致"
PROBE_NOT_RUN = "没有运行"
MAX_PROBES_SHOWN = 4
MORE_PROBES = "，另有 {count} 处"
BEHAVES_OTHERWISE = "与 Paddle {pinned} 的行为不同：{items}{more}。"
BEST_WAY = "改动最少的写法：{way}。"
OTHER_WAYS = "也可以：{ways}。"
NO_WAY = "这些版本上没有验证过的写法。"
OLDER_CATEGORY = "Paddle {releases} 上属于「{label}」"
ACCEPTED_FROM = "Paddle {version} 起也接受 PyTorch 的参数名 {names}。"
CHANGE_KINDS = {
    "api_missing": "没有这个 API",
    "signature": "参数名或参数不同",
    "results": "按页面写法运行的结果不同",
    "behaviour": "探测的行为不同",
    "ways": "可用的写法不同",
}
"""What makes an older release need something else, in the order the changelog lists them."""

PINNED_TORCH = "本页的事实由 PyTorch {torch} 与 Paddle {paddle} 运行得出。"
VISION_TORCH = (
    "torchvision {torchvision} 只能配合 torch {vision} 运行，因此 torchvision 的页面用 torch {vision} 验证"
    "（其余页面用 torch {torch}）。"
)
NO_SIGNATURE = "{kind}，没有参数。"
"""Under the name of an attribute or a constant, where a function shows its signature."""

SITE_TITLE = "PyTorch → Paddle API 映射"
PAGE_TITLES = {
    "index": SITE_TITLE,
    "tables": "映射表",
    "tables/missing": "功能缺失的 API",
    "reverse": "反向查找：从 Paddle API 找 PyTorch API",
    "category/index": "映射分类",
    "migration": "迁移注意事项",
    "changelog": "Paddle 版本间的变化",
    "rules": "检查规则",
    "search": "搜索",
    "404": "找不到页面",
}
"""The titles of the site's generated pages (the per-section pages add the section's name)."""
RELEASE_CHANGES_TITLE = "Paddle {version} 与固定版本的不同"
"""The title of one release's page of the changelog."""
SPHINX_WORDS = {
    "Link to this heading": "链接到本标题",
    "Search": "搜索",
    "Contents": "目录",
    "Next": "下一页",
    "Previous": "上一页",
    "Home": "首页",
}
"""English words Sphinx and its theme write into pages, and what the site says instead."""
THEME_NAVIGATION_LABEL = ("Toggle navigation of ", "展开或收起：")
"""The label furo gives each expander of the sidebar, and the site's."""
FOOTER_VERSIONS = (
    "PyTorch {torch}（torchvision {torchvision} 的页面用 torch {vision}）与 Paddle {paddle}"
)
"""What the footer of every page says the records are verified against."""
SECTION_TABLE_TITLE = "映射表：{section}"
SECTION_MIGRATION_TITLE = "迁移注意事项：{section}"
PART_TITLE = "{title}（{part}）"
PART_LABEL = "第 {part} 部分"
REVERSE_PART_TITLE = "反向查找：{namespace}"

VERIFIED = "已验证：{versions}"
PARTLY_VERIFIED = "部分验证：{versions}"
UNVERIFIED = "未验证"

GENERATED_PHRASES: tuple[str, ...] = (
    ACTION_PHRASES["rewrite"],
    ACTION_PHRASES["none"],
    "可直接删除",
    RENAMED,
    "无此参数",
    "保持默认即可",
)
"""Phrases the table generates from ``kind`` and ``action``: never typed into a row."""

SUMMARY_PHRASES: tuple[str, ...] = ("组合替代实现：", ACTION_PHRASES["none"])
"""Sentences the page adds after a summary: never typed into it."""

TODO_MARKER = "TODO"
"""What a draft (``apimap new``, ``apimap import``, a migrated record) writes where only a person
can decide; a record that still holds it fails ``apimap check`` (AM702)."""

DEFAULT_DESCRIPTIONS = {
    "input": "输入的 Tensor",
    "out": "保存结果的 Tensor",
    "keepdim": "是否在结果中保留被约减的维度",
    "inplace": "是否原位修改输入",
    "requires_grad": "是否计算梯度",
    "layout": "输出 Tensor 的内存布局",
    "pin_memory": "是否分配到锁页内存",
    "generator": "用于采样的随机数生成器",
    "size_average": "PyTorch 已弃用的参数，是否对损失求平均",
    "progress": "下载权重时是否显示进度条",
}
"""The meaning of a parameter row whose torch parameter has one of these names and that writes
no ``desc`` of its own: names whose meaning is the same wherever torch uses them."""
