"""Render every generated page of the site into one Sphinx source folder."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment

from apimap.checking.corpus import CorpusError, Entry, load_entries
from apimap.files.content_cache import ContentCache, content_key, files_salt
from apimap.publish.site import views
from apimap.publish.site.chart import coverage_svg
from apimap.publish.site.names import (
    CATEGORY_FOLDER,
    CHART,
    INDEX_SCRIPT,
    REVERSE_DOC,
    TABLES_DOC,
    category_docname,
)
from apimap.publish.site.rules_page import rule_views
from apimap.publish.site.templates import environment, render
from apimap.record import pages
from apimap.record.categories import Category, Section
from apimap.record.pages import api_docname, has_page, other_names
from apimap.record.pins import PADDLE_RELEASES, PADDLE_VERSION

REPO_URL_VARIABLE = "APIMAP_REPO_URL"


@dataclass(frozen=True)
class SiteSources:
    """Where the site's inputs live."""

    mappings: Path
    templates: Path
    pages: Path
    """Hand-written Markdown pages, copied as they are."""
    cache: Path | None = None
    """Where records and pages are kept between runs (``None``: redo everything)."""
    repo_url: str | None = None
    """The hosting repository (``https://github.com/owner/apimap``): pages link to their record
    file to edit it and to a prefilled issue form; no links when unset."""

    @classmethod
    def in_project(
        cls, root: Path, mappings: Path | None = None, cache: Path | None = None
    ) -> SiteSources:
        """The standard layout of the repository at ``root``; the repository URL comes from
        ``$APIMAP_REPO_URL``."""
        return cls(
            mappings=mappings if mappings is not None else root / "mappings",
            templates=root / "templates",
            pages=root / "site" / "pages",
            cache=cache,
            repo_url=os.environ.get(REPO_URL_VARIABLE) or None,
        )


def _index_script(entries: list[Entry]) -> str:
    data = json.dumps(
        views.index_entries(entries), ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )
    return f"window.APIMAP_INDEX = {data};\n"


@dataclass(frozen=True)
class Guide:
    """A hand-written page listed on the home page."""

    docname: str
    title: str


def _guides(files: dict[str, bytes]) -> list[Guide]:
    guides = []
    for name, content in sorted(files.items()):
        if not name.endswith(".md"):
            continue
        lines = content.decode("utf-8", errors="replace").splitlines()
        title = next((line[2:].strip() for line in lines if line.startswith("# ")), name)
        guides.append(Guide(name.removesuffix(".md"), title))
    return guides


def _hand_written(pages: Path) -> dict[str, bytes]:
    if not pages.is_dir():
        return {}
    return {
        path.relative_to(pages).as_posix(): path.read_bytes()
        for path in sorted(pages.rglob("*"))
        if path.is_file()
    }


def _api_pages(entries: list[Entry], env: Environment, sources: SiteSources) -> dict[str, str]:
    """The diff pages; with a cache, only records whose file changed are rendered again."""
    cache = None if sources.cache is None else sources.cache / "pages.json"
    salt = _page_salt(sources.templates) + (sources.repo_url or "") if cache else ""
    known = ContentCache(cache, salt)
    texts: dict[str, str] = {}
    for entry in entries:
        if not has_page(entry.record):
            continue
        key = content_key((entry.key + (entry.stamp.to_json() if entry.stamp else "")).encode())
        docname = api_docname(entry.api)
        text = known.get(key)
        if text is None:
            page = views.api_page(entry, sources.repo_url)
            text = render(env, "api.md.j2", docname, page=page)
            known.put(key, text)
        texts[f"{docname}.md"] = text
    known.save()
    return texts


def _page_salt(templates: Path) -> str:
    """Changes when the model, a template or the renderer changes."""
    files = sorted(p for p in templates.rglob("*") if p.is_file())
    renderer = [*sorted(Path(__file__).parent.glob("*.py")), Path(pages.__file__)]
    return files_salt(files + renderer)


def render_site(sources: SiteSources) -> dict[str, bytes]:
    """Every file of the Sphinx source folder (relative path -> bytes)."""
    if not sources.templates.is_dir():
        problem = "找不到模板目录，请在仓库根目录运行 (no templates: run from the repository root)"
        raise CorpusError([f"{sources.templates}: {problem}"])
    cache = sources.cache
    entries = load_entries(sources.mappings, cache / "records.json" if cache else None)
    env = environment(sources.templates)
    files = _hand_written(sources.pages)
    texts = _api_pages(entries, env, sources)
    coverage = views.surface_coverage(entries)
    texts["index.md"] = render(
        env,
        "index.md.j2",
        "index",
        groups=views.group_counts(entries),
        coverage=coverage,
        records=len(entries),
        aliases=sum(len(other_names(entry.record)) for entry in entries),
        pages=sum(1 for entry in entries if has_page(entry.record)),
        chart=CHART,
        guides=_guides(files),
    )
    texts[CHART] = coverage_svg(coverage.chart)
    texts[f"{TABLES_DOC}.md"] = render(
        env,
        "tables.md.j2",
        TABLES_DOC,
        sections=views.section_tables(entries),
        missing=views.missing_rows(entries),
        categories=list(Category),
        section_names=[section.value for section in Section],
        unsectioned=views.UNSECTIONED,
        releases=list(PADDLE_RELEASES),
    )
    category_pages = views.category_pages(entries)
    texts[f"{CATEGORY_FOLDER}/index.md"] = render(
        env, "categories.md.j2", f"{CATEGORY_FOLDER}/index", pages=category_pages
    )
    for category_page in category_pages:
        docname = category_docname(category_page.category.value)
        texts[f"{docname}.md"] = render(env, "category.md.j2", docname, page=category_page)
    texts["rules.md"] = render(env, "rules.md.j2", "rules", rules=rule_views())
    texts["migration.md"] = render(
        env, "migration.md.j2", "migration", items=views.migration_items(entries)
    )
    texts[f"{REVERSE_DOC}.md"] = render(
        env, "reverse.md.j2", REVERSE_DOC, rows=views.reverse_rows(entries)
    )
    texts["changelog.md"] = render(
        env,
        "changelog.md.j2",
        "changelog",
        changes=views.release_changes(entries),
        releases=list(PADDLE_RELEASES),
        pinned=PADDLE_VERSION,
    )
    texts[INDEX_SCRIPT] = _index_script(entries)
    files.update({name: text.encode("utf-8") for name, text in texts.items()})
    return files
