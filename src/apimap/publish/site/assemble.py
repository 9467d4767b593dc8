"""Put the rendered pages into their frames and write the site's generated files.

Besides the pages: the assets (lookup indexes, the chart), the full-text search index over the
API pages, the rules and the hand-written pages, ``sitemap.xml`` and ``robots.txt``. A manifest
beside the frames (outside the published folder) keeps, for each file this step wrote, a digest
of what made it: a page whose frame and article are those of the last run is not put together
again, the search index is rebuilt only when a searched text changed, and the files of records
that are gone are removed. Every file is written only when its bytes change.
"""

from __future__ import annotations

import hashlib
import json
from html import escape
from pathlib import Path

from apimap.files.content_cache import ContentCache, content_key
from apimap.publish.site import search
from apimap.publish.site.frames import Page, article_text, body_text, page_url, wrap
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
SEARCH_CACHE = "search-terms.json"
"""The terms of each searched page, by the content key of its HTML (beside the manifest)."""
SEARCH_DIGEST = "#search"
"""The manifest's entry for what the search index was made from."""


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


def _digest(*parts: str) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def _previous(manifest: Path) -> dict[str, str]:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _search_index(
    documents: list[tuple[str | list[str], str, bool]],
    html: Path,
    frames_dir: Path,
    previous: dict[str, str],
) -> tuple[dict[str, bytes], str]:
    """The search index files, or none when the searched texts are those of the last run (the
    files in the site stay); and the digest that says so. ``documents`` are (key, HTML, whether
    the HTML is a whole page rather than an article)."""
    terms = ContentCache(frames_dir / SEARCH_CACHE, "2")
    found: list[search.SearchDoc] = []
    for key, source, whole in documents:
        source_key = content_key(f"{whole}\0{source}".encode())
        cached = terms.get(source_key)
        if cached is None:
            text = article_text(source) if whole else body_text(source)
            cached = " ".join(sorted(search.terms(text)))
            terms.put(source_key, cached)
        found.append(search.SearchDoc(key, cached.split()))
    terms.save()
    made_from = _digest(json.dumps([[doc.key, doc.terms] for doc in found], ensure_ascii=False))
    if previous.get(SEARCH_DIGEST) == made_from and all(
        (html / name).is_file() for name in search.shard_files()
    ):
        return {}, made_from
    return search.search_files(found), made_from


def assemble(html: Path, frames_dir: Path, rendered: Rendered, site_url: str) -> int:
    """Write every page and generated file into ``html``; how many files changed. The manifest
    (beside the frames, outside the published folder) keeps a digest of what made each file, so
    that a page whose frame and content are unchanged is not put together again."""
    manifest = frames_dir / MANIFEST
    previous = _previous(manifest)
    digests: dict[str, str] = {}
    files: dict[str, bytes] = dict(rendered.assets)
    known: dict[str, str] = {}
    frame_digests: dict[str, str] = {}
    documents: list[tuple[str | list[str], str, bool]] = []
    for page in rendered.pages:
        frame = _frame(html, frames_dir, page, known)
        if page.frame_doc not in frame_digests:
            frame_digests[page.frame_doc] = _digest(frame)
        made_from = _digest(
            frame_digests[page.frame_doc], page.body, page.title or "", page.description, site_url
        )
        digests[page.path] = made_from
        if page.searched:
            key: str | list[str] = (
                decode_name(page.docname.removeprefix(f"{API_FOLDER}/"))
                if page.docname.startswith(f"{API_FOLDER}/")
                else [page.path, page.description]
            )
            documents.append((key, page.body, False))
        if previous.get(page.path) == made_from and (html / page.path).is_file():
            continue
        files[page.path] = wrap(frame, page, site_url, phrases.SITE_TITLE).encode("utf-8")
    hand_written = _hand_written(rendered)
    for doc in hand_written:
        text = (html / f"{doc}.html").read_text(encoding="utf-8")
        documents.append(([f"{doc}.html", _title(text)], text, True))
    index, digests[SEARCH_DIGEST] = _search_index(documents, html, frames_dir, previous)
    files.update(index)
    listed = sorted(
        [page.docname for page in rendered.pages if page.docname not in NOT_LISTED] + hand_written
    )
    if site_url:
        files[SITEMAP] = sitemap(site_url, listed).encode("utf-8")
    files[ROBOTS] = robots(site_url).encode("utf-8")
    written = sum(write_if_changed(html / name, data) for name, data in sorted(files.items()))
    for name in [*files, *search.shard_files()]:
        digests.setdefault(name, "")
    for stale in sorted(set(previous) - set(digests)):
        (html / stale).unlink(missing_ok=True)
    text = json.dumps(digests, ensure_ascii=False, sort_keys=True, indent=0) + "\n"
    write_if_changed(manifest, text.encode("utf-8"))
    return written
