"""The check runner: crashing rules, the cache, and the real corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apimap.checking import check_cache, runner
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope
from apimap.checking.rules.registry import RECORD_RULES
from apimap.checking.runner import run_check
from apimap.files.atomic import write_cache_file
from rule_fixtures import copy_clean_record

ROOT = Path(__file__).resolve().parent.parent


def test_crashing_rule_becomes_a_diagnostic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(ctx: object) -> list[object]:
        raise RuntimeError("boom")

    broken = Rule(
        "AM299", "坏规则 (broken)", Scope.RECORD, Severity.ERROR, "", why="", check=explode
    )
    monkeypatch.setattr(runner, "RECORD_RULES", [*RECORD_RULES, broken])
    record = copy_clean_record(tmp_path)
    result = run_check([record.parent.parent])
    assert [(d.code, d.line) for d in result.diagnostics] == [("AM000", 1)]
    assert "AM299" in result.diagnostics[0].message and "boom" in result.diagnostics[0].message


def test_cache_reuses_results_until_the_content_changes(tmp_path: Path) -> None:
    record = copy_clean_record(tmp_path)
    cache = tmp_path / "cache"
    first = run_check([tmp_path / "mappings"], cache_dir=cache)
    second = run_check([tmp_path / "mappings"], cache_dir=cache)
    assert (first.cached, second.cached) == (0, 1)
    assert first.diagnostics == second.diagnostics == []
    record.write_text(
        record.read_text(encoding="utf-8").replace(
            "desc: 要取绝对值的 Tensor", "desc: 要取绝对值的 Tensor。"
        ),
        encoding="utf-8",
    )
    third = run_check([tmp_path / "mappings"], cache_dir=cache)
    assert third.cached == 0
    assert [d.code for d in third.diagnostics] == ["AM240"]  # prose: the stamp stays current
    stamp = tmp_path / "stamps" / "torch" / "torch.abs.json"
    stamp.unlink()
    fourth = run_check([tmp_path / "mappings"], cache_dir=cache)
    assert fourth.cached == 0  # the stamp is part of the key
    assert "没有 stamps/torch/torch.abs.json" in fourth.diagnostics[0].message


def test_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    copy_clean_record(tmp_path)
    cache = tmp_path / "cache"
    run_check([tmp_path / "mappings"], cache_dir=cache)
    for stored in (cache / "check").iterdir():
        stored.write_text("{not json", encoding="utf-8")
    result = run_check([tmp_path / "mappings"], cache_dir=cache)
    assert (result.cached, result.diagnostics) == (0, [])
    assert run_check([tmp_path / "mappings"], cache_dir=cache).cached == 1  # written anew


def test_an_unreadable_cache_entry_is_a_miss(tmp_path: Path) -> None:
    copy_clean_record(tmp_path)
    cache = tmp_path / "cache"
    run_check([tmp_path / "mappings"], cache_dir=cache)
    for shard in (cache / "check").glob("[0-9a-f][0-9a-f].json"):
        stored = json.loads(shard.read_text(encoding="utf-8"))
        for entry in stored["entries"].values():
            entry["diagnostics"] = [{"code": 1}]  # well-formed JSON, not a diagnostic
        shard.write_text(json.dumps(stored), encoding="utf-8")
    result = run_check([tmp_path / "mappings"], cache_dir=cache)
    assert (result.cached, result.diagnostics) == (0, [])


def test_a_cache_that_cannot_be_replaced_keeps_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "cache" / "00.json"
    write_cache_file(target, "old")

    def full(self: Path, destination: Path) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "replace", full)
    write_cache_file(target, "new")  # no exception: the run goes on without its cache
    assert target.read_text(encoding="utf-8") == "old"
    assert [path.name for path in target.parent.iterdir()] == ["00.json"]


def _copies(record: Path, count: int) -> list[Path]:
    copies = []
    for index in range(count):
        copy = record.parent / f"copy{index}.yaml"
        copy.write_bytes(record.read_bytes())
        copies.append(copy)
    return copies


def _cached_paths(cache: Path) -> set[str]:
    paths = set()
    for shard in (cache / "check").glob("[0-9a-f][0-9a-f].json"):
        entries = json.loads(shard.read_text(encoding="utf-8"))["entries"]
        paths.update(entry["path"] for entry in entries.values())
    return paths


def test_a_one_file_run_keeps_the_other_files_results(tmp_path: Path) -> None:
    record = copy_clean_record(tmp_path)
    copies = _copies(record, 6)
    cache = tmp_path / "cache"
    assert run_check([tmp_path / "mappings"], cache_dir=cache).cached == 0
    copies[0].write_text(copies[0].read_text(encoding="utf-8") + "\n", encoding="utf-8")
    one = run_check([copies[0]], cache_dir=cache)  # what the pre-commit hook runs
    assert (one.files, one.cached) == (1, 0)
    again = run_check([tmp_path / "mappings"], cache_dir=cache)
    assert (again.files, again.cached) == (7, 7)


def test_a_folder_run_forgets_deleted_files(tmp_path: Path) -> None:
    record = copy_clean_record(tmp_path)
    copies = _copies(record, 3)
    cache = tmp_path / "cache"
    run_check([tmp_path / "mappings"], cache_dir=cache)
    assert str(copies[1]) in _cached_paths(cache)
    copies[1].unlink()
    assert run_check([tmp_path / "mappings"], cache_dir=cache).cached == 3
    assert _cached_paths(cache) == {str(path) for path in (record, copies[0], copies[2])}


def test_changed_code_drops_every_result(tmp_path: Path) -> None:
    copy_clean_record(tmp_path)
    cache = tmp_path / "cache"
    run_check([tmp_path / "mappings"], cache_dir=cache)
    manifest = cache / "check" / "code.json"
    code = json.loads(manifest.read_text(encoding="utf-8"))
    assert "checking/runner.py" in code["files"] and "data/surface.json" in code["files"]
    code["files"]["checking/runner.py"] = "0" * 32  # as if runner.py had been edited since
    manifest.write_text(json.dumps(code), encoding="utf-8")
    assert run_check([tmp_path / "mappings"], cache_dir=cache).cached == 0
    assert run_check([tmp_path / "mappings"], cache_dir=cache).cached == 1


def test_a_run_that_imports_more_of_apimap_keeps_the_stored_results(tmp_path: Path) -> None:
    record = copy_clean_record(tmp_path)
    copies = _copies(record, 3)
    cache = tmp_path / "cache"
    run_check([tmp_path / "mappings"], cache_dir=cache)
    manifest = cache / "check" / "code.json"
    code = json.loads(manifest.read_text(encoding="utf-8"))
    del code["files"]["checking/runner.py"]  # as if the writing run had not imported it
    manifest.write_text(json.dumps(code), encoding="utf-8")
    for shard in (cache / "check").glob("[0-9a-f][0-9a-f].json"):  # entries of that run
        stored = json.loads(shard.read_text(encoding="utf-8"))
        stored["salt"] = runner_salt = check_cache._salt(code["files"], code["rules"])
        shard.write_text(json.dumps(stored), encoding="utf-8")
    assert run_check([copies[0]], cache_dir=cache).cached == 1
    assert json.loads(manifest.read_text(encoding="utf-8"))["files"].keys() >= {
        "checking/runner.py"
    }
    assert runner_salt not in {
        json.loads(shard.read_text(encoding="utf-8"))["salt"]
        for shard in (cache / "check").glob("[0-9a-f][0-9a-f].json")
    }
    assert run_check([tmp_path / "mappings"], cache_dir=cache).cached == 4


def test_other_rules_do_not_serve_a_run(tmp_path: Path) -> None:
    copy_clean_record(tmp_path)
    cache = tmp_path / "cache"
    run_check([tmp_path / "mappings"], cache_dir=cache, select={"AM2"})
    assert run_check([tmp_path / "mappings"], cache_dir=cache).cached == 0


def test_the_committed_mappings_are_clean() -> None:
    result = run_check([ROOT / "mappings"])
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert errors == []
    assert result.files >= 5


def test_worker_pool_gives_the_same_result_as_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = copy_clean_record(tmp_path)
    text = record.read_text(encoding="utf-8")
    for index in range(12):
        copy = record.parent / f"copy{index}.yaml"
        copy.write_text(
            text.replace(
                "desc: 要取绝对值的 Tensor", f"desc: 要取绝对值的 Tensor{'。' * (index % 2)}"
            ),
            encoding="utf-8",
        )
    monkeypatch.setattr(runner, "PARALLEL_THRESHOLD", 2)
    serial = run_check([tmp_path / "mappings"], jobs=1)
    parallel = run_check([tmp_path / "mappings"], jobs=2)
    assert parallel.diagnostics == serial.diagnostics
    assert {d.code for d in serial.diagnostics} == {"AM240", "AM250", "AM501", "AM701"}


CHAIN = " + ".join(["x"] * 1500)
"""Code nesting 1,500 levels deep: it parses, but every tree walker recurses once per level."""
HUGE = "y = [" + "1, " * 9000 + "]"
"""Code longer than any example should be."""


@pytest.mark.parametrize(
    ("where", "old", "new", "expected"),
    [
        ("call", "  - torch: torch.abs(x)", f"  - torch: torch.abs({CHAIN})", ("AM221", 18)),
        (
            "convert",
            "    desc: 要取绝对值的 Tensor",
            f"    desc: 要取绝对值的 Tensor\n    kind: type_diff\n    diff: 不同\n    convert: {CHAIN}",
            ("AM221", 21),
        ),
        (
            "signature",
            "torch.abs(input, *, out=None)",
            f"torch.abs(input, *, out={CHAIN})",
            ("AM207", 6),
        ),
        (
            "setup",
            "  - torch: torch.abs(x)",
            f"  - setup:\n      torch: {HUGE}\n      paddle: y = 1\n    torch: torch.abs(x)",
            ("AM232", 19),
        ),
    ],
)
def test_code_too_deep_or_too_long_is_reported_not_crashed(
    tmp_path: Path, where: str, old: str, new: str, expected: tuple[str, int]
) -> None:
    record = copy_clean_record(tmp_path)
    text = record.read_text(encoding="utf-8")
    assert old in text
    record.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = run_check([tmp_path / "mappings"], ignore={"AM7"})
    found = [(d.code, d.line) for d in result.diagnostics]
    assert "AM000" not in {code for code, _ in found}, result.diagnostics
    assert expected in found, where


def test_a_text_with_two_lookalikes_names_both() -> None:
    """AM243 names every distinct look-alike of a text, not only the first."""
    source = (
        "torch_api: torch.dist\nzh_name: 两个张量之差的范数\n"
        "torch_signature: torch.dist(input, other, p=2)\n"
        "paddle_api: paddle.dist\npaddle_signature: paddle.dist(x, y, p=2, name=None)\n"
        "category: names_differ\nparams:\n  - torch: input\n    paddle: x\n"
        "    desc: ⽀持⼀个输入\n  - torch: other\n    paddle: y\n    desc: 另一个\n"
        "  - torch: p\n    desc: 阶\n"
    )
    checked = runner.check_source(
        "mappings/torch/torch.dist.yaml", source.encode(), RECORD_RULES, relpath=None
    )
    [found] = [d for d in checked.diagnostics if d.code == "AM243"]
    assert "U+2F40" in found.message and "U+2F00" in found.message
