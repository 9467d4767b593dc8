"""Verification stamps: what ``apimap verify`` proved about a record, bound to its content.

A record at ``<root>/mappings/<path>.yaml`` has its stamp at
``<root>/stamps/<path>.json``, one file per record, so that pull requests that
touch different records never conflict. Only ``apimap verify --update``
writes stamps. A stamp names

* the digest of the record's facts it verified: every value except prose
  (names, descriptions, notes' text, conditions), so that an edit of an API
  name, a signature, a row's kind, code or an acknowledged probe makes it
  stale, while rewording a sentence, formatting and comments do not;
* the version of apimap's verifier (what a stamp proves changes with it);
* the library versions;
* what was proven: signatures read (or not, and why), calls, cases and probes
  executed, and what stayed unproven (then the badge says 部分验证);
* the probe results, which the page shows as its behaviour table;
* with ``apimap verify --matrix``, for each other paddle release whether the mapping
  holds as written there, and if not, what differs.

``apimap check`` reads stamps without importing torch or paddle.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import BaseModel

from apimap.record.derived import fields_of
from apimap.record.model import PROSE_ROLES, Record
from apimap.record.paths import relative_to_mappings

STAMPS_DIR = "stamps"
STAMP_SUFFIX = ".json"
FORMAT = 1
VERIFIER_VERSION = 2
"""Raise when what verify proves changes (a new probe class, a stricter comparison):
every stamp then goes stale and the corpus is verified again."""


def digest(data: Any) -> str:
    """The digest of a record's facts: canonical JSON of the data without its prose."""
    text = json.dumps(facts(data), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


NOT_FACTS = frozenset({"imported"})
"""Fields that say nothing verification proves: what an import found on the source page."""


def facts(data: Any, model: type[BaseModel] = Record) -> Any:
    """``data`` without the values of prose fields (verification proves nothing about
    them), read along the record model."""
    if not isinstance(data, dict):
        return data
    roles, nested = fields_of(model)
    out: dict[str, Any] = {}
    for key, value in data.items():
        if (roles.get(key) in PROSE_ROLES and isinstance(value, str)) or key in NOT_FACTS:
            continue
        inner = nested.get(key) if isinstance(key, str) else None
        if inner is None:
            out[key] = value
        elif isinstance(value, list):
            out[key] = [facts(item, inner) for item in value]
        else:
            out[key] = facts(value, inner)
    return out


def stamp_relpath(record_relpath: PurePosixPath) -> PurePosixPath:
    """``torch/torch.abs.yaml`` -> ``torch/torch.abs.json`` (below ``stamps/``)."""
    return record_relpath.with_suffix(STAMP_SUFFIX)


def stamp_file(record_file: Path) -> Path | None:
    """Where the stamp of a record below a ``mappings/`` folder lives; ``None`` elsewhere."""
    resolved = record_file.absolute()
    below = relative_to_mappings(resolved)
    if below is None:
        return None
    root = Path(*resolved.parts[: len(resolved.parts) - len(below.parts) - 1])
    return root / STAMPS_DIR / stamp_relpath(below)


@dataclass(frozen=True)
class ProbeResult:
    """One probe: what each library did, and whether the record acknowledges a difference."""

    probe: str
    """``positional``, ``dtype:uint8``, ``scalar:other`` ..."""
    call: int
    """The index of the call the probe varies."""
    torch: str
    """The outcome: the result's dtype or type, or ``error: TypeError``."""
    paddle: str
    differs: bool
    detail: str = ""
    """What differs, in Chinese with an English gloss."""
    acknowledged: str = ""
    """Where the record explains it: ``notes[1]``, ``accepted[0]``, ``params[2]``."""


@dataclass(frozen=True)
class Release:
    """What ``apimap verify --matrix`` measured against one other paddle release."""

    holds: bool
    """The mapping holds as written: the API exists, the signatures match, every call and
    example gives the same result and every probe behaves as on the pinned release."""
    differences: list[str] = field(default_factory=list)
    """What differs from the pinned release, one line each (Chinese with an English gloss)."""


@dataclass(frozen=True)
class Proven:
    """What the verification run established."""

    signatures: dict[str, str] = field(default_factory=dict)
    """Side -> ``read``, ``unreadable`` or ``none`` (no signature recorded)."""
    calls: int = 0
    cases: int = 0
    probes: int = 0
    unproven: list[str] = field(default_factory=list)
    """What could not be checked, one Chinese sentence each (empty: fully verified)."""


@dataclass(frozen=True)
class Stamp:
    """The content of one stamp file."""

    record: str
    """The digest of the verified record data."""
    verifier: int
    versions: dict[str, str]
    date: str
    proven: Proven
    behaviour: list[ProbeResult] = field(default_factory=list)
    releases: dict[str, Release] = field(default_factory=dict)
    """Other paddle release -> what ``--matrix`` measured (empty until it runs)."""
    format: int = FORMAT

    @property
    def complete(self) -> bool:
        """Everything the record claims was executed or read."""
        return not self.proven.unproven

    def to_json(self) -> str:
        """The file's text: sorted keys, two-space indent, one final newline."""
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True, indent=2) + "\n"

    def same_proof(self, other: Stamp) -> bool:
        """Equal apart from the date (a re-verification that changed nothing keeps the file)."""
        return {**asdict(self), "date": ""} == {**asdict(other), "date": ""}


class StampFormatError(ValueError):
    """The stamp file is not a stamp apimap wrote."""


def parse_stamp(raw: bytes) -> Stamp:
    """A stamp from its file's bytes; raises :class:`StampFormatError`."""
    try:
        data = json.loads(raw.decode("utf-8"))
        proven = Proven(**data["proven"])
        behaviour = [ProbeResult(**item) for item in data.get("behaviour", [])]
        releases = {
            str(version): Release(bool(item["holds"]), [str(d) for d in item["differences"]])
            for version, item in dict(data.get("releases", {})).items()
        }
        stamp = Stamp(
            record=str(data["record"]),
            verifier=int(data["verifier"]),
            versions={str(k): str(v) for k, v in dict(data["versions"]).items()},
            date=str(data["date"]),
            proven=proven,
            behaviour=behaviour,
            releases=releases,
            format=int(data.get("format", FORMAT)),
        )
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise StampFormatError(f"{type(exc).__name__}: {exc}") from None
    if stamp.format != FORMAT:
        raise StampFormatError(f"format {stamp.format}")
    return stamp


def write_stamp(path: Path, stamp: Stamp) -> bool:
    """Write ``stamp`` atomically; ``False`` when the file already holds the same proof
    (then its date stays, and the file does not change)."""
    if path.is_file():
        try:
            old: Stamp | None = parse_stamp(path.read_bytes())
        except (OSError, StampFormatError):
            old = None
        if old is not None and old.same_proof(stamp):
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(stamp.to_json(), encoding="utf-8")
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return True
