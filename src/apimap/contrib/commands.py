"""The contributor-workflow subcommands: ``apimap fmt``, ``apimap diff`` and ``check --fix``."""

from __future__ import annotations

import argparse
import sys

from apimap.cli_paths import existing_paths
from apimap.contrib.fmt import run_fmt
from apimap.contrib.gitdiff import diff_revisions, to_json, to_markdown
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from apimap.files.git import GitError
from apimap.record.textchars import one_line


def configure_fmt(fmt: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap fmt``."""
    fmt.add_argument("paths", nargs="*", help="记录文件或目录，默认 mappings/")
    fmt.add_argument(
        "--check",
        action="store_true",
        help="只列出需要改写的文件，有则退出码为 1 (list files that would change)",
    )
    fmt.set_defaults(handler=run_fmt_command)


def configure_diff(diff: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap diff``."""
    diff.add_argument("base", help="基准版本，如 origin/main (base revision)")
    diff.add_argument("head", nargs="?", default="HEAD", help="对比版本，默认 HEAD")
    diff.add_argument("--format", choices=("markdown", "json"), default="markdown")
    diff.add_argument("--path", default="mappings", help="记录目录，默认 mappings")
    diff.set_defaults(handler=run_diff_command)


def run_fmt_command(args: argparse.Namespace) -> int:
    """Format (or with ``--check`` list) the files; exit 1 if some would change or fail."""
    paths = existing_paths("fmt", args.paths)
    if paths is None:
        return EXIT_USAGE
    result = run_fmt(paths, check_only=args.check)
    for file, problem in result.failed:
        print(one_line(f"{file}:{problem}"), file=sys.stderr)
    verb = "需要格式化 (would reformat)" if args.check else "已格式化 (reformatted)"
    for file in result.changed:
        print(f"{verb} {file}")
    files, changed, failed = result.files, len(result.changed), len(result.failed)
    if args.check:
        summary = f"{changed} 个需要格式化 ({changed} would be reformatted)"
    else:
        summary = f"{changed} 个已格式化 ({changed} reformatted)"
    print(
        f"{files} 个文件 ({files} files)：{summary}，{failed} 个无法处理 ({failed} failed)",
        file=sys.stderr,
    )
    if result.failed or (args.check and result.changed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def run_diff_command(args: argparse.Namespace) -> int:
    """Print the change report; exit 2 when git cannot compare the revisions."""
    try:
        report = diff_revisions(args.base, args.head, folder=args.path)
    except GitError as exc:
        print(f"apimap diff: {exc}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(to_json(report) if args.format == "json" else to_markdown(report))
    return EXIT_CLEAN
