"""Differential probes: variations of a record's code that find differences nobody thought of.

From each call, and without anything written for it, verify also runs these
families (the probe id names the family before ``:``):

* inputs (:mod:`apimap.verify.transforms` changes them in the worker):
  ``dtype:<d>`` every floating input cast to each of :data:`DTYPES`;
  ``int:<d>`` every integer input cast to each integer dtype;
  ``int_mix`` integer inputs of mixed widths; ``edge:<e>`` values at the edges
  of the dtype (NaN, ±inf, -0.0, zeros, magnitudes whose squares overflow or
  underflow, negative values, an all-False mask); ``broadcast`` operands shaped
  like the first one reduced to one row; ``unbatched`` (layers), ``empty`` and
  ``zero_dim`` (functions and methods);
* parameters (the code is rewritten in the parent, :mod:`apimap.calls`):
  ``positional`` every argument torch accepts by position passed by position;
  ``positional:<p>`` the parameters up to ``p`` passed by position, ``p`` with a
  value other than its default (a parameter that comes at another position in
  paddle then lands on the wrong parameter); ``flag:<p>`` a boolean
  flipped, ``value:<p>`` a number other than the default, ``mode:<p>=<v>`` each
  documented value of a mode parameter; ``scalar:<p>`` / ``int_scalar:<p>`` a
  Python float or int in place of a tensor argument;
* layers (class APIs): ``eval`` the layers in eval mode; ``state_dict`` the
  names, shapes and trainability of what a checkpoint holds; ``init`` the
  statistics of the freshly initialised weights.

The hand-written recipes (the examples of composite and context_change records)
get the input families too.

A probe that torch rejects tells nothing, nor one that changes nothing. A
probe torch accepts and paddle rejects, or where the results' dtype or values
differ, is a difference the record must acknowledge: a row (``type_diff`` /
``usage_diff`` for the parameter, ``usage_diff`` for the positional order), a
note listing the probe, or an ``accepted`` entry with a reason.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, replace
from typing import Any

from apimap.record import derived
from apimap.record.categories import ApiType, Category, RowKind
from apimap.record.model import Record
from apimap.verify.transforms import EDGES, INTEGER_DTYPES
from apimap.verify.values import Tolerance

DTYPES = (
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "bool",
    "complex64",
)

RECIPE_CATEGORIES = frozenset({Category.COMPOSITE, Category.CONTEXT_CHANGE})
"""Records whose examples are the mapping itself (both sides written by hand)."""


@dataclass(frozen=True)
class ProbeKind:
    """One probe: its id and how the worker changes the run."""

    id: str
    transform: dict[str, Any]


SCALE_FREE = frozenset({"edge:large", "edge:small"})
"""Probes whose values are far from 1: results agree within ``rtol`` :data:`EDGE_RTOL` of
the result's own size, not within a fixed ``atol``, which would hide every tiny value."""
EDGE_RTOL = 1e-3


def tolerance_for(probe: str, tolerance: Tolerance) -> Tolerance:
    """The tolerance a probe's results are compared with: an edge probe counts NaN and
    infinities as one broken value, and the scale-free ones compare relative to size."""
    if not probe.startswith("edge:"):
        return tolerance
    scaled = probe in SCALE_FREE
    rtol = max(tolerance.rtol, EDGE_RTOL) if scaled else tolerance.rtol
    return replace(tolerance, rtol=rtol, broken_equal=True, scaled=scaled)


def input_probes(
    arrays: int, shapes: str | None, random: bool, values: bool = True
) -> list[ProbeKind]:
    """The probes that change only the inputs (the code stays the run's own).

    ``shapes`` is ``unbatched`` for a layer's call, ``plain`` where empty and 0-d inputs
    make sense (functions, methods, recipes), ``None`` otherwise; a run with random
    results gets no empty or 0-d probe, whose statistic would be noise. A run that compares
    no values (``values`` false: every result by shape only, such as a whole model's
    output) gets no probe whose only effect is on values (integer inputs, edge values,
    broadcasting of equal shapes)."""
    if arrays == 0:
        return []
    found = [ProbeKind(f"dtype:{dtype}", {"dtype": dtype}) for dtype in DTYPES]
    if values:
        found += [ProbeKind(f"int:{dtype}", {"int_dtype": dtype}) for dtype in INTEGER_DTYPES]
    if arrays >= 2:
        found.append(ProbeKind("int_mix", {"int_mix": True}))
        if values:
            found.append(ProbeKind("broadcast", {"broadcast": True}))
    if values:
        found += [ProbeKind(f"edge:{edge}", {"edge": edge}) for edge in EDGES]
    if shapes == "unbatched":
        found.append(ProbeKind("unbatched", {"shape": "unbatched"}))
    elif shapes == "plain" and not random:
        found += [
            ProbeKind("empty", {"shape": "empty"}),
            ProbeKind("zero_dim", {"shape": "zero_dim"}),
        ]
    return found


def call_shapes(record: Record) -> str | None:
    """Which shape probes a call of the record gets."""
    if record.api_type is ApiType.CLASS:
        return "unbatched"
    if record.api_type in {ApiType.FUNCTION, ApiType.METHOD}:
        return "plain"
    return None


MODULE_PROBES = (
    ProbeKind("eval", {"module": "eval"}),
    ProbeKind("state_dict", {"module": "state"}),
    ProbeKind("init", {"module": "init"}),
)
"""The probes of the layers a class API builds."""
REPORT_OUTPUTS = {"state": "state_dict", "init": "init"}
"""Module probe -> the one result it compares (its report)."""


def array_inputs(inputs: dict[str, str]) -> set[str]:
    """Inputs that are NumPy arrays (their expression uses ``np``)."""
    return {name for name, expression in inputs.items() if "np." in expression}


def _matches(pattern: str, probe: str) -> bool:
    return pattern == probe or ("*" in pattern and fnmatch.fnmatchcase(probe, pattern))


_ROW_KINDS = {RowKind.TYPE_DIFF, RowKind.USAGE_DIFF}
_PARAMETER_FAMILIES = {"scalar", "int_scalar", "flag", "value", "mode", "positional"}
"""Families that vary one parameter: a type_diff or usage_diff row for it explains them."""


def probe_parameter(probe: str) -> str | None:
    """The torch parameter a probe varies: ``flag:keepdim`` -> ``keepdim``,
    ``mode:reduction=sum`` -> ``reduction``."""
    family, _, argument = probe.partition(":")
    if family not in _PARAMETER_FAMILIES:
        return None
    return argument.partition("=")[0]


def acknowledgement(record: Record, probe: str) -> str | None:
    """Where the record explains a difference found by ``probe``: ``notes[i]``,
    ``accepted[i]`` or ``params[i]``; ``None`` when it does not."""
    for index, note in enumerate(record.notes):
        if any(_matches(pattern, probe) for pattern in note.probes):
            return f"notes[{index}]"
    for index, accepted in enumerate(record.accepted):
        if _matches(accepted.probe, probe):
            return f"accepted[{index}]"
    parameter = probe_parameter(probe)
    for index, row in enumerate(record.params):
        row_kind = derived.row_kind(row)
        if row_kind not in _ROW_KINDS:
            continue
        if parameter is not None and parameter in derived.torch_names(row):
            return f"params[{index}]"
        if probe == "positional" and row_kind is RowKind.USAGE_DIFF:
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
