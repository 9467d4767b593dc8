"""``apimap surface``: show the public-surface table, or recompute it from the installed libraries."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE


def configure(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap surface``."""
    parser.description = (
        "显示 data/surface.json 中每个命名空间的公开名称数；--update 用已安装的库重新计算"
        "与本环境固定版本一致的库 (show the table; --update recomputes the pinned libraries "
        "installed here)"
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="导入已安装的、版本固定的库并重写该库的部分 (recompute from the installed libraries)",
    )
    parser.add_argument("--file", help="表文件，默认为包内的 data/surface.json")
    parser.set_defaults(handler=run_command)


def _installed_pinned() -> tuple[list[str], list[str]]:
    """Libraries to collect here, and notes on the ones left alone."""
    from importlib.metadata import PackageNotFoundError, version

    from apimap.record.pins import PINS, VISION_PINS, public_version

    wanted = {"torch": PINS["torch"], "torchvision": VISION_PINS["torchvision"]}
    chosen: list[str] = []
    notes: list[str] = []
    for library, pinned in wanted.items():
        if importlib.util.find_spec(library) is None:
            notes.append(f"{library}: 未安装 (not installed)")
            continue
        try:
            installed = public_version(version(library))
        except PackageNotFoundError:
            installed = "?"
        if installed != pinned:
            notes.append(f"{library} {installed}: 不是固定版本 {pinned} (not the pinned version)")
            continue
        chosen.append(library)
    return chosen, notes


def _print_table(libraries: dict[str, Any]) -> None:
    for library, lib in sorted(libraries.items()):
        print(f"{library} {lib.version} (Python {lib.python})")
        for namespace, ns in sorted(lib.namespaces.items(), key=lambda item: item[1].order):
            kinds = Counter(entry.kind for entry in ns.names.values())
            aliases = sum(1 for entry in ns.names.values() if entry.alias_of)
            detail = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
            print(f"  {namespace:40s} {len(ns.names):5d}  ({detail}; alias {aliases})")
        for namespace, reason in sorted(lib.skipped.items()):
            print(f"  {namespace:40s} 跳过 (skipped): {reason}")
        total = sum(len(ns.names) for ns in lib.namespaces.values())
        print(f"  合计 (total) {total}")


def run_command(args: argparse.Namespace) -> int:
    """Print the table, or with ``--update`` recompute the pinned libraries installed here."""
    from apimap.files.surface import data_path, parse_document
    from apimap.survey.surface.table import dump_document

    target = Path(args.file) if args.file else data_path()
    current: dict[str, Any] = {}
    if target.is_file():
        try:
            current = parse_document(target.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError) as exc:
            print(f"apimap surface: {target}: 无法读取 (unreadable): {exc}", file=sys.stderr)
            return EXIT_USAGE
    elif not args.update:
        print(f"apimap surface: {target}: 文件不存在 (no such file)", file=sys.stderr)
        return EXIT_USAGE
    if not args.update:
        _print_table(current)
        return EXIT_CLEAN
    chosen, notes = _installed_pinned()
    for note in notes:
        print(f"apimap surface: {note}", file=sys.stderr)
    if not chosen:
        print(
            "apimap surface: 本环境没有版本固定的库 (no pinned library installed here)",
            file=sys.stderr,
        )
        return EXIT_FINDINGS
    from apimap.survey.surface.collect import collect

    for library in chosen:
        current[library] = collect(library)
    text = dump_document(current)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    _print_table({name: current[name] for name in chosen})
    print(f"已写入 (wrote) {target}")
    return EXIT_CLEAN
