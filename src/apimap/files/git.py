"""Asking git what changed: the one place apimap runs git (read-only commands only).

``apimap diff`` compares the records of two revisions; ``apimap verify --changed-since REF``
verifies the records a branch changed. A branch's changes are those since it left ``REF``
(their merge base, as a pull request counts them), in the working tree, uncommitted and
untracked files included, so that a record edited a minute ago counts. A changed stamp counts
as a change of its record: a stamp written by hand is verified again.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from apimap.files.stamps import record_of_stamp
from apimap.record.paths import relative_to_mappings

RECORD_SUFFIXES = (".yaml", ".yml")


class GitError(Exception):
    """A git command failed (unknown revision, not a repository, ...)."""


def run_git(cwd: Path, *args: str, stdin: bytes | None = None) -> bytes:
    """The output of ``git ARGS`` in ``cwd``; raises :class:`GitError` with git's message."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, input=stdin, capture_output=True, check=False
        )
    except OSError as exc:
        raise GitError(f"无法运行 git (cannot run git)：{exc.strerror}") from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise GitError(message or f"git {args[0]} 失败 (failed)")
    return done.stdout


def verify_revision(cwd: Path, rev: str) -> None:
    """Raise :class:`GitError` unless ``rev`` names a commit (an option is not a revision)."""
    if rev.startswith("-"):
        raise GitError(f"不是修订版本 (not a revision)：{rev}")
    try:
        run_git(cwd, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except GitError as exc:
        raise GitError(f"未知的修订版本 (unknown revision)：{rev} {exc}".strip()) from exc


def _names(output: bytes) -> list[str]:
    return [name for name in output.decode("utf-8", "surrogateescape").split("\0") if name]


def changed_files(ref: str, cwd: Path = Path()) -> list[Path]:
    """Every file (absolute path) that differs from the merge base of ``ref`` and ``HEAD``
    in the working tree, deleted files included, untracked files too (ignored ones not)."""
    verify_revision(cwd, ref)
    top = Path(run_git(cwd, "rev-parse", "--show-toplevel").decode().strip())
    base = run_git(cwd, "merge-base", ref, "HEAD").decode().strip()
    tracked = run_git(top, "diff", "--name-only", "-z", "--no-renames", base, "--")
    untracked = run_git(top, "ls-files", "--others", "--exclude-standard", "-z")
    return sorted({top / name for name in _names(tracked) + _names(untracked)})


def changed_records(ref: str, within: Sequence[Path], cwd: Path = Path()) -> list[Path]:
    """The record files below ``within`` that the branch changed since it left ``ref``, or
    whose stamp it changed; a deleted record is not among them. Paths are relative to the
    working folder where they lie below it (as diagnostics and annotations name them)."""
    folders = [path.resolve() for path in within]
    found: set[Path] = set()
    for path in changed_files(ref, cwd):
        record = path if path.suffix in RECORD_SUFFIXES else record_of_stamp(path)
        if record is None or relative_to_mappings(record) is None or not record.is_file():
            continue
        record = record.resolve()
        if any(record == folder or folder in record.parents for folder in folders):
            found.add(record)
    return [_shown(record) for record in sorted(found)]


def _shown(path: Path) -> Path:
    here = Path.cwd().resolve()
    return Path(os.path.relpath(path, here)) if here in path.parents else path
