"""Print diagnostics as text, JSON or GitHub Actions annotations."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TextIO

from apimap.checking.diagnostics import Severity
from apimap.record.textchars import one_line

if TYPE_CHECKING:
    from apimap.checking.runner import CheckResult

FORMATS = ("text", "json", "github")


def summary_line(result: CheckResult) -> str:
    """The closing line with counts (notices only when there are some)."""
    errors = result.count(Severity.ERROR)
    warnings = result.count(Severity.WARNING)
    notices = result.count(Severity.NOTICE)
    if not notices:
        return (
            f"检查了 {result.files} 个文件：{errors} 个错误，{warnings} 个警告 "
            f"(checked {result.files} files: {errors} errors, {warnings} warnings)"
        )
    return (
        f"检查了 {result.files} 个文件：{errors} 个错误，{warnings} 个警告，{notices} 个提示 "
        f"(checked {result.files} files: {errors} errors, {warnings} warnings, "
        f"{notices} notices)"
    )


LEVELS = {
    Severity.ERROR: "",
    Severity.WARNING: "[警告 warning] ",
    Severity.NOTICE: "[提示 notice] ",
}
"""How the text output marks a diagnostic's severity (an error is unmarked)."""


def write_text(result: CheckResult, out: TextIO) -> None:
    """``path:line:col: CODE message`` plus an indented hint, one line each whatever the
    record text they quote holds."""
    for d in result.diagnostics:
        level = LEVELS[d.severity]
        out.write(f"{one_line(d.path)}:{d.line}:{d.col}: {d.code} {level}{one_line(d.message)}\n")
        out.write(f"    提示 (hint): {one_line(d.hint)}\n")
    out.write(summary_line(result) + "\n")


def write_json(result: CheckResult, out: TextIO) -> None:
    """One JSON document with every diagnostic and the counts."""
    document = {
        "version": 1,
        "diagnostics": [d.to_json() for d in result.diagnostics],
        "summary": {
            "files": result.files,
            "errors": result.count(Severity.ERROR),
            "warnings": result.count(Severity.WARNING),
            "notices": result.count(Severity.NOTICE),
            **result.figures(),
        },
    }
    out.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write_github(result: CheckResult, out: TextIO) -> None:
    """Workflow commands that GitHub Actions shows as annotations on the diff (``::error``,
    ``::warning`` and ``::notice`` by severity)."""
    for d in result.diagnostics:
        command = str(d.severity)
        props = ",".join(
            [
                f"file={_escape_property(d.path)}",
                f"line={d.line}",
                f"col={d.col}",
                f"title={_escape_property(d.code)}",
            ]
        )
        text = one_line(d.message) + "\n" + one_line(d.hint)
        out.write(f"::{command} {props}::{_escape_data(text)}\n")
    out.write(summary_line(result) + "\n")


WRITERS = {"text": write_text, "json": write_json, "github": write_github}
