"""Writing the verification stamp with a minimal, atomic text edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from apimap.verify.stamp import StampError, stamped_text, write_stamp

VERSIONS = {"torch": "2.13.0", "paddle": "3.3.1"}
RECORD = "# comment on top\ntorch_api: torch.abs  # end-of-line comment\ncategory: missing\n"
BLOCK = "verified:\n  torch: 2.13.0\n  paddle: 3.3.1\n"


def test_appends_after_the_last_field() -> None:
    assert stamped_text(RECORD, VERSIONS) == RECORD + BLOCK


def test_keeps_trailing_comments_after_the_stamp() -> None:
    text = RECORD + "\n# closing remark\n"
    assert stamped_text(text, VERSIONS) == RECORD + BLOCK + "\n# closing remark\n"


def test_replaces_an_old_block_in_place() -> None:
    old = "verified:\n  torch: 2.12.0  # old\n  paddle: 3.3.0\n"
    text = "torch_api: torch.abs\n" + old + "category: missing\n"
    assert stamped_text(text, VERSIONS) == "torch_api: torch.abs\n" + BLOCK + "category: missing\n"


def test_replaces_a_flow_mapping() -> None:
    text = RECORD + "verified: {torch: 2.0.0, paddle: 2.6.0}\n"
    assert stamped_text(text, VERSIONS) == RECORD + BLOCK


def test_file_without_final_newline_and_crlf() -> None:
    assert stamped_text("torch_api: torch.abs", VERSIONS) == "torch_api: torch.abs\n" + BLOCK
    crlf = "torch_api: torch.abs\r\ncategory: missing\r\n"
    assert stamped_text(crlf, VERSIONS) == crlf + BLOCK.replace("\n", "\r\n")


def test_broken_yaml_is_refused() -> None:
    with pytest.raises(StampError):
        stamped_text("torch_api: [unclosed\n", VERSIONS)


def test_write_is_atomic_and_idempotent(tmp_path: Path) -> None:
    record = tmp_path / "torch.abs.yaml"
    record.write_text(RECORD, encoding="utf-8")
    record.chmod(0o640)
    assert write_stamp(record, VERSIONS) is True
    assert record.read_text(encoding="utf-8") == RECORD + BLOCK
    assert record.stat().st_mode & 0o777 == 0o640
    assert write_stamp(record, VERSIONS) is False
    assert [p.name for p in tmp_path.iterdir()] == ["torch.abs.yaml"]


def test_keeps_a_byte_order_mark(tmp_path: Path) -> None:
    record = tmp_path / "torch.abs.yaml"
    record.write_bytes(b"\xef\xbb\xbf" + RECORD.encode())
    write_stamp(record, VERSIONS)
    assert record.read_bytes() == b"\xef\xbb\xbf" + (RECORD + BLOCK).encode()


def test_refuses_a_file_changed_since_it_was_verified(tmp_path: Path) -> None:
    record = tmp_path / "torch.abs.yaml"
    record.write_text(RECORD, encoding="utf-8")
    with pytest.raises(StampError):
        write_stamp(record, VERSIONS, verified=b"other bytes")
    assert record.read_text(encoding="utf-8") == RECORD
