"""``apimap check|rules|schema`` as a user runs them: output formats and exit codes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from apimap.checking.rules.registry import ALL_RULES
from apimap.cli import main
from rule_fixtures import copy_clean_record, fixture_entries, restamp

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory with one clean record under mappings/."""
    copy_clean_record(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return tmp_path


def _break(corpus: Path) -> Path:
    record = corpus / "mappings" / "torch" / "torch.abs.yaml"
    text = record.read_text(encoding="utf-8")
    record.write_text(
        text.replace("desc: 存放结果的 Tensor", "desc: 存放结果的 Tensor。"), encoding="utf-8"
    )
    restamp(record)
    return record


def test_clean_corpus_exits_zero(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith("(checked 1 files: 0 errors, 0 warnings)")


def test_findings_exit_one_with_path_line_col_code(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _break(corpus)
    assert main(["check", "--no-cache"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("mappings/torch/torch.abs.yaml:")
    place, rest = lines[0].split(": ", 1)
    assert place.split(":")[1:] == ["16", "11"]
    assert rest.startswith("AM240 ")
    assert lines[1].startswith("    提示 (hint): ")
    assert "1 个错误" in lines[-1]


def test_json_format(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _break(corpus)
    assert main(["check", "--format", "json", "--no-cache"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["summary"] == {
        "files": 1,
        "errors": 1,
        "warnings": 0,
        "notices": 0,
        "cached": 0,
    }
    [diagnostic] = document["diagnostics"]
    assert (diagnostic["code"], diagnostic["line"], diagnostic["api"]) == ("AM240", 16, "torch.abs")


def test_github_format_is_chosen_under_github_actions(
    corpus: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _break(corpus)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main(["check", "--no-cache"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(
        "::error file=mappings/torch/torch.abs.yaml,line=16,col=11,title=AM240::"
    )
    assert "%0A" in first  # the hint follows on its own line


def test_select_and_ignore_filter_by_code_prefix(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _break(corpus)
    assert main(["check", "--no-cache", "--ignore", "AM24"]) == 0
    assert main(["check", "--no-cache", "--select", "AM2"]) == 1
    assert main(["check", "--no-cache", "--select", "AM501,AM1"]) == 0


def test_strict_makes_warnings_fail(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    restamp(corpus / "mappings" / "torch" / "torch.abs.yaml", ["PyTorch 签名无法从库中读取"])
    assert main(["check", "--no-cache"]) == 0
    assert main(["check", "--no-cache", "--strict"]) == 1
    assert "AM703 [警告 warning]" in capsys.readouterr().out


def _edit_fact(corpus: Path) -> Path:
    """Change a fact of the clean record (its call's input) without touching its stamp."""
    record = corpus / "mappings" / "torch" / "torch.abs.yaml"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("randn(3)", "randn(5)"), encoding="utf-8")
    return record


def test_a_stale_stamp_is_an_error_unless_pending_stamps_are_notices(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit_fact(corpus)
    assert main(["check", "--no-cache"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("mappings/torch/torch.abs.yaml:2:12: AM701 记录没有当前的验证标记")
    assert "(checked 1 files: 1 errors, 0 warnings)" in out[-1]

    for strict in ([], ["--strict"]):  # a notice never fails, not even with --strict
        assert main(["check", "--no-cache", "--pending-stamps", "notice", *strict]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].startswith("mappings/torch/torch.abs.yaml:2:12: AM701 [提示 notice] ")
        assert "已过期" in lines[0]
        assert lines[1].startswith("    提示 (hint): 待验证：Pull Request 的 verify 作业")
        assert "apimap verify --changed-since origin/main --update" in lines[1]
        assert lines[-1].endswith("(checked 1 files: 0 errors, 0 warnings, 1 notices)")
    assert main(["check", "--no-cache", "--pending-stamps", "error"]) == 1
    assert main(["check", "--pending-stamps", "warning"]) == 2  # not a mode
    assert "invalid choice" in capsys.readouterr().err


def test_a_pending_stamp_is_a_notice_annotation_and_other_errors_still_fail(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _edit_fact(corpus)
    arguments = ["check", "--no-cache", "--pending-stamps", "notice", "--format", "github"]
    assert main(arguments) == 0
    [notice, summary] = capsys.readouterr().out.splitlines()
    assert notice.startswith(
        "::notice file=mappings/torch/torch.abs.yaml,line=2,col=12,title=AM701::"
    )
    assert "%0A待验证" in notice  # the pending hint on the annotation's second line
    assert summary.endswith("1 notices)")
    text = record.read_text(encoding="utf-8")
    record.write_text(
        text.replace("desc: 存放结果的 Tensor", "desc: 存放结果的 Tensor。"), encoding="utf-8"
    )
    assert main(arguments) == 1  # the stamp is pending, the punctuation is wrong
    commands = [line.split(" ", 1)[0] for line in capsys.readouterr().out.splitlines()[:-1]]
    assert commands == ["::notice", "::error"]
    assert main([*arguments[:-2], "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["severity"]) for d in document["diagnostics"]] == [
        ("AM701", "notice"),
        ("AM240", "error"),
    ]
    assert document["summary"]["notices"] == 1 and document["summary"]["errors"] == 1


def test_a_missing_stamp_is_pending_too(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (corpus / "stamps" / "torch" / "torch.abs.json").unlink()
    assert main(["check", "--no-cache"]) == 1
    assert main(["check", "--no-cache", "--pending-stamps", "notice"]) == 0
    out = capsys.readouterr().out
    assert "AM701 [提示 notice] 记录没有当前的验证标记" in out
    assert "：没有 stamps/torch/torch.abs.json (not verified)" in out


def test_usage_errors_exit_two(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "no/such/path"]) == 2
    assert main(["check", "--format", "xml"]) == 2
    assert main(["frobnicate"]) == 2
    assert main([]) == 2


@pytest.mark.parametrize("command", ["check", "fmt", "verify", "scan", "import"])
@pytest.mark.parametrize("given", ["", "no/such/path"])
def test_every_command_refuses_a_path_that_does_not_exist(
    command: str, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # an empty argument would silently mean the working folder
    assert main([command, given]) == 2
    assert f"apimap {command}: 路径不存在 (no such path): {given!r}" in capsys.readouterr().err


def test_allowlist_accepts_and_goes_stale(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (corpus / "allowlist.yaml").write_text(
        "exceptions:\n  - code: AM240\n    api: torch.abs\n    reason: 待迁移。\n", encoding="utf-8"
    )
    assert main(["check", "--no-cache"]) == 1  # nothing to accept: the entry is stale
    assert "allowlist.yaml:2:5: AM601" in capsys.readouterr().out
    _break(corpus)
    assert main(["check", "--no-cache"]) == 0


def test_quoted_record_text_never_breaks_the_one_line_per_diagnostic_output(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Keys and values quoted in messages may hold newlines, line separators or bidi overrides.
    record = corpus / "mappings" / "torch" / "torch.abs.yaml"
    text = record.read_text(encoding="utf-8")
    record.write_text(
        text + '"x\\ny\\u2028z\\u202e": 1\n"a\\rb": 2\n' + '"q\\u0085": 3\n', encoding="utf-8"
    )
    for fmt, pattern in [
        ("text", r"(mappings/\S+:\d+:\d+: AM\d{3} .*|    提示 \(hint\): .*|检查了 .*)"),
        ("github", r"(::(error|warning) file=\S+::.*|检查了 .*)"),
    ]:
        assert main(["check", "--no-cache", "--format", fmt]) == 1
        lines = capsys.readouterr().out.splitlines()
        assert sum("AM101" in line for line in lines) == 3, lines
        for line in lines:
            assert re.fullmatch(pattern, line), line
            assert not any(char in line for char in "\r\x85\u2028\u2029\u202e"), line


def test_every_bad_fixture_in_one_run_never_tracebacks(tmp_path: Path) -> None:
    target = tmp_path / "mappings"
    bad_files = [
        path
        for rule in ALL_RULES
        for path in fixture_entries(rule.code)
        if path.is_file() and path.name.startswith("bad")
    ]
    for index, bad in enumerate(bad_files):
        (target / str(index)).mkdir(parents=True)
        shutil.copy(bad, target / str(index) / bad.name)
    (target / "big.yaml").write_bytes(b"a: " + b"x" * 300_000)
    (target / "image.yaml").write_bytes(bytes(range(256)) * 4)
    result = subprocess.run(
        [sys.executable, "-m", "apimap", "check", "--no-cache", str(target)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    reported = {
        line.split(": ")[1].split()[0] for line in result.stdout.splitlines() if ": AM" in line
    }
    assert {
        "AM001",
        "AM002",
        "AM003",
        "AM004",
        "AM005",
        "AM006",
        "AM101",
        "AM201",
        "AM250",
    } <= reported


def test_rules_lists_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()] == [rule.code for rule in ALL_RULES]
    assert main(["rules", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["code"] for row in rows} == {rule.code for rule in ALL_RULES}


def test_schema_check_detects_a_stale_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "schema.json"
    assert main(["schema", "--output", str(target), "--check"]) == 1
    assert main(["schema", "--output", str(target)]) == 0
    assert main(["schema", "--output", str(target), "--check"]) == 0


def test_committed_schema_is_current() -> None:
    assert (
        main(["schema", "--output", str(ROOT / "schema" / "mapping.schema.json"), "--check"]) == 0
    )


def test_rules_explains_the_codes_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "am220", "AM201"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines() if line.startswith("AM")] == [
        "AM201",
        "AM220",
    ]
    assert "原因 (why)" in out and "--fix：" in out  # AM201 carries a fix
    assert main(["rules", "AM999"]) == 2
    assert "AM999" in capsys.readouterr().err
    assert main(["rules", "AM701"]) == 0  # what a pull request shows instead of the error
    assert "    --pending-stamps notice：待验证：Pull Request 的 verify 作业" in (
        capsys.readouterr().out
    )
    assert main(["rules", "AM701", "AM240", "--format", "json"]) == 0
    pending = {row["code"]: row["pending"] for row in json.loads(capsys.readouterr().out)}
    assert pending["AM240"] is None and pending["AM701"].startswith("待验证")


def test_a_closed_pipe_ends_output_quietly() -> None:
    reader = subprocess.Popen(
        # thousands of lines: more than a pipe buffers
        [sys.executable, "-m", "apimap", "coverage", "--todo", "--limit", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None
    reader.stdout.readline()
    reader.stdout.close()  # like `apimap coverage --todo | head -1`
    _, err = reader.communicate()
    assert reader.returncode == 0
    assert b"Traceback" not in err
