"""Pages apimap renders itself, put into the layout Sphinx renders.

Sphinx builds the hand-written pages and, for every generated page, a *frame*: a page with the
site's layout (furo's sidebar, header, scripts and styles, the footer) around a placeholder. The
layout template (``site/_templates/page.html``) marks the parts that differ from page to page
with HTML comments: the description and canonical link (``apimap:head``), the article
(``apimap:article``) and the table of contents (``apimap:toc``). A page is its frame with those
parts replaced; ``<title>`` too, for pages that share a frame. Since the marks stay in the
result, a page written earlier can serve as its own frame again.

Pages in the navigation (the mapping tables, the categories …) have a frame of their own, a
Markdown stub with their title, so the sidebar shows where the reader is; the API pages share one
frame per folder, since all relative addresses in a folder are the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape, unescape
from urllib.parse import quote

HEAD = ("<!--apimap:head-->", "<!--/apimap:head-->")
ARTICLE = ("<!--apimap:article-->", "<!--/apimap:article-->")
TOC = ("<!--apimap:toc-->", "<!--/apimap:toc-->")
_TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)
_HEADING = re.compile(r'<h([23])>(.*?)<a class="headerlink" href="#([^"]+)"', re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")
FRAME = "_frame"
"""The document name, within a folder, of the frame that folder's pages share."""


class FrameError(Exception):
    """A frame lacks the marks of the layout template."""


@dataclass(frozen=True)
class Page:
    """A page apimap renders itself."""

    docname: str
    """``api/torch.abs``: the page is written to ``api/torch.abs.html``."""
    body: str
    """The article's HTML."""
    title: str | None = None
    """The ``<title>`` text before the site's name; ``None`` keeps the frame's (a stub's title)."""
    description: str = ""
    frame: str | None = None
    """The frame's document name; ``None``: the page's own stub."""
    searched: bool = False
    """Whether the site search indexes the page's text."""

    @property
    def path(self) -> str:
        """The output file, relative to the site's root."""
        return f"{self.docname}.html"

    @property
    def frame_doc(self) -> str:
        """The document whose Sphinx output is this page's layout."""
        return self.frame or self.docname


def folder_frame(docname: str) -> str:
    """``api/torch.abs`` -> ``api/_frame``."""
    folder = docname.rpartition("/")[0]
    return f"{folder}/{FRAME}" if folder else FRAME


def _between(text: str, marks: tuple[str, str]) -> tuple[int, int]:
    start = text.find(marks[0])
    end = text.find(marks[1], start)
    if start < 0 or end < 0:
        raise FrameError(f"缺少标记 (missing mark) {marks[0]}")
    return start + len(marks[0]), end


def _replace(text: str, marks: tuple[str, str], content: str) -> str:
    start, end = _between(text, marks)
    return text[:start] + content + text[end:]


def headings(body: str) -> list[tuple[int, str, str]]:
    """``(level, anchor, text)`` of the body's h2 and h3 headings."""
    return [
        (int(level), anchor, _TAGS.sub("", inner).strip())
        for level, inner, anchor in _HEADING.findall(body)
    ]


def toc_html(body: str, title: str) -> str:
    """The table of contents in the markup Sphinx gives furo: the page's title, and below it
    the h2 and h3 headings (empty for a page with fewer than two headings)."""
    found = headings(body)
    if len(found) < 2:
        return ""
    lines = ["<ul>", f'<li><a class="reference internal" href="#">{escape(title)}</a><ul>']
    open_sub = False
    for level, anchor, text in found:
        item = f'<li><a class="reference internal" href="#{anchor}">{text}</a>'
        if level == 3 and not open_sub:
            lines[-1] = lines[-1].removesuffix("</li>") + "<ul>"
            open_sub = True
        elif level == 2 and open_sub:
            lines.append("</ul></li>")
            open_sub = False
        lines.append(item + "</li>")
    if open_sub:
        lines.append("</ul></li>")
    lines += ["</ul></li>", "</ul>"]
    return "\n".join(lines)


_TOC_LAYOUT = """
    <aside class="toc-drawer">
      <div class="toc-sticky toc-scroll">
        <div class="toc-title-container">
          <span class="toc-title">本页目录</span>
        </div>
        <div class="toc-tree-container">
          <div class="toc-tree">
{toc}
          </div>
        </div>
      </div>
    </aside>
"""
_NO_TOC = '\n    <aside class="toc-drawer no-toc">\n    </aside>\n'
_TOC_ICONS = ("toc-header-icon", "toc-content-icon")


def _toc_icons(text: str, shown: bool) -> str:
    for icon in _TOC_ICONS:
        text = text.replace(f"{icon} no-toc", icon)
        if not shown:
            text = text.replace(icon, f"{icon} no-toc")
    return text


def page_url(site_url: str, docname: str) -> str:
    """The published address of a page (``site_url`` ends with ``/``)."""
    return site_url + quote(f"{docname}.html")


def wrap(frame: str, page: Page, site_url: str, site_title: str) -> str:
    """``page`` in the layout of ``frame``."""
    head = [f'<meta content="{escape(page.description)}" name="description" />']
    if site_url:
        head.append(f'<link rel="canonical" href="{escape(page_url(site_url, page.docname))}">')
    text = _replace(frame, HEAD, "\n" + "\n".join(head) + "\n")
    text = _replace(text, ARTICLE, "\n" + page.body.rstrip("\n") + "\n")
    toc = toc_html(page.body, page.title or page.description)
    text = _replace(text, TOC, _TOC_LAYOUT.format(toc=toc) if toc else _NO_TOC)
    text = _toc_icons(text, bool(toc))
    if page.title is not None:
        title = f"<title>{escape(page.title)} - {escape(site_title)}</title>"
        text = _TITLE.sub(lambda _match: title, text, count=1)
    return text


def body_text(body: str) -> str:
    """The visible text of an article, without code blocks and permalinks (for the search)."""
    article = re.sub(r"<pre>.*?</pre>", " ", body, flags=re.DOTALL)
    article = re.sub(r'<a class="headerlink"[^>]*>.*?</a>', " ", article)
    return unescape(_TAGS.sub(" ", article))


def article_text(html: str) -> str:
    """:func:`body_text` of a whole page's article."""
    start, end = _between(html, ARTICLE)
    return body_text(html[start:end])
