"""What the parent and the workers exchange: one JSON object per line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from apimap.record.location import Path


@dataclass(frozen=True)
class Issue:
    """One problem a worker found, located by a path into the job's data."""

    code: str
    where: Path
    """Path into the record (signature jobs) or into the case (example jobs)."""
    detail: str
    line: int | None = None
    """For a problem inside a code snippet: the line of the snippet (1-based)."""

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the pipe."""
        return {
            "code": self.code,
            "where": list(self.where),
            "detail": self.detail,
            "line": self.line,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Issue:
        """Inverse of :meth:`to_json`."""
        line = data.get("line")
        return cls(
            str(data["code"]),
            tuple(data["where"]),
            str(data["detail"]),
            None if line is None else int(line),
        )


def encode(message: dict[str, Any]) -> bytes:
    """One line of the protocol."""
    return (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8")


def decode(line: bytes) -> dict[str, Any]:
    """Inverse of :func:`encode`; raises ``ValueError`` on a malformed line."""
    message = json.loads(line.decode("utf-8"))
    if not isinstance(message, dict):
        raise ValueError("protocol message is not an object")
    return message
