"""``apimap build``: check the records, render the pages, run Sphinx where needed, assemble.

The check is the same as ``apimap check`` (:func:`apimap.checking.runner.run_check` with
the project's allowlist and cache); errors stop the build with the checker's
diagnostics, so a broken record never reaches the site. apimap renders the generated pages
itself; Sphinx builds the hand-written pages and the layouts (frames) the generated pages go
into, and runs only when its own inputs changed. Every file is written only when its bytes
change, and the same records and commit give byte-identical output.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TextIO

from apimap.checking.allowlist import load_allowlist
from apimap.checking.corpus import CorpusError
from apimap.checking.diagnostics import Pending, Severity
from apimap.checking.report import summary_line, write_text
from apimap.checking.runner import run_check
from apimap.publish.site import frames
from apimap.publish.site.assemble import assemble
from apimap.publish.site.site import Rendered, SiteSources, render_site
from apimap.publish.site.writer import OutputFolderError, SyncReport, sync_tree
from apimap.record import phrases
from apimap.record.pins import (
    PADDLE_VERSION,
    TORCH_VERSION,
    TORCHVISION_VERSION,
    VISION_TORCH_VERSION,
)

BUILD_OK = 0
BUILD_FAILED = 1


@dataclass(frozen=True)
class SiteLayout:
    """Where a build reads and writes, all derived from the project root by default."""

    root: Path
    mappings: Path
    generated: Path
    """Sphinx's source folder: the hand-written pages and the stubs (gitignored)."""
    html: Path
    doctrees: Path
    frames: Path
    """Sphinx's output of the frames that many pages share, kept between builds."""
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
            frames=html.parent / (html.name + ".frames"),
            cache=cache if cache is not None else root / ".apimap_cache",
        )


class Progress:
    """Numbered step lines with their duration (``[2/4] 生成页面 … 0.4 s``)."""

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


def check_records(
    layout: SiteLayout,
    out: TextIO,
    ignore: Sequence[str] = (),
    pending: Pending = Pending.ERROR,
) -> bool:
    """Run ``apimap check`` on the records; print its diagnostics; ``True`` if no error. On a
    pull request (``--pending-stamps notice``) a missing or stale stamp is a notice, as in
    ``apimap check``: the page then shows the record as not verified."""
    result = run_check(
        [layout.mappings],
        ignore=set(ignore) or None,
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


@dataclass(frozen=True)
class Origin:
    """What a build was made from: the footer of every page says it."""

    commit: str
    """The commit's full hash, empty outside a git checkout."""
    date: str
    """The commit's date (``2026-12-02``): the same commit gives the same pages."""

    @classmethod
    def of(cls, root: Path) -> Origin:
        """The checkout's current commit, read with git."""
        try:
            done = subprocess.run(
                ["git", "-C", str(root), "log", "-1", "--format=%H %cs"],
                capture_output=True,
                text=True,
                check=False,
                timeout=30,
            )
        except (OSError, subprocess.SubprocessError):
            return cls("", "")
        commit, _, date = done.stdout.strip().partition(" ")
        return cls(commit, date) if done.returncode == 0 and commit else cls("", "")


def pinned_versions() -> str:
    """The versions the records are verified against, as the footer says them."""
    return phrases.FOOTER_VERSIONS.format(
        torch=TORCH_VERSION,
        torchvision=TORCHVISION_VERSION,
        vision=VISION_TORCH_VERSION,
        paddle=PADDLE_VERSION,
    )


def sphinx_arguments(layout: SiteLayout, site_url: str, origin: Origin, quiet: bool) -> list[str]:
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
        "-D",
        f"html_baseurl={site_url}",
        "-A",
        f"apimap_base={site_url}",
        "-A",
        f"apimap_commit={origin.commit}",
        "-A",
        f"apimap_date={origin.date}",
        "-A",
        f"apimap_versions={pinned_versions()}",
    ]
    if quiet:
        arguments.append("-q")
    return [*arguments, str(layout.generated), str(layout.html)]


def _sphinx_fingerprint(layout: SiteLayout, arguments: list[str]) -> str:
    """Changes when anything Sphinx reads changes: its sources, the configuration folder,
    the extension, the arguments and the versions of Sphinx and its theme (paths relative to
    their folder, so that the same build gives the same fingerprint however it was started)."""
    digest = hashlib.blake2b(digest_size=16)
    excluded = (layout.confdir / "_build", layout.confdir / "_generated")
    folders = [
        (layout.generated, sorted(p for p in layout.generated.rglob("*") if p.is_file())),
        (
            layout.confdir,
            sorted(
                p
                for p in layout.confdir.rglob("*")
                if p.is_file() and not any(p.is_relative_to(folder) for folder in excluded)
            ),
        ),
    ]
    extension = Path(frames.__file__).with_name("sphinx_ext.py")
    folders.append((extension.parent, [extension]))
    for folder, paths in folders:
        for path in paths:
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    for package in ("sphinx", "furo", "myst-parser"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"{package}={metadata.version(package)}".encode())
    folder_arguments = {
        str(layout.confdir),
        str(layout.doctrees),
        str(layout.generated),
        str(layout.html),
    }
    digest.update("\0".join(arg for arg in arguments if arg not in folder_arguments).encode())
    return digest.hexdigest()


FINGERPRINT = ".sphinx-inputs"


def _frame_docs(rendered: Rendered) -> set[str]:
    return {page.frame for page in rendered.pages if page.frame}


def sphinx_needed(layout: SiteLayout, rendered: Rendered, fingerprint: str) -> bool:
    """Whether Sphinx must run: its inputs changed, or an output the build needs is missing."""
    stored = layout.frames / FINGERPRINT
    if not stored.is_file() or stored.read_text(encoding="utf-8") != fingerprint:
        return True
    if any(not (layout.frames / f"{doc}.html").is_file() for doc in _frame_docs(rendered)):
        return True
    return any(
        not (layout.html / f"{name.removesuffix('.md')}.html").is_file()
        for name in rendered.sources
        if name.endswith(".md") and name.removesuffix(".md") not in _frame_docs(rendered)
    )


def run_sphinx(layout: SiteLayout, arguments: list[str], out: TextIO) -> int:
    """Run Sphinx in this process (its imports are the slow part of a small rebuild)."""
    try:
        from sphinx.cmd.build import build_main
    except ImportError:
        out.write(
            "apimap build: 需要先安装 apimap[site] (install the site extra: pip install -e '.[site]')\n"
        )
        return BUILD_FAILED
    return build_main(arguments)


def keep_frames(layout: SiteLayout, rendered: Rendered, fingerprint: str) -> None:
    """Move the shared frames out of the site into the frames folder, with the fingerprint of
    the inputs they were built from."""
    layout.frames.mkdir(parents=True, exist_ok=True)
    for doc in sorted(_frame_docs(rendered)):
        built = layout.html / f"{doc}.html"
        if built.is_file():
            target = layout.frames / f"{doc}.html"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(built), str(target))
    (layout.frames / FINGERPRINT).write_text(fingerprint, encoding="utf-8")


def publish(
    layout: SiteLayout, out: TextIO, verbose: bool = False, progress: Progress | None = None
) -> int:
    """Render, run Sphinx where needed and assemble (``apimap build`` after the check; the
    hostile-record tests run it on records the check would refuse)."""
    progress = progress or Progress(out, 3)
    sources = layout.sources
    try:
        with progress.step("生成页面 (rendering pages)"):
            rendered = render_site(sources)
            report: SyncReport = sync_tree(layout.generated, rendered.sources)
            out.write(f"    {len(rendered.pages)} 个页面 (pages)\n")
    except (CorpusError, OutputFolderError) as exc:
        out.write(f"apimap build: {exc}\n")
        return BUILD_FAILED
    quiet = not verbose and not _is_terminal(out)
    arguments = sphinx_arguments(layout, sources.site_url, Origin.of(layout.root), quiet)
    fingerprint = _sphinx_fingerprint(layout, arguments)
    with progress.step("Sphinx 生成布局与手写页面 (Sphinx: layouts and hand-written pages)"):
        if sphinx_needed(layout, rendered, fingerprint) or report.written or report.removed:
            (layout.frames / FINGERPRINT).unlink(missing_ok=True)
            status = run_sphinx(layout, arguments, out)
            if status != 0:
                out.write(
                    "apimap build: Sphinx 构建失败，见上方的警告 (Sphinx failed: see its warnings)\n"
                )
                return BUILD_FAILED
            keep_frames(layout, rendered, fingerprint)
        else:
            out.write("    输入未变，跳过 (inputs unchanged: skipped)\n")
    with progress.step("组装页面 (assembling pages)"):
        written = assemble(layout.html, layout.frames, rendered, sources.site_url)
        out.write(f"    写入 {written} 个文件 (files written)\n")
    out.write(f"站点已生成 (site built): {layout.html / 'index.html'}\n")
    return BUILD_OK


def build_site(
    layout: SiteLayout,
    out: TextIO,
    verbose: bool = False,
    ignore: Sequence[str] = (),
    pending: Pending = Pending.ERROR,
) -> int:
    """Check, render, build and assemble; the exit code of ``apimap build``."""
    progress = Progress(out, 4)
    with progress.step("检查记录 (checking records)"):
        clean = check_records(layout, out, ignore, pending)
    if not clean:
        return BUILD_FAILED
    return publish(layout, out, verbose, progress)


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return False
