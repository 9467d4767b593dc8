"""The site search's full-text index: which pages hold which words, split into small files.

Chinese has no spaces, so the index keeps every pair of adjacent Chinese characters (交叉熵 is
交叉 + 叉熵) and every Latin word or number (``softmax``, ``state_dict``, ``float16``); a query
finds the pages that hold all of its pairs and words. The index is split into :data:`SHARDS`
files by a hash of the term, so a query downloads only the files of its own terms
(``apimap-search.js`` computes the same hash). Page ids are positions in the list of searched
pages; an API page is listed by its API name (its address and title come from the name index
the search page loads anyway), any other page by address and title.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

SHARDS = 64
FOLDER = "_static/search"
DOCS = f"{FOLDER}/docs.json"
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[a-z0-9_]+")


@dataclass(frozen=True)
class SearchDoc:
    """One searched page and the terms of its text (see :func:`terms`)."""

    key: str | list[str]
    """An API name (an API page), or ``[address, title]``."""
    terms: list[str]


def terms(text: str) -> set[str]:
    """The index terms of ``text``: Chinese character pairs and Latin words of two or more
    characters (lower case)."""
    found: set[str] = set()
    for run in _CJK_RUN.findall(text):
        found.update(run[index : index + 2] for index in range(len(run) - 1))
    found.update(word for word in _WORD.findall(text.lower()) if len(word) > 1)
    return found


def shard_of(term: str) -> int:
    """FNV-1a over the UTF-16 code units of ``term`` (as JavaScript sees a string)."""
    value = 0x811C9DC5
    data = term.encode("utf-16-le")
    for index in range(0, len(data), 2):
        value ^= data[index] | (data[index + 1] << 8)
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value % SHARDS


def _dump(data: object) -> bytes:
    return (
        json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
    ).encode()


def shard_files() -> list[str]:
    """The paths of the index files (relative to the site)."""
    return [DOCS, *(f"{FOLDER}/{number:02d}.json" for number in range(SHARDS))]


def search_files(docs: Iterable[SearchDoc]) -> dict[str, bytes]:
    """``_static/search/docs.json`` and one file per shard: term -> ids of the pages that hold
    it, each id as the difference to the previous one."""
    listed = list(docs)
    postings: dict[str, list[int]] = {}
    for index, doc in enumerate(listed):
        for term in doc.terms:
            postings.setdefault(term, []).append(index)
    shards: list[dict[str, list[int]]] = [{} for _ in range(SHARDS)]
    for term, ids in postings.items():
        shards[shard_of(term)][term] = [
            ids[0],
            *(b - a for a, b in pairwise(ids)),
        ]
    files = {DOCS: _dump([doc.key for doc in listed])}
    for number, shard in enumerate(shards):
        files[f"{FOLDER}/{number:02d}.json"] = _dump(shard)
    return files
