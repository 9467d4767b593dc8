"""What the listing pages show: the mapping tables, categories, the reverse lookup, the migration
notes, the changes between paddle releases and the home page's counts.

Plain data prepared from the records, like :mod:`apimap.publish.site.views`; every record has a
page (功能缺失 ones included), so every row links to one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from apimap.checking.corpus import Entry
from apimap.files.releases import ReleaseGuide, sentences
from apimap.files.surface import Surface
from apimap.publish.site.chart import NamespaceCounts
from apimap.publish.site.views import NoteView, case_view
from apimap.record import derived, phrases
from apimap.record.categories import GROUP_NAMES, Category, Section
from apimap.record.model import Record
from apimap.record.pages import api_docname
from apimap.record.paths import encode_name
from apimap.record.pins import PADDLE_RELEASES, PADDLE_VERSION

if TYPE_CHECKING:
    from apimap.survey.coverage.compute import Counts, Coverage

SECTION_ANCHORS = {
    Section.BASIC: "basic",
    Section.NETWORK: "network",
    Section.LOSS: "loss",
    Section.UTILITY: "utility",
    Section.VISION: "vision",
}
MISSING_ANCHOR = "missing"
"""The 功能缺失 index among the table pages."""


def section_key(record: Record) -> tuple[int, str, str]:
    """Sort key, title and anchor of the record's section."""
    section = derived.section(record)
    return list(Section).index(section), section.value, SECTION_ANCHORS[section]


@dataclass(frozen=True)
class Names:
    """Every torch name that leads to a record's page besides its own."""

    aliases: list[str]
    """The record's aliases, then those only the public-surface table names."""
    variant: str | None
    """The in-place variant."""
    variant_paddle: str | None
    variant_aliases: list[str]

    @property
    def all(self) -> list[str]:
        """Aliases, the variant and the variant's aliases."""
        variant = [self.variant] if self.variant else []
        return [*self.aliases, *variant, *self.variant_aliases]


def record_names(record: Record, surface: Surface) -> Names:
    """The record's other names, completed from the public-surface table (AM257 asks records to
    list them; the pages show them in any case)."""
    aliases = [*record.torch_aliases]
    aliases += surface.unnamed([record.torch_api, *aliases])
    variant = record.inplace
    if variant is None:
        return Names(aliases, None, None, [])
    variant_aliases = [*variant.aliases]
    variant_aliases += surface.unnamed([variant.torch, *variant_aliases])
    return Names(aliases, variant.torch, variant.paddle, variant_aliases)


@dataclass(frozen=True)
class TableRow:
    """One row of a mapping table: a record, an alias of one, or its in-place variant."""

    torch_api: str
    zh_name: str
    paddle: str
    paddle_url: str | None
    category: Category
    page: str
    """The record's page (document name)."""
    alias_of: str | None = None
    variant_of: str | None = None


def paddle_cell(record: Record) -> str:
    """What the Paddle API column says."""
    category = derived.category(record)
    if category is Category.COMPOSITE:
        return phrases.CATEGORY_LABELS[Category.COMPOSITE.value]
    if category is Category.MISSING or record.paddle_api is None:
        return "-"
    if record.paddle_package:
        return f"{record.paddle_api}（{record.paddle_package}）"
    return record.paddle_api


def table_rows(entry: Entry, names: Names) -> list[TableRow]:
    """The record's own row, one row per alias, and rows for the in-place variant."""
    record = entry.record
    category = derived.category(record)
    page = api_docname(record.torch_api)
    paddle, paddle_url = paddle_cell(record), derived.paddle_url(record)
    rows = [TableRow(record.torch_api, record.zh_name, paddle, paddle_url, category, page)]
    rows += [
        TableRow(alias, record.zh_name, paddle, paddle_url, category, page, record.torch_api)
        for alias in names.aliases
    ]
    if names.variant is not None and names.variant_paddle is not None:
        rows += [
            TableRow(
                name,
                record.zh_name,
                names.variant_paddle,
                None,
                category,
                page,
                names.variant if name != names.variant else None,
                record.torch_api,
            )
            for name in (names.variant, *names.variant_aliases)
        ]
    return rows


def namespace_of(api: str) -> str:
    """``torch.nn.functional.relu`` -> ``torch.nn.functional``."""
    return api.rpartition(".")[0]


@dataclass(frozen=True)
class NamespaceTable:
    """The rows of one namespace within a section."""

    namespace: str
    anchor: str
    rows: list[TableRow]


TABLE_ROWS_PER_PAGE = 800
"""Rows a section's page holds before the section goes on on another page (a namespace's table
is never cut: a page that would grow past this with the next namespace ends before it)."""


@dataclass(frozen=True)
class SectionPart:
    """One page of a section's tables."""

    docname: str
    """``tables/basic``, then ``tables/basic-2`` …"""
    label: str
    """``第 2 部分``."""
    tables: list[NamespaceTable]


@dataclass(frozen=True)
class SectionPage:
    """One section of the mapping tables: a page of its own, or several for a large one."""

    title: str
    anchor: str
    tables: list[NamespaceTable]

    @property
    def docname(self) -> str:
        """``tables/basic``: the section's (first) page."""
        return f"tables/{self.anchor}"

    @property
    def count(self) -> int:
        """Rows of the section, aliases included."""
        return sum(len(table.rows) for table in self.tables)

    @cached_property
    def parts(self) -> list[SectionPart]:
        """The section's pages, namespaces in order, each page up to
        :data:`TABLE_ROWS_PER_PAGE` rows."""
        groups: list[list[NamespaceTable]] = [[]]
        rows = 0
        for table in self.tables:
            if groups[-1] and rows + len(table.rows) > TABLE_ROWS_PER_PAGE:
                groups.append([])
                rows = 0
            groups[-1].append(table)
            rows += len(table.rows)
        return [
            SectionPart(
                self.docname if number == 1 else f"{self.docname}-{number}",
                phrases.PART_LABEL.format(part=number),
                tables,
            )
            for number, tables in enumerate(groups, start=1)
        ]

    def page_of(self, table: NamespaceTable) -> str:
        """The docname of the page that shows ``table``."""
        return next(part.docname for part in self.parts if table in part.tables)


def _by_namespace(rows: list[TableRow]) -> list[NamespaceTable]:
    grouped: dict[str, list[TableRow]] = {}
    for row in sorted(rows, key=lambda r: (namespace_of(r.torch_api), r.torch_api)):
        grouped.setdefault(namespace_of(row.torch_api), []).append(row)
    return [NamespaceTable(ns, ns, grouped[ns]) for ns in sorted(grouped)]


def section_pages(entries: Iterable[Entry], names: dict[str, Names]) -> list[SectionPage]:
    """The mapped APIs (功能缺失 aside) by section, then by namespace."""
    grouped: dict[tuple[int, str, str], list[TableRow]] = {}
    for entry in entries:
        if derived.category(entry.record) is Category.MISSING:
            continue
        grouped.setdefault(section_key(entry.record), []).extend(
            table_rows(entry, names[entry.api])
        )
    return [
        SectionPage(title, anchor, _by_namespace(grouped[(order, title, anchor)]))
        for order, title, anchor in sorted(grouped)
    ]


@dataclass(frozen=True)
class MissingRow:
    """A 功能缺失 API in the index of them: what it does and why paddle lacks it."""

    torch_api: str
    page: str
    zh_name: str
    reason: str
    aliases: list[str]


def missing_rows(entries: Iterable[Entry], names: dict[str, Names]) -> list[MissingRow]:
    """The 功能缺失 APIs, by name."""
    rows = []
    for entry in sorted(entries, key=lambda e: e.api):
        record = entry.record
        if derived.category(record) is not Category.MISSING:
            continue
        reason = record.missing.reason if record.missing else None
        rows.append(
            MissingRow(
                entry.api,
                api_docname(entry.api),
                record.zh_name,
                reason.label if reason else "",
                names[entry.api].all,
            )
        )
    return rows


@dataclass(frozen=True)
class CategoryCount:
    """How many APIs one category has."""

    category: Category
    count: int


@dataclass(frozen=True)
class GroupCount:
    """A category group (1 to 7) and its categories."""

    group: int
    name: str
    categories: list[CategoryCount]

    @property
    def count(self) -> int:
        """All APIs of the group."""
        return sum(item.count for item in self.categories)


def group_counts(entries: Iterable[Entry]) -> list[GroupCount]:
    """Counts per category, grouped as in the specification."""
    counts = Counter(derived.category(entry.record) for entry in entries)
    return [
        GroupCount(
            group,
            name,
            [CategoryCount(c, counts[c]) for c in Category if c.group == group],
        )
        for group, name in GROUP_NAMES.items()
    ]


@dataclass(frozen=True)
class SurfaceCoverage:
    """The home page's coverage of the public surface (see :mod:`apimap.survey.coverage`)."""

    chart: list[NamespaceCounts]
    """Each core namespace, then the other namespaces of each library summed."""
    table: list[NamespaceCounts]
    """Every namespace."""
    total: NamespaceCounts
    versions: str
    used: str
    """Share of the uses in popular model code that fall on classified names, e.g. ``98.7%``."""
    uses: int
    """Uses of public names in those libraries."""
    used_in: str
    """The libraries, with versions."""


def _namespace_counts(name: str, counts: Iterable[Counts]) -> NamespaceCounts:
    from apimap.survey.coverage.compute import Status

    total, aliases, unclassified = 0, 0, 0
    groups: Counter[int] = Counter()
    for item in counts:
        total += item.total
        aliases += item.statuses[Status.ALIAS]
        unclassified += item.statuses[Status.UNCLASSIFIED]
        groups.update(item.groups)
    return NamespaceCounts(name, total, dict(sorted(groups.items())), aliases, unclassified)


def surface_coverage(coverage: Coverage) -> SurfaceCoverage:
    """How the records cover the committed public-surface table, per namespace."""
    from apimap.survey.coverage.compute import by_use
    from apimap.survey.coverage.usage import load_usage

    usage = load_usage()
    weighted = by_use(coverage, usage.uses)
    chart: list[NamespaceCounts] = []
    for library in sorted(coverage.libraries):
        rows = [ns for ns in coverage.namespaces if ns.library == library]
        chart += [_namespace_counts(ns.namespace, [ns.counts]) for ns in rows if ns.group == "core"]
        others = [ns.counts for ns in rows if ns.group != "core"]
        if others:
            chart.append(_namespace_counts(f"{library} 其他 {len(others)} 个命名空间", others))
    return SurfaceCoverage(
        chart=chart,
        table=[_namespace_counts(ns.namespace, [ns.counts]) for ns in coverage.namespaces],
        total=_namespace_counts("合计", [coverage.total]),
        versions="、".join(f"{name} {version}" for name, version in coverage.versions.items()),
        used=f"{weighted.classified_percent:.1f}%",
        uses=weighted.total,
        used_in="、".join(f"{lib.name} {lib.version}" for lib in usage.libraries),
    )


@dataclass(frozen=True)
class CategoryPage:
    """The list of one category's APIs."""

    category: Category
    rows: list[TableRow]
    missing: list[MissingRow]
    """For 功能缺失: the rows with their reason."""

    @property
    def docname(self) -> str:
        """``category/input_usage_diff``."""
        return f"category/{self.category.value}"


def category_pages(entries: list[Entry], names: dict[str, Names]) -> list[CategoryPage]:
    """One page per category, APIs by name (aliases included)."""
    pages = []
    for category in Category:
        members = [e for e in entries if derived.category(e.record) is category]
        rows = sorted(
            (row for entry in members for row in table_rows(entry, names[entry.api])),
            key=lambda r: r.torch_api,
        )
        missing = missing_rows(members, names) if category is Category.MISSING else []
        pages.append(CategoryPage(category, rows, missing))
    return pages


@dataclass(frozen=True)
class MigrationItem:
    """The migration notes of one record, for the migration guide."""

    api: str
    page: str
    notes: list[NoteView]

    @property
    def anchor(self) -> str:
        """The API name (HTML ids are case-sensitive, so ``torch.Tensor.T`` is its own)."""
        return self.api

    @property
    def count(self) -> int:
        """How many notes."""
        return len(self.notes)


@dataclass(frozen=True)
class MigrationSection:
    """The migration notes of one section: a page of its own."""

    title: str
    anchor: str
    items: list[MigrationItem]

    @property
    def docname(self) -> str:
        """``migration/basic``."""
        return f"migration/{self.anchor}"


def migration_sections(entries: Iterable[Entry]) -> list[MigrationSection]:
    """Every record with notes, by section (unsectioned last), then by API name."""
    grouped: dict[tuple[int, str, str], list[MigrationItem]] = {}
    for entry in sorted(entries, key=lambda e: e.api):
        if not entry.record.notes:
            continue
        item = MigrationItem(
            entry.api,
            api_docname(entry.api),
            [
                NoteView(note.text, case_view(note.example) if note.example else None)
                for note in entry.record.notes
            ],
        )
        grouped.setdefault(section_key(entry.record), []).append(item)
    return [
        MigrationSection(title, anchor, grouped[(order, title, anchor)])
        for order, title, anchor in sorted(grouped)
    ]


@dataclass(frozen=True)
class ChangeItem:
    """A record that needs something else on an older release than on the pinned one."""

    api: str
    page: str
    sentences: list[str]


@dataclass(frozen=True)
class ReleaseChanges:
    """One older release: its records that need something else, grouped by what."""

    version: str
    measured: int
    groups: list[tuple[str, list[ChangeItem]]]
    """(Chinese label of the kind, records), in the order of :data:`phrases.CHANGE_KINDS`."""

    @property
    def count(self) -> int:
        """How many records need something else on this release."""
        return sum(len(items) for _label, items in self.groups)

    @property
    def anchor(self) -> str:
        """``paddle-3-0-0``."""
        return "paddle-" + self.version.replace(".", "-")

    @property
    def docname(self) -> str:
        """``changelog/paddle-3-0-0``: a page of its own (every release on one page would pass
        the pages' size budget)."""
        return f"changelog/{self.anchor}"


def _change_kind(found: ReleaseGuide, version: str) -> str | None:
    """What makes a release differ from the pinned one for a record (``None``: nothing)."""
    there, pinned = found.by_release[version], found.by_release[PADDLE_VERSION]
    if not there.measured or there == pinned:
        return None
    if not there.api:
        return "api_missing"
    if there.unaccepted or there.missing_params:
        return "signature"
    if there.failing:
        return "results"
    if there.probes:
        return "behaviour"
    return "ways"


def release_changes(entries: Iterable[Entry]) -> list[ReleaseChanges]:
    """For each older release (newest first), the records that need something else there,
    each with the same sentences its page says."""
    by_release: dict[str, dict[str, list[ChangeItem]]] = {}
    counts: Counter[str] = Counter()
    for entry in entries:
        found = entry.guide
        if found is None:
            continue
        for version in PADDLE_RELEASES[:-1]:
            if not found.by_release[version].measured:
                continue
            counts[version] += 1
            kind = _change_kind(found, version)
            if kind is None:
                continue
            span = next(span for span in found.spans if version in span.versions)
            item = ChangeItem(entry.api, api_docname(entry.api), sentences(entry.record, span))
            by_release.setdefault(version, {}).setdefault(kind, []).append(item)
    changes = []
    for version in reversed(PADDLE_RELEASES[:-1]):
        if not counts[version]:
            continue
        groups = by_release.get(version, {})
        changes.append(
            ReleaseChanges(
                version,
                counts[version],
                [
                    (label, sorted(groups[kind], key=lambda item: item.api))
                    for kind, label in phrases.CHANGE_KINDS.items()
                    if kind in groups
                ],
            )
        )
    return changes


@dataclass(frozen=True)
class ReverseRow:
    """One row of the reverse lookup: a paddle API and a torch API that maps to it."""

    paddle: str
    paddle_url: str | None
    torch_api: str
    zh_name: str
    category: Category
    page: str


@dataclass(frozen=True)
class ReversePart:
    """The reverse rows of one paddle namespace: a page of its own."""

    namespace: str
    rows: list[ReverseRow]

    @property
    def docname(self) -> str:
        """``reverse/paddle.nn.functional`` (upper-case letters marked as in record files)."""
        return f"reverse/{encode_name(self.namespace)}"


def reverse_parts(entries: Iterable[Entry], names: dict[str, Names]) -> list[ReversePart]:
    """Every record and alias with a paddle API, by the paddle API's namespace, then name."""
    grouped: dict[str, list[ReverseRow]] = {}
    for entry in entries:
        record = entry.record
        if record.paddle_api is None or derived.category(record) is Category.MISSING:
            continue
        page = api_docname(record.torch_api)
        category = derived.category(record)
        url = derived.paddle_url(record)
        for name in (record.torch_api, *names[entry.api].aliases):
            grouped.setdefault(namespace_of(record.paddle_api) or record.paddle_api, []).append(
                ReverseRow(record.paddle_api, url, name, record.zh_name, category, page)
            )
    return [
        ReversePart(
            namespace,
            sorted(
                grouped[namespace], key=lambda row: (row.paddle.lower(), row.paddle, row.torch_api)
            ),
        )
        for namespace in sorted(grouped, key=lambda ns: (ns.lower(), ns))
    ]
