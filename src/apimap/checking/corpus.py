"""Load every record of a ``mappings/`` folder with its stamp, refusing a corpus that is wrong.

The site, the exporter, the cross-check and the coverage report read the
knowledge base through :func:`load_entries`. A record that does not load, or an
API listed twice (the rule AM501 decides), makes the whole corpus refused with
one line per problem, because a table with a wrong or missing row is worse
than no table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from apimap.checking.context import CorpusContext, RecordSummary
from apimap.checking.rules.catalog.am501_one_record_per_api import RULE as ONE_RECORD_PER_API
from apimap.checking.rules.registry import FILE_PROBLEM_RULES
from apimap.checking.runner import iter_record_files, read_stamp
from apimap.files import loader
from apimap.files.content_cache import ContentCache, content_key, record_salt
from apimap.files.releases import ReleaseGuide, guide
from apimap.files.stamps import Stamp, StampFormatError, digest, parse_stamp, stamp_digest
from apimap.files.validate import validate
from apimap.record.model import Record
from apimap.record.pages import other_names


class CorpusError(Exception):
    """The records cannot be used; ``problems`` says why, one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Entry:
    """One record, where it came from, and its stamp when that is current."""

    record: Record
    source: str
    key: str
    """The content key of the record file (see :func:`apimap.files.content_cache.content_key`)."""
    stamp_key: str = ""
    """The content key of the current stamp's file (empty without a current stamp)."""
    stamp_bytes: bytes | None = None
    """The current stamp's file, read but not parsed yet: most builds need few stamps whole."""

    @cached_property
    def stamp(self) -> Stamp | None:
        """The verification stamp, only when it verified exactly this record's data."""
        if self.stamp_bytes is None:
            return None
        try:
            return parse_stamp(self.stamp_bytes)
        except StampFormatError:
            return None

    @property
    def api(self) -> str:
        """The torch API name."""
        return self.record.torch_api

    @cached_property
    def guide(self) -> ReleaseGuide | None:
        """The record's guidance over the paddle releases (see :func:`releases.guide`), worked
        out once for every page and index that shows it."""
        return guide(self.record, self.stamp)

    def remember_guide(self, found: ReleaseGuide | None) -> None:
        """Take ``found`` as :attr:`guide`: what a cache kept for this record and stamp."""
        self.__dict__["guide"] = found


def _load_one(path: Path, raw: bytes) -> tuple[Record | None, str | None, str | None]:
    """The record, the digest of its data, or the first problem."""
    doc, problems = loader.load(raw)
    if doc is None:
        first = problems[0]
        code = FILE_PROBLEM_RULES[first.kind].code
        return None, None, f"{path}:{first.line}:{first.col}: {code} 无法解析 (cannot load)"
    record, schema_problems = validate(doc)
    if record is None:
        problem = schema_problems[0]
        rule = FILE_PROBLEM_RULES[problem.kind]
        line, col = problem.loc
        return None, None, f"{path}:{line}:{col}: {rule.code} {rule.message(problem.detail)}"
    return record, digest(doc.data), None


def _current_stamp(path: Path, data_digest: str) -> tuple[bytes | None, str]:
    """The bytes and content key of the record's stamp file when it verified ``data_digest``."""
    raw = read_stamp(path)
    if raw is None:
        return None, ""
    try:
        verified = stamp_digest(raw)
    except StampFormatError:
        return None, ""
    return (raw, content_key(raw)) if verified == data_digest else (None, "")


def load_entries(mappings: Path, cache_file: Path | None = None) -> list[Entry]:
    """Every record below ``mappings``, sorted by API name; raise :class:`CorpusError`.

    With ``cache_file``, records whose file did not change since the last run are
    taken from the cache instead of being parsed again.
    """
    if not mappings.is_dir():
        raise CorpusError([f"{mappings}: 目录不存在 (no such folder)"])
    cache = ContentCache(cache_file, record_salt() if cache_file else "")
    entries: list[Entry] = []
    problems: list[str] = []
    for path in iter_record_files([mappings]):
        try:
            raw = path.read_bytes()
        except OSError as exc:
            problems.append(f"{path}: 无法读取 (cannot read): {exc.strerror}")
            continue
        key = content_key(raw)
        record, data_digest = _cached(cache.get(key))
        if record is None:
            loaded, loaded_digest, problem = _load_one(path, raw)
            if loaded is None or loaded_digest is None:
                problems.append(problem or str(path))
                continue
            record, data_digest = loaded, loaded_digest
            cache.put(key, data_digest + "\n" + record.model_dump_json())
        stamp_bytes, stamp_key = _current_stamp(path, data_digest)
        entries.append(Entry(record, str(path), key, stamp_key, stamp_bytes))
    cache.save()
    problems += duplicate_problems(entries)
    if problems:
        raise CorpusError(problems)
    return sorted(entries, key=lambda entry: entry.api)


def _cached(text: str | None) -> tuple[Record | None, str]:
    if text is None or "\n" not in text:
        return None, ""
    data_digest, _, payload = text.partition("\n")
    try:
        return Record.model_validate_json(payload), data_digest
    except ValueError:
        return None, ""


def duplicate_problems(entries: list[Entry]) -> list[str]:
    """What AM501 finds, one line per API listed twice."""
    summaries = [_summary(entry) for entry in entries]
    findings = ONE_RECORD_PER_API.check(CorpusContext(summaries))
    return [
        f"{finding.path}: {ONE_RECORD_PER_API.code} {ONE_RECORD_PER_API.message(finding.detail)}"
        for finding in findings
    ]


def _summary(entry: Entry) -> RecordSummary:
    record = entry.record
    return RecordSummary.of_names(entry.source, record.torch_api, other_names(record))
