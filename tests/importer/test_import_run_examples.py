"""``apimap import --run``: what running a page's signatures and examples finds, at the page's
lines (``fixtures/running/``, pages of our own writing; needs torch and paddle).

* ``bare_module``: one side writes ``nn.`` without the import the other side does without
  (IM401); both sides writing ``nn.`` is the shorthand of an import each has (not reported);
* ``call_misfit``: examples with inputs they never define cannot run, their calls are checked
  against the libraries' signatures: keyword-only ``beta``/``alpha`` passed by position, a
  misspelt keyword (IM401 each, at the call's line);
* ``results_differ``: the documented paddle signature swaps ``dim`` and ``dtype`` (IM403); it
  leaves out ``out``, which a later paddle release added with a default, and ``name``, which
  the specification lets pages leave out (neither reported); a self-contained example whose
  sides give different results (IM402); one that needs a GPU is not the page's fault, and one
  whose inputs differ while its results agree is not wrong (only what the page's API computes
  is compared; neither reported).
"""

from __future__ import annotations

from pathlib import Path

from import_support import FIXTURES

from apimap.publish.importer.run import run_import

PAGES = FIXTURES / "running"
EXPECTED = [
    ("bare_module.md", 30, "IM401"),
    ("call_misfit.md", 34, "IM401"),
    ("call_misfit.md", 37, "IM401"),
    ("results_differ.md", 12, "IM403"),
    ("results_differ.md", 32, "IM402"),
]


def test_running_the_pages_reports_what_fails_at_the_pages_lines(tmp_path: Path) -> None:
    result = run_import([PAGES], tmp_path / "mappings", execute=True)
    found = sorted(
        (Path(unit.source).name, problem.line, problem.code)
        for unit in result.units
        for problem in unit.problems
        if problem.code.startswith("IM4")
    )
    assert found == EXPECTED
    written = sorted(p.name for p in (tmp_path / "mappings").rglob("*.yaml"))
    assert len(written) == 3, written


def test_without_run_nothing_is_executed(tmp_path: Path) -> None:
    result = run_import([PAGES], tmp_path / "mappings")
    assert not [p for unit in result.units for p in unit.problems if p.code.startswith("IM4")]


def test_the_analysis_finds_free_names_and_library_calls() -> None:
    from apimap.publish.importer.execute import analyse

    code = analyse(
        "import torch.nn as tnn\n"
        "m = tnn.Linear(2, 3)\n"
        "y = torch.addmm(input, a, b, 0.5, *rest, out=z)\n"
        "n = input('x')\n",
        "torch",
    )
    assert sorted(code.free) == ["a", "b", "input", "rest", "z"]
    assert [(c["callee"], c["positional"], c["keywords"], c["star"]) for c in code.calls] == [
        ("torch.nn.Linear", 2, [], False),
        ("torch.addmm", 4, ["out"], True),
    ]
