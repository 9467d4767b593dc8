"""Render every page of the site: the pages apimap writes itself, and Sphinx's sources.

apimap renders every generated page to HTML with the templates of ``templates/`` (the API
pages, the mapping tables, the categories, the reverse lookup, the migration notes, the
changelog, the rules, the home and search pages). Sphinx builds only what needs it: the
hand-written pages of ``site/pages`` and, for each generated page in the navigation, a stub
with its title, whose output is the page's layout (see :mod:`apimap.publish.site.frames`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from apimap.checking.corpus import CorpusError, Entry, load_entries
from apimap.files import releases, stamps
from apimap.files.content_cache import ContentCache, content_key, files_salt
from apimap.files.surface import load_surface
from apimap.publish.site import listings, lookup, views
from apimap.publish.site.chart import coverage_svg
from apimap.publish.site.frames import FRAME, Page, folder_frame
from apimap.publish.site.names import CHART
from apimap.publish.site.rules_page import rule_views
from apimap.publish.site.templates import environment, render
from apimap.record import calls, derived, pages, phrases, pins, wording
from apimap.record.categories import Category, Section
from apimap.record.pages import API_FOLDER, api_docname
from apimap.record.pins import PADDLE_RELEASES, PADDLE_VERSION

REPO_URL_VARIABLE = "APIMAP_REPO_URL"
SITE_URL_VARIABLE = "APIMAP_SITE_URL"
RENDERED_SHARDS = 64
"""Files the rendered pages are kept in between builds (a rebuild rewrites the changed ones)."""
PAGE_BUDGET = 600_000
"""Characters of article a generated page may hold before it is split into parts (the whole
page then stays well under 1 MB)."""
REQUEST_TEMPLATE = "request.yml"
"""``.github/ISSUE_TEMPLATE/request.yml``: the form that asks for an API to be covered."""


@dataclass(frozen=True)
class SiteSources:
    """Where the site's inputs live, and where it is published."""

    mappings: Path
    templates: Path
    pages: Path
    """Hand-written Markdown pages, built by Sphinx as they are."""
    cache: Path | None = None
    """Where records and pages are kept between runs (``None``: redo everything)."""
    repo_url: str | None = None
    """The hosting repository (``https://github.com/owner/apimap``): pages link to their record
    file to edit it and to prefilled issue forms; no links when unset."""
    site_url: str = ""
    """The published address, ending with ``/`` (canonical links, sitemap); empty when unset."""

    @classmethod
    def in_project(
        cls, root: Path, mappings: Path | None = None, cache: Path | None = None
    ) -> SiteSources:
        """The standard layout of the repository at ``root``; the repository and site addresses
        come from ``$APIMAP_REPO_URL`` and ``$APIMAP_SITE_URL``."""
        site_url = os.environ.get(SITE_URL_VARIABLE, "").strip()
        return cls(
            mappings=mappings if mappings is not None else root / "mappings",
            templates=root / "templates",
            pages=root / "site" / "pages",
            cache=cache,
            repo_url=os.environ.get(REPO_URL_VARIABLE, "").strip().rstrip("/") or None,
            site_url=site_url.rstrip("/") + "/" if site_url else "",
        )


@dataclass
class Rendered:
    """Everything the renderer makes."""

    sources: dict[str, bytes] = field(default_factory=dict)
    """Sphinx's source folder: hand-written pages, the stubs and the folder frames."""
    pages: list[Page] = field(default_factory=list)
    """The pages apimap renders itself."""
    assets: dict[str, bytes] = field(default_factory=dict)
    """Files written into the site as they are (the lookup indexes, the chart)."""


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


def _hand_written(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def stub(title: str, toctree: list[str] | None = None) -> bytes:
    """A Sphinx source with only a title (and the pages below it in the navigation); apimap
    writes the page's content. Titles are fixed phrases and names, never record text."""
    lines = [] if toctree is not None else ["---", "orphan: true", "---", ""]
    lines += [f"# {title}", "", "apimap"]
    if toctree:
        lines += ["", "```{toctree}", ":hidden:", "", *toctree, "```"]
    return ("\n".join(lines) + "\n").encode("utf-8")


class _Renderer:
    """Renders the pages of one run of :func:`render_site`."""

    def __init__(self, sources: SiteSources, entries: list[Entry]) -> None:
        self.sources = sources
        self.entries = entries
        self.env: Environment = environment(sources.templates)
        surface = load_surface()
        self.names = {entry.api: listings.record_names(entry.record, surface) for entry in entries}
        from apimap.survey.coverage.compute import compute
        from apimap.survey.scan.knowledge import knowledge_from_entries

        self.coverage = compute(surface, knowledge_from_entries(entries))
        self.out = Rendered()
        cache = sources.cache
        salt = _page_salt(sources.templates) + (sources.repo_url or "") if cache else ""
        self.memo = ContentCache(cache / "rendered.json" if cache else None, salt, RENDERED_SHARDS)
        """Rendered articles by a key of everything they show: a rebuild renders only pages
        whose data changed."""

    def render(self, template: str, docname: str, **context: object) -> str:
        """``template`` for ``docname``, or the same rendering of an earlier run."""
        key = content_key(repr((template, docname, sorted(context.items()))).encode("utf-8"))
        text = self.memo.get(key)
        if text is None:
            text = render(self.env, template, docname, **context)
            self.memo.put(key, text)
        return text

    def page(
        self,
        template: str,
        docname: str,
        title: str,
        *,
        frame: str | None = None,
        searched: bool = False,
        toctree: list[str] | None = None,
        **context: object,
    ) -> None:
        """Render one generated page; a page without a shared frame gets a stub of its own."""
        body = self.render(template, docname, title=title, **context)
        self.out.pages.append(Page(docname, body, title if frame else None, title, frame, searched))
        if frame is None:
            self.out.sources[f"{docname}.md"] = stub(title, toctree)

    def api_pages(self) -> None:
        """One page per record; with a cache, only records whose file changed are rendered."""
        for entry in self.entries:
            names = self.names[entry.api]
            docname = api_docname(entry.api)
            key = content_key(
                "\0".join(
                    [entry.key, entry.stamp_key, *names.aliases, "\0", *names.variant_aliases]
                ).encode()
            )
            cached = self.memo.get(key)
            if cached is None:
                page = views.api_page(
                    entry, self.sources.repo_url, names.aliases, names.variant_aliases
                )
                body = render(self.env, "api.html.j2", docname, page=page)
                cached = json.dumps([body, page.description], ensure_ascii=False)
                self.memo.put(key, cached)
            body, description = json.loads(cached)
            title = f"[ {derived.category(entry.record).label} ] {entry.api}"
            self.out.pages.append(
                Page(docname, body, title, description, folder_frame(docname), True)
            )
        self.out.sources[f"{API_FOLDER}/{FRAME}.md"] = stub(phrases.SITE_TITLE)

    def tables(self) -> None:
        """The mapping tables: the filter, a page per section, the 功能缺失 index."""
        sections = listings.section_pages(self.entries, self.names)
        missing = listings.missing_rows(self.entries, self.names)
        titles = phrases.PAGE_TITLES
        self.page(
            "tables.html.j2",
            "tables",
            titles["tables"],
            toctree=[
                *(part.docname for section in sections for part in section.parts),
                "tables/missing",
            ],
            sections=sections,
            missing=missing,
            categories=list(Category),
            section_names=[section.value for section in Section],
            releases=list(PADDLE_RELEASES),
        )
        for section in sections:
            parts = section.parts
            for part in parts:
                title = phrases.SECTION_TABLE_TITLE.format(section=section.title)
                if len(parts) > 1:
                    title = phrases.PART_TITLE.format(title=title, part=part.label)
                self.page(
                    "section.html.j2",
                    part.docname,
                    title,
                    toctree=[],
                    section=section,
                    part=part,
                    parts=parts,
                )
        self.page(
            "missing.html.j2", "tables/missing", titles["tables/missing"], toctree=[], rows=missing
        )

    def categories(self) -> None:
        """The categories and one page per category."""
        category_pages = listings.category_pages(self.entries, self.names)
        self.page(
            "categories.html.j2",
            "category/index",
            phrases.PAGE_TITLES["category/index"],
            toctree=[page.category.value for page in category_pages],
            pages=category_pages,
        )
        for page in category_pages:
            self.page("category.html.j2", page.docname, page.category.label, toctree=[], page=page)

    def reverse(self) -> None:
        """The reverse lookup and one page per paddle namespace."""
        parts = listings.reverse_parts(self.entries, self.names)
        self.page(
            "reverse.html.j2", "reverse", phrases.PAGE_TITLES["reverse"], toctree=[], parts=parts
        )
        for part in parts:
            title = phrases.REVERSE_PART_TITLE.format(namespace=part.namespace)
            self.page(
                "reverse_part.html.j2",
                part.docname,
                title,
                frame=folder_frame(part.docname),
                part=part,
            )
        self.out.sources[f"reverse/{FRAME}.md"] = stub(phrases.SITE_TITLE)

    def migration(self) -> None:
        """The migration notes: which section has how many, and a page per section (a section
        whose notes would make a page larger than :data:`PAGE_BUDGET` is split into parts)."""
        sections = listings.migration_sections(self.entries)
        parts_of = {section.anchor: self._migration_parts(section) for section in sections}
        self.page(
            "migration.html.j2",
            "migration",
            phrases.PAGE_TITLES["migration"],
            toctree=[docname for parts in parts_of.values() for docname, _, _ in parts],
            sections=sections,
        )
        for section in sections:
            parts = parts_of[section.anchor]
            labels = [(docname, label) for docname, label, _ in parts]
            for docname, label, items in parts:
                title = phrases.SECTION_MIGRATION_TITLE.format(section=section.title)
                if len(parts) > 1:
                    title = phrases.PART_TITLE.format(title=title, part=label)
                self.page(
                    "migration_section.html.j2",
                    docname,
                    title,
                    toctree=[],
                    section=section,
                    items=items,
                    parts=labels,
                    docname_here=docname,
                )

    def _migration_parts(
        self, section: listings.MigrationSection
    ) -> list[tuple[str, str, list[Markup]]]:
        """``(docname, label, rendered items)`` of each part of a section's notes."""
        parts: list[list[Markup]] = [[]]
        size = 0
        for item in section.items:
            html = Markup(self.render("migration_item.html.j2", section.docname, item=item))
            if parts[-1] and size + len(html) > PAGE_BUDGET:
                parts.append([])
                size = 0
            parts[-1].append(html)
            size += len(html)
        return [
            (
                section.docname if number == 1 else f"{section.docname}-{number}",
                phrases.PART_LABEL.format(part=number),
                items,
            )
            for number, items in enumerate(parts, start=1)
        ]

    def others(self, guides: list[Guide]) -> None:
        """Home, changelog, rules, search and the not-found page."""
        titles = phrases.PAGE_TITLES
        coverage = listings.surface_coverage(self.coverage)
        self.page(
            "index.html.j2",
            "index",
            titles["index"],
            toctree=[
                "tables",
                "reverse",
                "category/index",
                "migration",
                "changelog",
                "rules",
                *(guide.docname for guide in guides),
            ],
            groups=listings.group_counts(self.entries),
            coverage=coverage,
            records=len(self.entries),
            aliases=sum(len(names.all) for names in self.names.values()),
            chart=CHART,
            guides=guides,
        )
        self.out.assets[CHART] = coverage_svg(coverage.chart).encode("utf-8")
        changes = listings.release_changes(self.entries)
        self.page(
            "changelog.html.j2",
            "changelog",
            titles["changelog"],
            toctree=[release.docname for release in changes],
            changes=changes,
            releases=list(PADDLE_RELEASES),
            pinned=PADDLE_VERSION,
        )
        for release in changes:
            title = phrases.RELEASE_CHANGES_TITLE.format(version=release.version)
            context: dict[str, Any] = {"release": release, "pinned": PADDLE_VERSION}
            self.page("changelog_release.html.j2", release.docname, title, toctree=[], **context)
        self.page(
            "rules.html.j2", "rules", titles["rules"], toctree=[], searched=True, rules=rule_views()
        )
        repo = self.sources.repo_url
        self.page(
            "search.html.j2",
            "search",
            titles["search"],
            request_url=f"{repo}/issues/new?template={REQUEST_TEMPLATE}" if repo else "",
            versions="、".join(f"{name} {v}" for name, v in self.coverage.versions.items()),
        )
        self.page("404.html.j2", "404", titles["404"])

    def indexes(self) -> None:
        """The name index the scripts look names up in, and the names no record covers."""
        self.out.assets[lookup.NAMES_FILE] = lookup.dump(
            lookup.name_index(self.entries, self.names)
        )
        self.out.assets[lookup.UNCOVERED_FILE] = lookup.dump(lookup.uncovered_names(self.coverage))


def _page_salt(templates: Path) -> str:
    """Changes when the model, a template or the renderer changes."""
    files = sorted(p for p in templates.rglob("*") if p.is_file())
    renderer = [*sorted(Path(__file__).parent.glob("*.py")), Path(pages.__file__)]
    return files_salt(files + renderer)


def _known_guides(entries: list[Entry], file: Path | None) -> None:
    """Give each entry the release guide an earlier build worked out for the same record and
    stamp (working them out is a large part of a one-record rebuild); keep the new ones."""
    # what a guide is worked out and worded with
    modules = (releases, stamps, calls, derived, pins, phrases, wording)
    salt = files_salt(Path(str(module.__file__)) for module in modules)
    cache = ContentCache(file, salt if file else "")
    for entry in entries:
        key = f"{entry.key}:{entry.stamp_key}"
        known = cache.get(key)
        if known is not None:
            entry.remember_guide(releases.guide_from_json(known))
        else:
            cache.put(key, releases.guide_to_json(entry.guide))
    cache.save()


def render_site(sources: SiteSources) -> Rendered:
    """Every page, Sphinx source and asset of the site."""
    if not sources.templates.is_dir():
        problem = "找不到模板目录，请在仓库根目录运行 (no templates: run from the repository root)"
        raise CorpusError([f"{sources.templates}: {problem}"])
    cache = sources.cache
    entries = load_entries(sources.mappings, cache / "records.json" if cache else None)
    _known_guides(entries, cache / "guides.json" if cache else None)
    renderer = _Renderer(sources, entries)
    hand_written = _hand_written(sources.pages)
    renderer.out.sources.update(hand_written)
    renderer.api_pages()
    renderer.tables()
    renderer.categories()
    renderer.reverse()
    renderer.migration()
    renderer.others(_guides(hand_written))
    renderer.indexes()
    renderer.memo.save()
    renderer.out.pages.sort(key=lambda page: page.docname)
    return renderer.out
