"""``apimap coverage``: per namespace, how much of the public surface the records cover."""

from __future__ import annotations

import argparse
import fnmatch
import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from apimap.exit_codes import EXIT_CLEAN, EXIT_USAGE

if TYPE_CHECKING:
    from apimap.files.surface import Surface
    from apimap.survey.coverage.compute import Counts, Coverage, UseCoverage
    from apimap.survey.coverage.usage import UsageData
    from apimap.survey.scan.classify import Classifier

FORMATS = ("text", "markdown", "json")


def configure(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap coverage``."""
    parser.description = (
        "按命名空间统计 torch/torchvision 公开 API 中有记录、功能缺失、别名与未分类的名称；"
        "--todo 按常用模型库中的使用次数列出未分类的名称 (per-namespace coverage; --todo "
        "ranks unclassified names by use in popular model code)"
    )
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--mappings", help="记录目录，默认 ./mappings 或本 apimap 仓库的 mappings/")
    parser.add_argument(
        "--todo", action="store_true", help="列出未分类的名称，按使用次数排序 (the worklist)"
    )
    parser.add_argument(
        "--namespace",
        action="append",
        default=[],
        metavar="NS",
        help="只看这些命名空间，可用通配符，如 torch.nn 或 'torch.nn.*' (namespaces, globs)",
    )
    parser.add_argument("--limit", type=int, default=30, help="--todo 列出几项，0 为全部")
    parser.add_argument(
        "--update-usage",
        nargs="+",
        metavar="DIR",
        help="扫描这些解压后的 wheel 目录并重写 data/usage.json (rebuild the usage counts)",
    )
    parser.set_defaults(handler=run_command)


@dataclass(frozen=True)
class TodoItem:
    """An unclassified canonical name, with the uses of its whole alias group."""

    name: str
    namespace: str
    kind: str
    uses: int
    libraries: int
    aliases: list[str]


def _selected(namespace: str, patterns: list[str]) -> bool:
    return not patterns or any(fnmatch.fnmatchcase(namespace, p) for p in patterns)


def todo_items(
    coverage: Coverage, surface: Surface, usage: UsageData, patterns: list[str]
) -> list[TodoItem]:
    """Unclassified names (an alias group once, under its canonical name), most used first."""
    from apimap.survey.coverage.compute import Status

    items = []
    for item in coverage.names:
        if item.status is not Status.UNCLASSIFIED or not _selected(item.namespace, patterns):
            continue
        public = surface.names[item.name]
        if public.alias_of is not None:
            continue
        group = surface.alias_group(item.name)
        items.append(
            TodoItem(
                item.name,
                item.namespace,
                item.kind,
                sum(usage.uses(name) for name in group),
                max(usage.library_count(name) for name in group),
                group[1:],
            )
        )
    return sorted(items, key=lambda todo: (-todo.uses, todo.name))


def _pct(counts: Counts) -> str:
    return f"{counts.percent:.1f}%"


def _row(counts: Counts) -> list[Any]:
    from apimap.survey.coverage.compute import Status

    return [
        counts.total,
        counts.statuses[Status.RECORD],
        counts.statuses[Status.MISSING],
        counts.statuses[Status.ALIAS],
        counts.statuses[Status.UNCLASSIFIED],
        _pct(counts),
    ]


_HEAD = ["公开名称 names", "有记录 record", "功能缺失 missing", "别名 alias", "未分类", "已分类 %"]


def _use_line(by_use: UseCoverage, usage: UsageData) -> str:
    from apimap.survey.coverage.compute import Status

    sources = ", ".join(f"{lib.name} {lib.version}" for lib in usage.libraries) or "-"
    shares = "，".join(
        f"{status.label} {by_use.percent(status):.1f}%"
        for status in (Status.RECORD, Status.MISSING, Status.ALIAS)
    )
    return (
        f"按常用模型库中的使用次数加权 (weighted by use in {sources})：{by_use.total} 次使用中"
        f"已分类 {by_use.classified_percent:.1f}%（{shares}）\n"
    )


def _coverage_text(coverage: Coverage, patterns: list[str], use_line: str, out: TextIO) -> None:
    versions = ", ".join(f"{k} {v}" for k, v in coverage.versions.items())
    out.write(f"公开 API 覆盖率 (coverage of the public surface: {versions})\n")
    out.write(f"  {'命名空间 namespace':40s}" + "".join(f"{h:>14s}" for h in _HEAD) + "\n")
    for ns in coverage.namespaces:
        if _selected(ns.namespace, patterns):
            cells = "".join(f"{c!s:>14s}" for c in _row(ns.counts))
            out.write(f"  {ns.namespace:40s}{cells}\n")
    for library, counts in sorted(coverage.libraries.items()):
        out.write(
            f"  {library + ' 合计 (total)':40s}" + "".join(f"{c!s:>14s}" for c in _row(counts))
        )
        out.write("\n")
    out.write(f"  {'全部 (all)':40s}" + "".join(f"{c!s:>14s}" for c in _row(coverage.total)) + "\n")
    out.write(use_line)
    if coverage.outside:
        out.write("不在公开 API 表中的记录名称 (record names outside the surface): ")
        out.write(", ".join(coverage.outside) + "\n")


def _coverage_markdown(coverage: Coverage, patterns: list[str], use_line: str, out: TextIO) -> None:
    out.write("| 命名空间 | " + " | ".join(_HEAD) + " |\n| --- |" + " ---: |" * len(_HEAD) + "\n")
    for ns in coverage.namespaces:
        if _selected(ns.namespace, patterns):
            out.write(f"| `{ns.namespace}` | " + " | ".join(map(str, _row(ns.counts))) + " |\n")
    for library, counts in sorted(coverage.libraries.items()):
        out.write(f"| **{library} 合计** | " + " | ".join(map(str, _row(counts))) + " |\n")
    out.write("| **全部** | " + " | ".join(map(str, _row(coverage.total))) + " |\n")
    out.write("\n" + use_line)


def _counts_json(counts: Counts) -> dict[str, Any]:
    from apimap.survey.coverage.compute import Status

    return {
        "total": counts.total,
        **{status.value: counts.statuses[status] for status in Status},
        "classified_percent": round(counts.percent, 2),
        "record_groups": {str(g): counts.groups[g] for g in sorted(counts.groups)},
    }


def coverage_json(coverage: Coverage, patterns: list[str], by_use: UseCoverage) -> dict[str, Any]:
    """The ``apimap-coverage`` document (version 1)."""
    from apimap.survey.coverage.compute import Status

    return {
        "format": "apimap-coverage",
        "version": 1,
        "surface": coverage.versions,
        "namespaces": [
            {
                "namespace": ns.namespace,
                "library": ns.library,
                "group": ns.group,
                **_counts_json(ns.counts),
            }
            for ns in coverage.namespaces
            if _selected(ns.namespace, patterns)
        ],
        "libraries": {lib: _counts_json(c) for lib, c in sorted(coverage.libraries.items())},
        "total": _counts_json(coverage.total),
        "outside_surface": coverage.outside,
        "uses": {
            "total": by_use.total,
            **{status.value: by_use.uses[status] for status in Status},
            "classified_percent": round(by_use.classified_percent, 2),
        },
    }


def _hint(item: TodoItem) -> str:
    also = f"；别名 (aliases) {', '.join(item.aliases)}" if item.aliases else ""
    return f"apimap new {item.name}{also}"


def _todo_text(items: list[TodoItem], total: int, usage: UsageData, out: TextIO) -> None:
    sources = ", ".join(f"{lib.name} {lib.version}" for lib in usage.libraries) or "-"
    out.write(
        f"未分类的公开名称 {total} 个，按使用次数排序（{sources}）"
        f"(unclassified public names by uses)\n"
    )
    for item in items:
        out.write(
            f"  {item.uses:7d} {item.libraries:2d}  {item.name}  ({item.kind})  {_hint(item)}\n"
        )


def _todo_markdown(items: list[TodoItem], out: TextIO) -> None:
    out.write("| 名称 | 类型 | 使用次数 | 库数 | 下一步 |\n| --- | --- | ---: | ---: | --- |\n")
    for item in items:
        out.write(
            f"| `{item.name}` | {item.kind} | {item.uses} | {item.libraries} | `{_hint(item)}` |\n"
        )


def _todo_json(items: list[TodoItem], total: int, usage: UsageData) -> dict[str, Any]:
    return {
        "format": "apimap-coverage-todo",
        "version": 1,
        "unclassified": total,
        "usage_sources": [{"name": lib.name, "version": lib.version} for lib in usage.libraries],
        "items": [
            {
                "name": item.name,
                "namespace": item.namespace,
                "kind": item.kind,
                "uses": item.uses,
                "libraries": item.libraries,
                "aliases": item.aliases,
            }
            for item in items
        ],
    }


def _update_usage(args: argparse.Namespace, surface: Surface, classifier: Classifier) -> int:
    from apimap.survey.coverage.usage import build_usage, dump_usage, usage_path
    from apimap.survey.scan.runner import default_jobs

    folders = [Path(p) for p in args.update_usage]
    missing = [str(p) for p in folders if not p.is_dir()]
    if missing:
        print(f"apimap coverage: 不是目录 (not a folder): {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    command = "apimap coverage --update-usage " + " ".join(
        shlex.quote(p) for p in args.update_usage
    )
    try:
        document = build_usage(folders, surface, classifier, default_jobs(), command)
    except ValueError as exc:
        print(f"apimap coverage: {exc}", file=sys.stderr)
        return EXIT_USAGE
    target = usage_path()
    tmp = target.with_suffix(".tmp")
    tmp.write_text(dump_usage(document), encoding="utf-8")
    tmp.replace(target)
    for lib in document["libraries"]:
        print(f"{lib['name']} {lib['version']}: {lib['files']} 个文件 (files)")
    print(f"已写入 (wrote) {target}")
    return EXIT_CLEAN


def run_command(args: argparse.Namespace) -> int:
    """Print the coverage table, the worklist, or rebuild the usage counts."""
    from apimap.files.surface import load_surface
    from apimap.survey.coverage.compute import by_use, compute
    from apimap.survey.coverage.usage import load_usage
    from apimap.survey.scan.classify import Classifier
    from apimap.survey.scan.knowledge import KnowledgeError, default_mappings, load_knowledge

    mappings = Path(args.mappings) if args.mappings else default_mappings()
    try:
        knowledge = load_knowledge(mappings)
    except KnowledgeError as exc:
        print(
            f"apimap coverage: 无法读取记录 (cannot read the records) {mappings}:", file=sys.stderr
        )
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return EXIT_USAGE
    surface = load_surface()
    if args.update_usage:
        return _update_usage(args, surface, Classifier(surface, knowledge))
    coverage = compute(surface, knowledge)
    out = sys.stdout
    usage = load_usage()
    if not args.todo:
        weighted = by_use(coverage, usage.uses)
        if args.format == "json":
            document = coverage_json(coverage, args.namespace, weighted)
            out.write(json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
        elif args.format == "markdown":
            _coverage_markdown(coverage, args.namespace, _use_line(weighted, usage), out)
        else:
            _coverage_text(coverage, args.namespace, _use_line(weighted, usage), out)
        return EXIT_CLEAN
    items = todo_items(coverage, surface, usage, args.namespace)
    shown = items[: args.limit] if args.limit else items
    if args.format == "json":
        document = _todo_json(shown, len(items), usage)
        out.write(json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
    elif args.format == "markdown":
        _todo_markdown(shown, out)
    else:
        _todo_text(shown, len(items), usage, out)
    return EXIT_CLEAN
