"""Differential probes: variations of a record's calls that find differences nobody thought of.

From each call, and without anything written for it, verify also runs:

* ``positional``: every argument torch accepts by position passed by position,
  the paddle side changed the way a person migrating by hand changes it (API
  name only, keywords renamed);
* ``dtype:<d>``: every floating input cast to each of :data:`DTYPES`;
* ``scalar:<param>`` / ``int_scalar:<param>``: a Python float or int in place of a
  tensor argument;
* ``int_mix``: integer inputs of mixed widths (int32 with int64);
* ``unbatched`` (layers): the inputs without their batch dimension;
* ``empty`` and ``zero_dim`` (functions and methods): an empty and a 0-d input.

A probe that torch rejects tells nothing. A probe torch accepts and paddle
rejects, or where the results' dtype or values differ, is a difference the
record must acknowledge: a row (``type_diff``/``usage_diff`` for the parameter,
``usage_diff`` for the positional order), a note listing the probe, or an
``accepted`` entry with a reason.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from apimap.record import derived
from apimap.record.categories import ApiType, RowKind
from apimap.record.model import Record

DTYPES = (
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int32",
    "int64",
    "uint8",
    "bool",
    "complex64",
)


@dataclass(frozen=True)
class ProbeKind:
    """One probe: its id and how the worker changes the inputs."""

    id: str
    transform: dict[str, object]


def input_probes(record: Record, arrays: int, random: bool) -> list[ProbeKind]:
    """The probes that change only the inputs (the code stays the call's own); a call with
    random results gets no empty or 0-d probe, whose statistic would be noise."""
    if arrays == 0:
        return []
    found = [ProbeKind(f"dtype:{dtype}", {"dtype": dtype}) for dtype in DTYPES]
    if arrays >= 2:
        found.append(ProbeKind("int_mix", {"int_mix": True}))
    if record.api_type is ApiType.CLASS:
        found.append(ProbeKind("unbatched", {"shape": "unbatched"}))
    elif record.api_type in {ApiType.FUNCTION, ApiType.METHOD} and not random:
        found += [
            ProbeKind("empty", {"shape": "empty"}),
            ProbeKind("zero_dim", {"shape": "zero_dim"}),
        ]
    return found


def array_inputs(inputs: dict[str, str]) -> set[str]:
    """Inputs that are NumPy arrays (their expression uses ``np``)."""
    return {name for name, expression in inputs.items() if "np." in expression}


def _matches(pattern: str, probe: str) -> bool:
    return pattern == probe or ("*" in pattern and fnmatch.fnmatchcase(probe, pattern))


_ROW_KINDS = {RowKind.TYPE_DIFF, RowKind.USAGE_DIFF}


def acknowledgement(record: Record, probe: str) -> str | None:
    """Where the record explains a difference found by ``probe``: ``notes[i]``,
    ``accepted[i]`` or ``params[i]``; ``None`` when it does not."""
    for index, note in enumerate(record.notes):
        if any(_matches(pattern, probe) for pattern in note.probes):
            return f"notes[{index}]"
    for index, accepted in enumerate(record.accepted):
        if _matches(accepted.probe, probe):
            return f"accepted[{index}]"
    kind, _, param = probe.partition(":")
    for index, row in enumerate(record.params):
        row_kind = derived.row_kind(row)
        if row_kind not in _ROW_KINDS:
            continue
        if kind in {"scalar", "int_scalar"} and param in derived.torch_names(row):
            return f"params[{index}]"
        if kind == "positional" and row_kind is RowKind.USAGE_DIFF:
            return f"params[{index}]"
    return None


def stale_acknowledgements(record: Record, differing: set[str]) -> list[tuple[str, int, str]]:
    """``(field, index, pattern)`` of notes and accepted entries whose probe found nothing."""
    stale: list[tuple[str, int, str]] = []
    for index, note in enumerate(record.notes):
        for pattern in note.probes:
            if not any(_matches(pattern, probe) for probe in differing):
                stale.append(("notes", index, pattern))
    for index, accepted in enumerate(record.accepted):
        if not any(_matches(accepted.probe, probe) for probe in differing):
            stale.append(("accepted", index, accepted.probe))
    return stale
