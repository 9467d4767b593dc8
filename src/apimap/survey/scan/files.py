"""Find the Python files of a project, name their modules and read their text.

A file's module name follows the packages it sits in: walking up from its
folder while the folder has an ``__init__.py``, so that ``src/pkg/sub/mod.py``
is ``pkg.sub.mod`` whatever folder the scan starts from. Reading follows
PEP 263 (a BOM or a ``# -*- coding: ... -*-`` line, UTF-8 otherwise); files
that cannot be decoded or hold NUL bytes are reported, never fatal.
"""

from __future__ import annotations

import fnmatch
import io
import os
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages"})
"""Folders never scanned, besides hidden ones (``.git``, ``.venv``, ...)."""


@dataclass(frozen=True)
class SourceFile:
    """A Python file to scan."""

    path: str
    """The path as shown in reports: the given path joined with the part found below it."""
    module: str
    """Dotted module name (``pkg.sub.mod``; a package's ``__init__.py`` is ``pkg.sub``)."""
    is_package: bool
    """The file is a package's ``__init__.py`` (relative imports start at the package itself)."""


@dataclass(frozen=True)
class ReadProblem:
    """Why a file could not be read as Python text."""

    kind: str
    line: int
    message: str


def _module_name(path: Path) -> tuple[str, bool]:
    is_package = path.name == "__init__.py"
    parts: list[str] = [] if is_package else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file():
        parts.append(folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    if not parts:
        parts.append(path.parent.name or path.stem)
    return ".".join(reversed(parts)), is_package


def _excluded(relative: str, patterns: tuple[str, ...]) -> bool:
    return any(
        fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(relative.rsplit("/", 1)[-1], pattern)
        for pattern in patterns
    )


def _walk(root: Path) -> Iterator[Path]:
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(
            name for name in subfolders if not name.startswith(".") and name not in SKIPPED_FOLDERS
        )
        for name in sorted(names):
            if name.endswith(".py"):
                yield Path(folder) / name


def discover(paths: Iterable[Path], exclude: Iterable[str] = ()) -> list[SourceFile]:
    """Every ``.py`` file under ``paths`` (files are taken as given), sorted, without duplicates.

    ``exclude`` holds glob patterns matched against the path below the given
    folder and against the file name (``tests/*``, ``*_pb2.py``).
    """
    patterns = tuple(exclude)
    seen: set[Path] = set()
    found: list[SourceFile] = []
    for given in paths:
        candidates = [given] if given.is_file() else _walk(given)
        for path in candidates:
            relative = path.name if path == given else path.relative_to(given).as_posix()
            if path != given and _excluded(relative, patterns):
                continue
            resolved = path.resolve()
            if resolved in seen:
                continue
            seen.add(resolved)
            module, is_package = _module_name(resolved)
            found.append(SourceFile(str(path), module, is_package))
    return sorted(found, key=lambda source: source.path)


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def decode_source(data: bytes) -> tuple[str | None, ReadProblem | None]:
    """The text of a Python file, or why it is not one."""
    nul = data.find(b"\x00")
    if nul >= 0:
        return None, ReadProblem(
            "binary", _line_of(data, nul), "含有 NUL 字节，不是文本文件 (NUL byte: not a text file)"
        )
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            return None, ReadProblem(
                "encoding",
                _line_of(data, bad.start),
                "不是 UTF-8，也没有有效的编码声明 (not UTF-8 and no valid coding declaration)",
            )
        return None, ReadProblem("encoding", 1, f"编码声明无效 (bad coding declaration): {exc}")
    try:
        return data.decode(encoding), None
    except UnicodeDecodeError as exc:
        return None, ReadProblem(
            "encoding",
            _line_of(data, exc.start),
            f"无法按 {encoding} 解码 (cannot decode as {encoding}): 字节 {exc.start}",
        )
    except LookupError:
        return None, ReadProblem("encoding", 1, f"未知编码 (unknown encoding): {encoding}")
