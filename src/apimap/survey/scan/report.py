"""The scan report and its JSON shape (``apimap-scan``, version 1).

JSON document (keys sorted, lists in the order below, byte-identical for the
same files and records)::

    {
      "format": "apimap-scan", "version": 1,
      "surface": {"torch": "2.13.0", "torchvision": "0.29.1"},   # versions of the surface table
      "paths": ["src"],                                          # as given
      "files": {"scanned": 120, "using_torch": 80, "problems": 1},
      "summary": {
        "apis": {BUCKET: {"apis": 3, "uses": 40, "calls": 31}, ...},   # every bucket, in order
        "tensor_methods": {BUCKET: {...}, ...}
      },
      "apis": [                                   # by uses (calls + references), then name
        {"api": "torch.nn.Conv2d", "uses": 12, "calls": 10, "references": 2,
         "bucket": "rename", "public": true,
         "category": {"id": "paddle_more", "label": "paddle 参数更多", "group": 1} | null,
         "record": "torch.nn.Conv2d" | null,      # the record that covers it
         "via": null | "torch.cat",               # name the record was found under (alias)
         "page": "https://.../api/torch.nn.%5EConv2d.html" | null,
         "files": [{"path": "m.py", "first_line": 3, "lines": [3, 9]}]}
      ],
      "tensor_methods": [                         # the heuristic, same fields plus:
        {"method": "view", "api": "torch.Tensor.view", "confidence": "high", ...}
      ],
      "problems": [{"path": "bad.py", "line": 3, "col": 5, "kind": "syntax", "message": "..."}]
    }

BUCKET is one of identical, rename, rewrite, other_package, missing, unknown
(see :class:`apimap.survey.scan.classify.Bucket`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from apimap.survey.scan.classify import Bucket, Classification
from apimap.survey.scan.resolver import FileProblem

FORMAT: Final = "apimap-scan"
VERSION: Final = 1


@dataclass
class Usage:
    """One API (or Tensor method) and where the project uses it."""

    api: str
    classification: Classification
    method: str | None = None
    """The method name, for Tensor-method heuristic entries."""
    confidence: str | None = None
    calls: int = 0
    references: int = 0
    files: dict[str, list[int]] = field(default_factory=dict)
    """Path -> lines, in order."""

    @property
    def uses(self) -> int:
        """Calls and other references."""
        return self.calls + self.references

    @property
    def bucket(self) -> Bucket:
        """The migration bucket."""
        return self.classification.bucket

    @property
    def first(self) -> tuple[str, int]:
        """The first file (by path) and its first line."""
        path = min(self.files)
        return path, self.files[path][0]

    def add(self, path: str, line: int, call: bool) -> None:
        """Count one use."""
        if call:
            self.calls += 1
        else:
            self.references += 1
        self.files.setdefault(path, []).append(line)


@dataclass(frozen=True)
class BucketCount:
    """How many APIs and uses fall in one bucket."""

    apis: int
    uses: int
    calls: int


@dataclass
class ScanReport:
    """Everything one scan found."""

    paths: list[str]
    files: int
    files_using_torch: int
    apis: list[Usage]
    methods: list[Usage]
    problems: list[tuple[str, FileProblem]]
    surface_versions: dict[str, str]
    site_url: str = ""

    def page(self, usage: Usage) -> str | None:
        """The URL of the record's page, below the site URL."""
        record = usage.classification.record
        if record is None or record.page is None:
            return None
        return f"{self.site_url.rstrip('/')}/{record.page}" if self.site_url else record.page

    @staticmethod
    def summary(usages: list[Usage]) -> dict[Bucket, BucketCount]:
        """Counts per bucket, every bucket present."""
        result = {}
        for bucket in Bucket:
            members = [usage for usage in usages if usage.bucket is bucket]
            result[bucket] = BucketCount(
                len(members), sum(u.uses for u in members), sum(u.calls for u in members)
            )
        return result

    def _usage_json(self, usage: Usage) -> dict[str, Any]:
        record = usage.classification.record
        data: dict[str, Any] = {
            "api": usage.api,
            "uses": usage.uses,
            "calls": usage.calls,
            "references": usage.references,
            "bucket": usage.bucket.value,
            "public": usage.classification.public,
            "category": (
                {"id": record.category.value, "label": record.label, "group": record.group}
                if record
                else None
            ),
            "record": record.api if record else None,
            "via": usage.classification.via,
            "page": self.page(usage),
            "files": [
                {"path": path, "first_line": lines[0], "lines": lines}
                for path, lines in sorted(usage.files.items())
            ],
        }
        if usage.method is not None:
            data["method"] = usage.method
            data["confidence"] = usage.confidence
        return data

    def to_json(self) -> dict[str, Any]:
        """The versioned JSON document described in the module docstring."""

        def counts(usages: list[Usage]) -> dict[str, dict[str, int]]:
            return {
                bucket.value: {"apis": c.apis, "uses": c.uses, "calls": c.calls}
                for bucket, c in self.summary(usages).items()
            }

        return {
            "format": FORMAT,
            "version": VERSION,
            "surface": dict(self.surface_versions),
            "paths": list(self.paths),
            "files": {
                "scanned": self.files,
                "using_torch": self.files_using_torch,
                "problems": len(self.problems),
            },
            "summary": {"apis": counts(self.apis), "tensor_methods": counts(self.methods)},
            "apis": [self._usage_json(usage) for usage in self.apis],
            "tensor_methods": [self._usage_json(usage) for usage in self.methods],
            "problems": [
                {
                    "path": path,
                    "line": problem.line,
                    "col": problem.col,
                    "kind": problem.kind,
                    "message": problem.message,
                }
                for path, problem in self.problems
            ],
        }
