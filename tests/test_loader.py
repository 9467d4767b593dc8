"""The YAML loader: positions, strictness, and YAML 1.1 oddities."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from apimap.files import loader
from apimap.files.problems import LoadProblemKind as Kind
from apimap.record.location import Loc

ROOT = Path(__file__).resolve().parents[1]


def test_positions_of_values_and_keys_are_one_based() -> None:
    doc, problems = loader.parse("a: 1\nb:\n  - x\n  - c: d\n")
    assert problems == []
    assert doc is not None
    assert doc.loc(("a",)) == Loc(1, 4)
    assert doc.key_loc(("b",)) == Loc(2, 1)
    assert doc.loc(("b", 0)) == Loc(3, 5)
    assert doc.loc(("b", 1, "c")) == Loc(4, 8)
    assert doc.key_loc(("b", 1, "c")) == Loc(4, 5)


def test_unknown_path_falls_back_to_nearest_ancestor() -> None:
    doc, _ = loader.parse("a:\n  b: 1\n")
    assert doc is not None
    assert doc.loc(("a", "missing", 3)) == doc.loc(("a",)) == Loc(2, 3)


def test_literal_block_lines_map_to_file_lines() -> None:
    doc, _ = loader.parse("code: |\n  x = 1\n  y = (\n")
    assert doc is not None
    assert doc.text_loc(("code",), 2) == Loc(3, 3)
    assert doc.text_loc(("code",), 2, 5) == Loc(3, 7)


def test_block_positions_never_leave_the_line_or_the_file() -> None:
    text = 'a:\n  code: |\n    x = 1\n\n    y = """\n'
    doc, _ = loader.parse(text)
    assert doc is not None
    assert doc.text_loc(("a", "code"), 2, 40) == Loc(4, 1)  # the empty line in the block
    assert doc.text_loc(("a", "code"), 3, 40) == Loc(5, 12)
    assert doc.text_loc(("a", "code"), 9) == Loc(6, 1)  # past the end: the last line


def test_yaml11_scalars_stay_the_text_written() -> None:
    text = "a: no\nb: on\nc: 1e-5\nd: 2021-01-01\ne: 3.10\nf: 0o17\ng: '1'\n"
    doc, problems = loader.parse(text)
    assert problems == []
    assert doc is not None
    assert doc.data == {
        "a": "no",
        "b": "on",
        "c": "1e-5",
        "d": "2021-01-01",
        "e": "3.10",
        "f": "0o17",
        "g": "1",
    }


def test_only_true_false_and_null_are_special() -> None:
    doc, _ = loader.parse("a: true\nb: false\nc: null\nd: ~\ne:\nf: 'true'\ng: True\n")
    assert doc is not None
    assert doc.data == {
        "a": True,
        "b": False,
        "c": None,
        "d": None,
        "e": None,
        "f": "true",
        "g": "True",
    }


def test_duplicate_key_is_reported_at_the_second_key() -> None:
    doc, problems = loader.parse("a: 1\nb:\n  c: 1\n  c: 2\n")
    assert doc is None
    assert [(p.kind, p.line, p.col) for p in problems] == [(Kind.DUPLICATE_KEY, 4, 3)]
    assert "第 3 行" in problems[0].detail


def test_tags_anchors_and_aliases_are_refused() -> None:
    for text, line in [
        ("a: !!python/object:os.system x\n", 1),
        ("a: &x 1\nb: *x\n", 1),
        ("a: !custom 1\n", 1),
        ("? [a, b]\n: 1\n", 1),
    ]:
        doc, problems = loader.parse(text)
        assert doc is None
        assert [(p.kind, p.line) for p in problems] == [(Kind.TAG, line)], text


def test_syntax_error_has_a_location() -> None:
    doc, problems = loader.parse("a: [1, 2\nb: 3\n")
    assert doc is None
    assert [(p.kind, p.line) for p in problems] == [(Kind.SYNTAX, 2)]


def test_top_level_must_be_a_mapping() -> None:
    _, problems = loader.parse("- a\n- b\n")
    assert [(p.kind, p.line) for p in problems] == [(Kind.NOT_MAPPING, 1)]
    _, problems = loader.parse("just text\n")
    assert [p.kind for p in problems] == [Kind.NOT_MAPPING]


def test_empty_and_comment_only_files() -> None:
    for text in ["", "\n\n", "# nothing\n"]:
        _, problems = loader.parse(text)
        assert [p.kind for p in problems] == [Kind.EMPTY]


def test_decode_reports_invalid_utf8_with_position() -> None:
    text, problems = loader.decode(b"a: 1\nb: caf\xe9\n")
    assert text is None
    assert [(p.kind, p.line, p.col) for p in problems] == [(Kind.ENCODING, 2, 7)]


def test_decode_reports_binary_data() -> None:
    text, problems = loader.decode(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert text is None
    assert [p.kind for p in problems] == [Kind.ENCODING]


def test_decode_reports_control_characters() -> None:
    text, problems = loader.decode(b"a: 1\nb: x\x07y\n")
    assert text is None
    assert [(p.kind, p.line, p.col) for p in problems] == [(Kind.ENCODING, 2, 5)]


def test_decode_reports_bidirectional_overrides() -> None:
    text, problems = loader.decode("a: 1\nb: abc\u202edef\n".encode())
    assert text is None
    assert [(p.kind, p.line, p.col) for p in problems] == [(Kind.ENCODING, 2, 7)]


def test_c1_control_characters_are_refused() -> None:
    for char in ["\x80", "\x9b", "\x9f"]:
        text, problems = loader.decode(f"a: 1\nb: x{char}y\n".encode())
        assert text is None
        assert [(p.kind, p.line, p.col) for p in problems] == [(Kind.ENCODING, 2, 5)], repr(char)


def test_line_breaks_other_than_newline_are_refused_where_they_are() -> None:
    # libyaml counts these as line breaks and Python's splitlines() too, but "\n" counting
    # does not: a file holding one would get positions that drift from line to line.
    for char in ["\x85", "\u2028", "\u2029", "\r"]:
        raw = f"a: 1\nb: 'x{char}y'\nc: 2\n".encode()
        text, problems = loader.decode(raw)
        assert text is None
        assert [(p.kind, p.line, p.col) for p in problems] == [(Kind.ENCODING, 2, 6)], repr(char)
    text, problems = loader.decode(b"a: 1\r\nb: 2\r\n")
    assert problems == []
    assert text == "a: 1\r\nb: 2\r\n"


def test_escaped_line_separators_load_as_values() -> None:
    doc, problems = loader.load(b'a: "x\\u2028y"\nb: 1\n')
    assert problems == []
    assert doc is not None
    assert doc.data == {"a": "x\u2028y", "b": "1"}
    assert doc.loc(("b",)) == Loc(2, 4)


def test_bom_is_a_warning_and_the_text_still_loads() -> None:
    text, problems = loader.decode(b"\xef\xbb\xbfa: 1\n")
    assert text == "a: 1\n"
    assert [p.kind for p in problems] == [Kind.BOM]


def test_huge_file_is_refused() -> None:
    text, problems = loader.decode(b"a: " + b"x" * (loader.MAX_FILE_BYTES + 1))
    assert text is None
    assert [(p.kind, p.line) for p in problems] == [(Kind.TOO_LARGE, 1)]


def test_deeply_nested_input_is_refused_not_crashed() -> None:
    doc, problems = loader.parse("a: " + "[" * 5000 + "]" * 5000 + "\n")
    assert doc is None
    assert [(p.kind, p.line) for p in problems] == [(Kind.TOO_LARGE, 1)]


NESTED_BEYOND_THE_C_STACK = {
    "flow": "a: " + "[" * 30000 + "]" * 30000 + "\n",
    "unclosed flow": "a: " + "[" * 30000 + "\n",
    "flow mappings": "a: " + "{a: " * 30000 + "}" * 30000 + "\n",
    "compact sequences": "a:\n" + "- " * 60000 + "x\n",
}


@pytest.mark.parametrize("name", sorted(NESTED_BEYOND_THE_C_STACK))
def test_nesting_that_would_overflow_libyaml_is_refused_in_time(name: str) -> None:
    # Each input is under the size cap; libyaml's composer used to die of SIGSEGV on it. The
    # parse runs in a child process so that such a death fails this test instead of pytest.
    script = (
        "import sys\n"
        "from apimap.files import loader\n"
        "doc, problems = loader.load(sys.stdin.buffer.read())\n"
        "print(doc is None, [(p.kind.name, p.line) for p in problems])\n"
    )
    text = NESTED_BEYOND_THE_C_STACK[name]
    assert len(text.encode()) < loader.MAX_FILE_BYTES
    done = subprocess.run(
        [sys.executable, "-c", script], input=text.encode(), capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()[-500:]
    refused, problems = done.stdout.decode().split(" ", 1)
    assert refused == "True"
    assert problems.strip() in ("[('TOO_LARGE', 1)]", "[('TOO_LARGE', 2)]", "[('SYNTAX', 2)]")


def test_the_nesting_bound_holds_for_records() -> None:
    # The cheap bound decides whether libyaml may compose directly: it must never be below
    # the real depth, and stay well under the safe depth for real records.
    for text, depth in [
        ("a:\n b:\n  c:\n   d: 1\n", 4),
        ("a:\n- b:\n  - c:\n    - d\n", 5),
        ("a: " + "- " * 40 + "x\n", 41),
        ("a: [[[[1]]]]\n", 5),
    ]:
        assert loader.nesting_bound(text) >= depth
    record = (ROOT / "mappings" / "torch" / "torch.load.yaml").read_text(encoding="utf-8")
    assert loader.nesting_bound(record) < loader.SAFE_COMPOSE_DEPTH / 4


def test_a_syntax_error_at_the_end_of_the_stream_is_placed_in_the_file() -> None:
    # libyaml reports the end of a file without a final newline on the line after it
    # (found by the fuzz suite: check input 1:16 of seed 20240519).
    for text, place in [("torch_api: torch.mul\nzh_na", (2, 6)), ("a: [1,\n  2", (2, 4))]:
        _, problems = loader.parse(text)
        assert [(p.kind, p.line, p.col) for p in problems] == [(Kind.SYNTAX, *place)], text


def test_a_document_of_only_a_marker_is_placed_in_the_file() -> None:
    # Found by the fuzz suite (hypothesis): libyaml places the empty document of "---" on the
    # line after it.
    _, problems = loader.load(b"---")
    assert [(p.kind, p.line, p.col) for p in problems] == [(Kind.NOT_MAPPING, 1, 4)]
