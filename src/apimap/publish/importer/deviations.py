"""How a page's fixed wording departs from the specification's: what a tolerant match let through.

The patterns of :mod:`apimap.publish.importer.patterns` accept the wording with ASCII
punctuation, ``Pytorch`` or ``paddle`` spelt so, look-alike radicals and a
missing final ``。``, so that a page imports. Each of these is a violation of
the specification all the same; this module finds them in the fixed parts of
a match (outside the groups that hold a contributor's text) so that the
importer reports them instead of silently fixing them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apimap.publish.importer.inline import LOOKALIKES
from apimap.publish.importer.patterns import SLOT_GROUPS
from apimap.record.import_codes import HALF_WIDTH, LOOKALIKE, MISSPELT, NO_FINAL_STOP, Reason

_HALF_WIDTH = re.compile(r"[,.;:()]")
_MISSPELT = re.compile(r"(?<![A-Za-z])(?:pytorch|PYTORCH|torch|paddle|PADDLE)(?![A-Za-z])")
"""How the fixed wording's ``PyTorch`` and ``Paddle`` are misspelt (``PaddlePaddle`` is the
product's full name, and ``Pytorch`` the spelling the specification's own templates use:
neither is a misspelling)."""


@dataclass(frozen=True)
class Deviation:
    """One way the fixed wording departs from the specification, and the characters involved."""

    reason: Reason
    detail: str


def fixed_text(match: re.Match[str]) -> str:
    """The matched text outside the groups that capture a contributor's text."""
    groups = match.groupdict()
    spans = sorted(match.span(name) for name in SLOT_GROUPS if groups.get(name) is not None)
    parts: list[str] = []
    position = match.start()
    for start, end in spans:
        parts.append(match.string[position:start])
        position = max(position, end)
    parts.append(match.string[position : match.end()])
    return " ".join(parts)


def in_fixed_text(text: str, names: bool = True) -> list[Deviation]:
    """Half-width punctuation, misspelt names and look-alike characters in fixed wording.

    Category names write ``torch`` and ``paddle`` in lower case (``torch 参数更多``): for them
    ``names`` is false and spelling is not judged.
    """
    found: list[Deviation] = []
    half_width = sorted(set(_HALF_WIDTH.findall(text)))
    if half_width:
        found.append(Deviation(HALF_WIDTH, " ".join(f"`{char}`" for char in half_width)))
    misspelt = sorted(set(_MISSPELT.findall(text))) if names else []
    if misspelt:
        found.append(Deviation(MISSPELT, "、".join(f"`{word}`" for word in misspelt)))
    lookalike = lookalikes(text)
    if lookalike is not None:
        found.append(lookalike)
    return found


def lookalikes(text: str) -> Deviation | None:
    """The look-alike radicals in ``text`` (``⽆`` U+2F46 for ``无``), if any."""
    chars = sorted({char for char in text if char in LOOKALIKES})
    if not chars:
        return None
    shown = "、".join(f"`{char}` U+{ord(char):04X}（{LOOKALIKES[char]}）" for char in chars)
    return Deviation(LOOKALIKE, shown)


def in_match(match: re.Match[str]) -> list[Deviation]:
    """The deviations of a matched phrase; a sentence pattern also tells a missing ``。``."""
    found = in_fixed_text(fixed_text(match))
    if "note" in match.groupdict() and match.group("note") is None:
        found.insert(0, Deviation(NO_FINAL_STOP, ""))
    return found
