"""Classify every public name of the surface table by the records.

A name is ``record`` when a record is about it (after resolving the record's
name through the table, so ``torch.nn.parameter.Parameter`` covers
``torch.nn.Parameter``), ``missing`` when that record says 功能缺失, ``alias``
when a record lists it among its aliases or the table says it is an alias of
(or has as an alias) a name with a record, and ``unclassified`` otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from apimap.files.surface import Surface
from apimap.record.categories import Category
from apimap.survey.scan.knowledge import Knowledge, RecordInfo


class Status(StrEnum):
    """How the knowledge base covers one public name."""

    RECORD = "record"
    MISSING = "missing"
    ALIAS = "alias"
    UNCLASSIFIED = "unclassified"

    @property
    def label(self) -> str:
        """Chinese name with an English gloss."""
        return _LABELS[self]


_LABELS = {
    Status.RECORD: "有记录 (record)",
    Status.MISSING: "功能缺失 (missing)",
    Status.ALIAS: "别名 (alias)",
    Status.UNCLASSIFIED: "未分类 (unclassified)",
}


@dataclass(frozen=True)
class NameStatus:
    """One public name and how it is covered."""

    name: str
    namespace: str
    kind: str
    status: Status
    record: RecordInfo | None
    """The record that covers the name (for aliases, the alias's record)."""
    alias_source: str | None = None
    """For aliases: ``record`` (listed in the record) or ``surface`` (the table's alias)."""


@dataclass
class Counts:
    """Names per status, and the category groups (1–7) of names with a record."""

    total: int = 0
    statuses: Counter[Status] = field(default_factory=Counter)
    groups: Counter[int] = field(default_factory=Counter)

    def add(self, item: NameStatus) -> None:
        """Count one name."""
        self.total += 1
        self.statuses[item.status] += 1
        if item.status in (Status.RECORD, Status.MISSING) and item.record is not None:
            self.groups[item.record.group] += 1

    @property
    def classified(self) -> int:
        """Names with any status but unclassified."""
        return self.total - self.statuses[Status.UNCLASSIFIED]

    @property
    def percent(self) -> float:
        """Classified share, 0 to 100 (100 for an empty namespace)."""
        return 100.0 * self.classified / self.total if self.total else 100.0


@dataclass(frozen=True)
class NamespaceCoverage:
    """The coverage of one namespace of the table."""

    namespace: str
    library: str
    group: str
    counts: Counts


@dataclass(frozen=True)
class Coverage:
    """Every public name classified, per namespace and per library."""

    names: list[NameStatus]
    namespaces: list[NamespaceCoverage]
    libraries: dict[str, Counts]
    total: Counts
    outside: list[str]
    """Record and alias names that are not public names of the table."""
    versions: dict[str, str]


def _indexes(
    surface: Surface, knowledge: Knowledge
) -> tuple[dict[str, RecordInfo], dict[str, RecordInfo], list[str]]:
    own: dict[str, RecordInfo] = {}
    listed: dict[str, RecordInfo] = {}
    outside: set[str] = set()
    for record in knowledge.records:
        for name, index in ((record.api, own), *((alias, listed) for alias in record.aliases)):
            public = surface.public_name(name)
            if public is None:
                outside.add(name)
                continue
            index.setdefault(public, record)
    return own, listed, sorted(outside)


def compute(surface: Surface, knowledge: Knowledge) -> Coverage:
    """Classify every public name of ``surface`` by the records of ``knowledge``."""
    own, listed, outside = _indexes(surface, knowledge)
    names: list[NameStatus] = []
    namespaces: list[NamespaceCoverage] = []
    libraries: dict[str, Counts] = {}
    total = Counts()
    for namespace in surface.ordered_namespaces():
        counts = Counts()
        library = ""
        for public in surface.in_namespace(namespace):
            library = public.library
            item = _status(public.name, public.namespace, public.kind, surface, own, listed)
            names.append(item)
            counts.add(item)
            libraries.setdefault(public.library, Counts()).add(item)
            total.add(item)
        library = library or namespace.partition(".")[0]
        group = surface.namespaces[namespace].group
        namespaces.append(NamespaceCoverage(namespace, library, group, counts))
    versions = {name: lib.version for name, lib in sorted(surface.libraries.items())}
    return Coverage(names, namespaces, libraries, total, outside, versions)


def _status(
    name: str,
    namespace: str,
    kind: str,
    surface: Surface,
    own: dict[str, RecordInfo],
    listed: dict[str, RecordInfo],
) -> NameStatus:
    record = own.get(name)
    if record is not None:
        status = Status.MISSING if record.category is Category.MISSING else Status.RECORD
        return NameStatus(name, namespace, kind, status, record)
    record = listed.get(name)
    if record is not None:
        return NameStatus(name, namespace, kind, Status.ALIAS, record, "record")
    for other in surface.alias_group(name):
        record = own.get(other) or listed.get(other)
        if other != name and record is not None:
            return NameStatus(name, namespace, kind, Status.ALIAS, record, "surface")
    return NameStatus(name, namespace, kind, Status.UNCLASSIFIED, None)


@dataclass(frozen=True)
class UseCoverage:
    """The names' statuses weighted by how often popular model code uses each name."""

    uses: Counter[Status]

    @property
    def total(self) -> int:
        """Uses of every public name."""
        return sum(self.uses.values())

    def percent(self, *statuses: Status) -> float:
        """Share of the uses that fall on names of ``statuses``, 0 to 100."""
        picked = sum(self.uses[status] for status in statuses)
        return 100.0 * picked / self.total if self.total else 100.0

    @property
    def classified_percent(self) -> float:
        """Share of the uses on names with a record, 功能缺失 or an alias."""
        return self.percent(Status.RECORD, Status.MISSING, Status.ALIAS)


def by_use(coverage: Coverage, uses: Callable[[str], int]) -> UseCoverage:
    """Weigh every name of ``coverage`` by ``uses(name)``."""
    counted: Counter[Status] = Counter()
    for item in coverage.names:
        counted[item.status] += uses(item.name)
    return UseCoverage(counted)
