"""The coverage chart of the home page: one stacked bar per namespace of the public surface, as SVG.

The chart is narrow (the name and the numbers above each bar), so that it stays readable when a
phone scales it to its width.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from apimap.record.categories import GROUP_COLOURS, GROUP_NAMES

ALIAS_COLOUR = "#90caf9"
UNCLASSIFIED_COLOUR = "#e0e0e0"

_WIDTH = 400
_ROW = 40
_BAR = 12
_LEGEND_ROW = 22
_FONT = "font-family=\"'Noto Sans CJK SC','Microsoft YaHei',sans-serif\" font-size=\"13\""


@dataclass(frozen=True)
class NamespaceCounts:
    """How the records cover the public names of one namespace (or of several, summed)."""

    namespace: str
    total: int
    by_group: dict[int, int]
    """Names with a record, by category group (7 is 功能缺失)."""
    aliases: int
    unclassified: int

    @property
    def classified(self) -> int:
        """Names with a record (功能缺失 included) or that are an alias of one."""
        return self.total - self.unclassified

    @property
    def missing(self) -> int:
        """Names whose record says 功能缺失."""
        return self.by_group.get(7, 0)

    @property
    def records(self) -> int:
        """Names with a record that has a counterpart (groups 1–6)."""
        return sum(count for group, count in self.by_group.items() if group != 7)

    @property
    def coverage(self) -> str:
        """Classified share as a whole percentage, ``-`` for an empty namespace."""
        if not self.total:
            return "-"
        return f"{100 * self.classified / self.total:.0f}%"


def _text_width(text: str) -> int:
    """Rough width in pixels at 13 px: CJK characters are square, Latin ones about half."""
    return sum(13 if ord(char) >= 0x2E80 else 7 for char in text)


def _legend(width: int) -> tuple[list[str], int]:
    parts: list[str] = []
    x, y = 0, 0
    items = [(f"{group} {name}", GROUP_COLOURS[group]) for group, name in GROUP_NAMES.items()]
    items += [("别名", ALIAS_COLOUR), ("未分类", UNCLASSIFIED_COLOUR)]
    for label, colour in items:
        item_width = 36 + _text_width(label)
        if x and x + item_width > width:
            x, y = 0, y + _LEGEND_ROW
        parts.append(f'<rect x="{x}" y="{y + 3}" width="14" height="14" fill="{colour}"/>')
        parts.append(f'<text x="{x + 20}" y="{y + 15}" {_FONT}>{escape(label)}</text>')
        x += item_width
    return parts, y + _LEGEND_ROW + 8


def _segments(row: NamespaceCounts) -> list[tuple[str, str, int]]:
    segments = [
        (GROUP_COLOURS[group], f"{group} {GROUP_NAMES[group]}", row.by_group.get(group, 0))
        for group in sorted(GROUP_COLOURS)
    ]
    segments.append((ALIAS_COLOUR, "别名", row.aliases))
    segments.append((UNCLASSIFIED_COLOUR, "未分类", row.unclassified))
    return segments


def coverage_svg(rows: Sequence[NamespaceCounts]) -> str:
    """A deterministic SVG: per namespace its name and counts, and a bar whose length is the
    number of public names."""
    legend, top = _legend(_WIDTH)
    largest = max((row.total for row in rows), default=0) or 1
    parts = list(legend)
    for index, row in enumerate(rows):
        y = top + index * _ROW
        parts.append(f'<text x="0" y="{y + 13}" {_FONT}>{escape(row.namespace)}</text>')
        value = f"{row.classified} / {row.total}  {row.coverage}"
        parts.append(f'<text x="{_WIDTH}" y="{y + 13}" text-anchor="end" {_FONT}>{value}</text>')
        x = 0.0
        for colour, label, count in _segments(row):
            if not count:
                continue
            length = _WIDTH * count / largest
            parts.append(
                f'<rect x="{x:.2f}" y="{y + 19}" width="{length:.2f}" height="{_BAR}" '
                f'fill="{colour}"><title>{escape(row.namespace)} '
                f"{escape(label)}：{count}</title></rect>"
            )
            x += length
    height = top + len(rows) * _ROW + 4
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {height}" role="img" aria-labelledby="coverage-title">\n'
        '<title id="coverage-title">各命名空间公开 API 的映射覆盖情况</title>\n'
        f"{body}\n</svg>\n"
    )
