"""Property-based tests (hypothesis) of the pieces every command stands on.

Each property holds for any input: the loader never raises and places every
problem inside the file; any data the emitter writes loads back to itself;
escaped record text never becomes live Markdown; the code parser and the
example-code analysis only ever report. Runs are derandomized, so CI sees the
same examples every time; ``APIMAP_FUZZ_SCALE`` changes how many.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from fuzz_support import COUNTS, table_problems
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apimap.checking.rules.example_code import Piece, issues
from apimap.files import loader
from apimap.files.canonical import format_text
from apimap.files.emit import render
from apimap.files.migrate import is_format_one, migrate
from apimap.files.yamlcomments import Comments
from apimap.publish.site.markdown import cell, code, inline
from apimap.record import pycode
from hostile import markdown_problems

SCALE = float(os.environ.get("APIMAP_FUZZ_SCALE", "1"))
FUZZ = settings(
    max_examples=max(10, int(300 * SCALE)),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

NASTY_TEXT = st.text(
    st.one_of(
        st.characters(codec="utf-8", exclude_categories=["Cs"]),
        st.sampled_from(list("`*_[]{}<>|&#$~\\-+=%.():!\n\r\t\x00\x85\u2028\u202e'\"")),
    ),
    max_size=80,
)
"""Text of any Unicode character, with Markdown, YAML and line-break characters often."""

YAML_KEY = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
DATA = st.recursive(
    st.one_of(st.none(), st.booleans(), NASTY_TEXT),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(YAML_KEY, children, max_size=4)
    ),
    max_leaves=20,
)

PYTHONISH = st.lists(
    st.sampled_from(
        [
            "x",
            "torch",
            "paddle",
            "np",
            "os",
            "open",
            "getattr",
            "eval",
            "import ",
            "from ",
            "tempfile",
            "pathlib",
            ".",
            ",",
            "(",
            ")",
            "[",
            "]",
            " = ",
            "\n",
            "    ",
            "'a'",
            "'/'",
            "'..'",
            "__class__",
            "_os",
            "path",
            "join",
            "mkdtemp",
            "Path",
            "/",
            " + ",
            "with ",
            " as ",
            ":",
            "for ",
            " in ",
            "def f",
            "lambda: ",
            "1",
        ]
    ),
    max_size=40,
).map("".join)
"""Token soup: mostly invalid Python, sometimes the shapes the example-code rules look for."""


def _located(line: int, col: int, raw: bytes) -> bool:
    lines = raw.removeprefix(b"\xef\xbb\xbf").split(b"\n")
    return 1 <= line <= len(lines) and 1 <= col <= len(lines[line - 1]) + 1


@FUZZ
@given(st.one_of(st.binary(max_size=300), NASTY_TEXT.map(lambda t: t.encode("utf-8"))))
def test_the_loader_reports_and_places_every_problem_in_the_file(raw: bytes) -> None:
    COUNTS["hypothesis"] += 1
    _doc, problems = loader.load(raw)
    for problem in problems:
        assert _located(problem.line, problem.col, raw), (problem, raw)


@FUZZ
@given(st.dictionaries(YAML_KEY, DATA, min_size=1, max_size=6))
def test_any_data_the_emitter_writes_loads_back_to_itself(data: dict[str, Any]) -> None:
    COUNTS["hypothesis"] += 1
    text = render(data, Comments())
    doc, problems = loader.load(text.encode("utf-8"))
    assert problems == [] and doc is not None, text
    assert doc.data == data, text
    migrated = migrate(data) if is_format_one(data) else data
    assert format_text(text, None) == render(migrated, Comments())


@FUZZ
@given(NASTY_TEXT)
def test_escaped_text_is_never_live_markdown(text: str) -> None:
    COUNTS["hypothesis"] += 1
    paragraph = inline(text)
    assert "\n" not in paragraph and "\r" not in paragraph
    assert markdown_problems(f"a\n\n{paragraph}\n\nb\n") == []
    row = f"| h | i |\n| - | - |\n| {cell(text)} | {code(text, in_table=True)} |\n"
    assert markdown_problems(row) == []
    assert table_problems(row) == []


@FUZZ
@given(st.one_of(NASTY_TEXT, PYTHONISH))
def test_code_is_parsed_or_refused_and_analysed_without_raising(source: str) -> None:
    COUNTS["hypothesis"] += 1
    with contextlib.suppress(SyntaxError):
        pycode.parse(source)
    for expression in (False, True):
        for issue in issues(Piece(("code",), source, expression=expression)):
            assert issue.line >= 1 and issue.col >= 1
