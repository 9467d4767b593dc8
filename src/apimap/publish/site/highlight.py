"""Python code highlighted in the markup and classes Pygments gives it, several times faster.

The site shows about ten thousand code blocks (signatures, rewrite examples, notes); Pygments'
Python lexer is a state machine of regular expressions and took most of a build. This scanner
reads Python with one regular expression whose alternatives cover every character, so any text
(a signature, a fragment, hostile code) comes out whole and escaped, and gives each token the
CSS class Pygments' Python lexer gives it (``k`` keyword, ``nb`` builtin, ``n`` name, ``nn``
module, ``o`` operator, ``p`` punctuation, ``mi``/``mf`` numbers, ``s1``/``s2`` strings, ``c1``
comments …; runs of operators or of punctuation form one token, as there), so
the theme's Pygments style colours it alike. Other languages (the rules page's YAML) still go
through Pygments.
"""

from __future__ import annotations

import builtins
import keyword
import re
from html import escape

_TOKEN = re.compile(
    r"""
    (?P<comment>\#[^\n]*)
  | (?P<string>(?:[rRbBuUfF]{1,2})?(?:'''[\s\S]*?(?:'''|\Z)|\"\"\"[\s\S]*?(?:\"\"\"|\Z)
        |'(?:\\.|[^'\\\n])*(?:'|(?=\n)|\Z)|"(?:\\.|[^"\\\n])*(?:"|(?=\n)|\Z)))
  | (?P<number>(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+
        |(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?[jJ]?))
  | (?P<module>(?<=import\ )[A-Za-z_][\w.]*|(?<=from\ )[A-Za-z_][\w.]*)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<decorator>(?<![\w)\]])@[A-Za-z_][\w.]*)
  | (?P<op>[-+*/%&|^~<>!=@.]+|:=)
  | (?P<punct>[()\[\]{},:;]+)
  | (?P<space>\s+)
  | (?P<other>.)
    """,
    re.VERBOSE,
)
_CONSTANTS = frozenset({"True", "False", "None"})
_WORD_OPERATORS = frozenset({"and", "or", "not", "in", "is"})
_NAMESPACE_KEYWORDS = frozenset({"import", "from"})
_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_")) - _CONSTANTS
_PSEUDO = frozenset({"self", "cls"})


def _number_class(text: str) -> str:
    if text[:2].lower() in ("0x", "0b", "0o"):
        return {"0x": "mh", "0b": "mb", "0o": "mo"}[text[:2].lower()]
    return (
        "mf"
        if any(mark in text for mark in ".eEjJ") and not text.lower().startswith("0x")
        else "mi"
    )


def _string_class(body: str) -> str:
    return "s2" if body.startswith('"') else "s1"


_CLASSES = {"comment": "c1", "decorator": "nd", "module": "nn", "op": "o", "punct": "p"}
_KEYWORDS = frozenset(keyword.kwlist) - _CONSTANTS - _WORD_OPERATORS - _NAMESPACE_KEYWORDS


def _name_class(text: str, previous: str, after_dot: bool) -> str:
    if text in _KEYWORDS:
        return "k"
    if text in _CONSTANTS:
        return "kc"
    if text in _WORD_OPERATORS:
        return "ow"
    if text in _NAMESPACE_KEYWORDS:
        return "kn"
    if previous == "def":
        return "nf"
    if previous == "class":
        return "nc"
    if text in _PSEUDO:
        return "bp"
    if text in _BUILTINS and not after_dot:
        return "nb"
    return "n"


def _tokens(source: str) -> list[tuple[str, str]]:
    """``(css class, text)`` for every token of ``source``; ``""`` for plain text."""
    found: list[tuple[str, str]] = []
    previous = ""
    last = ""
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup
        text = match.group()
        if kind == "name":
            css = _name_class(text, previous, last == ".")
            previous = text
        elif kind == "space":
            found.append(("", text))
            continue
        elif kind == "string":
            prefix = len(text) - len(text.lstrip("rRbBuUfF"))
            if prefix:
                found.append(("sa", text[:prefix]))
            css, text = _string_class(text[prefix:]), text[prefix:]
            previous = ""
        elif kind == "number":
            css = _number_class(text)
            previous = ""
        else:
            css = _CLASSES.get(kind or "", "")
            previous = ""
        found.append((css, text))
        last = text
    return found


def python_html(source: str) -> str:
    """``source`` as Pygments' HtmlFormatter writes it: ``<div class="highlight"><pre>…``."""
    parts = ['<div class="highlight"><pre><span></span>']
    for css, text in _tokens(source):
        if "&" in text or "<" in text or ">" in text:
            text = escape(text, quote=False)
        parts.append(f'<span class="{css}">{text}</span>' if css else text)
    parts.append("</pre></div>\n")
    return "".join(parts)
