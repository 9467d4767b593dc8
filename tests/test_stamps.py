"""Stamps: bound to the record's data, written only when the proof changed, read strictly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apimap.files.stamps import (
    FORMAT,
    Proven,
    Stamp,
    StampFormatError,
    digest,
    parse_stamp,
    stamp_digest,
    stamp_file,
    write_stamp,
)


def stamp(date: str = "2026-11-23", unproven: list[str] | None = None) -> Stamp:
    return Stamp(
        record=digest({"torch_api": "torch.abs"}),
        verifier=1,
        versions={"paddle": "3.3.1", "torch": "2.13.0"},
        date=date,
        proven=Proven({"torch": "read", "paddle": "read"}, 1, 0, 13, unproven or []),
    )


def test_digest_ignores_layout_but_not_values() -> None:
    assert digest({"a": 1, "b": [1, 2]}) == digest({"b": [1, 2], "a": 1})
    assert digest({"a": "1"}) != digest({"a": 1})
    assert digest({"a": "x"}) != digest({"a": "x "})


def test_stamp_lives_in_a_mirror_of_mappings(tmp_path: Path) -> None:
    record = tmp_path / "mappings" / "torch" / "nn" / "torch.nn.^Conv2d.yaml"
    assert stamp_file(record) == tmp_path / "stamps" / "torch" / "nn" / "torch.nn.^Conv2d.json"
    assert stamp_file(tmp_path / "elsewhere.yaml") is None


def test_round_trip_and_completeness() -> None:
    text = stamp().to_json()
    assert parse_stamp(text.encode()) == stamp()
    assert stamp().complete
    assert not stamp(unproven=["PyTorch 签名无法从库中读取"]).complete
    assert text.endswith("}\n") and f'"format": {FORMAT}' in text


@pytest.mark.parametrize(
    "raw",
    [b"", b"\xff", b"[]", b'{"record": 1}', b'{"format": 99, "record": "x"}', b"{" * 50],
)
def test_anything_else_is_refused(raw: bytes) -> None:
    with pytest.raises(StampFormatError):
        parse_stamp(raw)


def test_same_proof_keeps_the_file_and_its_date(tmp_path: Path) -> None:
    target = tmp_path / "stamps" / "torch" / "torch.abs.json"
    assert write_stamp(target, stamp("2026-11-01"))
    assert not write_stamp(target, stamp("2026-11-23"))
    assert parse_stamp(target.read_bytes()).date == "2026-11-01"
    assert write_stamp(target, stamp("2026-11-23", ["新的未验证内容"]))
    assert parse_stamp(target.read_bytes()).date == "2026-11-23"
    assert [p.name for p in target.parent.iterdir()] == ["torch.abs.json"]


def test_the_digest_line_is_read_without_parsing_the_stamp() -> None:
    stamps = sorted((Path(__file__).parent / "site" / "corpus" / "stamps").rglob("*.json"))
    assert stamps
    for file in stamps:
        raw = file.read_bytes()
        assert stamp_digest(raw) == parse_stamp(raw).record
        compact = json.dumps(json.loads(raw)).encode()  # not as to_json writes it: parsed whole
        assert stamp_digest(compact) == parse_stamp(raw).record
