"""A small Sphinx extension for the apimap site.

* It copies the generated ``_static`` folder of the source folder (the JSON
  index of the table filter) next to Sphinx's static files, and adds the
  filter's scripts to the table page only.
* It keeps the thousands of per-API pages cheap to write. They are orphans in
  one folder, so the navigation tree the theme puts in their sidebar is the same
  for all of them: it is computed once per build instead of once per page.
* Chinese search segments each distinct text once: the generated remarks repeat
  the same phrases on many pages. The index is the one Sphinx's ``zh`` search
  language builds (same words, same JavaScript).
"""

from __future__ import annotations

import logging
import posixpath
import shutil
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sphinx.application import Sphinx
from sphinx.search.zh import SearchChinese

from apimap.publish.site.names import INDEX_SCRIPT, REVERSE_DOC, TABLES_DOC
from apimap.record.pages import API_FOLDER

FILTER_SCRIPT = "apimap-filter.js"
LOOKUP_SCRIPT = "apimap-lookup.js"
COPY_SCRIPT = "apimap-copy.js"
FILTER_PAGES = (TABLES_DOC, REVERSE_DOC)
"""Pages with the table filter (and the direct lookup)."""
SEARCH_PAGE = "search"
SITEMAP = "sitemap.xml"
_THEME_PRIORITY = 500
"""Themes connect to ``html-page-context`` with the default priority."""

_navigation_cache: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = {}


class CachedChineseSearch(SearchChinese):
    """Sphinx's Chinese search language, segmenting and stemming each distinct text once."""

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self._segments: dict[str, list[str]] = {}
        self._stems: dict[tuple[str, bool], str] = {}

    def split(self, input: str) -> list[str]:
        """The words of ``input`` (jieba for Chinese, plus the Latin terms)."""
        words = self._segments.get(input)
        if words is None:
            words = super().split(input)
            self._segments[input] = words
        return list(words)

    def stem(self, word: str) -> str:
        """The stem of ``word``, as Sphinx's Chinese search computes it."""
        key = (word, word in self.latin_terms)
        stemmed = self._stems.get(key)
        if stemmed is None:
            stemmed = super().stem(word)
            self._stems[key] = stemmed
        return stemmed


def _copy_generated_static(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    generated = Path(app.srcdir) / Path(INDEX_SCRIPT).parent
    target = Path(app.outdir) / "_static"
    for source in sorted(generated.glob("*")):
        destination = target / source.name
        if source.is_file() and (
            not destination.is_file() or destination.read_bytes() != source.read_bytes()
        ):
            target.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, destination)


def _write_sitemap(app: Sphinx, exception: Exception | None) -> None:
    """``sitemap.xml`` of every page below ``html_baseurl`` (only when it is set)."""
    base = str(app.config.html_baseurl or "")
    if exception is not None or app.builder.format != "html" or not base:
        return
    outdir = Path(app.outdir)
    skipped = {"search.html", "genindex.html"}
    pages = sorted(
        path.relative_to(outdir).as_posix()
        for path in outdir.rglob("*.html")
        if path.name not in skipped and not path.relative_to(outdir).parts[0].startswith("_")
    )
    prefix = base if base.endswith("/") else base + "/"
    entries = "".join(f"  <url><loc>{escape(prefix + quote(page))}</loc></url>\n" for page in pages)
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{entries}</urlset>\n"
    )
    target = outdir / SITEMAP
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def _shared_navigation(pagename: str, toctree: Callable[..., str]) -> Callable[..., str]:
    folder = posixpath.dirname(pagename)

    def cached(**kwargs: Any) -> str:
        key = (folder, tuple(sorted(kwargs.items())))
        html = _navigation_cache.get(key)
        if html is None:
            html = toctree(**kwargs)
            _navigation_cache[key] = html
        return html

    return cached


def _page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if pagename in FILTER_PAGES or pagename == SEARCH_PAGE:
        app.add_js_file(Path(INDEX_SCRIPT).name)
        app.add_js_file(LOOKUP_SCRIPT)
    if pagename in FILTER_PAGES:
        app.add_js_file(FILTER_SCRIPT)
    if pagename.startswith(API_FOLDER + "/") and "toctree" in context:
        context["toctree"] = _shared_navigation(pagename, context["toctree"])


def _forget_navigation(app: Sphinx) -> None:
    _navigation_cache.clear()


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hooks and the search language."""
    logging.getLogger("jieba").setLevel(logging.WARNING)
    app.add_search_language(CachedChineseSearch)
    app.connect("builder-inited", _forget_navigation)
    app.connect("html-page-context", _page_context, priority=_THEME_PRIORITY - 100)
    app.connect("build-finished", _copy_generated_static)
    app.connect("build-finished", _write_sitemap)
    app.add_js_file(COPY_SCRIPT)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
