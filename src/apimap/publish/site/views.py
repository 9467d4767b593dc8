"""What the templates show: plain data prepared from the records.

Views hold text (record prose and generated phrases), never Markdown: the
templates escape every value with the filters of :mod:`apimap.publish.site.templates`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote, urlencode

from apimap.checking.corpus import Entry
from apimap.files.releases import ReleaseGuide, Span, WayKind, guide, sentences
from apimap.files.stamps import ProbeResult, Stamp
from apimap.publish.site.chart import NamespaceCounts
from apimap.publish.site.markdown import format_signature
from apimap.record import derived, phrases, wording
from apimap.record.categories import GROUP_NAMES, Category, RowKind, Section
from apimap.record.model import Case, ParamRow, Record
from apimap.record.pages import api_docname, has_page, other_names
from apimap.record.paths import record_path
from apimap.record.pins import PADDLE_RELEASES, PADDLE_VERSION, release_key

if TYPE_CHECKING:
    from apimap.survey.coverage.compute import Counts


@dataclass(frozen=True)
class RowView:
    """One row of the 参数映射 table."""

    torch: str
    paddle: str
    remark: str


@dataclass(frozen=True)
class CaseView:
    """One rewrite case: the optional condition line and the code block."""

    when: str | None
    code: str


@dataclass(frozen=True)
class ExampleView:
    """Cases under an optional ``参数名：功能`` heading."""

    heading: str | None
    cases: list[CaseView]


@dataclass(frozen=True)
class NoteView:
    """One 注意事项 paragraph with its optional example."""

    text: str
    case: CaseView | None


@dataclass(frozen=True)
class Badge:
    """What the page says about its verification."""

    text: str
    complete: bool
    unproven: list[str]
    date: str | None


@dataclass(frozen=True)
class BehaviourRow:
    """One probe of the behaviour table."""

    probe: str
    torch: str
    paddle: str
    verdict: str


@dataclass(frozen=True)
class SpanView:
    """What the releases of one span need: sentences, and the code of a rewrite there."""

    label: str
    sentences: list[str]
    cases: list[CaseView]


@dataclass(frozen=True)
class VersionsView:
    """The page's guidance per paddle release."""

    text: str
    """Where the page's mapping holds: 适用于 Paddle 3.0.0–3.3.1 …"""
    older_category: str | None
    """Where the category differs on older releases: Paddle 3.0.0–3.1.1 上属于「…」."""
    spans: list[SpanView]
    """Newest first; empty when every release needs the same."""
    everywhere: str | None
    """The sentence for a page that holds the same on every release."""


def _holds_range(found: ReleaseGuide) -> str:
    """The releases on which the page's mapping holds unchanged, as a badge line."""
    pinned = found.by_release[PADDLE_VERSION]
    low = PADDLE_VERSION
    for version in reversed(PADDLE_RELEASES):
        if found.by_release[version] != pinned:
            break
        low = version
    if low == PADDLE_VERSION:
        return phrases.RELEASE_ONLY.format(version=PADDLE_VERSION)
    return phrases.RELEASE_RANGE.format(low=low, high=PADDLE_VERSION)


def _span_cases(record: Record, span: Span) -> list[CaseView]:
    """The cases of the rewrite a span relies on when the record's own API does not serve it."""
    ways = span.guidance.ways
    if not ways or ways[0].kind is not WayKind.REWRITE or ways[0].alternative is None:
        return []
    return [case_view(case) for case in record.alternatives[ways[0].alternative].cases]


def versions_view(record: Record, stamp: Stamp | None) -> VersionsView | None:
    """From the facts measured on each release; ``None`` without a stamp that has them."""
    found = guide(record, stamp)
    if found is None:
        return None
    pinned = derived.category(record)
    older = [
        span
        for span in found.spans
        if span.guidance.category is not None and span.guidance.category is not pinned
    ]
    older_category = (
        "；".join(
            phrases.OLDER_CATEGORY.format(releases=span.label, label=span.guidance.category.label)
            for span in older
            if span.guidance.category is not None
        )
        or None
    )
    if found.holds_everywhere:
        span = found.spans[0]
        return VersionsView(
            phrases.RELEASE_RANGE.format(low=PADDLE_RELEASES[0], high=PADDLE_VERSION),
            None,
            [],
            " ".join(sentences(record, span)),
        )
    spans = [
        SpanView(span.label, sentences(record, span), _span_cases(record, span))
        for span in reversed(found.spans)
    ]
    return VersionsView(_holds_range(found), older_category, spans, None)


def accepted_from(stamp: Stamp | None) -> dict[str, str]:
    """Each torch-style name -> the oldest release from which every release takes it."""
    if stamp is None:
        return {}
    found: dict[str, str] = {}
    names = {name for release in stamp.releases.values() for name in release.accepts}
    for name in sorted(names):
        since = None
        for version in reversed(PADDLE_RELEASES):
            release = stamp.releases.get(version)
            if release is None or not release.accepts.get(name, False):
                break
            since = version
        if since is not None:
            found[name] = since
    return found


def portable_row(record: Record, row: ParamRow, since: dict[str, str]) -> RowView:
    """A row as every release takes it: paddle's own parameter names, and from which release
    paddle also takes the torch-style name."""
    torch_cell, paddle_cell = wording.table_names(row)
    text = wording.remark(record, row)
    kind = derived.row_kind(row)
    accepted = [name for name in derived.torch_names(row) if name in record.paddle_accepts]
    if not accepted or kind is RowKind.RETURN_DIFF:
        return RowView(torch_cell, paddle_cell, text)
    real = [record.paddle_accepts.get(name, name) for name in derived.paddle_names(row)]
    if kind is RowKind.SAME and real != derived.torch_names(row):
        text = wording.remark(record, row.model_copy(update={"paddle": real}))
    versions = sorted({since.get(name, PADDLE_VERSION) for name in accepted}, key=release_key)
    note = phrases.ACCEPTED_FROM.format(
        version=versions[-1], names="、".join(f"`{name}`" for name in accepted)
    )
    return RowView(torch_cell, ", ".join(real) or "-", f"{text}{note}")


@dataclass(frozen=True)
class RecordLinks:
    """Where a reader edits the record or reports a problem with it (hosting repository)."""

    edit: str
    report: str


ISSUE_TEMPLATE = "mapping.yml"
"""``.github/ISSUE_TEMPLATE/mapping.yml``: the form the report link opens, prefilled."""


def record_links(record: Record, stamp: Stamp | None, repo_url: str | None) -> RecordLinks | None:
    """The edit link (the record file) and the report link (a new issue, prefilled with the API,
    the record's path and the versions it was verified against); ``None`` without a repository."""
    if not repo_url:
        return None
    base = repo_url.rstrip("/")
    path = f"mappings/{record_path(record.torch_api)}"
    versions = (
        " / ".join(f"{name} {version}" for name, version in _ordered(stamp.versions))
        if stamp
        else phrases.UNVERIFIED
    )
    query = urlencode(
        {
            "template": ISSUE_TEMPLATE,
            "title": f"[映射问题] {record.torch_api}",
            "api": record.torch_api,
            "record": path,
            "versions": versions,
        },
        quote_via=quote,
    )
    return RecordLinks(f"{base}/edit/main/{quote(path)}", f"{base}/issues/new?{query}")


def _ordered(versions: dict[str, str]) -> list[tuple[str, str]]:
    names = sorted(versions, key=lambda name: (_LIBRARY_ORDER.get(name, 3), name))
    return [(name, versions[name]) for name in names]


def description(record: Record) -> str:
    """``zh_name`` and the first summary paragraph, on one line."""
    parts = [record.zh_name, *wording.summary(record)[:1]]
    text = "：".join(" ".join(part.split()) for part in parts if part)
    text = text.removesuffix(phrases.FOLLOWED) + ("。" if text.endswith(phrases.FOLLOWED) else "")
    return _NOT_IN_DESCRIPTIONS.sub("", text)


_NOT_IN_DESCRIPTIONS = re.compile(r"[<>\"'`{}]")
"""Markup characters a link preview does not need (and an attribute had better not hold)."""


@dataclass(frozen=True)
class ApiPage:
    """Everything one diff page shows."""

    api: str
    zh_name: str
    kind: str | None
    category: Category
    badge: Badge
    torch_url: str | None
    torch_signatures: list[str]
    paddle_api: str | None
    paddle_url: str | None
    paddle_package: str | None
    paddle_signatures: list[str]
    summary: list[str]
    aliases: list[str]
    inplace: tuple[str, str] | None
    rows: list[RowView]
    examples: list[ExampleView]
    no_rewrite: str | None
    notes: list[NoteView]
    behaviour: list[BehaviourRow]
    versions: VersionsView | None = None
    links: RecordLinks | None = None
    description: str = ""
    """The page's meta description: the Chinese name and the summary, for link previews."""


def case_view(case: Case) -> CaseView:
    """The code block of a case: each side after its fixed comment (a side may be missing)."""
    sides = [(phrases.TORCH_CODE, case.torch), (phrases.PADDLE_CODE, case.paddle)]
    code = "\n\n".join(f"{marker}\n{text.rstrip()}" for marker, text in sides if text is not None)
    return CaseView(wording.when_line(case.when) if case.when else None, code)


_LIBRARY_ORDER = {"torch": 0, "torchvision": 1, "paddle": 2}
"""The badge names the source libraries first, then paddle."""


def badge(record: Record, stamp: Stamp | None) -> Badge:
    """已验证 / 部分验证 with the versions, or 未验证."""
    if stamp is None:
        return Badge(phrases.UNVERIFIED, False, [], None)
    versions = " / ".join(f"{name} {version}" for name, version in _ordered(stamp.versions))
    template = phrases.VERIFIED if stamp.complete else phrases.PARTLY_VERIFIED
    return Badge(
        template.format(versions=versions), stamp.complete, list(stamp.proven.unproven), stamp.date
    )


def behaviour_rows(record: Record, stamp: Stamp | None) -> list[BehaviourRow]:
    """The probe results as the page's behaviour table: one row per probe, in the order
    verify ran them, showing the first call where the libraries differ (if any)."""
    if stamp is None:
        return []
    grouped: dict[str, list[ProbeResult]] = {}
    for result in stamp.behaviour:
        grouped.setdefault(result.probe, []).append(result)
    rows = []
    for probe, results in grouped.items():
        shown = next((result for result in results if result.differs), results[0])
        rows.append(
            BehaviourRow(
                wording.probe_label(probe), shown.torch, shown.paddle, _verdict(record, shown)
            )
        )
    return rows


def _verdict(record: Record, result: ProbeResult) -> str:
    if not result.differs:
        return phrases.SAME_BEHAVIOUR
    if result.paddle.startswith("✗"):
        verdict = phrases.DIFFERS_RAISES
    elif result.paddle != result.torch:
        verdict = phrases.DIFFERS_TYPE
    else:
        verdict = phrases.DIFFERS_VALUE
    kind, _, rest = result.acknowledged.partition("[")
    index = int(rest.rstrip("]") or 0) if rest else 0
    if kind == "accepted" and index < len(record.accepted):
        return phrases.ACCEPTED.format(verdict=verdict, reason=record.accepted[index].reason)
    if result.acknowledged:
        return phrases.EXPLAINED.format(
            verdict=verdict, where=_acknowledgement(record, kind, index)
        )
    return verdict


def _acknowledgement(record: Record, kind: str, index: int) -> str:
    """``notes[1]`` -> 注意事项第 2 条; ``params[0]`` -> 参数映射 input."""
    if kind == "params" and index < len(record.params):
        return f"参数映射 {wording.table_names(record.params[index])[0]}"
    return f"注意事项第 {index + 1} 条"


def api_page(entry: Entry, repo_url: str | None = None) -> ApiPage:
    """The diff page of one record (not for 功能缺失)."""
    record = entry.record
    return ApiPage(
        api=record.torch_api,
        zh_name=record.zh_name,
        kind=wording.api_kind_line(record),
        category=derived.category(record),
        badge=badge(record, entry.stamp),
        torch_url=derived.torch_url(record),
        torch_signatures=[format_signature(text) for text in record.torch_overloads],
        paddle_api=record.paddle_api,
        paddle_url=derived.paddle_url(record),
        paddle_package=record.paddle_package,
        paddle_signatures=[format_signature(text) for text in record.paddle_overloads],
        summary=wording.summary(record),
        aliases=list(record.torch_aliases),
        inplace=(record.inplace.torch, record.inplace.paddle) if record.inplace else None,
        rows=[portable_row(record, row, accepted_from(entry.stamp)) for row in record.params],
        examples=[
            ExampleView(
                wording.example_heading(record, example),
                [case_view(case) for case in example.cases],
            )
            for example in record.examples
        ],
        no_rewrite=phrases.NO_REWRITE if wording.says_no_rewrite(record) else None,
        notes=[
            NoteView(note.text, case_view(note.example) if note.example else None)
            for note in record.notes
        ],
        behaviour=behaviour_rows(record, entry.stamp),
        versions=versions_view(record, entry.stamp),
        links=record_links(record, entry.stamp, repo_url),
        description=description(record),
    )


@dataclass(frozen=True)
class TableRow:
    """One row of a mapping table: a record, an alias of one, or its in-place variant."""

    torch_api: str
    torch_url: str | None
    zh_name: str
    paddle: str
    paddle_url: str | None
    category: Category
    page: str | None
    alias_of: str | None
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


def table_rows(entry: Entry) -> list[TableRow]:
    """The record's own row, one row per alias, and one for the in-place variant."""
    record = entry.record
    category = derived.category(record)
    page = api_docname(record.torch_api) if has_page(record) else None
    paddle, paddle_url = paddle_cell(record), derived.paddle_url(record)
    rows = [
        TableRow(
            record.torch_api,
            derived.torch_url(record),
            record.zh_name,
            paddle,
            paddle_url,
            category,
            page,
            None,
        )
    ]
    for alias in record.torch_aliases:
        rows.append(
            TableRow(
                alias, None, record.zh_name, paddle, paddle_url, category, page, record.torch_api
            )
        )
    if record.inplace is not None:
        rows.append(
            TableRow(
                record.inplace.torch,
                None,
                record.zh_name,
                record.inplace.paddle,
                None,
                category,
                page,
                None,
                record.torch_api,
            )
        )
    return rows


def namespace_of(api: str) -> str:
    """``torch.nn.functional.relu`` -> ``torch.nn.functional``."""
    return api.rpartition(".")[0]


@dataclass(frozen=True)
class NamespaceTable:
    """The rows of one namespace within a section, numbered."""

    namespace: str
    rows: list[tuple[int, TableRow]]


@dataclass(frozen=True)
class SectionTables:
    """One section of the mapping tables."""

    title: str
    anchor: str
    tables: list[NamespaceTable]
    count: int


UNSECTIONED = "未标注类别"
_SECTION_ANCHORS = {
    Section.BASIC: "basic",
    Section.NETWORK: "network",
    Section.LOSS: "loss",
    Section.UTILITY: "utility",
    Section.VISION: "vision",
}


def section_tables(entries: Iterable[Entry]) -> list[SectionTables]:
    """Rows grouped by section, then by namespace; numbered within each section."""
    grouped: dict[str, list[TableRow]] = {}
    for entry in entries:
        if derived.category(entry.record) is Category.MISSING:
            continue
        key = entry.record.section.value if entry.record.section else UNSECTIONED
        grouped.setdefault(key, []).extend(table_rows(entry))
    order = [section.value for section in Section] + [UNSECTIONED]
    anchors = {section.value: anchor for section, anchor in _SECTION_ANCHORS.items()}
    anchors[UNSECTIONED] = "unsectioned"
    sections: list[SectionTables] = []
    for key in order:
        rows = grouped.get(key)
        if not rows:
            continue
        by_namespace: dict[str, list[TableRow]] = {}
        for row in sorted(rows, key=lambda r: (namespace_of(r.torch_api), r.torch_api)):
            by_namespace.setdefault(namespace_of(row.torch_api), []).append(row)
        number = 0
        tables: list[NamespaceTable] = []
        for namespace in sorted(by_namespace):
            numbered = []
            for row in by_namespace[namespace]:
                number += 1
                numbered.append((number, row))
            tables.append(NamespaceTable(namespace, numbered))
        sections.append(SectionTables(key, anchors[key], tables, number))
    return sections


@dataclass(frozen=True)
class MissingRow:
    """A 功能缺失 API with its reason and what to do instead."""

    torch_api: str
    torch_url: str | None
    zh_name: str
    reason: str
    detail: str
    instead: str
    aliases: list[str]


def missing_rows(entries: Iterable[Entry]) -> list[MissingRow]:
    """The 功能缺失 list, by API name."""
    rows = []
    for entry in entries:
        record = entry.record
        if derived.category(record) is not Category.MISSING or record.missing is None:
            continue
        missing = record.missing
        rows.append(
            MissingRow(
                entry.api,
                derived.torch_url(record),
                record.zh_name,
                missing.reason.label if missing.reason else "",
                missing.detail,
                missing.instead or "",
                other_names(record),
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


def surface_coverage(entries: Iterable[Entry]) -> SurfaceCoverage:
    """How the records cover the committed public-surface table, per namespace."""
    from apimap.files.surface import load_surface
    from apimap.survey.coverage.compute import by_use, compute
    from apimap.survey.coverage.usage import load_usage
    from apimap.survey.scan.knowledge import knowledge_from_entries

    coverage = compute(load_surface(), knowledge_from_entries(entries))
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


def category_pages(entries: list[Entry]) -> list[CategoryPage]:
    """One page per category, APIs by name (aliases included)."""
    pages = []
    for category in Category:
        members = [e for e in entries if derived.category(e.record) is category]
        rows = sorted(
            (row for entry in members for row in table_rows(entry)), key=lambda r: r.torch_api
        )
        pages.append(CategoryPage(category, rows, missing_rows(members)))
    return pages


def _valid_on(entry: Entry) -> list[str] | None:
    """The releases where some verified way to write the call works (``None``: unmeasured)."""
    found = guide(entry.record, entry.stamp)
    if found is None:
        return None
    return [version for version in PADDLE_RELEASES if found.valid_on(version)]


def index_entries(entries: Iterable[Entry]) -> list[dict[str, object]]:
    """The JSON index the table filter searches (one item per record and alias)."""
    items: list[dict[str, object]] = []
    for entry in entries:
        record = entry.record
        for row in table_rows(entry):
            items.append(
                {
                    "api": row.torch_api,
                    "zh_name": record.zh_name,
                    "paddle": row.paddle,
                    "category": row.category.value,
                    "label": row.category.label,
                    "section": record.section.value if record.section else "",
                    "page": quote(row.page) + ".html" if row.page else "",
                    "alias_of": row.alias_of or row.variant_of or "",
                    "reason": record.missing.detail if record.missing else "",
                    "releases": _valid_on(entry),
                }
            )
    return sorted(items, key=lambda item: str(item["api"]))


@dataclass(frozen=True)
class MigrationItem:
    """The migration notes of one record, for the migration guide."""

    api: str
    docname: str | None
    """The diff page, when the record has one."""
    notes: list[NoteView]


def migration_items(entries: Iterable[Entry]) -> list[MigrationItem]:
    """Every record with notes, by seed section (unsectioned last), then by API name."""
    order = {section: index for index, section in enumerate(Section)}

    def key(entry: Entry) -> tuple[int, str]:
        section = entry.record.section
        return (order[section] if section is not None else len(order), entry.api)

    return [
        MigrationItem(
            entry.api,
            api_docname(entry.api) if has_page(entry.record) else None,
            [
                NoteView(note.text, case_view(note.example) if note.example else None)
                for note in entry.record.notes
            ],
        )
        for entry in sorted(entries, key=key)
        if entry.record.notes
    ]


@dataclass(frozen=True)
class ChangeItem:
    """A record that needs something else on an older release than on the pinned one."""

    api: str
    docname: str | None
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
        found = guide(entry.record, entry.stamp)
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
            docname = api_docname(entry.api) if has_page(entry.record) else None
            item = ChangeItem(entry.api, docname, sentences(entry.record, span))
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
    category: Category
    page: str | None


def reverse_rows(entries: Iterable[Entry]) -> list[ReverseRow]:
    """Every record and alias with a paddle API, sorted by the paddle API (paddle → torch)."""
    rows = []
    for entry in entries:
        record = entry.record
        if record.paddle_api is None or derived.category(record) is Category.MISSING:
            continue
        page = api_docname(record.torch_api) if has_page(record) else None
        for name in (record.torch_api, *record.torch_aliases):
            rows.append(
                ReverseRow(
                    record.paddle_api,
                    derived.paddle_url(record),
                    name,
                    derived.category(record),
                    page,
                )
            )
    return sorted(rows, key=lambda row: (row.paddle.lower(), row.paddle, row.torch_api))
