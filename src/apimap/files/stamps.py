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
* for the pinned paddle release, and with ``apimap verify --matrix`` for each older
  one, the facts a page's guidance per release is written from: whether the API and
  each name exist, its parameters, which torch-style names it takes, the outcome of
  every run of the record's own code (the accepting and the portable form of each
  call, each alternative, each example) and the probes that behave otherwise.

``apimap check`` reads stamps without importing torch or paddle.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import BaseModel

from apimap.record.categories import guessed_section
from apimap.record.derived import fields_of
from apimap.record.model import PROSE_ROLES, Record, with_shared_inputs
from apimap.record.paths import MAPPINGS_DIR, relative_to_mappings

STAMPS_DIR = "stamps"
STAMP_SUFFIX = ".json"
FORMAT = 2
VERIFIER_VERSION = 3
"""Raise when what verify proves changes (a new probe class, a stricter comparison):
every stamp then goes stale and the corpus is verified again."""


def digest(data: Any) -> str:
    """The digest of a record's facts: canonical JSON of the data without its prose, with what
    a record may leave out filled in (so that leaving it out changes no digest)."""
    text = json.dumps(
        facts(_filled(data)), ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


NOT_FACTS = frozenset({"imported"})
"""Fields that say nothing verification proves: what an import found on the source page."""


def _filled(data: Any) -> Any:
    """``data`` with each call's shared inputs in the call and the section the name points to.

    Only these two: a stamp's digest was taken over records that wrote both out.
    """
    data = with_shared_inputs(data)
    if not isinstance(data, dict):
        return data
    data = {key: value for key, value in data.items() if key != "inputs"}
    if "section" not in data and isinstance(data.get("torch_api"), str):
        data["section"] = guessed_section(data["torch_api"]).value
    return data


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


def record_of_stamp(stamp: Path) -> Path | None:
    """The record a stamp file below a ``stamps/`` folder belongs to (the inverse of
    :func:`stamp_file`: ``.yaml``, or ``.yml`` where only that exists); ``None`` elsewhere."""
    if stamp.suffix != STAMP_SUFFIX:
        return None
    parts = stamp.parts
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] == STAMPS_DIR:
            record = Path(*parts[:index], MAPPINGS_DIR, *parts[index + 1 :]).with_suffix(".yaml")
            short = record.with_suffix(".yml")
            return short if short.is_file() and not record.is_file() else record
    return None


@dataclass(frozen=True)
class ProbeResult:
    """One probe: what each library did, and whether the record acknowledges a difference."""

    probe: str
    """``positional``, ``dtype:uint8``, ``scalar:other`` ..."""
    where: tuple[str | int, ...]
    """The code the probe varies: ``("calls", 0)``, ``("examples", 0, "cases", 1)`` ..."""
    torch: str
    """The outcome: the result's dtype or type, or ``error: TypeError``."""
    paddle: str
    differs: bool
    detail: str = ""
    """What differs, in Chinese with an English gloss."""
    acknowledged: str = ""
    """Where the record explains it: ``notes[1]``, ``accepted[0]``, ``params[2]``."""


@dataclass(frozen=True)
class ProbeOutcome:
    """What one probe did on a paddle release other than the pinned one, where it differs."""

    paddle: str
    """The outcome there: the result's dtype or type, or ``✗ TypeError``."""
    differs: bool
    """Whether paddle's result differs from torch's there."""


OK = "ok"
"""The outcome of a run that gave torch's results."""
NOT_RUN = "✗ 未运行"
"""A probe that ran on the pinned release but not on another (its torch side failed there)."""


@dataclass(frozen=True)
class Release:
    """What ``apimap verify`` measured on one paddle release: the facts a page's per-release
    guidance is written from (the pinned release is measured too)."""

    holds: bool
    """The mapping holds as written: the API exists, the signatures match, every call and
    example gives the same result and every probe behaves as on the pinned release."""
    api: bool = True
    """``paddle_api`` exists there."""
    params: list[str] | None = None
    """The parameters of ``paddle_api``'s first signature there (``None``: not read)."""
    accepts: dict[str, bool] = field(default_factory=dict)
    """Each torch-style name of ``paddle_accepts`` -> whether the API takes it there."""
    names: dict[str, bool] = field(default_factory=dict)
    """Each other paddle name the record uses (alternatives, in-place variant) -> exists."""
    runs: dict[str, str] = field(default_factory=dict)
    """Each run of the record's own code (``calls[0]``, ``calls[0]:portable``,
    ``alternatives[1].calls[0]``, ``examples[0].cases[0]`` …) -> ``ok``, or how it failed:
    ``raises:TypeError``, ``differs:values`` (or dtype, shape, type, grad), ``timeout``,
    ``crash``, ``torch:…`` (torch's side failed)."""
    probes: dict[str, ProbeOutcome] = field(default_factory=dict)
    """``probe@where`` -> the probe's outcome, where it is not the pinned release's."""


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
    """Paddle release -> what was measured there: the pinned release always, the older ones
    with ``--matrix`` (until then only the pinned one)."""
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


_RECORD_LINE = re.compile(rb'^  "record": "([0-9a-f]+)",?$', re.MULTILINE)
"""The digest's line in a stamp file as :meth:`Stamp.to_json` writes it."""


def stamp_digest(raw: bytes) -> str:
    """The record digest a stamp file names, read without parsing the whole stamp when the file
    is as :meth:`Stamp.to_json` writes it; raises :class:`StampFormatError`."""
    found = _RECORD_LINE.findall(raw)
    if len(found) == 1:
        return str(found[0].decode("ascii"))
    return parse_stamp(raw).record


def parse_stamp(raw: bytes) -> Stamp:
    """A stamp from its file's bytes; raises :class:`StampFormatError`."""
    try:
        data = json.loads(raw.decode("utf-8"))
        proven = Proven(**data["proven"])
        behaviour = [
            ProbeResult(**{**item, "where": tuple(item["where"])})
            for item in data.get("behaviour", [])
        ]
        releases = {
            str(version): _release(item) for version, item in dict(data.get("releases", {})).items()
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


def _release(item: dict[str, Any]) -> Release:
    params = item.get("params")
    return Release(
        holds=bool(item["holds"]),
        api=bool(item.get("api", True)),
        params=None if params is None else [str(name) for name in params],
        accepts={str(k): bool(v) for k, v in dict(item.get("accepts", {})).items()},
        names={str(k): bool(v) for k, v in dict(item.get("names", {})).items()},
        runs={str(k): str(v) for k, v in dict(item.get("runs", {})).items()},
        probes={
            str(k): ProbeOutcome(str(v["paddle"]), bool(v["differs"]))
            for k, v in dict(item.get("probes", {})).items()
        },
    )


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
