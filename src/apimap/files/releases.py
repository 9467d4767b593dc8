"""What to write on each paddle release, from the facts ``apimap verify`` measured there.

A stamp keeps, for the pinned release and (with ``--matrix``) each older one,
whether the paddle API and the record's other paddle names exist, the API's
parameters, which torch-style names it takes, how every run of the record's own
code went (each call in the form that uses torch-style names and in the
portable form with paddle's own names, each alternative, each example) and the
probes that behave otherwise than on the pinned release.

From these facts this module works out, per release, the ways to write the call
that work there (:class:`Way`, fewest changes first) and what the reader must
know (names not taken, parameters missing, runs that fail, behaviour that
changes); consecutive releases that need the same guidance form one
:class:`Span`. :func:`sentences` says it in plain Chinese, from the phrases of
:mod:`apimap.phrases`: never a rule code, a stack trace or a tool's internals.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import IntEnum

from apimap.files.stamps import NOT_RUN, OK, ProbeOutcome, Release, Stamp
from apimap.record import derived, phrases, wording
from apimap.record.calls import CallError, derive
from apimap.record.categories import Category, RowKind, computed_category
from apimap.record.model import Record
from apimap.record.pins import PADDLE_RELEASES, PADDLE_VERSION

PORTABLE = "portable"
"""The key suffix of a call's portable form (see :mod:`apimap.verify.plan`)."""


class WayKind(IntEnum):
    """Ways to write the call, by how much of the torch code changes (fewest first)."""

    DROP_IN = 0
    """A torch-style paddle API: only the name changes."""
    ACCEPTING = 1
    """The record's API, passing torch's parameter names where it takes them."""
    PORTABLE = 2
    """The record's API with paddle's own parameter names (the table of the page)."""
    REWRITE = 3
    """An alternative written out as examples."""
    EXAMPLES = 4
    """The record's own examples (composite and context-change records)."""


@dataclass(frozen=True)
class Way:
    """One way that works on a release."""

    kind: WayKind
    api: str | None
    """The paddle API it uses (``None`` for a composite record's examples)."""
    alternative: int | None = None
    """The index of the alternative it comes from."""


@dataclass(frozen=True)
class Guidance:
    """What one release needs (equal guidance on consecutive releases forms a span)."""

    measured: bool
    """Whether verify measured this release for the record at all."""
    api: bool = True
    """The record's paddle API exists there."""
    category: Category | None = None
    """The category of the record's mapping there (names the API does not take count as
    renamed), ``None`` when the API is missing."""
    unaccepted: tuple[tuple[str, str], ...] = ()
    """Torch-style names the API does not take there: ``(torch name, paddle name)``."""
    missing_params: tuple[str, ...] = ()
    """Parameters of the recorded paddle signature the API lacks there."""
    failing: tuple[str, ...] = ()
    """How the page's own calls or examples fail there (outcomes such as ``raises:TypeError``),
    beyond what a missing API, name or parameter explains."""
    probes: tuple[tuple[str, str], ...] = ()
    """Probes that behave otherwise than on the pinned release: ``(probe, what paddle does)``."""
    ways: tuple[Way, ...] = ()
    """The ways that work there, fewest changes first."""


@dataclass(frozen=True)
class Span:
    """Consecutive releases with the same guidance."""

    versions: tuple[str, ...]
    guidance: Guidance

    @property
    def label(self) -> str:
        """``3.0.0–3.1.1`` or ``3.3.1``."""
        if len(self.versions) == 1:
            return self.versions[0]
        return f"{self.versions[0]}–{self.versions[-1]}"


@dataclass(frozen=True)
class ReleaseGuide:
    """The guidance of one record over every release, oldest first."""

    spans: tuple[Span, ...]
    by_release: dict[str, Guidance] = field(default_factory=dict)

    def valid_on(self, version: str) -> bool:
        """Some measured way works on ``version``."""
        guidance = self.by_release.get(version)
        return guidance is not None and guidance.measured and bool(guidance.ways)

    def exists_on(self, version: str) -> bool:
        """The record's paddle API, or some way, was measured to exist on ``version``: a
        reader on that release finds the API and its page says what to write there."""
        guidance = self.by_release.get(version)
        return guidance is not None and guidance.measured and (guidance.api or bool(guidance.ways))

    @property
    def holds_everywhere(self) -> bool:
        """Every release was measured and needs what the pinned one needs."""
        return len(self.spans) == 1 and self.spans[0].guidance.measured


def _runs_ok(release: Release, keys: list[str]) -> bool:
    """Every run of ``keys`` gave torch's results (or needed a device the machine lacks, and
    raised on both sides: as far as it can be verified; the badge says partly verified)."""
    return bool(keys) and all(_ran(release.runs.get(key)) for key in keys)


def _ran(outcome: str | None) -> bool:
    return outcome == OK or (outcome or "").startswith(NEEDS)


NEEDS = "needs:"
"""The outcome of code that needs a device the verifying machine lacks."""


Passed = dict[int, tuple[str, ...]]
"""The torch parameters each call passes, as far as asked (one record's, kept while its
guidance over every release is worked out: deriving a call parses its code)."""


def _passed(record: Record, index: int, memo: Passed) -> tuple[str, ...]:
    if index not in memo:
        try:
            memo[index] = tuple(derive(record, record.calls[index].torch, portable=True).passed)
        except CallError:
            memo[index] = ()
    return memo[index]


def _passes_missing(record: Record, index: int, missing: tuple[str, ...], memo: Passed) -> bool:
    """Whether call ``index`` passes a paddle parameter the release lacks (its failure there
    is the missing parameter's, which the guidance says)."""
    if not missing:
        return False
    for name in _passed(record, index, memo):
        row = derived.row_for(record, name)
        targets = derived.paddle_names(row) if row is not None else [name]
        if any(record.paddle_accepts.get(t, t) in missing for t in targets):
            return True
    return False


def _call_keys(
    record: Record,
    release: Release,
    portable: bool,
    missing: tuple[str, ...] = (),
    memo: Passed | None = None,
) -> list[str]:
    """The runs of the record's calls in one form (a call whose two forms are the same code
    has the plain key only), but for calls that pass a parameter the release lacks."""
    keys = []
    for index in range(len(record.calls)):
        if _passes_missing(record, index, missing, {} if memo is None else memo):
            continue
        plain = f"calls[{index}]"
        both = f"{plain}:{PORTABLE}"
        keys.append(both if portable and both in release.runs else plain)
    return keys


def _example_keys(release: Release) -> list[str]:
    return sorted(key for key in release.runs if key.startswith("examples["))


def _alternative_keys(release: Release, index: int) -> list[str]:
    prefix = f"alternatives[{index}]."
    return sorted(key for key in release.runs if key.startswith(prefix))


def _category(record: Record, release: Release, version: str) -> Category:
    """The record's category where some torch-style names are not taken: rows relying on them
    become renames."""
    declared = derived.category(record)
    if version == PADDLE_VERSION or not declared.computable or not record.paddle_accepts:
        return declared
    kinds = []
    for row in record.params:
        kind = derived.row_kind(row)
        names = derived.torch_names(row)
        if kind is RowKind.SAME and any(
            name in record.paddle_accepts and not release.accepts.get(name, False) for name in names
        ):
            kind = RowKind.RENAME
        kinds.append(kind)
    return computed_category(kinds) if kinds else declared


def _missing_params(record: Record, release: Release) -> tuple[str, ...]:
    if release.params is None or not record.paddle_overloads:
        return ()
    signature = derived.parse(record.paddle_overloads[0])
    if signature is None:
        return ()
    there = set(release.params)
    return tuple(p.spelled for p in signature.params if p.spelled not in there)


def _ways(
    record: Record, release: Release, missing: tuple[str, ...], memo: Passed
) -> tuple[Way, ...]:
    ways: list[Way] = []
    for index, alternative in enumerate(record.alternatives):
        if not release.names.get(alternative.paddle, False):
            continue
        if _runs_ok(release, _alternative_keys(release, index)):
            kind = WayKind.REWRITE if alternative.cases else WayKind.DROP_IN
            ways.append(Way(kind, alternative.paddle, index))
    if record.paddle_api is not None and release.api and record.calls:
        accepting = _call_keys(record, release, False, missing, memo)
        portable = _call_keys(record, release, True, missing, memo)
        if accepting != portable and _runs_ok(release, accepting):
            ways.append(Way(WayKind.ACCEPTING, record.paddle_api))
        if _runs_ok(release, portable):
            ways.append(Way(WayKind.PORTABLE, record.paddle_api))
    elif not record.calls and (examples := _example_keys(release)):
        if _runs_ok(release, examples) and (record.paddle_api is None or release.api):
            ways.append(Way(WayKind.EXAMPLES, record.paddle_api))
    elif not record.calls and record.paddle_api is not None and release.api:
        ways.append(Way(WayKind.PORTABLE, record.paddle_api))  # nothing to run: it exists
    return tuple(sorted(ways, key=lambda way: (way.kind, way.alternative or 0)))


def _failing(record: Record, release: Release, explained: bool) -> tuple[str, ...]:
    """Outcomes of the page's own code that failed there, when nothing else explains them."""
    if explained:
        return ()
    keys = _call_keys(record, release, portable=True) if record.calls else _example_keys(release)
    return tuple(sorted({release.runs[key] for key in keys if not _ran(release.runs.get(key, OK))}))


def _probe_outcome(outcome: ProbeOutcome) -> str:
    if outcome.paddle == NOT_RUN:
        return phrases.PROBE_NOT_RUN
    if outcome.paddle.startswith("✗"):
        return wording.failed_run(outcome.paddle)
    return phrases.PROBE_DIFFERS if outcome.differs else phrases.PROBE_AGREES


def guidance(
    record: Record, release: Release | None, version: str, memo: Passed | None = None
) -> Guidance:
    """What ``version`` needs for ``record``, from what was measured there (``memo`` keeps
    what the record's calls pass from one release to the next)."""
    if release is None:
        return Guidance(measured=False)
    api = release.api if record.paddle_api is not None else True
    unaccepted = tuple(
        (alias, target)
        for alias, target in record.paddle_accepts.items()
        if not release.accepts.get(alias, False)
    )
    missing = _missing_params(record, release) if api else ()
    explained = not api or bool(missing)
    broken = {key.rsplit(":", 1)[0] for key, outcome in release.runs.items() if not _ran(outcome)}
    probes = tuple(
        sorted(
            (key.split("@", 1)[0], _probe_outcome(o))
            for key, o in release.probes.items()
            if key.split("@", 1)[1] not in broken  # the call itself fails there: said above
        )
    )
    return Guidance(
        measured=True,
        api=api,
        category=_category(record, release, version) if api else None,
        unaccepted=unaccepted if api else (),
        missing_params=missing,
        failing=_failing(record, release, explained),
        probes=tuple(dict.fromkeys(probes)),
        ways=_ways(record, release, missing, {} if memo is None else memo),
    )


def guide(record: Record, stamp: Stamp | None) -> ReleaseGuide | None:
    """The record's guidance over every release; ``None`` without a stamp that measured the
    pinned release. A record whose counterpart lives in another package (``paddle_package``)
    holds on every paddle release as on the pinned one."""
    if stamp is None or PADDLE_VERSION not in stamp.releases:
        return None
    memo: Passed = {}
    if record.paddle_package:  # another package's API does not change with paddle's release
        pinned = guidance(record, stamp.releases[PADDLE_VERSION], PADDLE_VERSION, memo)
        by_release = dict.fromkeys(PADDLE_RELEASES, pinned)
    else:
        by_release = {
            version: guidance(record, stamp.releases.get(version), version, memo)
            for version in PADDLE_RELEASES
        }
    return _spanned(by_release)


def _spanned(by_release: dict[str, Guidance]) -> ReleaseGuide:
    spans: list[Span] = []
    for version in PADDLE_RELEASES:
        found = by_release[version]
        if spans and spans[-1].guidance == found:
            spans[-1] = Span((*spans[-1].versions, version), found)
        else:
            spans.append(Span((version,), found))
    return ReleaseGuide(tuple(spans), by_release)


def guide_to_json(found: ReleaseGuide | None) -> str:
    """``found`` as JSON, for a cache that keeps it between builds (see :func:`guide_from_json`)."""
    if found is None:
        return "null"
    return json.dumps({version: asdict(g) for version, g in found.by_release.items()})


def guide_from_json(text: str) -> ReleaseGuide | None:
    """The guide :func:`guide_to_json` wrote."""
    data = json.loads(text)
    if data is None:
        return None
    by_release = {}
    for version, item in data.items():
        category = item["category"]
        by_release[version] = Guidance(
            measured=item["measured"],
            api=item["api"],
            category=None if category is None else Category(category),
            unaccepted=tuple((a, b) for a, b in item["unaccepted"]),
            missing_params=tuple(item["missing_params"]),
            failing=tuple(item["failing"]),
            probes=tuple((a, b) for a, b in item["probes"]),
            ways=tuple(
                Way(WayKind(way["kind"]), way["api"], way["alternative"]) for way in item["ways"]
            ),
        )
    return _spanned(by_release)


# --- sentences ---------------------------------------------------------------------------------


def _codes(names: list[str] | tuple[str, ...]) -> str:
    return "、".join(f"`{name}`" for name in names)


def outcome_text(outcome: str) -> str:
    """``raises:TypeError`` -> 报错（TypeError）; ``differs:dtype`` -> 结果的数据类型不同."""
    kind, _, detail = outcome.partition(":")
    if kind == "raises":
        return phrases.OUTCOME_RAISES.format(error=detail)
    if kind == "differs":
        return phrases.OUTCOME_DIFFERS.get(detail, phrases.OUTCOME_DIFFERS["values"])
    return phrases.OUTCOME_OTHER.get(kind, phrases.OUTCOME_OTHER["failed"])


def way_text(record: Record, way: Way) -> str:
    """One way to write the call, in a sentence without its final punctuation."""
    torch = record.torch_api
    if way.kind is WayKind.DROP_IN:
        return phrases.WAY_DROP_IN.format(torch=torch, paddle=way.api)
    if way.kind is WayKind.ACCEPTING:
        names = [alias for alias in record.paddle_accepts if not alias.startswith("*")]
        if not names:  # only torch's way of passing a sequence item by item (``*dims``)
            return phrases.WAY_ACCEPTING_AS_TORCH.format(paddle=way.api)
        return phrases.WAY_ACCEPTING.format(paddle=way.api, names=_codes(names))
    if way.kind is WayKind.PORTABLE:
        return phrases.WAY_PORTABLE.format(paddle=way.api)
    if way.kind is WayKind.REWRITE:
        return phrases.WAY_REWRITE.format(paddle=way.api)
    return phrases.WAY_EXAMPLES


def sentences(record: Record, span: Span) -> list[str]:
    """What a reader on the releases of ``span`` needs to know, sentence by sentence."""
    found = span.guidance
    if not found.measured:
        return [phrases.NOT_MEASURED]
    out: list[str] = []
    api = record.paddle_api
    if api is not None and not found.api:
        out.append(phrases.API_MISSING.format(api=api))
    pinned = derived.category(record)
    if found.category is not None and found.category is not pinned:
        out.append(phrases.CATEGORY_THERE.format(label=found.category.label))
    if found.unaccepted:
        torch_names = [alias for alias, _ in found.unaccepted]
        paddle_names = [target for _, target in found.unaccepted]
        out.append(
            phrases.NAMES_NOT_TAKEN.format(torch=_codes(torch_names), paddle=_codes(paddle_names))
        )
    if found.missing_params and api is not None:
        out.append(phrases.PARAMS_MISSING.format(api=api, names=_codes(found.missing_params)))
    if found.failing:
        out.append(
            phrases.PAGE_FAILS.format(outcomes="、".join(outcome_text(o) for o in found.failing))
        )
    if found.probes:
        shown = [
            phrases.PROBE_THERE.format(probe=wording.probe_label(probe), outcome=outcome)
            for probe, outcome in found.probes[: phrases.MAX_PROBES_SHOWN]
        ]
        more = len(found.probes) - phrases.MAX_PROBES_SHOWN
        tail = phrases.MORE_PROBES.format(count=more) if more > 0 else ""
        out.append(
            phrases.BEHAVES_OTHERWISE.format(
                pinned=PADDLE_VERSION, items="；".join(shown), more=tail
            )
        )
    if found.ways:
        out.append(phrases.BEST_WAY.format(way=way_text(record, found.ways[0])))
        others = [way_text(record, way) for way in found.ways[1:]]
        if others:
            out.append(phrases.OTHER_WAYS.format(ways="；".join(others)))
    else:
        out.append(phrases.NO_WAY)
    return out
