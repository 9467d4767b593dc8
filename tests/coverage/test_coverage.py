"""``apimap coverage`` on a small fixture surface and the fixture records."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from apimap.cli import main
from apimap.files.surface import (
    LibrarySurface,
    NameEntry,
    NamespaceEntry,
    Surface,
    parse_document,
)
from apimap.record.categories import Category
from apimap.survey.coverage.command import todo_items
from apimap.survey.coverage.compute import Status, by_use, compute
from apimap.survey.coverage.usage import UsageData, build_usage, dump_usage, parse_usage
from apimap.survey.scan.classify import Classifier
from apimap.survey.scan.knowledge import Knowledge, load_knowledge
from apimap.survey.surface.table import dump_document

CORPUS = Path(__file__).resolve().parents[1] / "site" / "corpus" / "mappings"


def _library() -> LibrarySurface:
    def ns(order: int, group: str, names: dict[str, NameEntry]) -> NamespaceEntry:
        return NamespaceEntry(kind="module", group=group, order=order, names=names)

    return LibrarySurface(
        version="2.13.0",
        python="3.11",
        modules=["torch", "torch.nn", "torch.nn.modules", "torch.nn.modules.conv"],
        skipped={},
        namespaces={
            "torch": ns(
                0,
                "core",
                {
                    "abs": NameEntry("function"),
                    "absolute": NameEntry("function", alias_of="torch.abs"),
                    "clamp": NameEntry("function"),
                    "clip": NameEntry("function", alias_of="torch.clamp"),
                    "cat": NameEntry("function"),
                    "concat": NameEntry("function", alias_of="torch.cat"),
                    "float32": NameEntry("dtype"),
                    "addcmul": NameEntry("function"),
                },
            ),
            "torch.nn": ns(
                1,
                "core",
                {
                    "Conv2d": NameEntry("class", defined_in="torch.nn.modules.conv.Conv2d"),
                    "Linear": NameEntry("class"),
                    "Identity": NameEntry("class"),
                },
            ),
            "torch.nn.utils.rnn": ns(2, "other", {"pack_padded_sequence": NameEntry("function")}),
        },
    )


@pytest.fixture()
def surface() -> Surface:
    # Through the file format, so that reading and writing are covered too.
    text = dump_document({"torch": _library()})
    assert dump_document(parse_document(text)) == text
    return Surface(parse_document(text))


@pytest.fixture()
def usage() -> UsageData:
    return UsageData(
        libraries=[],
        apis={
            "torch.cat": {"a": 5},
            "torch.concat": {"b": 7},
            "torch.nn.Linear": {"a": 9, "b": 1},
            "torch.float32": {"a": 1},
        },
        tensor_methods={},
        generated="2026-01-01",
        command="apimap coverage --update-usage a b",
    )


def test_every_public_name_is_classified(surface: Surface) -> None:
    coverage = compute(surface, load_knowledge(CORPUS))
    status = {item.name: item.status for item in coverage.names}
    assert status == {
        "torch.abs": Status.RECORD,
        "torch.absolute": Status.ALIAS,
        "torch.addcmul": Status.RECORD,
        "torch.cat": Status.UNCLASSIFIED,
        "torch.clamp": Status.RECORD,
        "torch.clip": Status.ALIAS,
        "torch.concat": Status.UNCLASSIFIED,
        "torch.float32": Status.UNCLASSIFIED,
        "torch.nn.Conv2d": Status.RECORD,
        "torch.nn.Identity": Status.UNCLASSIFIED,
        "torch.nn.Linear": Status.UNCLASSIFIED,
        "torch.nn.utils.rnn.pack_padded_sequence": Status.MISSING,
    }
    sources = {item.name: item.alias_source for item in coverage.names if item.alias_source}
    assert sources == {"torch.absolute": "record", "torch.clip": "record"}
    rows = {ns.namespace: ns.counts for ns in coverage.namespaces}
    torch = rows["torch"]
    assert (torch.total, torch.classified) == (8, 5)
    assert dict(torch.groups) == {1: 1, 3: 1, 4: 1}
    assert round(torch.percent, 1) == 62.5
    assert rows["torch.nn.utils.rnn"].statuses[Status.MISSING] == 1
    assert coverage.total.total == 12 and coverage.total.classified == 7
    # Records of names outside this small surface are listed, not lost.
    assert "torch.nn.Softmax" in coverage.outside and "torch.nn.Conv2d" not in coverage.outside


def test_surface_aliases_count_once_a_group_member_has_a_record(surface: Surface) -> None:
    knowledge = load_knowledge(CORPUS)
    # torch.concat has no record, but once torch.cat has one it is covered as an alias.
    cat = replace(knowledge.records[0], api="torch.cat", category=Category.IDENTICAL, aliases=())
    coverage = compute(surface, Knowledge((*knowledge.records, cat)))
    items = {item.name: item for item in coverage.names}
    assert items["torch.concat"].status is Status.ALIAS
    assert items["torch.concat"].alias_source == "surface"


def test_todo_ranks_unclassified_groups_by_usage(surface: Surface, usage: UsageData) -> None:
    coverage = compute(surface, load_knowledge(CORPUS))
    items = todo_items(coverage, surface, usage, [])
    assert [(i.name, i.uses, i.libraries, i.aliases) for i in items] == [
        ("torch.cat", 12, 1, ["torch.concat"]),
        ("torch.nn.Linear", 10, 2, []),
        ("torch.float32", 1, 1, []),
        ("torch.nn.Identity", 0, 0, []),
    ]
    only_nn = todo_items(coverage, surface, usage, ["torch.nn"])
    assert [i.name for i in only_nn] == ["torch.nn.Linear", "torch.nn.Identity"]
    assert todo_items(coverage, surface, usage, ["torch.nn.*"]) == []


def test_coverage_weighted_by_use(surface: Surface, usage: UsageData) -> None:
    # torch.cat 5 + torch.concat 7 + torch.nn.Linear 10 + torch.float32 1 unclassified; a
    # classified name with uses moves its weight to its status.
    coverage = compute(surface, load_knowledge(CORPUS))
    weighted = by_use(coverage, usage.uses)
    assert weighted.total == 23 and weighted.uses[Status.UNCLASSIFIED] == 23
    assert weighted.classified_percent == 0.0
    usage.apis["torch.abs"] = {"a": 69}
    usage.apis["torch.clip"] = {"b": 8}
    weighted = by_use(coverage, usage.uses)
    assert (weighted.total, weighted.uses[Status.RECORD], weighted.uses[Status.ALIAS]) == (
        100,
        69,
        8,
    )
    assert weighted.classified_percent == 77.0
    assert weighted.percent(Status.ALIAS) == 8.0


def test_usage_file_round_trip_and_build(
    tmp_path: Path, surface: Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    wheel = tmp_path / "lib"
    (wheel / "lib").mkdir(parents=True)
    (wheel / "lib-1.2.dist-info").mkdir()
    (wheel / "lib-1.2.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: lib\nVersion: 1.2\n", encoding="utf-8"
    )
    (wheel / "lib" / "__init__.py").write_text(
        "import torch\nimport torch.nn as nn\nx = torch.cat([torch.concat([1])])\n"
        "y = nn.Linear(1, 1)\nz = x.view(1)\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    classifier = Classifier(surface, load_knowledge(CORPUS))
    document = build_usage([wheel], surface, classifier, 1, "apimap coverage --update-usage lib")
    text = dump_usage(document)
    assert text == dump_usage(build_usage([wheel], surface, classifier, 1, document["command"]))
    data = parse_usage(text)
    assert data.generated == "2026-01-01"
    assert [(lib.name, lib.version, lib.files) for lib in data.libraries] == [("lib", "1.2", 1)]
    assert data.apis == {
        "torch.cat": {"lib": 1},
        "torch.concat": {"lib": 1},
        "torch.nn.Linear": {"lib": 1},
    }
    assert data.tensor_methods == {}  # the small surface has no torch.Tensor namespace
    assert json.loads(text)["apis"]["torch.cat"] == {"by_library": {"lib": 1}, "total": 1}


def test_command_formats_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "--mappings", str(CORPUS), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["format"] == "apimap-coverage"
    nn = next(row for row in document["namespaces"] if row["namespace"] == "torch.nn")
    assert (nn["total"], nn["record"], nn["unclassified"]) == (169, 4, 165)
    uses = document["uses"]
    assert uses["total"] == sum(uses[status.value] for status in Status)
    assert 0 < uses["classified_percent"] < 100
    assert main(["coverage", "--mappings", str(CORPUS), "--namespace", "torch.nn"]) == 0
    out = capsys.readouterr().out
    assert "  torch.nn  " in out and "torch.nn.functional" not in out
    assert "按常用模型库中的使用次数加权" in out
    assert main(["coverage", "--mappings", str(CORPUS), "--todo", "--limit", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("未分类的公开名称") and len(lines) == 4
    assert "apimap new torch.Tensor" in lines[1]
    assert main(["coverage", "--mappings", "nowhere"]) == 2
    assert main(["coverage", "--mappings", str(CORPUS), "--update-usage", "nowhere"]) == 2
