"""Write ``verified: {torch: X, paddle: Y}`` into a record with a minimal text edit.

An existing top-level ``verified`` entry is replaced where it stands;
otherwise the block goes after the last content line (before trailing
comments), which is where the canonical form puts the record's last field.
Every other byte of the file stays as it was. The result is parsed again and
must hold the same data apart from the stamp; it is written to a temporary
file in the same folder and renamed over the record, so a record is never left
half-written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from apimap import loader


class StampError(Exception):
    """The record could not be stamped (it does not load, or the edit would change it)."""


def stamp_block(versions: dict[str, str], newline: str = "\n") -> list[str]:
    """The lines of the ``verified`` entry."""
    order = ["torch", "paddle", "torchvision"]
    lines = ["verified:"] + [f"  {name}: {versions[name]}" for name in order if name in versions]
    return [line + newline for line in lines]


def stamped_text(text: str, versions: dict[str, str]) -> str:
    """``text`` with its stamp set to ``versions``; raises :class:`StampError`."""
    doc, problems = loader.parse(text)
    if doc is None:
        raise StampError(f"无法解析 (cannot parse): {problems[0].code} {problems[0].detail}")
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline
    if ("verified",) in doc.keys:
        start = doc.key_loc(("verified",)).line - 1
        end = start + 1
        while end < len(lines) and lines[end][:1] in {" ", "\t"}:
            end += 1
    else:
        last = max(
            (i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")),
            default=len(lines) - 1,
        )
        start = end = last + 1
    result = "".join(lines[:start] + stamp_block(versions, newline) + lines[end:])
    again, _ = loader.parse(result)
    expected = {**doc.data, "verified": dict(versions)}
    if again is None or again.data != expected:
        raise StampError("插入标记会改变记录的其他内容 (the edit would change other data)")
    return result


def write_stamp(path: Path, versions: dict[str, str], verified: bytes | None = None) -> bool:
    """Stamp the file in place; ``False`` when it already carried exactly this stamp.

    With ``verified``, the file must still hold exactly those bytes (it was not
    edited while it was being verified).
    """
    raw = path.read_bytes()
    if verified is not None and raw != verified:
        raise StampError("验证期间文件被修改，未写入 (file changed while it was verified)")
    text, problems = loader.decode(raw)
    if text is None:
        raise StampError(f"无法读取 (cannot read): {problems[0].code} {problems[0].detail}")
    new = stamped_text(text, versions)
    if new == text:
        return False
    bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(bom + new)
        os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return True
