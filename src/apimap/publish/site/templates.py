"""The Jinja environment: strict, deterministic, and with Markdown-escaping filters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context
from jinja2.runtime import Context

from apimap.publish.site import markdown


@pass_context
def _doc_link(context: Context, text: str, target_doc: str) -> str:
    """``[text](relative/path.md)`` from the page being rendered to ``target_doc``."""
    source = context["docname"]
    return f"[{markdown.inline(text)}]({markdown.doc_link(source, target_doc)})"


def _link(text: str, target: str | None) -> str:
    """A link when there is a target, plain escaped text otherwise."""
    return markdown.inline(text) if target is None else markdown.link(text, target)


def _cell_link(text: str, target: str | None) -> str:
    """:func:`_link` for a table cell."""
    if target is None:
        return markdown.cell(text)
    return markdown.link(text, target, in_table=True)


def environment(templates: Path) -> Environment:
    """Templates from ``templates``; every undefined name is an error."""
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    filters: dict[str, Any] = {
        "inline": markdown.inline,
        "cell": markdown.cell,
        "code": markdown.code,
        "cell_code": markdown.cell_code,
        "fence": markdown.fence,
        "link": _link,
        "cell_link": _cell_link,
        "doc_link": _doc_link,
        "yaml_string": markdown.yaml_string,
    }
    env.filters.update(filters)
    return env


def render(env: Environment, name: str, docname: str, **context: Any) -> str:
    """Render template ``name`` for document ``docname``; one trailing newline."""
    text = env.get_template(name).render(docname=docname, **context)
    return text.rstrip("\n") + "\n"
