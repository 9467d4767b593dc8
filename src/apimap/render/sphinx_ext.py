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
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.search.zh import SearchChinese

from apimap.render.names import API_FOLDER, INDEX_SCRIPT, TABLES_DOC

FILTER_SCRIPT = "apimap-filter.js"
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
    if pagename == TABLES_DOC:
        app.add_js_file(Path(INDEX_SCRIPT).name)
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
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
