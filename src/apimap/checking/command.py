"""``apimap check``, ``apimap rules`` and ``apimap schema``: the validator's commands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from apimap.checking.diagnostics import Pending
from apimap.checking.report import FORMATS
from apimap.cli_paths import existing_paths
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from apimap.record.textchars import one_line


def _codes(value: str) -> set[str]:
    return {part.strip() for part in value.split(",") if part.strip()}


def add_pending_stamps(parser: argparse.ArgumentParser) -> None:
    """``--pending-stamps error|notice``: how a missing or stale stamp (AM701) is reported."""
    parser.add_argument(
        "--pending-stamps",
        choices=[str(mode) for mode in Pending],
        default=str(Pending.ERROR),
        help="缺失或过期的验证标记（AM701）报告为错误（默认，main）或提示（Pull Request：CI 的 verify "
        "作业写入标记）(a missing or stale stamp: an error, or on a pull request a notice)",
    )


def configure_check(check: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap check``."""
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
        help="先应用各规则自带的修复并写成规范格式 (first apply every rule's fix)",
    )
    add_pending_stamps(check)
    check.set_defaults(handler=run_check_command)


def run_check_command(args: argparse.Namespace) -> int:
    """Check, print the diagnostics, return 0 clean / 1 findings / 2 usage error."""
    from apimap.checking.allowlist import load_allowlist
    from apimap.checking.diagnostics import Severity
    from apimap.checking.report import WRITERS
    from apimap.checking.runner import run_check

    paths = existing_paths("check", args.paths)
    if paths is None:
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
        pending=Pending(args.pending_stamps),
    )
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    WRITERS[fmt](result, sys.stdout)
    failing = result.count(Severity.ERROR) + (result.count(Severity.WARNING) if args.strict else 0)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def apply_fixes(paths: Sequence[Path]) -> None:
    """``check --fix``: fix the files in place and say what changed (on stderr)."""
    from apimap.checking.fix import run_fix

    result = run_fix(paths)
    for file, problem in result.failed:
        print(one_line(f"{file}:{problem}"), file=sys.stderr)
    for file, codes in result.fixed.items():
        counts = ", ".join(f"{code}×{codes.count(code)}" for code in sorted(set(codes)))
        print(f"已修复 (fixed) {file}: {counts}", file=sys.stderr)


def configure_rules(rules: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap rules``."""
    rules.add_argument("codes", nargs="*", help="只看这些规则并显示说明，如 AM220 (explain these)")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    rules.set_defaults(handler=run_rules_command)


def run_rules_command(args: argparse.Namespace) -> int:
    """The rule table: code, severity, scope, whether ``--fix`` repairs it, title; with
    codes, each rule's hint, reason and fix."""
    from apimap.checking.rules.registry import ALL_RULES

    wanted = {code.upper() for code in args.codes}
    unknown = sorted(wanted - {rule.code for rule in ALL_RULES})
    if unknown:
        print(f"apimap rules: 没有规则 (no rule) {', '.join(unknown)}", file=sys.stderr)
        return EXIT_USAGE
    rules = [rule for rule in ALL_RULES if not wanted or rule.code in wanted]
    if args.format == "json":
        rows = [
            {
                "code": r.code,
                "title": r.title,
                "scope": str(r.scope),
                "severity": str(r.severity),
                "hint": r.hint,
                "why": r.why,
                "fixable": r.fixable,
                "pending": r.pending,
            }
            for r in rules
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_CLEAN
    for rule in rules:
        fixable = "fix" if rule.fixable else "-"
        print(f"{rule.code}  {rule.severity:<7}  {rule.scope:<6}  {fixable:<3}  {rule.title}")
        if wanted:
            print(f"    提示 (hint)：{rule.hint}")
            print(f"    原因 (why)：{rule.why}")
            if rule.fix is not None:
                print(f"    --fix：{rule.fix.description}")
            if rule.pending is not None:
                print(f"    --pending-stamps notice：{rule.pending}")
    return EXIT_CLEAN


def configure_schema(schema: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap schema``."""
    from apimap.files.schema_export import SCHEMA_PATH

    schema.add_argument("--output", default=SCHEMA_PATH)
    schema.add_argument("--check", action="store_true", help="只检查是否过期 (fail if stale)")
    schema.set_defaults(handler=run_schema_command)


def run_schema_command(args: argparse.Namespace) -> int:
    """Write (or with ``--check`` compare) the record schema for editors."""
    from apimap.files.schema_export import schema_text

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
