"""The Jinja environment of the pages apimap renders itself: strict, deterministic, escaping.

Autoescape is on, and the filters that take record text (:mod:`apimap.publish.site.html`) return
markup they escaped themselves, so record text can only ever become text, code or a web link.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from apimap.publish.site import html


@pass_context
def _page_link(context: Context, name: str, docname: str, anchor: str = "") -> Markup:
    """``name`` as code, linked to the page ``docname`` (relative to the page being rendered)."""
    target = html.href(context["docname"], docname) + (f"#{anchor}" if anchor else "")
    return html.code_link(name, target)


@pass_context
def _row_link(context: Context, name: str, docname: str) -> Markup:
    """``name`` linked to the page ``docname``, with the least markup (table rows)."""
    return html.short_link(name, html.href(context["docname"], docname))


@pass_context
def _doc_link(context: Context, text: str, docname: str, anchor: str = "") -> Markup:
    """``text`` linked to the page ``docname``."""
    target = html.href(context["docname"], docname) + (f"#{anchor}" if anchor else "")
    return html.link(text, target, external=False)


@pass_context
def _doc_url(context: Context, docname: str) -> str:
    """The relative address of the page ``docname``."""
    return html.href(context["docname"], docname)


@pass_context
def _asset_url(context: Context, path: str) -> str:
    """The relative address of the file ``path`` (below the site's root)."""
    return html.href(context["docname"], path).removesuffix(".html")


def environment(templates: Path) -> Environment:
    """Templates from ``templates``; every undefined name is an error."""
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        undefined=StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    filters: dict[str, Any] = {
        "inline": html.inline,
        "code": html.code,
        "block": html.block,
        "link": html.link,
        "name_link": html.code_link,
        "page_link": _page_link,
        "row_link": _row_link,
        "row_name": html.short_name,
        "doc_link": _doc_link,
        "doc_url": _doc_url,
        "asset_url": _asset_url,
    }
    env.filters.update(filters)
    return env


def render(env: Environment, name: str, docname: str, **context: Any) -> str:
    """Render template ``name`` for the page ``docname``; one trailing newline."""
    text = env.get_template(name).render(docname=docname, **context)
    return text.rstrip("\n") + "\n"
