"""``apimap export --format paddle-docs DIR``: one Markdown page per record, upstream's way.

The upstream documentation repository writes its PyTorch -> Paddle difference pages in the
layout of the format specification, with its own conventions: the title is
``## [ 分类 ]torch.api`` with the category names it uses today (``涉及上下文修改``,
``API 完全一致`` …, :data:`apimap.record.phrases.UPSTREAM_CATEGORY_LABELS`), the two API headings
are ``### [api](url)``, the sections are ``### 参数映射`` / ``### 转写示例`` /
``### 注意事项`` and each example is a ``####`` heading; links are written plainly
(``(url)``, not ``(<url>)``). For a third-party API (``torchvision``, ``transformers``)
the first column of the parameter table is headed by its package name.

The content comes from the same views as the site (:func:`apimap.publish.site.views.api_page`):
the remarks, summaries and headings are generated from the records, never hand-typed. What
only the site shows (the verification badge, the behaviour table, older Paddle releases) is
left out. The Chinese name stays as the line under the title, so that a page imports back
(``apimap import``) to the record it was written from, up to what no page shows (calls,
verification inputs, probe acknowledgements, the section of upstream's mapping table) and two
things a page cannot say: where a meaning that holds a ``，`` ends when no example heading
repeats it, and whether a rewritten row differs in type or in usage (the remarks are the same).
功能缺失 records have no page: upstream lists them in its mapping table.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from apimap.checking.corpus import Entry
from apimap.publish.site import markdown
from apimap.publish.site.views import ApiPage, CaseView, api_page
from apimap.record import phrases
from apimap.record.pages import has_diff_page

_TORCH_HEADER = "PyTorch"
_PADDLE_HEADER = "PaddlePaddle"
_PLAIN_URL = re.compile(r"^https?://[^\s<>()\[\]|\\]+$")


def _link(text: str, target: str | None) -> str:
    """``[text](url)`` as upstream writes it; an unusual address is written safely."""
    if target is None:
        return markdown.inline(text)
    if _PLAIN_URL.match(target):
        return f"[{markdown.inline(text)}]({target})"
    return markdown.link(text, target)


def torch_header(api: str) -> str:
    """The first column's heading: ``PyTorch``, or a third-party API's package name."""
    package = api.split(".", 1)[0]
    return _TORCH_HEADER if package == "torch" else package


def _case(case: CaseView) -> list[str]:
    lines = [markdown.inline(case.when), ""] if case.when else []
    return [*lines, markdown.fence(case.code, "python"), ""]


def _title(page: ApiPage) -> list[str]:
    label = phrases.UPSTREAM_CATEGORY_LABELS[page.category.value]
    name = markdown.inline(page.zh_name)
    if page.kind:
        name += f"（{markdown.inline(page.kind)}）"
    return [f"## [ {label} ]{markdown.inline(page.api)}", "", name, ""]


def _names(names: list[str]) -> str:
    return "、".join(markdown.code(name) for name in names)


def _sides(page: ApiPage) -> list[str]:
    lines = [f"### {_link(page.api, page.torch_url)}", ""]
    for signature in page.torch_signatures:
        lines += [markdown.fence(signature, "python"), ""]
    if page.aliases:
        lines += [f"别名：{_names(page.aliases)}", ""]
    if page.inplace:
        torch, paddle = page.inplace
        lines += [f"原位版本：{markdown.code(torch)} → {markdown.code(paddle)}", ""]
        if page.inplace_aliases:
            lines += [f"原位版本的别名：{_names(page.inplace_aliases)}", ""]
    if page.paddle_api:
        lines += [f"### {_link(page.paddle_api, page.paddle_url)}", ""]
        if page.paddle_package:
            lines += [f"所在的包：{markdown.code(page.paddle_package)}", ""]
        for signature in page.paddle_signatures:
            lines += [markdown.fence(signature, "python"), ""]
    for paragraph in page.summary:
        lines += [markdown.inline(paragraph), ""]
    return lines


def _body(page: ApiPage) -> list[str]:
    lines: list[str] = []
    if page.rows:
        header = torch_header(page.api)
        lines += [
            "### 参数映射",
            "",
            f"| {header} | {_PADDLE_HEADER} | 备注 |",
            f"| {'-' * len(header)} | {'-' * len(_PADDLE_HEADER)} | ---- |",
        ]
        lines += [
            f"| {markdown.cell(row.torch)} | {markdown.cell(row.paddle)} "
            f"| {markdown.cell(row.remark)} |"
            for row in page.rows
        ]
        lines.append("")
    if page.examples or page.no_rewrite:
        lines += ["### 转写示例", ""]
        for example in page.examples:
            if example.heading:
                lines += [f"#### {markdown.inline(example.heading)}", ""]
            for case in example.cases:
                lines += _case(case)
        if page.no_rewrite:
            lines += [markdown.inline(page.no_rewrite), ""]
    if page.notes:
        lines += ["### 注意事项", ""]
        for note in page.notes:
            lines += [markdown.inline(note.text), ""]
            if note.case is not None:
                lines += _case(note.case)
    return lines


def page_text(entry: Entry) -> str:
    """The upstream page of one record (not for 功能缺失)."""
    page = api_page(entry)
    lines = [*_title(page), *_sides(page), *_body(page)]
    return "\n".join(lines).rstrip("\n") + "\n"


def page_name(api: str) -> str:
    """The page's file name: the API's full name, as upstream names its pages."""
    return f"{api}.md"


def pages(entries: Iterable[Entry]) -> dict[str, str]:
    """File name -> page text for every record that has a page."""
    return {
        page_name(e.api): page_text(e)
        for e in sorted(entries, key=lambda e: e.api)
        if has_diff_page(e.record)
    }


def write_pages(entries: Iterable[Entry], directory: Path) -> list[Path]:
    """Write the pages into ``directory`` (each atomically); the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages(entries).items():
        target = directory / name
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise
        written.append(target)
    return written
