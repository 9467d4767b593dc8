"""What an API page shows: plain data prepared from one record and its stamp.

Views hold text (record prose and generated phrases), never markup: the
templates escape every value with the filters of :mod:`apimap.publish.site.templates`.
The listing pages' data is :mod:`apimap.publish.site.listings`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

from apimap.checking.corpus import Entry
from apimap.files.releases import ReleaseGuide, Span, WayKind, sentences
from apimap.files.stamps import ProbeResult, Stamp
from apimap.publish.site.markdown import format_signature
from apimap.record import derived, phrases, wording
from apimap.record.categories import Category, RowKind
from apimap.record.links import default_paddle_url
from apimap.record.model import Case, ParamRow, Record
from apimap.record.paths import record_path
from apimap.record.pins import (
    PADDLE_RELEASES,
    PADDLE_VERSION,
    TORCH_VERSION,
    TORCHVISION_VERSION,
    VISION_PREFIX,
    VISION_TORCH_VERSION,
    release_key,
)


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


def versions_view(record: Record, found: ReleaseGuide | None) -> VersionsView | None:
    """From the facts measured on each release (the record's guide); ``None`` without a stamp
    that has them."""
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
class ConsideredView:
    """A paddle API that looks like the counterpart of a 功能缺失 API, and why it is not."""

    paddle: str
    url: str | None
    why: str


@dataclass(frozen=True)
class MissingView:
    """What a 功能缺失 page says instead of a mapping."""

    reason: str
    """The reason's label (可新增…、设计差异过大…), empty when the record has none yet."""
    detail: str
    instead: str | None
    considered: list[ConsideredView]


def missing_view(record: Record) -> MissingView | None:
    """The 功能缺失 part of a record's page (``None`` for a record with a counterpart)."""
    missing = record.missing
    if derived.category(record) is not Category.MISSING or missing is None:
        return None
    return MissingView(
        missing.reason.label if missing.reason else "",
        missing.detail,
        missing.instead,
        [
            ConsideredView(item.paddle, default_paddle_url(item.paddle), item.why)
            for item in missing.considered
        ],
    )


def versions_line(api: str) -> str:
    """Which torch a page's facts were measured with, and why torchvision's pages use another."""
    if api.startswith(VISION_PREFIX):
        return phrases.VISION_TORCH.format(
            torchvision=TORCHVISION_VERSION, vision=VISION_TORCH_VERSION, torch=TORCH_VERSION
        )
    return phrases.PINNED_TORCH.format(torch=TORCH_VERSION, paddle=PADDLE_VERSION)


@dataclass(frozen=True)
class ApiPage:
    """Everything one API page shows."""

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
    inplace_aliases: list[str] = field(default_factory=list)
    missing: MissingView | None = None
    pins: str = ""
    """Which library versions the page's facts come from."""
    no_signature: str | None = None
    """For an attribute or a constant: said under its name instead of a signature."""


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
        template.format(versions=versions),
        stamp.complete,
        wording.unproven_shown(list(stamp.proven.unproven)),
        stamp.date,
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
                wording.probe_label(probe),
                wording.result_cell(shown.torch),
                wording.result_cell(shown.paddle),
                _verdict(record, shown),
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


def api_page(
    entry: Entry,
    repo_url: str | None = None,
    aliases: list[str] | None = None,
    inplace_aliases: list[str] | None = None,
) -> ApiPage:
    """The page of one record; ``aliases`` and ``inplace_aliases`` default to the record's own
    (the site adds those only the public-surface table names)."""
    record = entry.record
    kind = wording.api_kind_line(record)
    return ApiPage(
        api=record.torch_api,
        zh_name=record.zh_name,
        kind=kind,
        category=derived.category(record),
        badge=badge(record, entry.stamp),
        torch_url=derived.torch_url(record),
        torch_signatures=[format_signature(text) for text in record.torch_overloads],
        paddle_api=record.paddle_api,
        paddle_url=derived.paddle_url(record),
        paddle_package=record.paddle_package,
        paddle_signatures=[format_signature(text) for text in record.paddle_overloads],
        summary=wording.summary(record),
        aliases=list(record.torch_aliases) if aliases is None else aliases,
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
        versions=versions_view(record, entry.guide),
        links=record_links(record, entry.stamp, repo_url),
        description=description(record),
        inplace_aliases=(
            list(record.inplace.aliases)
            if record.inplace and inplace_aliases is None
            else inplace_aliases or []
        ),
        missing=missing_view(record),
        pins=versions_line(record.torch_api),
        no_signature=(
            phrases.NO_SIGNATURE.format(kind=kind)
            if kind and not record.api_type.callable
            else None
        ),
    )
