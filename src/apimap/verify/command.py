"""The ``apimap verify`` subcommand."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from apimap.diagnostics import Severity
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from apimap.report import FORMATS, WRITERS


def add_parser(commands: Any) -> None:
    """Register ``verify`` on the subcommand parsers of ``apimap``."""
    from apimap.verify.run import DEFAULT_TIMEOUT

    verify = commands.add_parser(
        "verify",
        help="用已安装的 torch 与 paddle 验证签名并运行示例 (verify against the installed libraries)",
    )
    verify.add_argument("paths", nargs="*", help="记录文件或目录，默认 mappings/")
    verify.add_argument(
        "--update",
        action="store_true",
        help="为通过的记录写入 verified 标记 (stamp passing records)",
    )
    verify.add_argument("--jobs", type=int, help="工作进程数，默认每个 CPU 一个，最多 4 个")
    verify.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"每个示例的超时秒数，默认 {DEFAULT_TIMEOUT:g} (seconds per example)",
    )
    verify.add_argument("--format", choices=FORMATS, help="输出格式；GitHub Actions 中默认 github")
    verify.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    """Verify, print the diagnostics and the figures, return the exit code."""
    from apimap.verify.pool import WorkerStartError
    from apimap.verify.run import EnvironmentMismatch, run_verify

    paths = [Path(p) for p in args.paths] or [Path("mappings")]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        print(f"apimap verify: 路径不存在 (no such path): {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    if (args.jobs is not None and args.jobs < 1) or args.timeout <= 0:
        print("apimap verify: --jobs 与 --timeout 必须为正数 (must be positive)", file=sys.stderr)
        return EXIT_USAGE
    try:
        result = run_verify(paths, workers=args.jobs, timeout=args.timeout, update=args.update)
    except (EnvironmentMismatch, WorkerStartError) as exc:
        print(f"apimap verify: {exc}", file=sys.stderr)
        return EXIT_USAGE
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    WRITERS[fmt](result, sys.stdout)
    for path in result.stamped:
        print(f"已写入验证标记 (stamped) {path}", file=sys.stderr)
    rate = result.cases / result.seconds if result.seconds else 0.0
    versions = "; ".join(
        ", ".join(f"{name} {version}" for name, version in environment.items())
        for environment in result.environments
    )
    print(
        f"验证了 {result.records} 条记录、{result.cases} 个示例，用时 {result.seconds:.1f} 秒"
        f"（其中启动 {result.startup_seconds:.1f} 秒，{result.workers} 个进程；{versions}）"
        f" (verified {result.records} records, {result.cases} examples in {result.seconds:.1f} s, "
        f"{rate:.2f} examples/s)",
        file=sys.stderr,
    )
    return EXIT_FINDINGS if result.count(Severity.ERROR) else EXIT_CLEAN
