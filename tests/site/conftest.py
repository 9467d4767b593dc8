"""Shared fixtures of the site tests: the test corpus, its rendering, one built site and the
browser (Debian's chromium through Python playwright)."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from apimap.publish.site.build import SiteLayout, build_site
from apimap.publish.site.site import Rendered, SiteSources, render_site

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus" / "mappings"


def corpus_sources(mappings: Path = CORPUS) -> SiteSources:
    """The repository's templates, pages and fixtures over ``mappings`` (no repository or site
    address, whatever ``$APIMAP_REPO_URL`` and ``$APIMAP_SITE_URL`` say)."""
    return replace(SiteSources.in_project(ROOT, mappings), repo_url=None, site_url="")


def files_of(rendered: Rendered) -> dict[str, bytes]:
    """Everything a render made, by path: Sphinx's sources, the pages' articles, the assets."""
    files = dict(rendered.sources)
    files.update({f"{page.docname}.html": page.body.encode("utf-8") for page in rendered.pages})
    files.update(rendered.assets)
    return files


def body(rendered: Rendered, docname: str) -> str:
    """The article of one rendered page."""
    return next(page.body for page in rendered.pages if page.docname == docname)


def corpus_layout(work: Path, mappings: Path) -> SiteLayout:
    """A build of ``mappings`` whose outputs all live below ``work``."""
    return SiteLayout.of(
        ROOT,
        mappings=mappings,
        generated=work / "generated",
        html=work / "html",
        cache=work / "cache",
    )


def copy_corpus(target: Path) -> Path:
    """A copy of the test corpus and its stamps that a test may change; returns its
    ``mappings`` folder."""
    mappings = target / "mappings"
    shutil.copytree(CORPUS, mappings)
    shutil.copytree(CORPUS.parent / "stamps", target / "stamps")
    return mappings


@pytest.fixture(scope="session")
def rendered() -> Rendered:
    """Every page, source and asset of the test corpus."""
    return render_site(corpus_sources())


SITE_URL = "https://example.org/apimap/"
REPO_URL = "https://github.com/example/apimap"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteLayout]:
    """The test corpus built into HTML once per session, published at :data:`SITE_URL` from
    the repository :data:`REPO_URL` (canonical links, sitemap, edit and report links)."""
    work = tmp_path_factory.mktemp("site")
    layout = corpus_layout(work, copy_corpus(work))
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("APIMAP_SITE_URL", SITE_URL)
        patch.setenv("APIMAP_REPO_URL", REPO_URL)
        status = build_site(layout, out)
    assert status == 0, out.getvalue()
    yield layout


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _require_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI 中缺少 {CHROMIUM} (chromium is required in CI)")
    pytest.skip("没有安装 chromium (chromium not installed)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium with a new, empty profile (``--user-data-dir``)."""
    _require_chromium()
    from playwright.sync_api import sync_playwright  # the browser extra

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        yield context
        context.close()
