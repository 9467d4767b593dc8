"""``apimap import`` end to end: pages and tables in, record files and a report out."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path, PurePosixPath

import pytest
from import_support import FIXTURES

from apimap.checking.rules.registry import RECORD_RULES
from apimap.checking.runner import check_source
from apimap.cli import main
from apimap.files import loader
from apimap.files.validate import validate
from apimap.publish.importer.problems import Problem
from apimap.publish.importer.record_data import record_fields
from apimap.publish.importer.report import summary, write_text
from apimap.publish.importer.run import ImportResult, Kind, Outcome, Unit, run_import
from apimap.record import derived
from apimap.record.categories import Category, Section
from apimap.record.import_codes import INVALID
from apimap.record.model import Record
from apimap.record.paths import record_path

SPEC = FIXTURES / "spec"
TABLES = FIXTURES / "tables"
PAGES = FIXTURES / "pages"


def _record(path: Path) -> Record:
    doc, problems = loader.parse(path.read_text(encoding="utf-8"))
    assert doc is not None, problems
    record = validate(doc)[0]
    assert record is not None
    return record


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_pages_and_tables_are_merged_into_records(tmp_path: Path) -> None:
    out = tmp_path / "mappings"
    result = run_import([SPEC, TABLES], out)
    rows = [
        (u.outcome, [(p.line, p.code) for p in u.problems])
        for u in result.units
        if u.kind is Kind.ROW
    ]
    assert sorted(rows) == sorted(
        [
            (Outcome.MERGED, []),  # torch.dist
            (Outcome.FAILED, [(10, "IM020")]),  # torch.numel: "功能一致" names no category
            (Outcome.MERGED, []),  # torch.addcmul
            (Outcome.MERGED, []),  # torch.nn.ZeroPad2d
            (Outcome.MERGED, []),  # torch.nn.Softplus
            (Outcome.IMPORTED, []),  # torch.nn.Softsign has no page
            (Outcome.MERGED, []),  # torch.transpose
            (Outcome.MERGED, []),  # torch.swapaxes, alias of torch.transpose
            (Outcome.MERGED, [(29, "IM204")]),  # torch.clamp: the table names paddle.clamp
            (Outcome.FAILED, [(30, "IM021")]),  # torch.cosh: its page is not imported
            (Outcome.FAILED, [(31, "IM022")]),  # torch.concat: alias of torch.cat, no record
            (Outcome.IMPORTED, []),  # torch.nn.utils.rnn.pack_padded_sequence
            (Outcome.IMPORTED, []),  # torch.nn.utils.rnn.pad_packed_sequence (bullet)
        ]
    )
    transpose = _record(out / record_path("torch.transpose"))
    assert (derived.section(transpose), transpose.torch_aliases) == (
        Section.BASIC,
        ["torch.swapaxes"],
    )
    assert derived.section(_record(out / record_path("torch.nn.ZeroPad2d"))) is Section.NETWORK
    assert _record(out / record_path("torch.clamp")).paddle_api == "paddle.clip"
    softsign = _record(out / record_path("torch.nn.Softsign"))
    assert (softsign.category, softsign.paddle_api, derived.section(softsign)) == (
        Category.NO_PARAMS,
        "paddle.nn.Softsign",
        Section.NETWORK,
    )
    missing = _record(out / record_path("torch.nn.utils.rnn.pad_packed_sequence"))
    assert missing.missing is not None
    assert (missing.category, missing.missing.reason, missing.missing.detail) == (
        Category.MISSING,
        None,
        "Paddle 没有 PackedSequence 这种压缩序列类型。",
    )
    assert summary(result)["written"] == 15


def test_written_records_are_canonical_and_load_back(tmp_path: Path) -> None:
    out = tmp_path / "mappings"
    result = run_import([SPEC, PAGES], out)
    for unit in result.units:
        if unit.written is None:
            continue
        raw = unit.written.read_bytes()
        assert raw.decode().startswith("# yaml-language-server: $schema=")
        assert unit.record is not None
        assert _record(unit.written) == Record.model_validate(record_fields(unit.record))
        relpath = PurePosixPath(unit.written.relative_to(out).as_posix())
        checked = check_source(str(unit.written), raw, RECORD_RULES, relpath=relpath)
        codes = {diagnostic.code for diagnostic in checked.diagnostics}
        assert not codes & {"AM250", "AM255", "AM301"}, relpath


def test_the_record_carries_what_the_import_found_until_cleared(tmp_path: Path) -> None:
    out = tmp_path / "mappings"
    run_import([PAGES / "prose_in_code.md"], out)
    record = _record(out / record_path("torch.nn.functional.elu"))
    assert record.imported is not None
    assert record.imported.source == str(PAGES / "prose_in_code.md")
    assert [(f.line, f.code, f.text) for f in record.imported.findings] == [
        (30, "IM106", "以下两段代码等价"),
        (33, "IM106", "这里 x 会被原地修改"),
    ]


def test_existing_records_are_not_overwritten_without_force(tmp_path: Path) -> None:
    out = tmp_path / "mappings"
    run_import([SPEC / "03_names_differ.md"], out)
    target = out / record_path("torch.dist")
    target.write_text("# edited by hand\n", encoding="utf-8")
    again = run_import([SPEC / "03_names_differ.md"], out)
    assert [(p.code, p.detail) for p in again.units[0].problems] == [("IM007", str(target))]
    assert again.units[0].outcome is Outcome.FAILED
    assert target.read_text(encoding="utf-8") == "# edited by hand\n"
    forced = run_import([SPEC / "03_names_differ.md"], out, force=True)
    assert forced.units[0].outcome is Outcome.IMPORTED
    assert _record(target).torch_api == "torch.dist"
    assert [p.name for p in target.parent.iterdir()] == [target.name]


def test_two_runs_write_byte_identical_trees(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "mappings", tmp_path / "b" / "mappings"
    run_import([SPEC, PAGES, TABLES], first)
    run_import([TABLES, PAGES, SPEC], second)
    assert _tree(first) == _tree(second)


def test_a_page_imported_twice_and_an_unreadable_file_fail(tmp_path: Path) -> None:
    # Sources are processed in path order, so the first copy wins wherever the tests live.
    first, again = tmp_path / "a_first.md", tmp_path / "b_again.md"
    shutil.copy(SPEC / "01_no_params.md", first)
    shutil.copy(SPEC / "01_no_params.md", again)
    broken = tmp_path / "broken.md"
    broken.write_bytes(b"## [ \xff ] torch.x\n")
    result = run_import([again, first, broken], tmp_path / "mappings")
    found = {u.source: (u.outcome, [p.code for p in u.problems]) for u in result.units}
    assert found == {
        str(broken): (Outcome.FAILED, ["IM008"]),
        str(first): (Outcome.IMPORTED, []),
        str(again): (Outcome.FAILED, ["IM006"]),
    }


def test_report_lists_problems_by_line_and_counts_by_reason(tmp_path: Path) -> None:
    result = run_import([PAGES / "no_table.md", PAGES / "two_columns.md"], tmp_path / "mappings")
    out = io.StringIO()
    write_text(result, out, tmp_path / "mappings")
    lines = out.getvalue().splitlines()
    no_table, two_columns = PAGES / "no_table.md", PAGES / "two_columns.md"
    assert lines[:3] == [
        f"{no_table}:17: IM205 violation: 参数映射一节中没有表格 (no table under 参数映射)",
        f"{no_table}:19: IM101 violation: 规范的页面结构中没有这段内容，原文保留 (text outside the layout)",
        f"{two_columns}:19: IM005 failure: 参数映射表应有 PyTorch、Paddle、备注 3 列 "
        "(table needs 3 columns): 2 列",
    ]
    assert (
        "  差异页面 (pages): 导入 (imported) 0，原页面违反规范 (with violations) 1，"
        "有损导入 (with losses) 0，失败 (failed) 1" in lines
    )
    assert "    IM005 参数映射表应有 PyTorch、Paddle、备注 3 列 (table needs 3 columns): 1" in lines


def test_cli_exit_codes_and_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mappings"
    assert main(["import", str(SPEC), "--out", str(out)]) == 0
    assert "差异页面 (pages): 导入 (imported) 12" in capsys.readouterr().out
    assert main(["import", str(PAGES / "no_title.md"), "--out", str(out), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["pages"]["failed"] == 1
    assert [(p["code"], p["line"]) for p in report["problems"]] == [("IM001", 1)]
    assert main(["import", str(tmp_path / "nowhere.md"), "--out", str(out)]) == 2


def test_characters_a_record_may_not_hold_raw_are_escaped_or_the_page_refused(
    tmp_path: Path,
) -> None:
    # A legacy page with bidi overrides and line separators in its prose and in text the
    # importer keeps as comments; and one whose table makes a record over the size cap.
    page = (SPEC / "06_torch_more.md").read_text(encoding="utf-8")
    hostile = page.replace("输入为负时的斜率", "输入为\u202e负时\u2066的斜率").replace(
        "PyTorch 相比 Paddle", "PyTorch\u2028 相比\u0085 Paddle\u202d"
    )
    hostile += "\n## 其他\n\n无法对应\u202e的段落\u2029。\n"
    rows = "".join(
        f"| p{i} | - | {'很长的说明' * 40}，Paddle 无此参数，可直接删除。 |\n" for i in range(800)
    )
    huge = (
        page.replace("| inplace | - |", rows + "| inplace | - |")
        .replace("leaky_relu ", "leaky_relu6 ", 1)
        .replace("] torch.nn.functional.leaky_relu\n", "] torch.nn.functional.relu6\n", 1)
    )
    sources = tmp_path / "pages"
    sources.mkdir()
    (sources / "hostile.md").write_text(hostile, encoding="utf-8")
    (sources / "huge.md").write_text(huge, encoding="utf-8")
    out = tmp_path / "mappings"
    result = run_import([sources], out)
    by_source = {Path(unit.source).name: unit for unit in result.units if unit.kind is Kind.PAGE}
    written = by_source["hostile.md"].written
    assert written is not None
    raw = written.read_bytes()
    doc, problems = loader.load(raw)
    assert problems == [] and doc is not None
    assert "输入为\u202e负时\u2066的斜率" in json.dumps(doc.data, ensure_ascii=False)
    refused = by_source["huge.md"]
    assert refused.outcome is Outcome.FAILED
    assert [p.code for p in refused.problems if p.code == "IM009"] == ["IM009"]
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == [written.name]


def test_a_page_of_many_bad_rows_costs_a_few_validations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by the fuzz suite: each rejected row cost one more validation of the whole
    # record, so 1,500 repeated bad rows took seconds (import input 99:n of seed 20240519).
    page = (SPEC / "06_torch_more.md").read_text(encoding="utf-8")
    bad_row = "| p | - | 说明，Paddle 无此参数，需要转写。 |\n"
    page = page.replace(
        "| inplace | - |", bad_row.replace("| p |", "| 1x |") * 2000 + "| inplace | - |"
    )
    calls = 0
    validate = Record.model_validate

    def counting(data: object) -> Record:
        nonlocal calls
        calls += 1
        return validate(data)

    monkeypatch.setattr(Record, "model_validate", counting)
    source = tmp_path / "page.md"
    source.write_text(page, encoding="utf-8")
    result = run_import([source], tmp_path / "mappings")
    [unit] = [unit for unit in result.units if unit.kind is Kind.PAGE]
    assert unit.record is not None
    assert sum(1 for p in unit.problems if p.code == "IM103") == 2000
    assert calls <= 5


def test_the_text_report_keeps_one_line_per_problem() -> None:
    # Page text quoted in a problem may hold line breaks and bidi overrides.
    unit = Unit(Kind.PAGE, "pages/a\nb.md", None, [Problem(INVALID, 3, "x\ny\u202ez\u2028w")])
    out = io.StringIO()
    write_text(ImportResult(files=1, units=[unit]), out, Path("mappings"))
    first = out.getvalue().splitlines()[0]
    assert (
        first
        == "pages/a\\nb.md:3: IM009 failure: 无法构成合法的记录 (cannot form a valid record): x\\ny\\u202ez\\u2028w"
    )
