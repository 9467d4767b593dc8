"""Verification against the installed libraries.

AM701 (checked by ``apimap check``): the record carries a verification stamp
that is not older than the pinned versions. AM801-AM814: what ``apimap verify``
reports; the verifier finds them, so these rules have no check function.
"""

from __future__ import annotations

from collections.abc import Iterator

from apimap.context import RecordContext
from apimap.diagnostics import Severity
from apimap.pins import pins_for, release
from apimap.rules.base import Finding, Rule, Scope


def check_stamp(ctx: RecordContext) -> Iterator[Finding]:
    """``verified`` exists and names versions at least as new as the pinned ones."""
    stamp = ctx.record.verified
    if stamp is None:
        yield Finding(ctx.loc("torch_api"), "缺少 `verified` (no stamp)")
        return
    for library, pinned in pins_for(ctx.record.torch_api).items():
        stamped: str | None = getattr(stamp, library)
        if stamped is None:
            yield Finding(ctx.loc("verified"), f"缺少 {library} 版本 (no {library} version)")
        elif release(stamped) < release(pinned):
            yield Finding(
                ctx.loc("verified", library),
                f"{library} {stamped} 早于固定版本 {pinned} (older than the pinned {pinned})",
            )


STAMP = Rule(
    "AM701",
    "记录未用固定版本的库验证 (record not verified against the pinned libraries)",
    Scope.RECORD,
    Severity.WARNING,
    "安装 apimap[verify] 后运行 `apimap verify --update 路径` (run apimap verify --update)",
    check_stamp,
)

_E = Severity.ERROR
_R = Scope.RECORD


API_NOT_FOUND = Rule(
    "AM801",
    "已安装的库中没有该 API (API not found in the installed library)",
    _R,
    _E,
    "检查 API 全称的拼写与大小写；已删除或改名的 API 请更新记录 (check the name)",
)
PARAMS_DRIFT = Rule(
    "AM802",
    "参数名或顺序与已安装的库不符 (parameter names or order differ from the library)",
    _R,
    _E,
    "按已安装的库更新签名与参数映射，可用 `apimap new` 生成参考草稿 (update the signature)",
)
DEFAULT_DRIFT = Rule(
    "AM803",
    "默认值与已安装的库不符 (default differs from the library)",
    _R,
    _E,
    "写出库中的默认值；对象默认值可写其名称，如 `default_generator` (write the library's default)",
)
KIND_DRIFT = Rule(
    "AM804",
    "仅关键字或可变参数标记与已安装的库不符 (keyword-only or varargs marker differs)",
    _R,
    _E,
    "按库中的签名放置 `*`、`*args`、`**kwargs` (place the markers as the library does)",
)
ALIAS_NOT_ACCEPTED = Rule(
    "AM805",
    "Paddle 不接受该参数别名 (paddle does not accept this parameter alias)",
    _R,
    _E,
    "只列出 Paddle 文档写明（或调用可证实）接受的别名 (list only aliases paddle accepts)",
)
UNREADABLE = Rule(
    "AM806",
    "无法从已安装的库读取签名 (cannot read the signature from the library)",
    Scope.RECORD,
    Severity.WARNING,
    "库中没有可读的签名，该签名未经验证 (the library declares no readable signature)",
)
NOT_INSTALLED = Rule(
    "AM807",
    "API 所在的包未安装，记录未经验证 (package not installed: record not verified)",
    Scope.RECORD,
    Severity.WARNING,
    "安装该包后再运行 apimap verify；未验证的记录不会写入 verified (install it, then verify)",
)
EXAMPLE_RAISES = Rule(
    "AM810",
    "示例运行时出错 (example raised an exception)",
    _R,
    _E,
    "示例代码应能直接运行；所需输入写在 inputs 中 (examples must run as written)",
)
EXAMPLE_DIFFERS = Rule(
    "AM811",
    "示例两侧的结果不一致 (example results differ)",
    _R,
    _E,
    "修正转写；随机或有状态的示例可写 no_value_compare 说明原因 (fix the rewrite)",
)
EXAMPLE_TIMEOUT = Rule(
    "AM812",
    "示例运行超时 (example timed out)",
    _R,
    _E,
    "示例应在几秒内完成；使用小的输入 (use small inputs)",
)
EXAMPLE_SETUP = Rule(
    "AM813",
    "示例的输入或输出设置有误 (example inputs or outputs are wrong)",
    _R,
    _E,
    "inputs 写 NumPy 表达式；outputs 只列张量、数值、字符串及其列表 (fix inputs/outputs)",
)
WORKER_CRASHED = Rule(
    "AM814",
    "验证进程意外退出 (verification worker crashed)",
    _R,
    _E,
    "示例导致解释器崩溃，请简化示例 (the example crashed the interpreter)",
)
VERIFIER_RULES = [
    API_NOT_FOUND,
    PARAMS_DRIFT,
    DEFAULT_DRIFT,
    KIND_DRIFT,
    ALIAS_NOT_ACCEPTED,
    UNREADABLE,
    NOT_INSTALLED,
    EXAMPLE_RAISES,
    EXAMPLE_DIFFERS,
    EXAMPLE_TIMEOUT,
    EXAMPLE_SETUP,
    WORKER_CRASHED,
]

RULES = [STAMP]
