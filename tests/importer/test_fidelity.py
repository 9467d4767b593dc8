"""Issue 18's classes of legacy pages, one fixture page each (``fixtures/fidelity/``).

Each page ``NAME.md`` comes with the record the import writes (``NAME.yaml``, carrying what the
import found in ``imported.findings``) and ``NAME.expect.txt``: the exact import report lines and
the exact ``apimap check`` diagnostics of the written record. Every diagnostic listed there is a
real violation of the page (or text the record cannot hold, a warning), never an artifact of the
import.

The pages, by class:

* importer artifacts (the page is fine, the record must be too): ``phrase_own_sentence`` (a phrase
  as its own sentence, a remark that is only the phrase), ``varargs_without_stars``,
  ``example_headings`` (``out 参数：``, a one-sided block; its bare ``# PyTorch`` labels are
  reported), ``example_labels`` (a condition written with the label or as a comment before
  it; labels that are free comments are reported and the comment kept),
  ``return_row`` (a return row without a phrase says how the results differ: its ``diff``;
  the missing action is AM216's), ``member_to_function``, ``self_param_row`` (a row for the paddle parameter that receives the
  tensor, which the specification says to leave out), ``return_label``, ``signature_overloads``, ``optional_vs_required``;
* rules that were too strict: ``return_label`` (one row, two paddle parameters), ``third_party``,
  ``attribute_page``, ``enum_class`` (an enumeration class named without a signature, its
  members in the table), ``real_name_param``, ``equal_defaults`` and ``contradictory_defaults``
  (defaults compared as values), ``absent_default`` (无默认值), ``conditional_remark``,
  ``wrong_category`` (the cause reported once);
* phrases worded loosely (read, taken out of the meaning, the variant reported as IM202):
  ``loose_phrases`` (可直接删除 without its lead-in or without Paddle 无此参数, 没有此参数,
  a phrase after the meaning without a comma, 保持默认即可 alone or as the setting; half-width
  punctuation around a phrase is IM302),
  ``loose_defaults`` (the older guide's 参数默认值不一致 wording is read
  silently; 仅参数名不同 and 默认值不同 are variants);
* ``composite_summary``: the 组合替代实现 template's description and formula are one summary
  (no IM203); its lead sentence worded otherwise is reported (IM206); ``composite_block``: code
  with side labels under the API heading is the example, not signatures (its missing 转写示例
  heading is reported);
* several sections: ``overload_sections`` (a page that documents the API's overloads one section
  each: their signatures are overloads, their rows one table; the intro line is no name and is
  reported), ``other_api_section`` (a later section for another paddle API is kept aside as
  one loss, IM112);
* sections: ``example_section_missing`` (examples without their 转写示例 heading, reported once;
  a condition line without its colon; a remark after the code kept as a note; a section the
  layout does not have, reported once with all it holds), ``example_section_misspelt``
  (转写实例 read as 转写示例 and reported), ``example_unnamed`` (a heading that names no
  parameter, on a page with one rewritten row whose parameter the code passes: that row's
  example, IM111; ``out 结果…`` without the colon names it);
* nothing silently fixed: ``difference_without_phrase`` (a remark that says how usage differs,
  with words of a difference or side by side, but has no phrase), ``empty_link`` (an API
  heading that links nowhere), ``missing_final_stop``,
  ``phrase_spelling``, ``font_tags`` (a tag around a name is reported, but the older guide's
  ``<font color='red'>`` highlighting goes silently), ``prose_in_code`` (a line of prose is taken out of the code; a line of code with a
  full-width comma stays code, and AM232 reports it), ``legacy_category``,
  ``contradictory_defaults``, ``extra_section``, ``unclosed_fence``, ``deletable``.

Left out of the check lines are the three errors every freshly imported record has whatever its
page says, because a legacy page cannot carry them: AM220 (no ``calls``), AM701 (not verified)
and AM702 (``zh_name: TODO``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from import_support import FIXTURES

from apimap.checking.rules.registry import RECORD_RULES
from apimap.checking.runner import check_source
from apimap.publish.importer.findings import with_findings
from apimap.publish.importer.page import read_page
from apimap.publish.importer.report import summary
from apimap.publish.importer.run import run_import
from apimap.publish.importer.writer import record_text
from apimap.record.paths import record_path

PAGES = FIXTURES / "fidelity"
OWED_BY_EVERY_IMPORT = frozenset({"AM220", "AM701", "AM702"})


def outcome(page: Path) -> tuple[str | None, list[str]]:
    """The written record's text and the report: import lines, then check lines."""
    result = read_page(page.read_text(encoding="utf-8"))
    lines = ["import:"]
    lines += [
        f"{page.name}:{p.line}: {p.code} {p.severity}: {p.message()}" for p in result.problems
    ]
    lines.append("check:")
    if result.record is None:
        return None, lines
    text = record_text(with_findings(result.record, page.name, result.problems))
    relpath = record_path(result.record.torch_api)
    path = f"mappings/{relpath}"
    checked = check_source(path, text.encode("utf-8"), RECORD_RULES, relpath=relpath)
    lines += [
        f"{d.path}:{d.line}: {d.code} {d.severity}: {d.message}"
        for d in checked.diagnostics
        if d.code not in OWED_BY_EVERY_IMPORT
    ]
    return text, lines


@pytest.mark.parametrize("name", sorted(p.stem for p in PAGES.glob("*.md")))
def test_fidelity_page_gives_the_expected_record_and_diagnostics(name: str) -> None:
    page = PAGES / f"{name}.md"
    text, lines = outcome(page)
    expected = (PAGES / f"{name}.expect.txt").read_text(encoding="utf-8").splitlines()
    assert lines == expected
    record = PAGES / f"{name}.yaml"
    assert text == (record.read_text(encoding="utf-8") if record.exists() else None)


def test_the_import_summary_counts_every_finding_of_the_pages(tmp_path: Path) -> None:
    result = run_import([PAGES], tmp_path / "mappings")
    counts = summary(result)
    pages = sorted(PAGES.glob("*.md"))
    assert counts["pages"]["failed"] == 0
    assert counts["written"] == len(pages)
    expected: Counter[str] = Counter()
    for page in pages:
        lines = (PAGES / f"{page.stem}.expect.txt").read_text(encoding="utf-8").splitlines()
        reported = lines[1 : lines.index("check:")]
        expected.update(line.split(": ", 1)[1].split()[0] for line in reported)
    assert counts["reasons"] == dict(sorted(expected.items()))
