"""What ``apimap verify --matrix`` measured, read for the site and the export.

A stamp's ``releases`` say, for each older paddle release, whether the record's
mapping holds there as written; the pinned release holds by definition (the
record was verified on it). The range a page states is the run of releases,
from the pinned one downward, on which it holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from apimap.files.stamps import Stamp
from apimap.record import phrases
from apimap.record.pins import PADDLE_RELEASES, PADDLE_VERSION

DIFFERENCE_KINDS = (
    ("api_missing", "AM801", "没有这个 API"),
    (
        "signature",
        ("AM802", "AM803", "AM804", "AM805", "AM806", "AM817"),
        "参数、默认值或接受的参数名不同",
    ),
    ("results", ("AM810", "AM811", "AM812", "AM813", "AM814"), "调用或示例的结果不同"),
    ("behaviour", "`", "探测的行为不同"),
)
"""(kind, how a difference line starts, Chinese label), in order of precedence."""


@dataclass(frozen=True)
class Measured:
    """The releases one record was measured on."""

    holds: list[str]
    """Releases where the mapping holds as written, oldest first (the pinned one included)."""
    differs: dict[str, list[str]]
    """Release -> what differs there, for the releases where it does not hold."""

    @property
    def lowest(self) -> str:
        """The oldest release of the unbroken run that ends at the pinned release."""
        lowest = PADDLE_VERSION
        for version in reversed(PADDLE_RELEASES):
            if version not in self.holds:
                break
            lowest = version
        return lowest

    @property
    def range_text(self) -> str:
        """适用于 Paddle 3.1.1–3.3.1, or 只适用于 Paddle 3.3.1."""
        if self.lowest == PADDLE_VERSION:
            return phrases.RELEASE_ONLY.format(version=PADDLE_VERSION)
        return phrases.RELEASE_RANGE.format(low=self.lowest, high=PADDLE_VERSION)


def measured(stamp: Stamp | None) -> Measured | None:
    """The matrix results of a stamp, or ``None`` when ``--matrix`` has not measured it."""
    if stamp is None or not stamp.releases:
        return None
    holds = [
        version
        for version in PADDLE_RELEASES
        if version == PADDLE_VERSION
        or (version in stamp.releases and stamp.releases[version].holds)
    ]
    differs = {
        version: list(release.differences)
        for version, release in stamp.releases.items()
        if not release.holds
    }
    return Measured(holds, differs)


def difference_kind(lines: list[str]) -> str:
    """The first matching kind of :data:`DIFFERENCE_KINDS` among a release's differences."""
    for kind, starts, _label in DIFFERENCE_KINDS:
        prefixes = (starts,) if isinstance(starts, str) else starts
        if any(line.startswith(prefixes) for line in lines):
            return kind
    return "other"


def kind_label(kind: str) -> str:
    """The Chinese label of a difference kind."""
    return next((label for name, _starts, label in DIFFERENCE_KINDS if name == kind), "其他差异")
