"""AM701: the record carries a current verification stamp."""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.checking.rules.stamped import stamp_of, verified_this_data
from apimap.files.stamps import STAMPS_DIR, VERIFIER_VERSION, StampFormatError, stamp_relpath
from apimap.record.pins import pins_for


def _stamp_name(ctx: RecordContext) -> str:
    if ctx.relpath is None:
        return "验证标记 (stamp)"
    return f"{STAMPS_DIR}/{stamp_relpath(ctx.relpath)}"


def check(ctx: RecordContext) -> Iterator[Finding]:
    """The stamp exists, verified exactly this data, with this verifier and the pinned versions."""
    where = ctx.loc("torch_api")
    name = _stamp_name(ctx)
    stamp = stamp_of(ctx)
    if stamp is None:
        yield Finding(where, f"没有 {name} (not verified)")
        return
    if isinstance(stamp, StampFormatError):
        yield Finding(where, f"{name} 无法读取 (unreadable)：{stamp}")
        return
    if not verified_this_data(ctx, stamp):
        yield Finding(where, f"{name} 已过期：记录在验证后被修改 (record changed since verified)")
        return
    if stamp.verifier != VERIFIER_VERSION:
        yield Finding(
            where,
            f"{name} 由旧版验证器写入（{stamp.verifier}，当前 {VERIFIER_VERSION}）"
            "(written by an older verifier)",
        )
        return
    pins = pins_for(ctx.record.torch_api)
    wrong = [lib for lib, version in pins.items() if stamp.versions.get(lib) != version]
    if wrong:
        shown = "、".join(f"{lib} {stamp.versions.get(lib, '-')}≠{pins[lib]}" for lib in wrong)
        yield Finding(
            where, f"{name} 的版本与固定版本不符 (versions differ from the pins)：{shown}"
        )


RULE = Rule(
    "AM701",
    "记录没有当前的验证标记 (record has no current verification stamp)",
    Scope.RECORD,
    Severity.ERROR,
    "安装验证环境后运行 `apimap verify --update 路径` (run apimap verify --update)",
    why="页面上的「已验证」必须属实：标记记下验证时记录内容的摘要，之后改动任何值，标记就失效，"
    "直到重新验证。",
    check=check,
    pending="待验证：Pull Request 的 verify 作业会验证改动的记录并给出新的验证标记（运行摘要中的补丁、"
    "工件 stamps，或推送到分支的提交）；有验证环境时可运行 "
    "`apimap verify --changed-since origin/main --update` "
    "(pending verification: CI's verify job stamps the changed records)",
)
