"""Write a generated tree, touching only files whose content changed.

Sphinx decides what to rebuild from file modification times, so a file whose
bytes are unchanged keeps its old mtime and the incremental build stays
incremental. Files of an earlier run that are no longer generated are removed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MARKER = ".apimap-generated"
"""Marks a folder as owned by ``apimap render``; only such folders are cleaned."""


class OutputFolderError(Exception):
    """The output folder holds files that ``apimap render`` did not write."""


@dataclass
class SyncReport:
    """What a sync did."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)


def write_if_changed(path: Path, content: bytes) -> bool:
    """Write ``content`` unless ``path`` already holds exactly it; atomically."""
    try:
        if path.read_bytes() == content:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(content)
    temporary.replace(path)
    return True


def _existing(folder: Path) -> set[str]:
    return {
        PurePosixPath(path.relative_to(folder)).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and path.name != MARKER
    }


def sync_tree(folder: Path, files: dict[str, bytes]) -> SyncReport:
    """Make ``folder`` hold exactly ``files`` (relative POSIX path -> bytes)."""
    if folder.exists() and any(folder.iterdir()) and not (folder / MARKER).is_file():
        raise OutputFolderError(
            f"{folder} 不是 apimap render 生成的目录，拒绝覆盖 "
            f"(not a folder apimap render owns: it has no {MARKER})"
        )
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).touch()
    report = SyncReport()
    for relative in sorted(files):
        if write_if_changed(folder / relative, files[relative]):
            report.written.append(relative)
        else:
            report.unchanged += 1
    for stale in sorted(_existing(folder) - set(files)):
        (folder / stale).unlink()
        report.removed.append(stale)
    for directory in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if directory.is_dir() and not any(directory.iterdir()):
            directory.rmdir()
    return report
