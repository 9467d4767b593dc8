"""Join `apimap check` diagnostics of imported legacy pages with a judged list and score them.

Pure logic, no subprocess and no apimap import, so that it survives changes of the package
layout and is tested on small synthetic inputs (tests/bench/test_precision_score.py).

A diagnostic is identified by a *key* that does not depend on line numbers of the record:

    page <TAB> code <TAB> anchor

* page: the legacy page, relative to the pages folder (the record's ``imported.source``);
* code: the check code; AM704/AM705 carry the importer's code of the finding (``AM704/IM305``);
* anchor: ``API:FIELD`` where FIELD is the path of the record field the diagnostic points at
  (``params[dim].desc``: rows are named by their torch parameter, not their index;
  ``imported.findings[IM305@L22]``: importer findings by their code and the page's line), and
  ``#N`` when the same page, code and field carry more than one diagnostic (N counts from 2
  in the order of the record's lines).

So a diagnostic that moves by a line keeps its key; a diagnostic that is new, or that moved to
another field, has no judgement and is reported as unjudged, never counted silently.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

VERDICTS = ("true", "artifact", "false")
EXCLUDED_CODES = ("AM701", "AM702", "AM220")
_IM_CODE = re.compile(r"\b(IM\d{3})\b")


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One diagnostic of `apimap check`, placed on its legacy page."""

    page: str
    code: str
    anchor: str
    record: str = field(compare=False)
    line: int = field(compare=False)
    message: str = field(compare=False)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.page, self.code, self.anchor)


@dataclass(frozen=True)
class Judgement:
    """A judged diagnostic: true (real violation), artifact (importer), false (rule)."""

    verdict: str
    cls: str
    reason: str


@dataclass(frozen=True)
class Known:
    """A real violation found by reading a page: which codes at which place should report it.

    ``codes`` are prefixes (``AM244`` matches AM244, ``IM305`` matches AM704/IM305); a code that
    does not exist yet is written ``NEW:what`` and matches nothing until a rule reports it.
    ``anchor`` is a field-path prefix (``params[dim]``) or ``*`` for anywhere on the page;
    for importer findings the page line must match instead.
    """

    page: str
    line: int
    codes: tuple[str, ...]
    anchor: str
    what: str


# ---------------------------------------------------------------- field paths


def _scalar(node: yaml.Node | None) -> str:
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    if isinstance(node, yaml.SequenceNode):
        return "+".join(_scalar(item) for item in node.value)
    return ""


def _mapping_get(node: yaml.Node, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


def _item_name(parent_key: str, index: int, item: yaml.Node) -> str:
    """Name a list item by what identifies it rather than by its position."""
    if parent_key == "params":
        torch = _scalar(_mapping_get(item, "torch"))
        if torch and torch != "-":
            return torch
        return "-/" + _scalar(_mapping_get(item, "paddle"))
    if parent_key == "findings":
        code = _scalar(_mapping_get(item, "code"))
        line = _scalar(_mapping_get(item, "line"))
        return f"{code}@L{line}"
    return str(index)


def field_path(text: str, line: int) -> str:
    """The path of the innermost field of a YAML document at 1-based ``line``.

    ``.`` is the whole record (a line before the first key, or a document that does not parse).
    """
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return "."
    target = line - 1
    parts: list[str] = []
    node: yaml.Node | None = root
    parent_key = ""
    while node is not None:
        chosen: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.start_mark.line <= target:
                    chosen = value
                    parent_key = _scalar(key)
                    name = parent_key
                else:
                    break
            if chosen is None:
                break
            parts.append(("." if parts else "") + name)
        elif isinstance(node, yaml.SequenceNode):
            index = -1
            for i, item in enumerate(node.value):
                if item.start_mark.line <= target:
                    chosen, index = item, i
                else:
                    break
            if chosen is None:
                break
            parts.append(f"[{_item_name(parent_key, index, chosen)}]")
        else:
            break
        if chosen.start_mark.line > target:
            break
        node = chosen
    return "".join(parts) or "."


def finding_code(path: str) -> str:
    """The importer code (IMnnn) of the finding at ``path`` (``imported.findings[IM305@L22]``)."""
    match = _IM_CODE.search(path)
    return match.group(1) if match else ""


# ---------------------------------------------------------------- diagnostics


def place(
    raw: Iterable[Mapping[str, object]],
    read_record: Mapping[str, str],
    source_of: Mapping[str, str],
) -> list[Diagnostic]:
    """Turn check's JSON diagnostics into keyed diagnostics.

    ``read_record`` maps a record path (as in the diagnostics) to its text; ``source_of`` maps it
    to its legacy page (relative). Excluded codes are dropped. Sorted, ordinals assigned.
    """
    staged: list[tuple[str, str, str, str, int, str]] = []
    for item in raw:
        code = str(item["code"])
        if code.startswith(EXCLUDED_CODES):
            continue
        record = str(item["path"])
        line = int(str(item.get("line") or 1))
        text = read_record.get(record, "")
        path = field_path(text, line)
        if code in ("AM704", "AM705"):
            sub = finding_code(path) or (
                m.group(1) if (m := _IM_CODE.search(str(item.get("message", "")))) else ""
            )
            code = f"{code}/{sub}" if sub else code
        api = str(item.get("api") or "")
        page = source_of.get(record, record)
        staged.append((page, code, f"{api}:{path}", record, line, str(item.get("message", ""))))
    staged.sort(key=lambda s: (s[0], s[1], s[2], s[3], s[4], s[5]))
    seen: Counter[tuple[str, str, str]] = Counter()
    out: list[Diagnostic] = []
    for page, code, anchor, record, line, message in staged:
        seen[(page, code, anchor)] += 1
        n = seen[(page, code, anchor)]
        out.append(
            Diagnostic(
                page=page,
                code=code,
                anchor=anchor if n == 1 else f"{anchor}#{n}",
                record=record,
                line=line,
                message=message,
            )
        )
    return out


# ---------------------------------------------------------------- data files


def read_tsv(path: Path) -> list[dict[str, str]]:
    """Rows of a tab-separated file with a header; lines starting with ``#`` are comments."""
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln and ln[0] != "#"]
    return [dict(row) for row in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)]


def load_judged(path: Path) -> dict[tuple[str, str, str], Judgement]:
    """The judged list; a malformed or duplicated entry is an error with its line."""
    judged: dict[tuple[str, str, str], Judgement] = {}
    for number, row in enumerate(read_tsv(path), start=2):
        key = (row["page"], row["code"], row["anchor"])
        verdict = row["verdict"]
        if verdict not in VERDICTS:
            raise ValueError(f"{path}: entry {number}: verdict {verdict!r} not in {VERDICTS}")
        if key in judged:
            raise ValueError(f"{path}: entry {number}: {key} judged twice")
        judged[key] = Judgement(verdict, row.get("class", ""), row.get("reason", ""))
    return judged


def load_known(path: Path) -> list[Known]:
    """The known violations."""
    return [
        Known(
            page=row["page"],
            line=int(row["line"]),
            codes=tuple(c.strip() for c in row["codes"].split(",") if c.strip()),
            anchor=row["anchor"],
            what=row["what"],
        )
        for row in read_tsv(path)
    ]


# ---------------------------------------------------------------- scoring


def _finding_line(anchor: str) -> int | None:
    match = re.search(r"@L(\d+)\]", anchor)
    return int(match.group(1)) if match else None


def reports(known: Known, diag: Diagnostic) -> bool:
    """Whether ``diag`` reports ``known`` at the right place."""
    if diag.page != known.page:
        return False
    codes = [diag.code, *diag.code.split("/")[1:]]
    if not any(c.startswith(prefix) for c in codes for prefix in known.codes):
        return False
    finding_line = _finding_line(diag.anchor)
    if finding_line is not None:
        return finding_line == known.line
    if known.anchor == "*":
        return True
    field_of = diag.anchor.split(":", 1)[1].split("#", 1)[0]
    return field_of == known.anchor or field_of.startswith((known.anchor + ".", known.anchor + "["))


@dataclass
class Score:
    """The figures of one measurement."""

    counts: dict[str, Counter[str]]  # code -> verdict/unjudged -> count
    pages_flagged: int
    pages_all_true: int
    pages_with_unjudged: int
    known_total: int
    known_found: list[Known]
    known_missed: list[Known]
    unjudged: list[Diagnostic]
    stale: list[tuple[str, str, str]]  # judged keys in scope that no diagnostic has any more
    classes: dict[tuple[str, str], tuple[int, list[str]]]  # (verdict, class) -> count, pages

    def total(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for counts in self.counts.values():
            total.update(counts)
        return total


def score(
    diagnostics: Sequence[Diagnostic],
    judged: Mapping[tuple[str, str, str], Judgement],
    sample: Iterable[str],
    known: Sequence[Known],
) -> Score:
    """Score the diagnostics of the sampled pages against the judged list and known violations."""
    pages = set(sample)
    in_scope = [d for d in diagnostics if d.page in pages]
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    per_page: dict[str, Counter[str]] = defaultdict(Counter)
    unjudged: list[Diagnostic] = []
    class_pages: dict[tuple[str, str], set[str]] = defaultdict(set)
    class_count: Counter[tuple[str, str]] = Counter()
    for diag in in_scope:
        judgement = judged.get(diag.key)
        verdict = judgement.verdict if judgement else "unjudged"
        counts[diag.code][verdict] += 1
        per_page[diag.page][verdict] += 1
        if judgement is None:
            unjudged.append(diag)
        else:
            class_pages[(judgement.verdict, judgement.cls)].add(diag.page)
            class_count[(judgement.verdict, judgement.cls)] += 1
    seen = {d.key for d in in_scope}
    stale = sorted(k for k in judged if k[0] in pages and k not in seen)
    # A violation counts as reported only by a diagnostic that is not judged artifact or false.
    in_known_pages = {k.page for k in known}
    relevant = [
        d
        for d in diagnostics
        if d.page in in_known_pages and (d.key not in judged or judged[d.key].verdict == "true")
    ]
    found = [k for k in known if any(reports(k, d) for d in relevant)]
    missed = [k for k in known if k not in found]
    return Score(
        counts=dict(counts),
        pages_flagged=len(per_page),
        pages_all_true=sum(1 for c in per_page.values() if set(c) == {"true"}),
        pages_with_unjudged=sum(1 for c in per_page.values() if c["unjudged"]),
        known_total=len(known),
        known_found=found,
        known_missed=missed,
        unjudged=unjudged,
        stale=stale,
        classes={k: (class_count[k], sorted(v)) for k, v in class_pages.items()},
    )


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "   - "


def format_score(result: Score, *, sample_size: int, list_limit: int = 200) -> str:
    """The report, deterministic (sorted everywhere)."""
    out: list[str] = []
    total = result.total()
    judged = sum(total[v] for v in VERDICTS)
    out.append(f"sample: {sample_size} pages, {result.pages_flagged} flagged")
    out.append(
        f"diagnostics: {sum(total.values())}  true {total['true']}  artifact {total['artifact']}"
        f"  false {total['false']}  unjudged {total['unjudged']}"
    )
    out.append(
        f"precision (true / judged): {_pct(total['true'], judged)}"
        f"   (true / all, unjudged counted as not true): {_pct(total['true'], sum(total.values()))}"
    )
    out.append(
        f"flagged pages with only true diagnostics: {result.pages_all_true}/{result.pages_flagged}"
        f" = {_pct(result.pages_all_true, result.pages_flagged)}"
        f"   (pages with unjudged diagnostics: {result.pages_with_unjudged})"
    )
    out.append(
        f"recall of known violations: {len(result.known_found)}/{result.known_total}"
        f" = {_pct(len(result.known_found), result.known_total)}"
    )
    out.append("")
    out.append(
        f"{'code':<12} {'all':>5} {'true':>5} {'artif':>5} {'false':>5} {'unj':>5}  precision"
    )
    for code in sorted(result.counts):
        c = result.counts[code]
        j = sum(c[v] for v in VERDICTS)
        out.append(
            f"{code:<12} {sum(c.values()):>5} {c['true']:>5} {c['artifact']:>5} {c['false']:>5}"
            f" {c['unjudged']:>5}  {_pct(c['true'], j)}"
        )
    out.append("")
    out.append("classes of artifacts and false diagnostics (diagnostics, pages, example pages):")
    rows = []
    for (verdict, cls), (n, pages) in result.classes.items():
        if verdict != "true":
            rows.append((-n, verdict, cls, len(pages), pages[:2]))
    for neg, verdict, cls, npages, examples in sorted(rows):
        out.append(f"  {-neg:>4}  {npages:>3}p  {verdict:<8} {cls}  e.g. {', '.join(examples)}")
    out.append("")
    out.append(f"known violations missed ({len(result.known_missed)}):")
    for k in sorted(result.known_missed, key=lambda k: (k.page, k.line, k.codes)):
        out.append(f"  {k.page}:{k.line}  {','.join(k.codes)}  {k.anchor}  {k.what}")
    out.append("")
    out.append(f"judged entries no diagnostic matches any more ({len(result.stale)}):")
    for key in result.stale[:list_limit]:
        out.append("  " + "\t".join(key))
    out.append("")
    out.append(f"unjudged diagnostics ({len(result.unjudged)}):")
    for d in sorted(result.unjudged)[:list_limit]:
        out.append(f"  {d.page}\t{d.code}\t{d.anchor}\t{d.message[:120]}")
    if len(result.unjudged) > list_limit:
        out.append(f"  ... {len(result.unjudged) - list_limit} more (--unjudged FILE lists all)")
    return "\n".join(out) + "\n"
