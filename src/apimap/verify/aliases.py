"""Torch-style parameter aliases that Paddle 3.x accepts.

Paddle documents them only in docstrings, in three forms::

    Alias Support: The parameter name ``input`` can be used as an alias for ``x``.
    x (Tensor): The input Tensor. Alias: ``input``.       (inside ``Args:``)
    input: An alias for ``x`` , with identical behavior.  (inside ``Args:``)

An alias the docstring does not mention is accepted only if a call proves it:
a made-up keyword is rejected as unexpected while the alias is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_SENTENCE = re.compile(r"``(\w+)``\s+can be used as an alias for\s+``(\w+)``", re.IGNORECASE)
_SECTION = re.compile(r"^(\s*)(Args|Arguments|Parameters)\s*:\s*$")
_ENTRY = re.compile(r"^(\w+)\s*(\([^)]*\))?\s*:(.*)$")
_ALIAS_LIST = re.compile(r"(?:^|[.;]\s*)alias\s*:\s*(.*)", re.IGNORECASE)
"""``Alias: ``input``.`` starting the line or a sentence (not ``... an alias: ...``)."""
_ALIAS_FOR = re.compile(r"^\s*(?:an\s+)?alias\s+(?:for|of)\s+``(\w+)``", re.IGNORECASE)
_TICKED = re.compile(r"``(\w+)``")

PROBE_KEYWORD = "apimap_probe_keyword"


def documented_aliases(doc: str | None) -> dict[str, str]:
    """Alias -> parameter, as the docstring states them."""
    if not doc:
        return {}
    found: dict[str, str] = {}
    for alias, target in _SENTENCE.findall(doc):
        found.setdefault(alias, target)
    for alias, target in _args_section_aliases(doc.splitlines()):
        found.setdefault(alias, target)
    return found


def _args_section_aliases(lines: list[str]) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    section_indent: int | None = None
    entry_indent: int | None = None
    entry: str | None = None
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        heading = _SECTION.match(line)
        if heading:
            section_indent, entry_indent, entry = len(heading.group(1)), None, None
            continue
        if section_indent is None or not stripped:
            continue
        if indent <= section_indent:
            section_indent = None
            continue
        if entry_indent is None:
            entry_indent = indent
        text = stripped
        if indent == entry_indent:
            match = _ENTRY.match(stripped)
            entry = match.group(1) if match else None
            text = match.group(3) if match else stripped
            alias_for = _ALIAS_FOR.match(text)
            if entry is not None and alias_for:
                pairs.append((entry, alias_for.group(1)))
                entry = None
                continue
        listed = _ALIAS_LIST.search(text)
        if entry is not None and listed:
            pairs += [(alias, entry) for alias in _TICKED.findall(listed.group(1))]
    return pairs


def _call_error(function: Callable[..., Any], kwargs: dict[str, Any]) -> str | None:
    try:
        function(**kwargs)
    except BaseException as exc:  # any failure is information, even SystemExit
        return f"{type(exc).__name__}: {exc}"
    return None


class Probe:
    """A value no API accepts, so that a call stops early."""

    def __repr__(self) -> str:
        return "<apimap probe>"


def call_accepts(
    function: Callable[..., Any],
    keyword: str,
    target: str,
    required: list[str],
    values: list[Any],
) -> bool | None:
    """Whether ``keyword`` binds in place of ``target``; ``None`` if no call tells.

    Each call passes ``value`` for every other required parameter. For each value
    in turn, the alias is accepted when its call succeeds while the same call
    with a made-up keyword fails, or when only the made-up keyword is rejected as
    unexpected; it is refused when the call names it as unexpected. Paddle's C operators
    name neither keyword: there the alias is accepted when the control call complains that
    ``target`` is missing (``argument 'x' ... but got None``) and the alias call does not.
    """
    for value in values:
        others = {name: value for name in required if name != target}
        control = _call_error(function, {**others, PROBE_KEYWORD: value})
        if control is None:
            return None  # unknown keywords are ignored: no call can tell
        probe = _call_error(function, {**others, keyword: value})
        if probe is None:
            return True
        if "unexpected keyword" in probe and f"'{keyword}'" in probe:
            return False
        if "unexpected keyword" in control and PROBE_KEYWORD in control:
            return True
        if _missing(control, target) and not _missing(probe, target):
            return True  # paddle's C operators: the value reached the parameter
    return None


def _missing(error: str, target: str) -> bool:
    """A C operator's complaint that ``target`` was not given (it sees None)."""
    return f"'{target}'" in error and "but got None" in error
