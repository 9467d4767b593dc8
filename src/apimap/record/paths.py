"""Where a record lives, derived from its API name alone.

File systems on macOS and Windows ignore case, so ``torch.Tensor.T`` and
``torch.Tensor.t`` must not map to names that differ only in case. Every
upper-case letter of the API name is therefore preceded by ``^`` in the file
name: ``torch.Tensor.T`` -> ``torch.^Tensor.^T.yaml`` and ``torch.Tensor.t``
-> ``torch.^Tensor.t.yaml``. Lower-casing an encoded name keeps the ``^``
marks, so the encoding stays injective on a case-insensitive file system.
Folders mirror the namespace in lower case.
"""

from __future__ import annotations

import re
from pathlib import PurePath, PurePosixPath

RECORD_SUFFIX = ".yaml"
MAPPINGS_DIR = "mappings"
"""The folder that holds the records; a file is a record only below one."""
_UPPER = re.compile(r"([A-Z])")
_ENCODED_UPPER = re.compile(r"\^([A-Z])")
API_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")


def encode_name(api: str) -> str:
    """``torch.nn.Conv2d`` -> ``torch.nn.^Conv2d`` (case-collision-safe stem)."""
    return _UPPER.sub(r"^\1", api)


def decode_name(stem: str) -> str:
    """Inverse of :func:`encode_name`."""
    return _ENCODED_UPPER.sub(r"\1", stem)


def record_path(api: str) -> PurePosixPath:
    """Path of the record for ``api``, relative to the ``mappings/`` folder."""
    namespace = api.split(".")[:-1]
    return PurePosixPath(*(part.lower() for part in namespace), encode_name(api) + RECORD_SUFFIX)


def relative_to_mappings(path: PurePath) -> PurePosixPath | None:
    """The part of ``path`` below its nearest ``mappings`` folder (``None`` outside one)."""
    parts = path.parts
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] == MAPPINGS_DIR:
            return PurePosixPath(*parts[index + 1 :])
    return None
