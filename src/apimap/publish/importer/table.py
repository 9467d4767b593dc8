"""Read a mapping-table page: numbered rows, alias rows and the 功能缺失 list.

Two row layouts are read, told apart by their header cells:

* the seed tables' ``| 序号 | PyTorch API | PaddlePaddle API | 备注 |``;
* the newer ``| 序号 | PyTorch API | Paddle API | 映射关系分类 | 备注 |``.

The section (基础操作类, 组网类 …) comes from the heading above a table. A
remark linking to a page (``[差异对比](…)``) says a page holds the details;
``\\`torch.abs\\` 的别名`` marks an alias row. The 功能缺失 list is a table with a
原因 column or a bullet list ``- [api](url)：原因``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apimap.publish.importer.blocks import Heading, Paragraph, Table, scan
from apimap.publish.importer.category_names import CategoryName, category_name
from apimap.publish.importer.inline import Link, code_spans, link_or_text, links, prose, strip_tags
from apimap.publish.importer.problems import Problem
from apimap.record.categories import Category, Section
from apimap.record.import_codes import BAD_API, UNMAPPED_ROW

_ALIAS_OF = re.compile(r"`([^`]+)`\s*的别名")
_ALIAS_LIST = re.compile(r"[（(]\s*别名\s*[：:](?P<names>[^）)]*)[）)]")
_PACKAGE = re.compile(r"^(?P<name>[\w.]+)\s*[（(](?P<package>[^）)]+)[）)]$")
_NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?P<item>.+)$")
_BULLET_ITEM = re.compile(
    r"^(?P<api>\[(?:\\.|[^\]\\])*\]\([^)]*\)|`[^`]+`|[^\s：:]+)"
    r"(?P<aliases>\s*[（(]\s*别名[^）)]*[）)])?(?:\s*[：:]|\s+[-—]\s)?\s*(?P<reason>.*)$"
)
_NO_PADDLE = {"", "-", "无", "无对应实现", "暂无", "功能缺失"}
_MISSING_HEADING = "功能缺失"


@dataclass(frozen=True)
class TableEntry:
    """One row of a mapping table (or one item of the 功能缺失 list)."""

    line: int
    source: str
    api: str
    torch_url: str | None = None
    paddle_api: str | None = None
    paddle_url: str | None = None
    paddle_package: str | None = None
    category: CategoryName | None = None
    category_text: str = ""
    section: Section | None = None
    page: str | None = None
    alias_of: str | None = None
    reason: str | None = None
    """The 原因 cell: a reason class's label in the current tables, free text in legacy ones."""
    detail: str | None = None
    instead: str | None = None
    zh_name: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass
class TablePage:
    """The entries of a table page and the rows that could not be read."""

    entries: list[TableEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _column(header: list[str], *words: str) -> int | None:
    for index, cell in enumerate(header):
        text = prose(strip_tags(cell)).lower()
        if any(word in text for word in words):
            return index
    return None


@dataclass(frozen=True)
class _Columns:
    torch: int
    paddle: int | None
    category: int | None
    remark: int | None
    reason: int | None
    zh_name: int | None
    detail: int | None
    instead: int | None


def _columns(header: list[str]) -> _Columns | None:
    torch = _column(header, "pytorch", "torch")
    if torch is None:
        return None
    return _Columns(
        torch=torch,
        paddle=_column(header, "paddle"),
        category=_column(header, "分类"),
        remark=_column(header, "备注"),
        reason=_column(header, "原因"),
        zh_name=_column(header, "功能"),
        detail=_column(header, "说明"),
        instead=_column(header, "替代"),
    )


def is_table_page(text: str) -> bool:
    """Whether ``text`` holds a mapping table (a header with a PyTorch API column)."""
    for block in scan(text):
        if (
            isinstance(block, Table)
            and _column(block.header, "pytorch api", "torch api") is not None
        ):
            return True
    return False


def _first_link(cell: str) -> Link:
    found = links(cell)
    if found:
        return Link(found[0].label.strip("`").strip(), found[0].target)
    spans = code_spans(cell)
    if spans:
        return Link(spans[0], None)
    return link_or_text(_ALIAS_LIST.sub("", cell))


def _alias_list(cell: str) -> tuple[str, ...]:
    match = _ALIAS_LIST.search(prose(cell))
    if match is None:
        return ()
    names = code_spans(match.group("names")) or re.split(r"\s*[、,，]\s*", match.group("names"))
    return tuple(name.strip() for name in names if name.strip())


def _paddle(cell: str) -> tuple[str | None, str | None, str | None, CategoryName | None]:
    """(api, url, package, category named instead of an API) of a Paddle cell."""
    link = link_or_text(cell)
    text = link.label
    named = category_name(text)
    if named is not None:
        return None, None, None, named
    if text in _NO_PADDLE:
        return None, None, None, None
    package = _PACKAGE.match(text)
    if package is not None:
        return package.group("name"), link.target, package.group("package").strip(), None
    return text, link.target, None, None


def _page_link(remark: str) -> str | None:
    for link in links(remark):
        if link.target and ".md" in link.target:
            return link.target
    return None


@dataclass
class _Reader:
    result: TablePage = field(default_factory=TablePage)
    section: Section | None = None
    section_level: int = 0
    missing: bool = False

    def heading(self, heading: Heading) -> None:
        text = prose(strip_tags(heading.text))
        section = next((s for s in Section if text.startswith(s.value)), None)
        if section is not None or text.startswith(_MISSING_HEADING):
            self.section = section
            self.missing = section is None
            self.section_level = heading.level
        elif heading.level <= self.section_level:
            self.section, self.missing, self.section_level = None, False, 0

    def table(self, table: Table) -> None:
        columns = _columns(table.header)
        if columns is None:
            return
        for line, cells in table.rows:
            source = "| " + " | ".join(cells) + " |"
            if len(cells) != len(table.header):
                detail = f"{len(cells)} 列，表头 {len(table.header)} 列 (cell count)"
                self.result.problems.append(Problem(UNMAPPED_ROW, line, detail, kept=source))
                continue
            self.row(line, source, cells, columns)

    def row(self, line: int, source: str, cells: list[str], columns: _Columns) -> None:
        torch = _first_link(cells[columns.torch])
        if not _NAME.match(torch.label):
            self.result.problems.append(Problem(BAD_API, line, f"`{torch.label}`", kept=source))
            return
        paddle_api = paddle_url = package = None
        named: CategoryName | None = None
        if columns.paddle is not None:
            paddle_api, paddle_url, package, named = _paddle(cells[columns.paddle])
        category_text = ""
        if columns.category is not None:
            category_text = link_or_text(cells[columns.category]).label
            named = category_name(category_text)
        remark = cells[columns.remark] if columns.remark is not None else ""
        page = _page_link(remark)
        if named is None and columns.category is None:
            label = next((link.label for link in links(remark)), "")
            named = category_name(label)
        alias = _ALIAS_OF.search(prose(remark))
        missing_row = self.missing or columns.reason is not None
        if missing_row and named is None:
            named = CategoryName(Category.MISSING, None, legacy=False)

        def cell(index: int | None) -> str | None:
            return (prose(cells[index]) or None) if index is not None else None

        reason = cell(columns.reason)
        self.result.entries.append(
            TableEntry(
                line=line,
                source=source,
                api=torch.label,
                torch_url=torch.target,
                paddle_api=paddle_api,
                paddle_url=paddle_url,
                paddle_package=package,
                category=named,
                category_text=category_text,
                section=None if missing_row else self.section,
                page=page,
                alias_of=alias.group(1).strip() if alias else None,
                reason=reason,
                detail=cell(columns.detail),
                instead=cell(columns.instead),
                zh_name=cell(columns.zh_name),
                aliases=_alias_list(cells[columns.torch]),
            )
        )

    def bullets(self, paragraph: Paragraph) -> None:
        for offset, text in enumerate(paragraph.text.splitlines()):
            line = paragraph.line + offset
            bullet = _BULLET.match(text)
            if bullet is None:
                continue
            item = _BULLET_ITEM.match(bullet.group("item").strip())
            if item is None:
                continue
            torch = _first_link(item.group("api"))
            if not _NAME.match(torch.label):
                self.result.problems.append(Problem(BAD_API, line, f"`{torch.label}`", kept=text))
                continue
            reason = prose(item.group("reason"))
            self.result.entries.append(
                TableEntry(
                    line=line,
                    source=text,
                    api=torch.label,
                    torch_url=torch.target,
                    category=CategoryName(Category.MISSING, None, legacy=False),
                    reason=reason or None,
                    aliases=_alias_list(item.group("aliases") or ""),
                )
            )


def read_table_page(text: str) -> TablePage:
    """Every entry of a mapping-table page."""
    reader = _Reader()
    for block in scan(text):
        if isinstance(block, Heading):
            reader.heading(block)
        elif isinstance(block, Table):
            reader.table(block)
        elif isinstance(block, Paragraph) and reader.missing:
            reader.bullets(block)
    return reader.result
