"""``apimap build``: check the records, render the pages, run Sphinx.

The check is the same as ``apimap check`` (:func:`apimap.checking.runner.run_check` with
the project's allowlist and cache); errors stop the build with the checker's
diagnostics, so a broken record never reaches the site. On a pull request
(``--pending-stamps notice``) a missing or stale stamp is a notice, as in ``apimap check``:
the page then shows the record as not verified.
"""

from __future__ import annotations

import contextlib
import gc
import io
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from apimap.checking.allowlist import load_allowlist
from apimap.checking.corpus import CorpusError
from apimap.checking.diagnostics import Pending, Severity
from apimap.checking.report import summary_line, write_text
from apimap.checking.runner import run_check
from apimap.publish.site.site import SiteSources, render_site
from apimap.publish.site.writer import OutputFolderError, SyncReport, sync_tree

BUILD_OK = 0
BUILD_FAILED = 1


@dataclass(frozen=True)
class SiteLayout:
    """Where a build reads and writes, all derived from the project root by default."""

    root: Path
    mappings: Path
    generated: Path
    """Rendered Markdown: the Sphinx source folder (gitignored)."""
    html: Path
    doctrees: Path
    cache: Path | None
    """Where ``apimap check`` and the renderer keep results between runs (``None``: none)."""

    @property
    def sources(self) -> SiteSources:
        """The inputs of the renderer."""
        return SiteSources.in_project(self.root, self.mappings, self.cache)

    @property
    def confdir(self) -> Path:
        """The folder of ``conf.py``."""
        return self.root / "site"

    @classmethod
    def of(
        cls,
        root: Path,
        mappings: Path | None = None,
        generated: Path | None = None,
        html: Path | None = None,
        cache: Path | None = None,
    ) -> SiteLayout:
        """The standard layout, with optional overrides."""
        build = root / "site" / "_build"
        html = html if html is not None else build / "html"
        return cls(
            root=root,
            mappings=mappings if mappings is not None else root / "mappings",
            generated=generated if generated is not None else root / "site" / "_generated",
            html=html,
            doctrees=html.parent / (html.name + ".doctrees"),
            cache=cache if cache is not None else root / ".apimap_cache",
        )


class Progress:
    """Numbered step lines with their duration (``[2/3] 生成页面 … 0.4 s``)."""

    def __init__(self, out: TextIO, steps: int) -> None:
        self.out = out
        self.steps = steps
        self.current = 0

    @contextlib.contextmanager
    def step(self, title: str) -> Iterator[None]:
        """Announce a step, run it, and print how long it took."""
        self.current += 1
        self.out.write(f"[{self.current}/{self.steps}] {title} …\n")
        self.out.flush()
        start = time.perf_counter()
        yield
        elapsed = time.perf_counter() - start
        self.out.write(f"[{self.current}/{self.steps}] {title}：{elapsed:.1f} s\n")
        self.out.flush()


def check_records(layout: SiteLayout, out: TextIO, pending: Pending = Pending.ERROR) -> bool:
    """Run ``apimap check`` on the records; print its diagnostics; ``True`` if no error."""
    result = run_check(
        [layout.mappings],
        allowlist=load_allowlist(layout.root / "allowlist.yaml"),
        cache_dir=layout.cache,
        pending=pending,
    )
    if result.diagnostics:
        write_text(result, out)
    else:
        out.write(f"    {summary_line(result)}\n")
    errors = result.count(Severity.ERROR)
    if errors:
        out.write(
            f"apimap build: 记录有 {errors} 个错误，已停止构建 (errors in the records: build stopped)\n"
        )
    return errors == 0


def render_pages(layout: SiteLayout) -> SyncReport:
    """Render the Markdown into the generated folder, writing only changed files."""
    return sync_tree(layout.generated, render_site(layout.sources))


SMALL_CHANGE = 50
"""Up to this many changed files, Sphinx works in one process: forking costs more."""


def sphinx_jobs(layout: SiteLayout, report: SyncReport, jobs: int) -> int:
    """``jobs`` for a full build; one process for a small incremental one."""
    changed = len(report.written) + len(report.removed)
    incremental = (layout.html / "index.html").is_file() and layout.doctrees.is_dir()
    return 1 if incremental and changed <= SMALL_CHANGE else jobs


def sphinx_arguments(layout: SiteLayout, jobs: int, quiet: bool) -> list[str]:
    """``sphinx-build`` arguments: warnings are errors, every problem is reported."""
    arguments = [
        "-b",
        "html",
        "-c",
        str(layout.confdir),
        "-d",
        str(layout.doctrees),
        "-W",
        "--keep-going",
        "-j",
        str(jobs),
    ]
    if quiet:
        arguments.append("-q")
    return [*arguments, str(layout.generated), str(layout.html)]


GC_THRESHOLDS = (100_000, 50, 100)
"""Sphinx allocates millions of small objects; with Python's default thresholds the
cyclic collector keeps re-scanning the growing environment (about a sixth of the build)."""


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often for the duration of a build."""
    previous = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def run_sphinx(layout: SiteLayout, jobs: int, quiet: bool, out: TextIO) -> int:
    """Run Sphinx in this process (its imports are the slow part of a small rebuild)."""
    try:
        from sphinx.cmd.build import build_main
    except ImportError:
        out.write(
            "apimap build: 需要先安装 apimap[site] (install the site extra: pip install -e '.[site]')\n"
        )
        return BUILD_FAILED
    with fewer_collections():
        return build_main(sphinx_arguments(layout, jobs, quiet))


def build_site(
    layout: SiteLayout,
    out: TextIO,
    jobs: int = 1,
    verbose: bool = False,
    pending: Pending = Pending.ERROR,
) -> int:
    """Check, render and build; the exit code of ``apimap build``."""
    progress = Progress(out, 3)
    with progress.step("检查记录 (checking records)"):
        clean = check_records(layout, out, pending)
    if not clean:
        return BUILD_FAILED
    try:
        with progress.step("生成 Markdown (rendering pages)"):
            report = render_pages(layout)
            out.write(
                f"    写入 {len(report.written)} 个文件，未变 {report.unchanged} 个，"
                f"删除 {len(report.removed)} 个 (written / unchanged / removed)\n"
            )
    except (CorpusError, OutputFolderError) as exc:
        out.write(f"apimap build: {exc}\n")
        return BUILD_FAILED
    quiet = not verbose and not _is_terminal(out)
    with progress.step("构建 HTML (Sphinx)"):
        status = run_sphinx(layout, sphinx_jobs(layout, report, jobs), quiet, out)
    if status != 0:
        out.write("apimap build: Sphinx 构建失败，见上方的警告 (Sphinx failed: see its warnings)\n")
        return BUILD_FAILED
    out.write(f"站点已生成 (site built): {layout.html / 'index.html'}\n")
    return BUILD_OK


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return False
