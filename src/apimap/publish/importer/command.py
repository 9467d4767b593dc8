"""``apimap import SRC... --out mappings/``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from apimap.cli_paths import existing_paths
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from apimap.publish.importer.report import write_json, write_text
from apimap.publish.importer.run import Outcome, run_import


def configure(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap import``."""
    parser.add_argument("sources", nargs="+", help="Markdown 页面、映射表或其所在目录")
    parser.add_argument("--out", default="mappings", help="记录目录，默认 mappings/")
    parser.add_argument("--force", action="store_true", help="覆盖已有记录 (overwrite records)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--run",
        action="store_true",
        help="在已安装的 torch 与 paddle 中运行示例并核对签名，失败处按原页面行号报告 "
        "(run the examples and check the signatures; needs torch and paddle)",
    )
    parser.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    """Import, print the report; exit 1 when a page or row failed."""
    sources = existing_paths("import", args.sources)
    if sources is None:
        return EXIT_USAGE
    out = Path(args.out)
    from apimap.verify.environments import EnvironmentMismatch
    from apimap.verify.pool import WorkerStartError

    try:
        result = run_import(sources, out, force=args.force, execute=args.run)
    except (EnvironmentMismatch, WorkerStartError) as exc:
        print(
            f"apimap import --run：无法启动验证进程 (cannot start the workers)：{exc}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.format == "json":
        write_json(result, sys.stdout, out)
    else:
        write_text(result, sys.stdout, out)
    failed = any(unit.outcome is Outcome.FAILED for unit in result.units)
    return EXIT_FINDINGS if failed else EXIT_CLEAN
