"""The page a record gets: its name, the other names that lead to it, and whether the upstream
documentation has a 差异对比 page for it.

The one answer for the site, the pages for Paddle's docs, ``apimap scan`` and ``apimap coverage``.
"""

from __future__ import annotations

from apimap.record import derived
from apimap.record.categories import Category
from apimap.record.model import Record
from apimap.record.paths import encode_name

API_FOLDER = "api"
"""Per-API pages live in this folder of the site."""


def has_diff_page(record: Record) -> bool:
    """Whether the upstream documentation has a 差异对比 page for the record: every record but
    功能缺失 (those are only rows of its tables). On the site every record has a page."""
    return derived.category(record) is not Category.MISSING


def other_names(record: Record) -> list[str]:
    """The record's aliases and its in-place variant: each gets a row in the tables."""
    names = list(record.torch_aliases)
    if record.inplace is not None:
        names += [record.inplace.torch, *record.inplace.aliases]
    return names


def api_docname(api: str) -> str:
    """``torch.nn.Conv2d`` -> ``api/torch.nn.^Conv2d`` (the record file's case-safe stem)."""
    return f"{API_FOLDER}/{encode_name(api)}"
