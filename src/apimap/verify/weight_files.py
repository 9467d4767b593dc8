"""The weights a job made, kept in files for the jobs that copy them.

A torch job's result carries the weights of the layers its runs built (a VGG's are half a
gigabyte). Every paddle release copies them. Sent as base64 inside the result's JSON line,
they were decoded by the verifying process, encoded again for each release's job and held
until the record was judged: a run over the model records ran out of memory. Instead a
worker sends each array's bytes raw, after the result's line (:data:`SIZES_KEY` gives their
lengths); the verifying process streams them into files of the run's directory without
holding them, and a paddle job carries the files' paths (:data:`FILES_KEY`): the paddle
workers, whose sandbox may read the directory, map the files (copy-on-write) with no base64
and no JSON; the worker keeps what it records as raw bytes too.
The files go when nothing refers to the result that made them any more.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
import threading
import weakref
from typing import Any

SIZES_KEY = "blob_sizes"
"""In a worker's result line: label -> the length of the raw bytes that follow the line,
in this order."""
FILES_KEY = "blob_files"
"""In a job: label -> the file holding the bytes of an array it copies."""


def raw_blobs(result: dict[str, Any]) -> list[bytes]:
    """Take a result's weights out of it (worker side): the bytes to send after its line, in
    the order of the sizes put in their place."""
    made = result.pop("blobs", None)
    if not isinstance(made, dict) or not made:
        return []
    raw = {str(label): bytes(data) for label, data in made.items()}
    result[SIZES_KEY] = {label: len(data) for label, data in raw.items()}
    return list(raw.values())


class SpilledWeights:
    """The files of one result's weights (label -> path); removed with this object."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files
        weakref.finalize(self, remove, list(files.values()))


def remove(paths: list[str]) -> None:
    """Delete these files (those already gone are no error)."""
    for path in paths:
        with contextlib.suppress(OSError):
            os.unlink(path)


class WeightFiles:
    """The run's directory of weights received from the workers."""

    def __init__(self) -> None:
        self._directory = tempfile.TemporaryDirectory(prefix="apimap-weights-")
        self.path = self._directory.name
        self._numbers = itertools.count()
        self._lock = threading.Lock()

    def new_file(self) -> str:
        """A fresh file name in the directory (never a name a worker chose)."""
        with self._lock:
            number = next(self._numbers)
        return os.path.join(self.path, f"{number}.bin")

    def close(self) -> None:
        """Remove the directory and whatever is left in it."""
        self._directory.cleanup()


def spilled(data: dict[str, Any] | None) -> dict[str, str]:
    """Label -> file of the weights a result made (none when it made none)."""
    found = data.get(FILES_KEY) if isinstance(data, dict) else None
    return found.files if isinstance(found, SpilledWeights) else {}
