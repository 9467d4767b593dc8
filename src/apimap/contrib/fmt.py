"""``apimap fmt``: rewrite record files into the canonical form, atomically."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from apimap.checking.runner import RECORD_SUFFIXES, iter_record_files, refusal
from apimap.files.atomic import write_atomically
from apimap.files.canonical import NotFormattable, format_source
from apimap.record.paths import relative_to_mappings


@dataclass
class FmtResult:
    """What a formatting run did (or, with ``check_only``, would do)."""

    files: int = 0
    changed: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)
    """Files left untouched, with ``line:col: why``."""


def run_fmt(paths: Sequence[Path], check_only: bool = False) -> FmtResult:
    """Bring every record file below ``paths`` into canonical form."""
    result = FmtResult()
    for file in iter_record_files(paths):
        result.files += 1
        if file.suffix not in RECORD_SUFFIXES:
            # a stamp (.json) is YAML too: formatting it would turn it into a record-like file
            result.failed.append((file, "1:1: 不是 .yaml 记录文件，没有改动 (not a record file)"))
            continue
        try:
            raw = file.read_bytes()
            canonical = format_source(raw, relative_to_mappings(file.resolve()))
        except OSError as exc:
            result.failed.append((file, f"1:1: 无法读取 (cannot read)：{exc.strerror}"))
            continue
        except NotFormattable as exc:
            result.failed.append((file, refusal(exc)))
            continue
        if canonical.encode("utf-8") == raw:
            continue
        if not check_only:
            try:
                write_atomically(file, canonical)
            except OSError as exc:
                result.failed.append((file, f"1:1: 无法写入 (cannot write)：{exc.strerror}"))
                continue
        result.changed.append(file)
    return result
