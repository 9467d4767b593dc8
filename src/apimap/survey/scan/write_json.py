"""``--format json``: the versioned document of :mod:`apimap.survey.scan.report`."""

from __future__ import annotations

import json
from typing import TextIO

from apimap.survey.scan.report import ScanReport


def write_json(report: ScanReport, out: TextIO, limit: int = 0) -> None:
    """The whole report (``limit`` does not apply: scripts get everything)."""
    del limit
    out.write(json.dumps(report.to_json(), ensure_ascii=False, indent=2, sort_keys=True) + "\n")
