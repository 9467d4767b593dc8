"""A small Sphinx extension for the apimap site.

* Sphinx's own search is off: the site has its own (``apimap-search.js`` over the indexes the
  build writes), so Sphinx writes no ``searchindex.js`` and loads no Chinese word splitter.
* Pages with the table filter or the search get their scripts; every page gets the copy buttons.
* The few English words Sphinx and furo write into pages get their Chinese text
  (:data:`apimap.record.phrases.SPHINX_WORDS`, the sidebar's expanders).
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.locale import get_translator

from apimap.publish.site.names import FILTER_PAGES, SEARCH_PAGE
from apimap.record.phrases import SPHINX_WORDS, THEME_NAVIGATION_LABEL

PAGE_SCRIPT = "apimap.js"
LOOKUP_SCRIPT = "apimap-lookup.js"
FILTER_SCRIPT = "apimap-filter.js"
SEARCH_SCRIPT = "apimap-search.js"
_THEME_PRIORITY = 500
"""Themes connect to ``html-page-context`` with the default priority."""


def _without_search(app: Sphinx) -> None:
    if hasattr(app.builder, "search"):
        app.builder.search = False


def _chinese_words(app: Sphinx) -> None:
    catalog = getattr(get_translator("sphinx"), "_catalog", None)
    if isinstance(catalog, dict):
        catalog.update(SPHINX_WORDS)


def _page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if pagename in FILTER_PAGES or pagename == SEARCH_PAGE:
        app.add_js_file(LOOKUP_SCRIPT)
    if pagename in FILTER_PAGES:
        app.add_js_file(FILTER_SCRIPT)
    if pagename == SEARCH_PAGE:
        app.add_js_file(SEARCH_SCRIPT)


def _navigation_in_chinese(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    english, chinese = THEME_NAVIGATION_LABEL
    tree = context.get("furo_navigation_tree")
    if isinstance(tree, str):
        context["furo_navigation_tree"] = tree.replace(english, chinese)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hooks."""
    app.connect("builder-inited", _without_search)
    app.connect("builder-inited", _chinese_words)
    app.connect("html-page-context", _page_context, priority=_THEME_PRIORITY - 100)
    app.connect("html-page-context", _navigation_in_chinese, priority=_THEME_PRIORITY + 100)
    app.add_js_file(PAGE_SCRIPT)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
