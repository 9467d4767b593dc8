"""The ``apimap`` command line.

Only the module of the subcommand being run is imported (the others are named
in :data:`COMMANDS` with their help text), so that ``apimap check FILE`` in a
pre-commit hook does not pay for the site builder or the verifier.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence

from apimap.exit_codes import EXIT_CLEAN, EXIT_USAGE

COMMANDS: dict[str, tuple[str, str, str]] = {
    "check": (
        "apimap.checking.command",
        "configure_check",
        "按规范检查记录 (check records against the spec)",
    ),
    "rules": ("apimap.checking.command", "configure_rules", "列出所有规则代码 (list rule codes)"),
    "schema": (
        "apimap.checking.command",
        "configure_schema",
        "导出 JSON Schema (export the JSON Schema)",
    ),
    "fmt": (
        "apimap.contrib.commands",
        "configure_fmt",
        "把记录改写为规范格式 (rewrite records in canonical form)",
    ),
    "diff": (
        "apimap.contrib.commands",
        "configure_diff",
        "两个 git 版本之间记录的变化 (record changes between revisions)",
    ),
    "new": (
        "apimap.contrib.scaffold",
        "configure",
        "从已安装的库（没有时从仓库的数据）生成记录草稿 (draft a record from the libraries or the data)",
    ),
    "verify": (
        "apimap.verify.command",
        "configure",
        "用已安装的 torch 与 paddle 验证记录 (verify against the libraries)",
    ),
    "import": (
        "apimap.publish.importer.command",
        "configure",
        "导入旧的 Markdown 映射页面与映射表 (import legacy pages)",
    ),
    "export": (
        "apimap.publish.export",
        "configure",
        "把知识库导出为 JSON (export the knowledge base as JSON)",
    ),
    "xcheck": (
        "apimap.contrib.xcheck",
        "configure",
        "与 PaConvert 的转换规则对比 (compare with PaConvert's rules)",
    ),
    "surface": (
        "apimap.survey.surface.command",
        "configure",
        "torch/torchvision 的公开 API 表 (the public API surface table)",
    ),
    "scan": (
        "apimap.survey.scan.command",
        "configure",
        "扫描项目用到的 torch API 及迁移难度 (which torch APIs a project uses)",
    ),
    "coverage": (
        "apimap.survey.coverage.command",
        "configure",
        "知识库对公开 API 的覆盖率与待办清单 (coverage of the public surface, worklist)",
    ),
    "render": (
        "apimap.publish.site.commands",
        "configure_render",
        "只生成站点的 Markdown (render Markdown only)",
    ),
    "build": (
        "apimap.publish.site.commands",
        "configure_build",
        "检查记录并构建站点 (check, render and build the site)",
    ),
    "serve": (
        "apimap.publish.site.commands",
        "configure_serve",
        "本地预览，改动后自动重新构建 (preview and rebuild)",
    ),
    "doctor": (
        "apimap.verify.doctor",
        "configure",
        "版本与各环境是否符合固定版本和锁文件 (versions; environments against pins and locks)",
    ),
}
"""Subcommand -> (module, function that adds its arguments, help)."""


def _chosen(argv: Sequence[str]) -> str | None:
    return next((arg for arg in argv if not arg.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser. When ``argv`` names a subcommand, only that one is added, with its
    arguments (its module is imported); ``apimap --help`` lists every subcommand and imports
    none; ``argv=None`` configures all."""
    parser = argparse.ArgumentParser(
        prog="apimap",
        description="PyTorch → Paddle API 映射知识库工具 (API mapping knowledge base)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    chosen = None if argv is None else _chosen(argv)
    for name, (module, configure, help_text) in COMMANDS.items():
        if chosen in COMMANDS and name != chosen:
            continue  # building every subcommand's parser costs a pre-commit hook's start-up
        sub = commands.add_parser(name, help=help_text)
        if argv is None or name == chosen:
            getattr(importlib.import_module(module), configure)(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: returns the exit code (0 clean, 1 findings, 2 usage or internal error)."""
    if argv is None:
        # records are validated by apimap's own model: a pydantic plugin installed in the
        # environment has nothing to observe there, and finding one costs a scan of every
        # installed package's metadata at each start
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(arguments)
    try:
        args = parser.parse_args(arguments)
    except SystemExit as exc:
        return EXIT_CLEAN if exc.code == 0 else EXIT_USAGE
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        return EXIT_USAGE
    except BrokenPipeError:
        # the reader went away (`apimap rules | head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLEAN
    except Exception:
        print("apimap: 内部错误 (internal error)", file=sys.stderr)
        import traceback  # only on this path: every other start skips its import

        traceback.print_exc()
        return EXIT_USAGE
    if argv is None:
        # the process ends with this command: what it still holds (a check's thousands of
        # syntax trees) needs no last pass of the cycle collector at exit
        gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(main())
