"""The ``apimap verify`` subcommand."""

from __future__ import annotations

import argparse
import os
import sys

from apimap.checking.report import FORMATS
from apimap.cli_paths import existing_paths
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from apimap.record.textchars import one_line


def configure(verify: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap verify``."""
    from apimap.verify.run import DEFAULT_TIMEOUT

    verify.add_argument("paths", nargs="*", help="记录文件或目录，默认 mappings/")
    verify.add_argument(
        "--update",
        action="store_true",
        help="为通过的记录写入验证标记 stamps/…json (stamp passing records)",
    )
    verify.add_argument(
        "--changed-since",
        metavar="REF",
        help="只验证分支自离开 REF（与 HEAD 的合并基点）以来改动的记录，未提交的改动与新文件也算，"
        "改动了验证标记的记录也算；如 origin/main (only the records changed since REF)",
    )
    verify.add_argument(
        "--stale",
        action="store_true",
        help="只验证没有当前验证标记的记录 (only records whose stamp is not current)",
    )
    verify.add_argument(
        "--part",
        metavar="K/N",
        help="只验证语料的第 K 部分（共 N 部分，按 API 名称划分）；today/N 每天换一部分；与 --stale "
        "同用时验证两者之和 (one of N parts of the corpus; today/N rotates daily)",
    )
    verify.add_argument(
        "--matrix",
        action="store_true",
        help="同时在较早的 Paddle 版本（3.0.0、3.1.1、3.2.2）上运行并比较，结果写入验证标记；"
        "首次运行时创建各版本的环境 (also measure the older paddle releases)",
    )
    verify.add_argument(
        "--jobs", type=int, help="每个环境的工作进程数，默认每个 CPU 一个，最多 4 个"
    )
    verify.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"一条记录在一侧的超时秒数，默认 {DEFAULT_TIMEOUT:g} (seconds per record and side)",
    )
    verify.add_argument("--format", choices=FORMATS, help="输出格式；GitHub Actions 中默认 github")
    verify.set_defaults(handler=run_command)


UNAVAILABLE = (
    "apimap verify: 本环境没有 {missing}，无法验证。不必安装（约 2 GB）：提交改动并创建 Pull Request，"
    "CI 的 verify 作业会验证改动的记录并给出它们的验证标记（运行摘要中的补丁与工件 stamps）；"
    "要在本机验证，运行 make verify "
    "(no {english} here: open a pull request, CI verifies the changed records and stamps them)"
)
"""The one line for a contributor without the verification environment: the CI path."""

PROGRESS_EVERY = 100
"""A long verification says how far it got every this many records (on stderr)."""
DRIFT_SHOWN = 10
"""How many records a matrix run names per older release that does not hold, and why."""


def _progress(done: int, total: int) -> None:
    if done and done % PROGRESS_EVERY == 0:
        print(f"apimap verify: {done}/{total} 条记录 (records)", file=sys.stderr, flush=True)


def run_command(args: argparse.Namespace) -> int:
    """Verify, print the diagnostics and the figures, return the exit code."""
    from apimap.checking.diagnostics import Severity
    from apimap.checking.report import WRITERS
    from apimap.verify.environments import (
        EnvironmentMismatch,
        EnvironmentSetupError,
        VerificationUnavailable,
    )
    from apimap.verify.parts import PartError, parse_part
    from apimap.verify.pool import WorkerStartError
    from apimap.verify.run import run_verify

    paths = existing_paths("verify", args.paths)
    if paths is None:
        return EXIT_USAGE
    if (args.jobs is not None and args.jobs < 1) or args.timeout <= 0:
        print("apimap verify: --jobs 与 --timeout 必须为正数 (must be positive)", file=sys.stderr)
        return EXIT_USAGE
    try:
        part = parse_part(args.part) if args.part is not None else None
    except PartError as exc:
        print(f"apimap verify: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if part is not None:
        print(f"apimap verify: 第 {part} 部分 (part {part})", file=sys.stderr)
    if args.changed_since is not None:
        from apimap.files.git import GitError, changed_records

        try:
            paths = changed_records(args.changed_since, paths)
        except GitError as exc:
            print(f"apimap verify: --changed-since：{one_line(str(exc))}", file=sys.stderr)
            return EXIT_USAGE
        print(
            f"apimap verify: 自 {args.changed_since} 以来改动的记录 {len(paths)} 条 "
            f"({len(paths)} records changed since {args.changed_since})",
            file=sys.stderr,
        )
    try:
        result = run_verify(
            paths,
            workers=args.jobs,
            timeout=args.timeout,
            update=args.update,
            stale_only=args.stale,
            matrix=args.matrix,
            part=part,
            check_first=True,
            progress=_progress,
        )
    except VerificationUnavailable as exc:
        missing, english = "、".join(exc.missing), " or ".join(exc.missing)
        print(UNAVAILABLE.format(missing=missing, english=english), file=sys.stderr)
        return EXIT_USAGE
    except (EnvironmentMismatch, EnvironmentSetupError, WorkerStartError) as exc:
        print(f"apimap verify: {exc}", file=sys.stderr)
        return EXIT_USAGE
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    WRITERS[fmt](result, sys.stdout)
    for path in result.stamped:
        print(f"已写入验证标记 (stamped) {path}", file=sys.stderr)
    if result.sandbox is not None:
        for warning in result.sandbox.warnings:
            print(f"apimap verify: [警告 warning] {warning}", file=sys.stderr)
    versions = "; ".join(
        f"{name}: " + ", ".join(f"{lib} {version}" for lib, version in found.items())
        for name, found in sorted(result.environments.items())
    )
    isolation = result.sandbox.isolation if result.sandbox else "-"
    print(
        f"验证了 {result.records} 条记录：{result.derived_calls} 个由参数映射推导的调用，"
        f"共运行 {result.runs} 段代码，其中探测 {result.probes} 个；第 1–3 类没有执行调用的记录 "
        f"{len(result.not_executed)} 条，未说明的差异 {result.unacknowledged} 处；"
        f"用时 {result.seconds:.1f} 秒（启动 {result.startup_seconds:.1f} 秒，"
        f"{result.workers} 个进程，隔离方式 {isolation}；{versions}）\n"
        f"(verified {result.records} records: {result.derived_calls} derived calls, "
        f"{result.runs} runs, {result.probes} probes, {len(result.not_executed)} category 1-3 "
        f"records without a call, {result.unacknowledged} unacknowledged differences, "
        f"{result.seconds:.1f} s)",
        file=sys.stderr,
    )
    if len(result.worker_seconds) > 1:
        slowest = "，".join(f"{path} {seconds:.1f} 秒" for path, seconds in result.slowest())
        print(
            f"最慢的记录（工作进程中的用时）(slowest records, seconds in the workers)：{slowest}",
            file=sys.stderr,
        )
    if result.releases:
        counts = "，".join(
            f"Paddle {version}：{result.differing.get(version, 0)} 条"
            for version in result.releases
        )
        print(
            f"与固定版本的映射不同的记录 (records whose mapping differs from the pinned release)："
            f"{counts}",
            file=sys.stderr,
        )
        for version, found in result.drift.items():
            for path, how in found[:DRIFT_SHOWN]:
                print(f"  Paddle {version}：{path}：{how}", file=sys.stderr)
            if len(found) > DRIFT_SHOWN:
                more = len(found) - DRIFT_SHOWN
                print(f"  Paddle {version}：另有 {more} 条 (and {more} more)", file=sys.stderr)
    return EXIT_FINDINGS if result.count(Severity.ERROR) else EXIT_CLEAN
