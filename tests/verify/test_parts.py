"""``apimap verify --stale --part K/N``: what CI verifies between full runs."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path
from typing import Any

import pytest

from apimap.files.loader import load
from apimap.verify import run as run_module
from apimap.verify.parts import Part, PartError, parse_part
from rule_fixtures import fixture_entries

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f"torch.api{index}" for index in range(700)]


@pytest.mark.parametrize(
    ("text", "expected"), [("1/1", Part(1, 1)), ("3/7", Part(3, 7)), ("7/7", Part(7, 7))]
)
def test_a_part_is_k_of_n(text: str, expected: Part) -> None:
    assert parse_part(text) == expected


@pytest.mark.parametrize("text", ["", "7", "0/7", "8/7", "3/0", "a/7", "3/x", "-1/7", "today/"])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(PartError):
        parse_part(text)


def test_today_takes_each_part_once_in_n_days() -> None:
    monday = datetime.date(2026, 11, 23)
    week = [parse_part("today/7", monday + datetime.timedelta(days=n)) for n in range(7)]
    assert sorted(part.index for part in week) == [1, 2, 3, 4, 5, 6, 7]
    assert {part.count for part in week} == {7}


def test_the_parts_split_the_corpus_into_even_pieces() -> None:
    parts = [Part(index, 7) for index in range(1, 8)]
    owners = [[part.index for part in parts if part.holds(name)] for name in NAMES]
    assert all(len(found) == 1 for found in owners)  # every record in exactly one part
    sizes = [sum(found == [part.index] for found in owners) for part in parts]
    assert min(sizes) > 70 and max(sizes) < 130  # 100 each on average


def test_stale_and_part_select_what_ci_verifies(tmp_path: Path) -> None:
    good = next(e for e in fixture_entries("AM811") if e.name.startswith("good"))
    record = tmp_path / "mappings" / "torch" / good.name
    record.parent.mkdir(parents=True)
    shutil.copy(good, record)
    doc, _ = load(record.read_bytes())
    assert doc is not None
    api = doc.data["torch_api"]
    holding = next(Part(k, 5) for k in range(1, 6) if Part(k, 5).holds(api))
    other = Part(holding.index % 5 + 1, 5)
    folder = [record.parent]
    assert run_module.run_verify(folder, workers=1, stale_only=True).records == 1  # no stamp
    assert run_module.run_verify(folder, workers=1, update=True).stamped
    assert run_module.run_verify(folder, workers=1, stale_only=True).records == 0  # current
    assert run_module.run_verify(folder, workers=1, stale_only=True, part=other).records == 0
    assert run_module.run_verify(folder, workers=1, stale_only=True, part=holding).records == 1
    assert run_module.run_verify(folder, workers=1, part=other).records == 0


def test_update_never_stamps_a_record_check_rejects(tmp_path: Path) -> None:
    # verify runs the code; `apimap check` judges the rest. A record that runs but is still a
    # draft (AM702) gets its check errors reported, not a stamp.
    real = ROOT / "mappings" / "torch" / "torch.log1p.yaml"
    record = tmp_path / "mappings" / "torch" / real.name
    record.parent.mkdir(parents=True)
    text = real.read_text(encoding="utf-8")
    record.write_text(text.replace("zh_name: ", "zh_name: TODO ", 1), encoding="utf-8")
    folder = [record.parent]
    result = run_module.run_verify(folder, workers=1, update=True, check_first=True)
    assert [(d.code, d.line) for d in result.diagnostics] == [("AM702", 3)]
    assert result.stamped == []
    record.write_text(text, encoding="utf-8")
    assert run_module.run_verify(folder, workers=1, update=True, check_first=True).stamped


def test_records_are_submitted_as_earlier_ones_are_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the verifying process holds the results of RECORDS_IN_FLIGHT records at most: the next
    # record's jobs are queued only once an earlier record is judged
    folder = tmp_path / "mappings" / "torch"
    folder.mkdir(parents=True)
    for name in ("torch.cos", "torch.sin", "torch.tan"):
        shutil.copy(ROOT / "mappings" / "torch" / f"{name}.yaml", folder)
    monkeypatch.setattr(run_module, "RECORDS_IN_FLIGHT", 1)
    submitted: list[list[str]] = []
    real_submit = run_module._submit

    def spy(plans: Any, records: Any, *rest: Any) -> Any:
        submitted.append([record.torch_api for record in records])
        return real_submit(plans, records, *rest)

    monkeypatch.setattr(run_module, "_submit", spy)
    judged: list[tuple[int, int]] = []
    result = run_module.run_verify(
        [folder], workers=1, progress=lambda done, _total: judged.append((done, len(submitted)))
    )
    assert result.records == 3 and len(result.worker_seconds) == 3
    assert judged == [(0, 1), (1, 2), (2, 3)]
    assert submitted == [["torch.cos"], ["torch.sin"], ["torch.tan"], []]
