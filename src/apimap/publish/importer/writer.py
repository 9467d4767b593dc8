"""Write an imported record: canonical YAML, atomically.

The file starts with the schema line every record carries; the source text
the record has no field for travels in its ``imported.findings``. The YAML
body is the canonical form of :mod:`apimap.files.emit`, so ``apimap check`` finds it
formatted; before anything is written the text is loaded back exactly as
``apimap check`` reads a file (size cap, encoding, control characters) and
must give the same record.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from apimap.checking.rules.registry import FILE_PROBLEM_RULES
from apimap.files import loader
from apimap.files.canonical import schema_comment
from apimap.files.emit import render
from apimap.files.validate import validate
from apimap.files.yamlcomments import Comments
from apimap.publish.importer.record_data import record_fields
from apimap.record.model import Record
from apimap.record.paths import record_path


class WriteError(Exception):
    """The record cannot be written as it is."""


def record_text(record: Record) -> str:
    """The file text of ``record``; raises :class:`WriteError` if it would not load back."""
    head = [schema_comment(record_path(record.torch_api))]
    data = record_fields(record)
    text = render(data, Comments(head=head))
    doc, load_problems = loader.load(text.encode("utf-8"))
    if doc is None:
        problem = load_problems[-1]
        code = FILE_PROBLEM_RULES[problem.kind].code
        raise WriteError(f"写出的记录无法读回 (the record would not load)：{code} {problem.detail}")
    again = validate(doc)[0]
    if again is None or again != Record.model_validate(data) or doc.data != data:
        raise WriteError("写出的 YAML 读回后与记录不同 (written YAML does not load back the same)")
    return text


def write_new(path: Path, text: str, replace: bool) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename.

    A reader never sees a half-written record. The file is not synced to disk:
    an import is repeatable, and syncing every record would dominate its time.

    Without ``replace`` an existing file is never touched: the temporary file is
    hard-linked into place, which fails if ``path`` exists (:class:`FileExistsError`).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
        os.chmod(temporary, 0o644)
        if replace:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
