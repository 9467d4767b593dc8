"""``apimap scan``: the command line glue (options, output, exit codes)."""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path
from typing import Any

from apimap.cli_paths import existing_paths
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE

FORMATS = ("text", "markdown", "json", "html")
FAIL_ON = ("missing", "unknown", "rewrite", "other_package", "error")
"""``--fail-on`` conditions: a resolved API in that bucket is used, or a file has a problem."""


def _fail_on(value: str) -> frozenset[str]:
    chosen = frozenset(part.strip() for part in value.split(",") if part.strip())
    unknown = chosen - set(FAIL_ON)
    if unknown:
        raise argparse.ArgumentTypeError(
            f"未知条件 (unknown condition): {', '.join(sorted(unknown))}；可选 {', '.join(FAIL_ON)}"
        )
    return chosen


def configure(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap scan``."""
    parser.description = (
        "静态读取 Python 文件（不导入、不运行），列出用到的 torch/torchvision API、次数、"
        "所在文件、映射分类与页面 (reads Python files with ast; never imports or runs them)"
    )
    parser.add_argument("paths", nargs="+", help="要扫描的文件或目录 (files or folders)")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--out", help="写入文件而不是标准输出 (write to FILE)")
    parser.add_argument("--mappings", help="记录目录，默认 ./mappings 或本 apimap 仓库的 mappings/")
    parser.add_argument(
        "--site-url",
        default=os.environ.get("APIMAP_SITE_URL", ""),
        help="站点地址，用于页面链接；默认 $APIMAP_SITE_URL，否则为相对链接 (base URL of the site)",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="跳过匹配的文件，可重复，如 'tests/*' (skip matching files)",
    )
    parser.add_argument("--jobs", type=int, help="并行进程数，默认每个 CPU 一个 (worker processes)")
    parser.add_argument(
        "--limit",
        type=int,
        help="每个表最多列出几项，0 为全部；text 默认 40，其他格式默认全部 (rows per table)",
    )
    parser.add_argument(
        "--fail-on",
        type=_fail_on,
        default=frozenset(),
        help=f"满足条件时退出码为 1，逗号分隔：{', '.join(FAIL_ON)} (exit 1 when met)",
    )
    parser.add_argument("--no-progress", action="store_true", help="不显示进度条 (no progress bar)")
    parser.set_defaults(handler=run_command)


def _failed(report: Any, conditions: frozenset[str]) -> list[str]:
    met = []
    for condition in sorted(conditions):
        if condition == "error":
            if report.problems:
                met.append(f"error: {len(report.problems)}")
            continue
        apis = [usage for usage in report.apis if usage.bucket.value == condition]
        if apis:
            met.append(f"{condition}: {len(apis)} API")
    return met


def run_command(args: argparse.Namespace) -> int:
    """Scan, write the report, and exit 1 when a ``--fail-on`` condition is met."""
    from apimap.files.surface import load_surface
    from apimap.survey.scan.classify import Classifier
    from apimap.survey.scan.knowledge import KnowledgeError, default_mappings, load_knowledge
    from apimap.survey.scan.progress import ProgressBar
    from apimap.survey.scan.runner import default_jobs, scan_paths
    from apimap.survey.scan.write_html import write_html
    from apimap.survey.scan.write_json import write_json
    from apimap.survey.scan.write_markdown import write_markdown
    from apimap.survey.scan.write_text import write_text

    paths = existing_paths("scan", args.paths)
    if paths is None:
        return EXIT_USAGE
    if args.jobs is not None and args.jobs < 1:
        print("apimap scan: --jobs 至少为 1 (at least 1)", file=sys.stderr)
        return EXIT_USAGE
    mappings = Path(args.mappings) if args.mappings else default_mappings()
    try:
        knowledge = load_knowledge(mappings)
    except KnowledgeError as exc:
        print(f"apimap scan: 无法读取记录 (cannot read the records) {mappings}:", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return EXIT_USAGE
    surface = load_surface()
    bar = ProgressBar() if not args.no_progress and ProgressBar.wanted() else None
    try:
        report = scan_paths(
            paths,
            surface,
            Classifier(surface, knowledge),
            exclude=args.exclude,
            jobs=args.jobs or default_jobs(),
            site_url=args.site_url,
            progress=bar,
        )
    finally:
        if bar is not None:
            bar.close()
    writers = {
        "text": write_text,
        "markdown": write_markdown,
        "json": write_json,
        "html": write_html,
    }
    limit = args.limit if args.limit is not None else (40 if args.format == "text" else 0)
    buffer = io.StringIO()
    writers[args.format](report, buffer, limit)
    if args.out:
        target = Path(args.out)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(buffer.getvalue(), encoding="utf-8")
        tmp.replace(target)
        print(f"已写入 (wrote) {target}", file=sys.stderr)
    else:
        sys.stdout.write(buffer.getvalue())
    met = _failed(report, args.fail_on)
    for condition in met:
        print(f"apimap scan: --fail-on {condition}", file=sys.stderr)
    return EXIT_FINDINGS if met else EXIT_CLEAN
