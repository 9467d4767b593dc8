"""Seeds, mutations and properties of the fuzz suite.

Every input is made from a seed (a real record of ``mappings/``, a rule
fixture, a legacy page, a Python file) by a few random mutations, from a
``random.Random`` seeded with ``(target, run seed, index)``, so that any
failure can be made again. A property returns what went wrong (an empty list
when nothing did); an exception escaping the code under test is one of those
failures, with its traceback.
"""

from __future__ import annotations

import json
import os
import random
import re
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from markupsafe import Markup

from apimap.checking.corpus import Entry
from apimap.checking.fix import fix_text
from apimap.checking.rules.registry import RECORD_RULES
from apimap.checking.runner import check_source
from apimap.files import loader
from apimap.files.canonical import NotFormattable, format_text
from apimap.files.emit import render
from apimap.files.migrate import is_format_one, migrate
from apimap.files.surface import load_surface
from apimap.files.validate import validate
from apimap.files.yamlcomments import Comments
from apimap.publish.importer.run import run_import
from apimap.publish.site import listings, views
from apimap.publish.site.templates import environment
from apimap.publish.site.templates import render as render_template
from apimap.record.pages import api_docname
from apimap.record.paths import relative_to_mappings
from apimap.survey.scan.files import SourceFile
from apimap.survey.scan.resolver import ResolverConfig, scan_file
from hostile import CODE_PAYLOADS, PAYLOADS, html_problems, table_rows

ROOT = Path(__file__).resolve().parents[2]
COUNTS: Counter[str] = Counter()
"""Inputs tried per target in this session (printed at the end of the run)."""

SEED = int(os.environ.get("APIMAP_FUZZ_SEED", "20240519"))
"""The run's seed; CI uses the default, so a failure there is reproducible."""


def record_seeds() -> list[tuple[str, str]]:
    """(path below ``mappings/``, text) of every real record and every rule fixture."""
    seeds = []
    for path in sorted((ROOT / "mappings").rglob("*.yaml")):
        seeds.append((path.relative_to(ROOT / "mappings").as_posix(), path.read_text("utf-8")))
    catalog = ROOT / "src" / "apimap" / "rules" / "catalog"
    for path in sorted(catalog.glob("*/*.yaml")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        seeds.append((f"torch/fixture.{path.parent.name}.{path.stem}.yaml", text))
    return seeds


def page_seeds() -> list[str]:
    """Legacy Markdown pages: the importer's fixtures and the fuzz suite's own."""
    folders = [ROOT / "tests" / "importer" / "fixtures", Path(__file__).parent / "pages"]
    return [path.read_text("utf-8") for folder in folders for path in sorted(folder.rglob("*.md"))]


def python_seeds(records: list[tuple[str, str]]) -> list[str]:
    """Python sources: apimap's own modules and the code of the records."""
    sources = [path.read_text("utf-8") for path in sorted((ROOT / "src" / "apimap").rglob("*.py"))]
    for _, text in records[:200]:
        doc, _ = loader.load(text.encode("utf-8"))
        if doc is not None:
            sources += [value for _, value in _leaves(doc.data) if isinstance(value, str)][:5]
    return sources


NASTY = [
    "\x00", "\x85", "\u2028", "\u2029", "\u202e", "\u2066", "\r", "\r\n", "\t", "\x1b",
    "\x7f", "\x9b", "\ufeff", "\u200b", "'", '"', ":", ": ", "-", "- ", "[", "]", "{", "}",
    "#", " #", "|", ">", "&", "*", "!", "%", "@", "`", "``", "```", "\\", "\n", "\n\n", "  ",
    "中", "。", "\U0001f600", "<script>", "{download}`x`", "..", "/", "0x10", "1_0", "~",
    "null", "yes", "---", "...", "?", ",", "'''", '"""', "__class__", "os.system('x')",
    "[" * 40, "- " * 40, "(" * 120, "\\u202e", "\\x00",
]  # fmt: skip
"""Pieces of text that tend to break parsers, emitters and renderers."""

BIG = [
    "1" * 20_000,
    " + ".join(["x"] * 1500),
    "y = " + "(" * 300 + ")" * 300,
    "[" * 3000 + "]" * 3000,
    "x\n" * 2000,
]
"""Values too long or too deep for code that recurses or allocates per character."""


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))


def _payload(rng: random.Random) -> Any:
    choice = rng.random()
    if choice < 0.5:
        return rng.choice(PAYLOADS + CODE_PAYLOADS + NASTY)
    if choice < 0.6:
        return rng.choice(BIG)
    if choice < 0.7:
        return rng.choice([None, True, False, "0.5", "1e-05", "-3", "", " "])
    if choice < 0.8:
        return [rng.choice(PAYLOADS) for _ in range(rng.randint(0, 4))]
    if choice < 0.9:
        nested: Any = rng.choice(PAYLOADS)
        for _ in range(rng.randint(1, 40)):
            nested = {"k": nested} if rng.random() < 0.5 else [nested]
        return nested
    return "".join(rng.choice(NASTY) for _ in range(rng.randint(1, 8)))


def mutate_text(text: str, rng: random.Random, others: list[str]) -> str:
    """One random edit of ``text`` as text."""
    lines = text.split("\n")
    kind = rng.randrange(10)
    where = rng.randrange(len(text) + 1)
    if kind == 0:
        return text[:where] + rng.choice(NASTY) + text[where:]
    if kind == 1:
        return text[:where] + text[where + rng.randint(1, 40) :]
    if kind == 2 and lines:
        index = rng.randrange(len(lines))
        lines[index:index] = [lines[index]] * rng.randint(1, 3)
    elif kind == 3 and len(lines) > 1:
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
    elif kind == 4 and lines:
        index = rng.randrange(len(lines))
        shift = rng.choice([-2, -1, 1, 2, 4])
        line = lines[index]
        lines[index] = " " * shift + line if shift > 0 else line[-shift:]
    elif kind == 5:
        return text[:where]
    elif kind == 6 and lines:
        index = rng.randrange(len(lines))
        head, sep, _ = lines[index].partition(": ")
        if sep:
            lines[index] = f"{head}: {json.dumps(_payload(rng), ensure_ascii=rng.random() < 0.5)}"
    elif kind == 7 and others:
        other = rng.choice(others).split("\n")
        start = rng.randrange(len(other))
        lines[rng.randrange(len(lines) + 1) : 0] = other[start : start + rng.randint(1, 8)]
    elif kind == 8:
        return text + rng.choice(["x: ", "- ", "  y: "]) + rng.choice(BIG[2:4]) + "\n"
    else:
        return text.replace("\n", rng.choice(["\r\n", "\n\n", "\n  "]), rng.randint(1, 3))
    return "\n".join(lines)


def mutate_bytes(raw: bytes, rng: random.Random) -> bytes:
    """One random edit of ``raw`` as bytes (encodings, binary data, a BOM)."""
    where = rng.randrange(len(raw) + 1)
    piece = rng.choice([b"\xff", b"\xc3", b"\x00", b"\xef\xbb\xbf", b"\xe2\x80\xae", b"\x80"])
    if rng.random() < 0.2:
        return b"\xef\xbb\xbf" + raw
    return raw[:where] + piece + raw[where:]


def mutate_data(data: Any, rng: random.Random, strings_only: bool = False) -> Any:
    """One random edit of parsed record data (replace, delete, add, repeat a value)."""
    leaves = list(_leaves(data))
    if strings_only:
        leaves = [(p, v) for p, v in leaves if isinstance(v, str) and p]
    candidates = [(p, v) for p, v in leaves if p]
    if not candidates:
        return data
    path, value = rng.choice(candidates)
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    kind = rng.randrange(5) if not strings_only else 0
    if kind == 0:
        parent[last] = rng.choice(PAYLOADS + CODE_PAYLOADS) if strings_only else _payload(rng)
    elif kind == 1:
        del parent[last]
    elif kind == 2 and isinstance(parent, dict):
        parent[rng.choice(["extra", "x\ny", "\u202ekey", "desc", "calls"])] = _payload(rng)
    elif kind == 3 and isinstance(parent, list):
        parent[last:last] = [value] * rng.randint(1, 300)
    else:
        parent[last] = _payload(rng)
    return data


def mutated_record(rng: random.Random, seeds: list[tuple[str, str]]) -> tuple[str, bytes]:
    """(path below ``mappings/``, bytes) of one mutated record."""
    path, text = rng.choice(seeds)
    others = [other for _, other in rng.sample(seeds, 3)]
    mode = rng.random()
    if mode < 0.45:
        doc, _ = loader.load(text.encode("utf-8"))
        if doc is not None:
            data = doc.data
            for _ in range(rng.randint(1, 3)):
                data = mutate_data(data, rng)
            style = rng.random()
            text = render(data, Comments()) if style < 0.8 else json.dumps(data) + "\n"
    else:
        for _ in range(rng.randint(1, 3)):
            text = mutate_text(text, rng, others)
    raw = text.encode("utf-8", errors="surrogatepass")
    if rng.random() < 0.08:
        raw = mutate_bytes(raw, rng)
    return path, raw


TEXT_FIELDS = frozenset(
    {"zh_name", "summary", "desc", "diff", "setting", "note", "text", "when", "purpose"}
    | {"detail", "instead", "why", "torch_signature", "paddle_signature"}
)
"""Fields whose value is free text: a payload there keeps a record valid."""
CODE_FIELDS = frozenset({"torch", "paddle"})
CODE_PARENTS = frozenset({"calls", "cases", "example", "setup"})


def _text_field(where: tuple[Any, ...]) -> bool:
    """Whether the value at ``where`` is prose or code (not a name, an enum or a number)."""
    name = where[-1]
    if name == "reason":
        return where[0] == "accepted"
    if name in CODE_FIELDS:
        return bool(CODE_PARENTS & set(map(str, where)))
    return name in TEXT_FIELDS


def mutated_valid_record(rng: random.Random, seeds: list[tuple[str, str]]) -> tuple[str, bytes]:
    """A record whose text fields (only) hold payloads, so that it still loads and renders."""
    for _ in range(20):
        path, text = rng.choice(seeds)
        doc, _ = loader.load(text.encode("utf-8"))
        if doc is None or validate(doc)[0] is None:
            continue
        fields = [
            (where, value)
            for where, value in _leaves(doc.data)
            if where and isinstance(value, str) and _text_field(where)
        ]
        for where, _ in rng.sample(fields, min(len(fields), rng.randint(1, 6))):
            parent = doc.data
            for part in where[:-1]:
                parent = parent[part]
            parent[where[-1]] = rng.choice(PAYLOADS + CODE_PAYLOADS)
        return path, render(doc.data, Comments()).encode("utf-8")
    return seeds[0][0], seeds[0][1].encode("utf-8")


# --- properties ---------------------------------------------------------------------------


def _crash(what: str) -> list[str]:
    return [f"{what} raised:\n{traceback.format_exc(limit=8)}"]


def _lines(raw: bytes) -> list[bytes]:
    return raw.removeprefix(b"\xef\xbb\xbf").split(b"\n")


def _located(line: int, col: int, raw: bytes) -> bool:
    """Whether ``line:col`` is a place in the file (or just after its last character)."""
    lines = _lines(raw)
    if not 1 <= line <= len(lines):
        return False
    text = lines[line - 1].decode("utf-8", errors="replace")
    return 1 <= col <= max(len(text), len(lines[line - 1])) + 1


def check_property(relpath: str, raw: bytes) -> list[str]:
    """``apimap check``: no exception, no rule crash, every diagnostic inside the file."""
    virtual = PurePosixPath("mappings") / relpath
    try:
        result = check_source(str(virtual), raw, RECORD_RULES, relative_to_mappings(virtual))
    except Exception:
        return _crash("check_source")
    problems = []
    for d in result.diagnostics:
        if d.code == "AM000":
            problems.append(f"rule crashed: {d.message}")
        elif not _located(d.line, d.col, raw):
            problems.append(f"{d.code} at {d.line}:{d.col} is outside the file")
    return problems


def _expected(data: Any) -> Any:
    return migrate(data) if isinstance(data, dict) and is_format_one(data) else data


def fmt_property(relpath: str, raw: bytes) -> list[str]:
    """``apimap fmt``: refuse with a place in the file, or write a file that loads to the same
    data and that formatting leaves alone."""
    text, _ = loader.decode(raw)
    if text is None:
        return []
    rel = PurePosixPath(relpath)
    try:
        formatted = format_text(text, rel)
    except NotFormattable as refused:
        return [] if _located(refused.line, refused.col, raw) else [f"refused at {refused}"]
    except Exception:
        return _crash("format_text")
    doc, _ = loader.parse(text)
    again, problems = loader.load(formatted.encode("utf-8"))
    if again is None or problems:
        return [f"formatted file does not load: {problems}"]
    if doc is not None and again.data != _expected(doc.data):
        return ["formatting changed a value"]
    try:
        if format_text(formatted, rel) != formatted:
            return ["fmt is not idempotent"]
    except Exception:
        return _crash("format_text (second run)")
    return []


def fix_property(relpath: str, raw: bytes) -> list[str]:
    """``apimap check --fix``: refuse with a place in the file, or write a canonical file that
    loads and that a second run leaves alone."""
    text, _ = loader.decode(raw)
    if text is None:
        return []
    rel = PurePosixPath(relpath)
    try:
        fixed = fix_text(text, rel)
    except NotFormattable as refused:
        return [] if _located(refused.line, refused.col, raw) else [f"refused at {refused}"]
    except Exception:
        return _crash("fix_text")
    if fixed is None:
        return []
    again, problems = loader.load(fixed.text.encode("utf-8"))
    if again is None or problems:
        return [f"fixed file does not load: {problems}"]
    try:
        if fix_text(fixed.text, rel) is not None:
            return ["--fix is not idempotent"]
        if format_text(fixed.text, rel) != fixed.text:
            return ["--fix did not write the canonical form"]
    except Exception:
        return _crash("fix_text (second run)")
    return []


_ENV = environment(ROOT / "templates")


def render_property(records: list[tuple[str, bytes]]) -> tuple[int, list[str]]:
    """``apimap render``: the pages of records that load are safe HTML with intact tables.
    Returns how many records were rendered, and the problems."""
    entries = []
    for relpath, raw in records:
        doc, _ = loader.load(raw)
        record = validate(doc)[0] if doc is not None else None
        if record is not None:
            entries.append(Entry(record, relpath, relpath))
    problems = []
    try:
        surface = load_surface()
        names = {entry.api: listings.record_names(entry.record, surface) for entry in entries}
        pages = {
            api_docname(entry.api): render_template(
                _ENV, "api.html.j2", api_docname(entry.api), page=views.api_page(entry)
            )
            for entry in entries
        }
        for section in listings.section_pages(entries, names):
            for part in section.parts:
                context = {"title": "", "section": section, "part": part, "parts": section.parts}
                pages[part.docname] = render_template(
                    _ENV, "section.html.j2", part.docname, **context
                )
        for part in listings.migration_sections(entries):
            items = [
                Markup(render_template(_ENV, "migration_item.html.j2", part.docname, item=item))
                for item in part.items
            ]
            pages[part.docname] = render_template(
                _ENV,
                "migration_section.html.j2",
                part.docname,
                title="",
                section=part,
                items=items,
                parts=[(part.docname, "1"), (f"{part.docname}-2", "2")],
                docname_here=part.docname,
            )
    except Exception:
        return len(entries), _crash("render")
    for name, text in pages.items():
        problems += [f"{name}: {found}" for found in html_problems(text)]
        problems += [f"{name}: {found}" for found in table_problems(text)]
    return len(entries), problems


def table_problems(text: str) -> list[str]:
    """Rows of an HTML table with another number of cells than its header."""
    problems = []
    width = 0
    for kind, cells in table_rows(text):
        if kind == "th":
            width = cells
        elif cells != width:
            problems.append(f"a table row has {cells} cells, its header {width}")
    return problems


def import_property(page: str, work: Path) -> list[str]:
    """``apimap import``: no exception, nothing written outside the output folder, every
    written record loads and validates."""
    source = work / "src" / "page.md"
    out = work / "out"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(page, encoding="utf-8", errors="surrogatepass")
    before = _tree(work)
    try:
        run_import([source], out, force=True)
    except Exception:
        return _crash("run_import")
    problems = []
    after = _tree(work)
    for path in sorted(after - before):
        if path != out and out not in path.parents:
            problems.append(f"wrote outside the output folder: {path}")
    for path in sorted(out.rglob("*")):
        if path.is_file():
            doc, load_problems = loader.load(path.read_bytes())
            if doc is None or load_problems or validate(doc)[0] is None:
                problems.append(f"{path.name} does not load back: {load_problems}")
    for path in sorted(out.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    return problems


def _tree(folder: Path) -> set[Path]:
    return {path for path in folder.rglob("*")}


SCAN_CONFIG = ResolverConfig(frozenset({"fuzzed"}), frozenset({"view", "add"}), {})


def scan_property(source: bytes, work: Path) -> list[str]:
    """``apimap scan``: one file's scan never raises and its problem is inside the file."""
    path = work / "fuzzed.py"
    path.write_bytes(source)
    try:
        scan = scan_file(SourceFile(str(path), "fuzzed", False), SCAN_CONFIG)
    except Exception:
        return _crash("scan_file")
    problem = scan.problem
    lines = len(re.split(rb"\r\n|\r|\n", source))  # Python's line ends
    if problem is not None and not 1 <= problem.line <= lines:
        return [f"scan problem at line {problem.line} is outside the file"]
    return []


def mutated_page(rng: random.Random, pages: list[str]) -> str:
    """One mutated legacy page: edits, hostile cells, long or repeated rows."""
    text = rng.choice(pages)
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        if kind < 0.6:
            text = mutate_text(text, rng, pages)
        elif kind < 0.8:
            rows = [line for line in text.split("\n") if line.startswith("|")]
            if rows:
                row = rng.choice(rows)
                text = text.replace(row, "\n".join([row] * rng.randint(2, 1500)), 1)
        else:
            text = text.replace("。", rng.choice(PAYLOADS), rng.randint(1, 3))
    return text


def mutated_python(rng: random.Random, sources: list[str]) -> bytes:
    """One mutated Python source."""
    text = rng.choice(sources)
    for _ in range(rng.randint(1, 3)):
        text = mutate_text(text, rng, sources)
    raw = text.encode("utf-8", errors="surrogatepass")
    if rng.random() < 0.15:
        raw = rng.choice([b"# -*- coding: latin-1 -*-\n", b"# coding: nope\n", b""]) + raw
    if rng.random() < 0.1:
        raw = mutate_bytes(raw, rng)
    return raw


@dataclass(frozen=True)
class Batch:
    """``size`` inputs of one target, made from the run seed and the batch number."""

    target: str
    number: int
    size: int

    def rng(self, index: int) -> random.Random:
        """The random source of input ``index`` (the same every run with the same seed)."""
        return random.Random(f"{SEED}:{self.target}:{self.number}:{index}")


Runner = Callable[[Batch, Path], tuple[int, list[str]]]


FAILURES = Path(os.environ.get("APIMAP_FUZZ_FAILURES", "/tmp/apimap-fuzz-failures"))
"""Where failing inputs are saved, to become fixtures."""


def keep(batch: Batch, index: int, data: bytes, problems: list[str]) -> list[str]:
    """Save a failing input and say where it is; nothing when it passed."""
    if not problems:
        return []
    FAILURES.mkdir(parents=True, exist_ok=True)
    saved = FAILURES / f"{batch.target}-{SEED}-{batch.number}-{index}.bin"
    saved.write_bytes(data)
    return [f"{batch.target} input {batch.number}:{index} ({saved}): {p}" for p in problems]
