"""AM301: a non-canonical file is reported at its first differing line."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest
from workflow_helpers import CANONICAL_DIST

from apimap.checking.rules.registry import RECORD_RULES
from apimap.checking.runner import check_source
from apimap.files import loader
from apimap.files.canonical import first_difference

DIST = PurePosixPath("torch/torch.dist.yaml")


def _first_difference(text: str, relpath: PurePosixPath | None = DIST) -> int | None:
    doc, problems = loader.parse(text)
    assert doc is not None, problems
    return first_difference(text, doc.data, relpath)


def _swap_lines(text: str, first: int, second: int) -> str:
    lines = text.splitlines(keepends=True)
    lines[first - 1], lines[second - 1] = lines[second - 1], lines[first - 1]
    return "".join(lines)


def test_canonical_file_has_no_difference() -> None:
    assert _first_difference(CANONICAL_DIST) is None


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (_swap_lines(CANONICAL_DIST, 6, 7), 6),  # paddle_signature and category swapped
        (CANONICAL_DIST.replace("    desc: 范数的阶", '    desc: "范数的阶"'), 15),
        (CANONICAL_DIST.replace("  - torch: other", "  - torch:   other"), 11),
        (CANONICAL_DIST.replace("\n", "\r\n"), 1),
        (CANONICAL_DIST.rstrip("\n"), 20),
        (CANONICAL_DIST + "\n", 21),
        (CANONICAL_DIST.replace("category: names_differ\n", "category: names_differ\n\n"), 8),
        (CANONICAL_DIST.replace("../../schema", "../schema"), 1),
    ],
)
def test_first_differing_line(text: str, line: int) -> None:
    assert _first_difference(text) == line


def test_comments_in_the_body_are_canonical_when_placed_canonically() -> None:
    text = CANONICAL_DIST.replace("params:\n", "params:  # in signature order\n  # first row\n")
    assert _first_difference(text) is None
    misplaced = text.replace("params:  # in", "params:    # in")
    assert _first_difference(misplaced) == 8


def test_schema_line_is_only_checked_below_mappings() -> None:
    moved = CANONICAL_DIST.replace("../../schema", "../schema")
    assert _first_difference(moved, None) is None


def test_check_reports_am301_with_the_fmt_hint() -> None:
    text = _swap_lines(CANONICAL_DIST, 6, 7)
    style_rules = [rule for rule in RECORD_RULES if rule.code.startswith("AM3")]
    result = check_source("mappings/torch/torch.dist.yaml", text.encode(), style_rules, DIST)
    assert [(d.code, d.line, d.col) for d in result.diagnostics] == [("AM301", 6, 1)]
    diagnostic = result.diagnostics[0]
    assert "第 6 行" in diagnostic.message
    assert diagnostic.hint == "运行 apimap fmt mappings/torch/torch.dist.yaml (run apimap fmt)"
