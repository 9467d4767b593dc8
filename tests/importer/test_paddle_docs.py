"""``apimap export --format paddle-docs``: pages in the upstream layout that import back."""

from __future__ import annotations

from pathlib import Path

import pytest
from import_support import FIXTURES, ROOT, as_shown

from apimap.checking.corpus import Entry, load_entries
from apimap.cli import main
from apimap.publish.importer.page import read_page
from apimap.publish.importer.record_data import record_fields
from apimap.publish.paddle_docs import page_text, pages, torch_header
from apimap.record.categories import Category
from apimap.record.model import Record

SPEC = FIXTURES / "spec"
EXPECTED = FIXTURES / "paddle_docs"
CORPUS = ROOT / "tests" / "site" / "corpus" / "mappings"


def _spec_record(stem: str) -> Record:
    record = read_page((SPEC / f"{stem}.md").read_text(encoding="utf-8")).record
    assert record is not None
    return record


def _entry(record: Record) -> Entry:
    return Entry(record, "", "")


NAMES = {"06_torch_more": "带泄露的线性整流函数", "12_other_package": "写入 TensorBoard 日志（类）"}


@pytest.mark.parametrize("stem", sorted(NAMES))
def test_a_page_is_written_in_the_upstream_layout(stem: str) -> None:
    record = _spec_record(stem).model_copy(update={"zh_name": NAMES[stem]})
    text = page_text(_entry(record))
    assert text == (EXPECTED / f"{stem}.md").read_text(encoding="utf-8")


def test_the_title_and_headings_are_upstreams() -> None:
    text = page_text(_entry(_spec_record("11_context_change")))
    outside = [line for index, line in enumerate(text.split("```")) if index % 2 == 0]
    headings = [line for part in outside for line in part.splitlines() if line.startswith("#")]
    assert [heading.split(" ", 1)[0] for heading in headings] == [
        "##",
        "###",
        "###",
        "###",
        "###",
        "####",
    ]
    assert headings[0] == "## [ 涉及上下文修改 ]torch.optim.lr_scheduler.StepLR"
    assert headings[1].startswith("### [torch.optim.lr_scheduler.StepLR](https://")
    assert headings[3:5] == ["### 参数映射", "### 转写示例"]


def test_a_third_party_api_heads_the_first_column_with_its_package() -> None:
    record = _spec_record("03_names_differ").model_copy(
        update={
            "torch_api": "torchvision.ops.dist",
            "torch_signature": "torchvision.ops.dist(input, other, p=2)",
            "torch_url": "https://docs.pytorch.org/vision/stable/generated/torchvision.ops.dist.html",
            "zh_name": "两个张量之差的范数",
        }
    )
    assert torch_header("torchvision.ops.dist") == "torchvision"
    assert torch_header("transformers.AutoModel") == "transformers"
    assert torch_header("torch.dist") == "PyTorch"
    text = page_text(_entry(record))
    assert "| torchvision | PaddlePaddle | 备注 |" in text.splitlines()
    again = read_page(text)
    assert again.problems == []
    assert again.record == record


@pytest.mark.parametrize("path", sorted(SPEC.glob("*.md")), ids=lambda p: p.stem)
def test_a_spec_record_round_trips_through_its_upstream_page(path: Path) -> None:
    record = read_page(path.read_text(encoding="utf-8")).record
    assert record is not None
    record = record.model_copy(update={"zh_name": "名称"})
    again = read_page(page_text(_entry(record)))
    assert again.problems == []
    assert again.record == record


@pytest.mark.parametrize("corpus", [CORPUS, ROOT / "mappings"], ids=["test-corpus", "mappings"])
def test_every_record_round_trips_up_to_what_no_page_shows(corpus: Path) -> None:
    # the section (基础操作类, 组网类 …) is a column of upstream's mapping table, not of a page;
    # the inputs calls share are shown with each call
    entries = load_entries(corpus)
    written = pages(entries)
    by_api = {entry.api: entry for entry in entries}
    missing = [e for e in entries if e.record is not None and e.record.category is Category.MISSING]
    assert missing and len(written) == len(by_api) - len(missing)  # 功能缺失 has no page
    for name, text in written.items():
        result = read_page(text)
        assert result.problems == [], name
        assert result.record is not None
        expected = record_fields(as_shown(by_api[result.record.torch_api].record))
        expected.pop("section", None)
        expected.pop("inputs", None)
        assert record_fields(result.record) == expected, name


def test_cli_writes_a_page_per_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "docs"
    code = main(["export", "--mappings", str(CORPUS), "--format", "paddle-docs", str(out)])
    assert code == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(pages(load_entries(CORPUS)))
    assert "torch.nn.Conv2d.md" in names
    assert main(["export", "--mappings", str(CORPUS), "--format", "paddle-docs"]) == 2
    assert "DIR" in capsys.readouterr().err
