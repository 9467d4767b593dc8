"""The ``apimap`` command line."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from apimap import export, scaffold, xcheck
from apimap.allowlist import load_allowlist
from apimap.check import run_check
from apimap.coverage import command as coverage_command
from apimap.diagnostics import Severity
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from apimap.importer import command as import_command
from apimap.render import commands as site_commands
from apimap.report import FORMATS, WRITERS
from apimap.rules import ALL_RULES
from apimap.scan import command as scan_command
from apimap.schema_export import SCHEMA_PATH, schema_text
from apimap.surface import command as surface_command
from apimap.verify import command as verify_command
from apimap.workflow_commands import add_commands as add_workflow_commands
from apimap.workflow_commands import apply_fixes


def _codes(value: str) -> set[str]:
    return {part.strip() for part in value.split(",") if part.strip()}


def _cmd_check(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.paths] or [Path("mappings")]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        print(f"apimap check: 路径不存在 (no such path): {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    if args.fix:
        apply_fixes(paths)
    allowlist = load_allowlist(Path(args.allowlist))
    result = run_check(
        paths,
        select=_codes(args.select) if args.select else None,
        ignore=_codes(args.ignore) if args.ignore else None,
        allowlist=allowlist,
        cache_dir=None if args.no_cache else Path(args.cache_dir),
        jobs=args.jobs,
    )
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    WRITERS[fmt](result, sys.stdout)
    failing = result.count(Severity.ERROR) + (result.count(Severity.WARNING) if args.strict else 0)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.format == "json":
        import json

        rows = [
            {
                "code": r.code,
                "title": r.title,
                "scope": str(r.scope),
                "severity": str(r.severity),
                "hint": r.hint,
            }
            for r in ALL_RULES
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_CLEAN
    for rule in ALL_RULES:
        print(f"{rule.code}  {rule.severity:<7}  {rule.scope:<6}  {rule.title}")
    return EXIT_CLEAN


def _cmd_schema(args: argparse.Namespace) -> int:
    target = Path(args.output)
    text = schema_text()
    if args.check:
        current = target.read_text(encoding="utf-8") if target.is_file() else None
        if current != text:
            print(f"{target} 已过期，请运行 apimap schema (stale: run apimap schema)")
            return EXIT_FINDINGS
        return EXIT_CLEAN
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    print(f"已写入 (wrote) {target}")
    return EXIT_CLEAN


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="apimap",
        description="PyTorch → Paddle API 映射知识库工具 (API mapping knowledge base)",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="按规范检查记录 (check records against the spec)")
    check.add_argument("paths", nargs="*", help="记录文件或目录，默认 mappings/")
    check.add_argument("--format", choices=FORMATS, help="输出格式；GitHub Actions 中默认 github")
    check.add_argument("--select", help="只报告这些代码（前缀，逗号分隔），如 AM2,AM501")
    check.add_argument("--ignore", help="忽略这些代码（前缀，逗号分隔）")
    check.add_argument("--strict", action="store_true", help="警告也视为失败 (warnings fail)")
    check.add_argument(
        "--allowlist", default="allowlist.yaml", help="例外清单 (accepted exceptions)"
    )
    check.add_argument("--cache-dir", default=".apimap_cache", help="结果缓存目录")
    check.add_argument("--no-cache", action="store_true", help="不读写缓存")
    check.add_argument("--jobs", type=int, help="并行进程数，默认每个 CPU 一个 (worker processes)")
    check.add_argument(
        "--fix",
        action="store_true",
        help="先修复标点、易混淆字符与格式 (first apply the mechanical fixes)",
    )
    check.set_defaults(handler=_cmd_check)

    rules = commands.add_parser("rules", help="列出所有规则代码 (list rule codes)")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    rules.set_defaults(handler=_cmd_rules)

    schema = commands.add_parser("schema", help="导出 JSON Schema (export the JSON Schema)")
    schema.add_argument("--output", default=SCHEMA_PATH)
    schema.add_argument("--check", action="store_true", help="只检查是否过期 (fail if stale)")
    schema.set_defaults(handler=_cmd_schema)

    verify_command.add_parser(commands)
    scaffold.add_parser(commands)
    import_command.add_parser(commands)
    export.add_parser(commands)
    xcheck.add_parser(commands)
    add_workflow_commands(commands)
    site_commands.add_commands(commands)
    surface_command.add_parser(commands)
    scan_command.add_parser(commands)
    coverage_command.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: returns the exit code (0 clean, 1 findings, 2 usage or internal error)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_CLEAN if exc.code == 0 else EXIT_USAGE
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        return EXIT_USAGE
    except Exception:
        print("apimap: 内部错误 (internal error)", file=sys.stderr)
        traceback.print_exc()
        return EXIT_USAGE
    return code


if __name__ == "__main__":
    sys.exit(main())
