"""Finding files, naming their modules and decoding them."""

from __future__ import annotations

from pathlib import Path

from apimap.survey.scan.files import decode_source, discover


def test_module_names_follow_packages(tmp_path: Path) -> None:
    for name in ("src/pkg/__init__.py", "src/pkg/sub/__init__.py", "src/pkg/sub/mod.py", "run.py"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "x.py").write_text("", encoding="utf-8")
    found = {Path(f.path).relative_to(tmp_path).as_posix(): f for f in discover([tmp_path])}
    assert sorted(found) == [
        "run.py",
        "src/pkg/__init__.py",
        "src/pkg/sub/__init__.py",
        "src/pkg/sub/mod.py",
    ]
    assert found["src/pkg/sub/mod.py"].module == "pkg.sub.mod"
    assert not found["src/pkg/sub/mod.py"].is_package
    assert found["src/pkg/sub/__init__.py"].module == "pkg.sub"
    assert found["src/pkg/sub/__init__.py"].is_package
    assert found["run.py"].module == "run"
    single = discover([tmp_path / "src" / "pkg" / "sub" / "mod.py", tmp_path / "src"])
    assert [f.module for f in single] == ["pkg", "pkg.sub", "pkg.sub.mod"]


def test_decoding_follows_pep_263() -> None:
    assert decode_source(b"\xef\xbb\xbfx = 1\n") == ("x = 1\n", None)
    assert decode_source(b"# coding: latin-1\nx = '\xe9'\n")[0] == "# coding: latin-1\nx = 'é'\n"
    text, problem = decode_source(b"x = 1\n\ny = '\xff'\n")
    assert text is None and problem is not None
    assert (problem.kind, problem.line) == ("encoding", 3)
    text, problem = decode_source(b"# coding: klingon\n")
    assert text is None and problem is not None and problem.kind == "encoding"
    text, problem = decode_source(b"x = 1\x00\n")
    assert text is None and problem is not None and problem.kind == "binary"
