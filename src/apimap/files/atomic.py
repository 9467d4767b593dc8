"""Writing a file so that a crash leaves either the old or the new one, never half of it."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves either the old or the new file.

    The text goes to a temporary file in the same folder, is flushed to disk and
    then renamed over the original, keeping its permissions.
    """
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_cache_file(path: Path, text: str) -> None:
    """Replace the cache file ``path`` with ``text``, whole or not at all, and never fail: a
    cache that cannot be written only costs time, and one lost in a crash too (so, unlike
    :func:`write_atomically`, nothing is flushed to disk). A temporary file left by a failed
    write is removed."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
