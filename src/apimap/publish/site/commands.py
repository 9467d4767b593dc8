"""The ``render``, ``build`` and ``serve`` subcommands of the ``apimap`` command line.

The site modules are imported when a site command runs, so that ``apimap check``
does not pay for Jinja and the HTTP server.
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import Any

from apimap.checking.command import add_pending_stamps
from apimap.checking.diagnostics import Pending
from apimap.exit_codes import EXIT_CLEAN, EXIT_FINDINGS


def _add_site_folders(parser: argparse.ArgumentParser) -> None:
    """The folders ``build`` and ``serve`` read and write."""
    parser.add_argument("--mappings", help="记录目录，默认 mappings/")
    parser.add_argument("--generated", help="生成的 Markdown 目录，默认 site/_generated")
    parser.add_argument("--cache-dir", default=".apimap_cache", help="检查结果的缓存目录")
    parser.add_argument("--html", help="HTML 输出目录，默认 site/_build/html")
    add_pending_stamps(parser)


def _optional_path(value: str | None) -> Path | None:
    return Path(value) if value else None


def cmd_render(args: argparse.Namespace) -> int:
    """Render the pages without Sphinx: Sphinx's sources, the pages' articles and the assets."""
    from apimap.checking.corpus import CorpusError
    from apimap.publish.site.site import SiteSources, render_site
    from apimap.publish.site.writer import OutputFolderError, sync_tree

    sources = SiteSources.in_project(Path("."), _optional_path(args.mappings))
    try:
        rendered = render_site(sources)
        files = dict(rendered.sources)
        files.update({f"{page.docname}.html": page.body.encode("utf-8") for page in rendered.pages})
        files.update(rendered.assets)
        report = sync_tree(Path(args.out), files)
    except (CorpusError, OutputFolderError) as exc:
        print(f"apimap render: {exc}", file=sys.stderr)
        return EXIT_FINDINGS
    print(
        f"已生成 {len(files)} 个文件到 {args.out}：写入 {len(report.written)} 个，"
        f"未变 {report.unchanged} 个，删除 {len(report.removed)} 个 "
        f"(rendered: written / unchanged / removed)"
    )
    return EXIT_CLEAN


def _layout(args: argparse.Namespace) -> Any:
    from apimap.publish.site.build import SiteLayout

    return SiteLayout.of(
        Path("."),
        mappings=_optional_path(args.mappings),
        generated=_optional_path(args.generated),
        html=_optional_path(args.html),
        cache=Path(args.cache_dir),
    )


def cmd_build(args: argparse.Namespace) -> int:
    """Check, render and build the HTML site."""
    from apimap.publish.site.build import build_site

    ignore = [code.strip() for code in args.ignore.split(",") if code.strip()]
    code = build_site(
        _layout(args),
        sys.stdout,
        verbose=args.verbose,
        ignore=ignore,
        pending=Pending(args.pending_stamps),
    )
    # The process ends next. Freezing skips collecting the reference cycles of Sphinx's
    # environment at exit, which takes about a second for thousands of pages.
    gc.freeze()
    return code


def cmd_serve(args: argparse.Namespace) -> int:
    """Build, serve and rebuild on change."""
    from apimap.publish.site.serve import serve

    return serve(
        _layout(args),
        sys.stdout,
        args.host,
        args.port,
        args.interval,
        pending=Pending(args.pending_stamps),
    )


def configure_render(render: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap render``."""
    render.add_argument("--mappings", help="记录目录，默认 mappings/")
    render.add_argument("--out", default="site/_generated", help="输出目录")
    render.set_defaults(handler=cmd_render)


def configure_build(build: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap build``."""
    _add_site_folders(build)
    build.add_argument("--verbose", action="store_true", help="显示 Sphinx 的全部输出")
    build.add_argument(
        "--ignore",
        default="",
        help="检查时忽略的规则代码前缀，如 AM701（验证标记尚未更新时预览站点）",
    )
    build.set_defaults(handler=cmd_build)


def configure_serve(preview: argparse.ArgumentParser) -> None:
    """The arguments of ``apimap serve``."""
    _add_site_folders(preview)
    preview.add_argument("--host", default="127.0.0.1")
    preview.add_argument("--port", type=int, default=8000, help="端口；0 表示任选空闲端口")
    preview.add_argument("--interval", type=float, default=1.0, help="检查改动的间隔秒数")
    preview.set_defaults(handler=cmd_serve)
