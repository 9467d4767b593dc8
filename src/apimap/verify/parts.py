"""One part of the corpus, for verifying it a part at a time (``apimap verify --part``).

Every record has a current stamp on main (``apimap check`` refuses a stale one), so CI needs
to run again only what a change made stale. To keep catching drift that no record change
causes, CI also verifies one of ``N`` parts of the corpus, a different one each day:
``--part today/7`` covers every record once a week. A record's part comes from its torch
name (a stable hash), so parts keep their size as the corpus grows and a failing part can be
run again by its number (``--part 3/7``).
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass


class PartError(ValueError):
    """A ``--part`` value that is not ``K/N`` or ``today/N``."""


@dataclass(frozen=True)
class Part:
    """Part ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def holds(self, torch_api: str) -> bool:
        """Whether the record of ``torch_api`` belongs to this part."""
        number = int.from_bytes(hashlib.sha256(torch_api.encode("utf-8")).digest()[:8], "big")
        return number % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_part(text: str, today: datetime.date | None = None) -> Part:
    """``K/N`` (1 ≤ K ≤ N) or ``today/N`` (the part of the UTC date: its ordinal mod N)."""
    index_text, slash, count_text = text.partition("/")
    if not slash or not count_text.isdigit() or int(count_text) < 1:
        raise PartError(f"--part 应为 K/N 或 today/N (expected K/N or today/N)：{text!r}")
    count = int(count_text)
    if index_text == "today":
        day = today or datetime.datetime.now(datetime.UTC).date()
        return Part(day.toordinal() % count + 1, count)
    if not index_text.isdigit() or not 1 <= int(index_text) <= count:
        raise PartError(f"--part 的 K 应在 1 与 N 之间 (K must be within 1..N)：{text!r}")
    return Part(int(index_text), count)
