"""The coverage chart of the home page: one stacked bar per torch package, as SVG."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from apimap.categories import GROUP_NAMES

GROUP_COLOURS = {
    1: "#2e7d32",
    2: "#7cb342",
    3: "#f9a825",
    4: "#ef6c00",
    5: "#8e24aa",
    6: "#1e88e5",
    7: "#c62828",
}

_LABEL_WIDTH = 210
_BAR_WIDTH = 420
_VALUE_WIDTH = 130
_ROW = 24
_BAR = 16
_LEGEND_ROW = 22
_FONT = "font-family=\"'Noto Sans CJK SC','Microsoft YaHei',sans-serif\" font-size=\"13\""


@dataclass(frozen=True)
class PackageCounts:
    """How many APIs of one package fall in each category group (1 to 7)."""

    package: str
    by_group: dict[int, int]

    @property
    def total(self) -> int:
        """All APIs of the package."""
        return sum(self.by_group.values())

    @property
    def covered(self) -> int:
        """APIs that Paddle covers somehow (every group but 功能缺失)."""
        return self.total - self.by_group.get(7, 0)

    @property
    def coverage(self) -> str:
        """Covered share as a whole percentage, ``-`` for an empty package."""
        if not self.total:
            return "-"
        return f"{100 * self.covered / self.total:.0f}%"


def _text_width(text: str) -> int:
    """Rough width in pixels at 13 px: CJK characters are square, Latin ones about half."""
    return sum(13 if ord(char) >= 0x2E80 else 7 for char in text)


def _legend(width: int) -> tuple[list[str], int]:
    parts: list[str] = []
    x, y = 0, 0
    for group, name in GROUP_NAMES.items():
        label = f"{group} {name}"
        item_width = 36 + _text_width(label)
        if x and x + item_width > width:
            x, y = 0, y + _LEGEND_ROW
        parts.append(
            f'<rect x="{x}" y="{y + 3}" width="14" height="14" fill="{GROUP_COLOURS[group]}"/>'
        )
        parts.append(f'<text x="{x + 20}" y="{y + 15}" {_FONT}>{escape(label)}</text>')
        x += item_width
    return parts, y + _LEGEND_ROW + 8


def coverage_svg(rows: Sequence[PackageCounts]) -> str:
    """A deterministic SVG with a bar per package, stacked by category group."""
    width = _LABEL_WIDTH + _BAR_WIDTH + _VALUE_WIDTH
    legend, top = _legend(width)
    largest = max((row.total for row in rows), default=0) or 1
    parts = list(legend)
    for index, row in enumerate(rows):
        y = top + index * _ROW
        parts.append(
            f'<text x="{_LABEL_WIDTH - 8}" y="{y + 13}" text-anchor="end" {_FONT}>'
            f"{escape(row.package)}</text>"
        )
        x = float(_LABEL_WIDTH)
        for group in sorted(GROUP_COLOURS):
            count = row.by_group.get(group, 0)
            if not count:
                continue
            length = _BAR_WIDTH * count / largest
            parts.append(
                f'<rect x="{x:.2f}" y="{y + 1}" width="{length:.2f}" height="{_BAR}" '
                f'fill="{GROUP_COLOURS[group]}"><title>{escape(row.package)} '
                f"{group} {escape(GROUP_NAMES[group])}：{count}</title></rect>"
            )
            x += length
        value = f"{row.covered} / {row.total}  {row.coverage}"
        parts.append(
            f'<text x="{_LABEL_WIDTH + _BAR_WIDTH + 8}" y="{y + 13}" {_FONT}>{value}</text>'
        )
    height = top + len(rows) * _ROW + 4
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="coverage-title">\n'
        '<title id="coverage-title">各 PyTorch 包的 API 映射覆盖情况 '
        "(coverage per torch package)</title>\n"
        f"{body}\n</svg>\n"
    )
