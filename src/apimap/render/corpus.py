"""Load the records the site is made of, refusing anything that would make it wrong."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from apimap import loader
from apimap.categories import Category
from apimap.check import iter_record_files
from apimap.model import Record
from apimap.paths import encode_name
from apimap.render.cache import ContentCache, content_key, record_salt
from apimap.render.names import API_FOLDER, CATEGORY_FOLDER
from apimap.validate import validate


class RenderError(Exception):
    """The records cannot be rendered; ``problems`` says why, one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Entry:
    """One record and where it came from."""

    record: Record
    source: str
    key: str
    """The content key of the record file (see :func:`apimap.render.cache.content_key`)."""

    @property
    def api(self) -> str:
        """The torch API name."""
        return self.record.torch_api

    @property
    def has_page(self) -> bool:
        """功能缺失 records appear only in the tables."""
        return self.record.category is not Category.MISSING

    @property
    def docname(self) -> str:
        """The page's document name (its URL without ``.html``)."""
        return api_docname(self.api)


def api_docname(api: str) -> str:
    """``torch.nn.Conv2d`` -> ``api/torch.nn.^Conv2d`` (the record file's case-safe stem)."""
    return f"{API_FOLDER}/{encode_name(api)}"


def category_docname(category: Category) -> str:
    """``category/input_usage_diff``."""
    return f"{CATEGORY_FOLDER}/{category.value}"


def _load_one(path: Path, raw: bytes) -> tuple[Record | None, str | None]:
    doc, problems = loader.load(raw)
    if doc is None:
        first = problems[0]
        return None, f"{path}:{first.line}:{first.col}: {first.code} 无法解析 (cannot load)"
    record, findings = validate(doc)
    if record is None:
        rule, finding = findings[0]
        line, col = finding.loc
        return None, f"{path}:{line}:{col}: {rule.code} {rule.message(finding.detail)}"
    return record, None


def _cached_record(text: str | None) -> Record | None:
    if text is None:
        return None
    try:
        return Record.model_validate_json(text)
    except ValueError:
        return None


def load_entries(mappings: Path, cache_file: Path | None = None) -> list[Entry]:
    """Every record below ``mappings``, sorted by API name; raise :class:`RenderError`.

    With ``cache_file``, records whose file did not change since the last run are
    taken from the cache instead of being parsed again.
    """
    if not mappings.is_dir():
        raise RenderError([f"{mappings}: 目录不存在 (no such folder)"])
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
        record = _cached_record(cache.get(key))
        if record is None:
            record, problem = _load_one(path, raw)
            if record is None:
                problems.append(problem or str(path))
                continue
            cache.put(key, record.model_dump_json())
        entries.append(Entry(record, str(path), key))
    cache.save()
    problems += duplicate_problems(entries)
    if problems:
        raise RenderError(problems)
    return sorted(entries, key=lambda entry: entry.api)


def duplicate_problems(entries: list[Entry]) -> list[str]:
    """An API (record or alias) listed twice is an error, not a warning."""
    owner: dict[str, str] = {}
    problems: list[str] = []
    for entry in sorted(entries, key=lambda e: e.source):
        for name in (entry.api, *entry.record.aliases):
            first = owner.get(name)
            if first is None:
                owner[name] = entry.source
            else:
                problems.append(
                    f"{entry.source}: `{name}` 已在 {first} 中列出，同一 API 只能出现一次 "
                    "(API listed twice)"
                )
    return problems
