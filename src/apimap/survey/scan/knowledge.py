"""The knowledge base as plain data per API name: the only module of scan and coverage
that reads ``mappings/``.

The record format and the corpus loader are free to change; scan and coverage
see only :class:`RecordInfo` (category with its Chinese label and group, the
page and its URL, the record's aliases), so such a change is made here alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from apimap.record.categories import Category

if TYPE_CHECKING:
    from apimap.checking.corpus import Entry


class KnowledgeError(Exception):
    """The records cannot be read; ``problems`` says why, one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class RecordInfo:
    """What scan and coverage need of one record."""

    api: str
    category: Category
    aliases: tuple[str, ...]
    page: str | None
    """The diff page relative to the site root (``api/torch.nn.%5EConv2d.html``); 功能缺失 has none."""

    @property
    def label(self) -> str:
        """The category's Chinese name."""
        return self.category.label

    @property
    def group(self) -> int:
        """The specification's category number, 1 to 7."""
        return self.category.group


@dataclass(frozen=True)
class Knowledge:
    """Every record, by API name and by alias."""

    records: tuple[RecordInfo, ...]

    def by_name(self) -> dict[str, RecordInfo]:
        """API names and aliases -> the record that covers them."""
        index: dict[str, RecordInfo] = {}
        for record in self.records:
            for name in (record.api, *record.aliases):
                index.setdefault(name, record)
        return index


def page_url(api: str, site_url: str = "") -> str:
    """The URL of an API's diff page, below ``site_url`` (relative when that is empty)."""
    from apimap.record.pages import api_docname

    page = quote(api_docname(api)) + ".html"
    if not site_url:
        return page
    return site_url.rstrip("/") + "/" + page


def default_mappings() -> Path:
    """``mappings/`` in the working folder, else the one of the apimap checkout in use."""
    here = Path("mappings")
    if here.is_dir():
        return here
    checkout = Path(__file__).resolve().parents[4] / "mappings"
    return checkout if checkout.is_dir() else here


def knowledge_from_entries(entries: Iterable[Entry]) -> Knowledge:
    """The knowledge of records the caller has already loaded (the site does)."""
    from apimap.record import derived
    from apimap.record.pages import other_names

    return Knowledge(
        tuple(
            RecordInfo(
                api=entry.api,
                category=derived.category(entry.record),
                aliases=tuple(other_names(entry.record)),
                page=page_url(entry.api),
            )
            for entry in entries
        )
    )


def load_knowledge(mappings: Path) -> Knowledge:
    """Read every record below ``mappings``; raise :class:`KnowledgeError` if any is broken."""
    from apimap.checking.corpus import CorpusError, load_entries

    try:
        entries = load_entries(mappings)
    except CorpusError as exc:
        raise KnowledgeError(exc.problems) from exc
    return knowledge_from_entries(entries)
