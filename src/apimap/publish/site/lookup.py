"""The data the site's scripts look names up in.

* :func:`name_index` — every torch name with a page (records, their aliases, in-place variants
  and the aliases only the public-surface table knows): the table filter, the reverse lookup,
  the direct lookup and the search page read it (``_static/apimap-names.json``).
* :func:`uncovered_names` — the public names of the pinned libraries that no record covers yet,
  so that looking one up says so instead of finding nothing (``_static/apimap-uncovered.json``).

Both are compact JSON with sorted keys: the same records give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from apimap.checking.corpus import Entry
from apimap.publish.site.listings import Names, paddle_cell
from apimap.record import derived, phrases
from apimap.record.categories import Category, Section
from apimap.record.pins import PADDLE_RELEASES, PADDLE_VERSION

if TYPE_CHECKING:
    from apimap.survey.coverage.compute import Coverage

NAMES_FILE = "_static/apimap-names.json"
UNCOVERED_FILE = "_static/apimap-uncovered.json"

OWN, ALIAS, VARIANT = "", "a", "v"
"""How a row's name relates to its record: the record's own name, an alias, the in-place
variant (or an alias of it)."""


def _releases(entry: Entry) -> int:
    """The releases where the API exists or some verified way to write the call works, so the
    release filter finds it and its page says what to write there, as bits over
    :data:`PADDLE_RELEASES` (``-1``: not measured on the older releases)."""
    found = entry.guide
    if found is None:
        return -1
    return sum(
        1 << index for index, version in enumerate(PADDLE_RELEASES) if found.exists_on(version)
    )


def name_index(entries: Iterable[Entry], names: dict[str, Names]) -> dict[str, object]:
    """Rows ``[name, zh_name, paddle, category, section, record, relation, releases]`` sorted by
    name; ``category`` and ``section`` index the lists that come with them, ``record`` is the
    API whose page the name opens (empty for the record's own name)."""
    sections = [section.value for section in Section]
    categories = list(Category)
    rows: list[list[object]] = []
    for entry in entries:
        record = entry.record
        common = [
            record.zh_name,
            categories.index(derived.category(record)),
            sections.index(derived.section(record).value),
        ]
        releases = _releases(entry)
        paddle = paddle_cell(record)
        own = names[entry.api]
        rows.append([record.torch_api, common[0], paddle, *common[1:], "", OWN, releases])
        rows += [
            [alias, common[0], paddle, *common[1:], record.torch_api, ALIAS, releases]
            for alias in own.aliases
        ]
        if own.variant is not None and own.variant_paddle is not None:
            rows += [
                [
                    name,
                    common[0],
                    own.variant_paddle,
                    *common[1:],
                    record.torch_api,
                    VARIANT,
                    releases,
                ]
                for name in (own.variant, *own.variant_aliases)
            ]
    return {
        "categories": [[c.value, c.label, c.group] for c in categories],
        "sections": sections,
        "releases": list(PADDLE_RELEASES),
        "pinned": PADDLE_VERSION,
        "rows": sorted(rows, key=lambda item: str(item[0])),
    }


def uncovered_names(coverage: Coverage) -> dict[str, object]:
    """The public names no record covers (coverage status 未分类), with their kind in Chinese,
    and the library versions."""
    from apimap.survey.coverage.compute import Status

    return {
        "versions": dict(sorted(coverage.versions.items())),
        "names": {
            item.name: phrases.SURFACE_KIND_LABELS.get(item.kind, item.kind)
            for item in sorted(coverage.names, key=lambda item: item.name)
            if item.status is Status.UNCLASSIFIED
        },
    }


def dump(data: object) -> bytes:
    """Compact JSON with sorted keys, one final newline."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (text + "\n").encode("utf-8")
