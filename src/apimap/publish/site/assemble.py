"""Put the rendered pages into their frames and write the site's generated files.

Besides the pages: the assets (lookup indexes, the chart), the full-text search index over the
API pages, the rules and the hand-written pages, ``sitemap.xml`` and ``robots.txt``. A manifest
in the output folder lists what this step wrote, so that the files of records that are gone
are removed; every file is written only when its bytes change.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from apimap.publish.site import search
from apimap.publish.site.frames import Page, article_text, page_url, wrap
from apimap.publish.site.names import NOT_FOUND_PAGE, ROBOTS, SEARCH_PAGE, SITEMAP
from apimap.publish.site.site import Rendered
from apimap.publish.site.writer import write_if_changed
from apimap.record import phrases
from apimap.record.pages import API_FOLDER
from apimap.record.paths import decode_name

MANIFEST = "assembled.json"
"""The files the last assembly wrote (relative paths), so that stale ones can be removed."""
NOT_LISTED = {SEARCH_PAGE, NOT_FOUND_PAGE}
"""Pages that no sitemap lists."""


def _frame(html: Path, frames_dir: Path, page: Page, known: dict[str, str]) -> str:
    doc = page.frame_doc
    text = known.get(doc)
    if text is None:
        folder = frames_dir if page.frame else html
        text = (folder / f"{doc}.html").read_text(encoding="utf-8")
        known[doc] = text
    return text


def _hand_written(rendered: Rendered) -> list[str]:
    """Document names of the hand-written pages (Sphinx's sources that are not stubs)."""
    generated = {page.docname for page in rendered.pages} | {
        page.frame for page in rendered.pages if page.frame
    }
    return sorted(
        name.removesuffix(".md")
        for name in rendered.sources
        if name.endswith(".md") and name.removesuffix(".md") not in generated
    )


def _title(text: str) -> str:
    start = text.find("<title>") + len("<title>")
    title = text[start : text.find("</title>", start)]
    return title.rsplit(" - ", 1)[0]


def sitemap(site_url: str, docnames: list[str]) -> str:
    """``sitemap.xml`` of the given pages on the published address."""
    addresses = sorted(page_url(site_url, doc) for doc in docnames)
    entries = "".join(f"  <url><loc>{escape(address)}</loc></url>\n" for address in addresses)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{entries}</urlset>\n"
    )


def robots(site_url: str) -> str:
    """``robots.txt``: everything may be crawled; the sitemap when the address is known."""
    lines = ["User-agent: *", "Allow: /"]
    if site_url:
        lines.append(f"Sitemap: {site_url}{SITEMAP}")
    return "\n".join(lines) + "\n"


def assemble(html: Path, frames_dir: Path, rendered: Rendered, site_url: str) -> int:
    """Write every page and generated file into ``html``; how many files changed. The manifest
    lives beside the frames, outside the published folder."""
    files: dict[str, bytes] = dict(rendered.assets)
    known: dict[str, str] = {}
    documents: list[search.SearchDoc] = []
    for page in rendered.pages:
        text = wrap(_frame(html, frames_dir, page, known), page, site_url, phrases.SITE_TITLE)
        files[page.path] = text.encode("utf-8")
        if page.searched:
            key: str | list[str] = (
                decode_name(page.docname.removeprefix(f"{API_FOLDER}/"))
                if page.docname.startswith(f"{API_FOLDER}/")
                else [page.path, page.description]
            )
            documents.append(search.SearchDoc(key, article_text(text)))
    hand_written = _hand_written(rendered)
    for doc in hand_written:
        text = (html / f"{doc}.html").read_text(encoding="utf-8")
        documents.append(search.SearchDoc([f"{doc}.html", _title(text)], article_text(text)))
    files.update(search.search_files(documents))
    listed = sorted(
        [page.docname for page in rendered.pages if page.docname not in NOT_LISTED] + hand_written
    )
    if site_url:
        files[SITEMAP] = sitemap(site_url, listed).encode("utf-8")
    files[ROBOTS] = robots(site_url).encode("utf-8")
    written = sum(write_if_changed(html / name, data) for name, data in sorted(files.items()))
    manifest = frames_dir / MANIFEST
    previous: list[str] = []
    if manifest.is_file():
        previous = json.loads(manifest.read_text(encoding="utf-8"))
    for stale in sorted(set(previous) - set(files)):
        (html / stale).unlink(missing_ok=True)
    write_if_changed(manifest, (json.dumps(sorted(files), ensure_ascii=False) + "\n").encode())
    return written
