"""Shared fixtures of the site tests: the test corpus, its rendering and one built site."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from apimap.render.build import SiteLayout, build_site
from apimap.render.site import SiteSources, render_site

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus" / "mappings"


def corpus_sources(mappings: Path = CORPUS) -> SiteSources:
    """The repository's templates, pages and fixtures over ``mappings``."""
    return SiteSources.in_project(ROOT, mappings)


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
def rendered() -> dict[str, bytes]:
    """Every generated file of the test corpus."""
    return render_site(corpus_sources())


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> SiteLayout:
    """The test corpus built into HTML once per session."""
    work = tmp_path_factory.mktemp("site")
    layout = corpus_layout(work, copy_corpus(work))
    out = io.StringIO()
    status = build_site(layout, out, jobs=1)
    assert status == 0, out.getvalue()
    return layout
