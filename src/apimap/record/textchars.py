"""Characters that untrusted text may not carry raw into a record file or onto a terminal line.

The loader refuses them in a file, the emitter writes them as escapes, and
every line of output that quotes record text shows them as escapes, so that a
key holding a newline or a name holding a bidirectional override can neither
break the one-diagnostic-per-line output nor disguise what it says.
"""

from __future__ import annotations

import re

REFUSED_CHARACTERS = "\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
"""A regular-expression class: C0 and C1 control characters (U+0085 among them), the line and
paragraph separators, and the bidirectional overrides and isolates."""

_NOT_IN_A_LINE = re.compile(f"[\x00\n\r\t{REFUSED_CHARACTERS}]")
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _SHORT.get(char) or f"\\u{ord(char):04x}"


def one_line(text: str) -> str:
    """``text`` on one line, with breaks, control and bidirectional characters as escapes."""
    return _NOT_IN_A_LINE.sub(_escape, text)
