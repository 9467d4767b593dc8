"""How hard an API is to migrate: its record (through aliases and re-exports) and bucket."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from apimap.files.surface import Surface
from apimap.record.categories import Category
from apimap.survey.scan.knowledge import Knowledge, RecordInfo


class Bucket(StrEnum):
    """The migration work an API needs, from none to unknown."""

    IDENTICAL = "identical"
    RENAME = "rename"
    REWRITE = "rewrite"
    OTHER_PACKAGE = "other_package"
    MISSING = "missing"
    UNKNOWN = "unknown"

    @property
    def label(self) -> str:
        """Chinese name with an English gloss."""
        return _LABELS[self]


_LABELS = {
    Bucket.IDENTICAL: "完全一致 (identical)",
    Bucket.RENAME: "改名或调整参数 (rename, defaults, extra paddle parameters)",
    Bucket.REWRITE: "需要转写 (rewrite: categories 2–5)",
    Bucket.OTHER_PACKAGE: "对应 API 不在主框架 (other package)",
    Bucket.MISSING: "功能缺失 (no counterpart)",
    Bucket.UNKNOWN: "知识库未收录 (unknown to the knowledge base)",
}

BUCKET_COLOURS = {
    Bucket.IDENTICAL: "#2e7d32",
    Bucket.RENAME: "#7cb342",
    Bucket.REWRITE: "#f9a825",
    Bucket.OTHER_PACKAGE: "#1e88e5",
    Bucket.MISSING: "#c62828",
    Bucket.UNKNOWN: "#757575",
}


def bucket_of(category: Category | None) -> Bucket:
    """Group 1 identical/no_params; rest of group 1; groups 2–5; 6; 7; no record."""
    if category is None:
        return Bucket.UNKNOWN
    if category in (Category.IDENTICAL, Category.NO_PARAMS):
        return Bucket.IDENTICAL
    if category.group == 1:
        return Bucket.RENAME
    if category.group <= 5:
        return Bucket.REWRITE
    if category.group == 6:
        return Bucket.OTHER_PACKAGE
    return Bucket.MISSING


@dataclass(frozen=True)
class Classification:
    """An API name with the record that covers it."""

    record: RecordInfo | None
    via: str | None
    """The name the record is found under when it is not the API itself (an alias)."""
    public: bool
    """The name is in the public-surface table."""

    @property
    def bucket(self) -> Bucket:
        """The migration bucket of the record's category."""
        return bucket_of(self.record.category if self.record else None)


class Classifier:
    """Look up records for API names, through record aliases and surface aliases."""

    def __init__(self, surface: Surface, knowledge: Knowledge) -> None:
        self.surface = surface
        self._index: dict[str, RecordInfo] = {}
        for name, record in knowledge.by_name().items():
            self._index.setdefault(name, record)
        for name, record in knowledge.by_name().items():
            public = surface.public_name(name)
            if public is not None:
                self._index.setdefault(public, record)
        self._cache: dict[str, Classification] = {}

    def classify(self, api: str) -> Classification:
        """The record of ``api`` itself, else of a name of its surface alias group."""
        found = self._cache.get(api)
        if found is not None:
            return found
        public = api in self.surface.names
        record = self._index.get(api)
        via = None
        if record is None and public:
            for name in self.surface.alias_group(api):
                record = self._index.get(name)
                if record is not None:
                    via = name
                    break
        if record is not None and via is None and record.api != api:
            via = record.api
        found = Classification(record, via, public)
        self._cache[api] = found
        return found
