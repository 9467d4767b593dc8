"""Measure the validator's precision and recall on the legacy pages of the development set.

Usage: python bench/precision/run.py [--pages DIR] [--data DIR] [--unjudged FILE] [--json FILE]

1. ``apimap import PAGES --out TMP/mappings --run`` imports every page into a temporary folder,
   running its signatures and examples against the installed torch and paddle;
2. ``apimap check --format json --no-cache --ignore AM701,AM702,AM220`` checks the records (the
   three codes every fresh import has are left out);
3. each diagnostic is keyed by its page, code and record field (see score.py) and joined with the
   judged list ``DATA/judged.tsv``; only the pages in ``DATA/sample.txt`` count;
4. recall: the violations in ``DATA/known.tsv`` (found by reading pages) that some diagnostic
   reports at the right place.

Prints precision per code and overall, the share of flagged pages with only true diagnostics,
recall, the classes of artifacts and false diagnostics, and every unjudged diagnostic. The same
sources give the same report, byte for byte. ``--unjudged FILE`` writes the unjudged diagnostics
as rows to judge (same columns as judged.tsv, verdict left empty).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score import (
    EXCLUDED_CODES,
    Diagnostic,
    format_score,
    load_judged,
    load_known,
    place,
    score,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent
DEFAULT_PAGES = ROOT.parent / "shared" / "legacy-pages-dev"


_TITLE = re.compile(r"^#+\s*\[[^\]]*\]\s*([A-Za-z_][\w.]*)", re.MULTILINE)


def page_index(pages: Path) -> dict[str, str]:
    """torch API name -> page (relative), by the page's title and, failing that, its file name.

    Only records with importer findings carry ``imported.source``; the others are placed by the
    API they describe.
    """
    index: dict[str, str] = {}
    for page in sorted(pages.rglob("*.md")):
        rel = page.relative_to(pages).as_posix()
        index.setdefault(page.stem, rel)
        title = _TITLE.search(page.read_text(encoding="utf-8", errors="replace"))
        if title:
            index[title.group(1)] = rel
    return index


def _apimap(args: list[str], cwd: Path) -> dict[str, object]:
    """Run apimap (this interpreter, this PYTHONPATH) and parse its JSON output."""
    proc = subprocess.run(
        [sys.executable, "-m", "apimap", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": ""},
        check=False,
    )
    if proc.returncode not in (0, 1):
        raise SystemExit(f"apimap {args[0]} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def measure(pages: Path, workdir: Path) -> tuple[list[Diagnostic], dict[str, object]]:
    """Import and check every page; the keyed diagnostics and the import summary."""
    imported = _apimap(
        ["import", str(pages), "--out", str(workdir / "mappings"), "--format", "json", "--run"],
        workdir,
    )
    checked = _apimap(
        [
            "check",
            "--format",
            "json",
            "--no-cache",
            "--jobs",
            "1",
            "--ignore",
            ",".join(EXCLUDED_CODES),
            "mappings",
        ],
        workdir,
    )
    by_api = page_index(pages)
    texts: dict[str, str] = {}
    sources: dict[str, str] = {}
    for record in sorted((workdir / "mappings").rglob("*.yaml")):
        rel = record.relative_to(workdir).as_posix()
        text = record.read_text(encoding="utf-8")
        texts[rel] = text
        data = yaml.safe_load(text)
        if not isinstance(data, dict):
            continue
        source = (data.get("imported") or {}).get("source")
        if not source and str(data.get("torch_api")) in by_api:
            sources[rel] = by_api[str(data.get("torch_api"))]
        elif source:
            try:
                sources[rel] = Path(source).resolve().relative_to(pages.resolve()).as_posix()
            except ValueError:
                sources[rel] = str(source)
    raw = checked["diagnostics"]
    assert isinstance(raw, list)
    summary = imported.get("summary")
    return place(raw, texts, sources), summary if isinstance(summary, dict) else {}


def _read_sample(path: Path) -> list[str]:
    return [
        ln.strip()
        for ln in path.read_text(encoding="utf-8").splitlines()
        if ln.strip() and not ln.startswith("#")
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--unjudged", type=Path, help="write the unjudged diagnostics here")
    parser.add_argument("--json", type=Path, help="write every keyed diagnostic here")
    args = parser.parse_args(argv)
    args.pages = args.pages.resolve()
    if not args.pages.is_dir():
        parser.error(f"pages folder not found: {args.pages}")
    sample = _read_sample(args.data / "sample.txt")
    judged = load_judged(args.data / "judged.tsv")
    known = load_known(args.data / "known.tsv")
    with tempfile.TemporaryDirectory(prefix="apimap-precision-") as tmp:
        diagnostics, summary = measure(args.pages, Path(tmp))
    result = score(diagnostics, judged, sample, known)
    pages_all = summary.get("pages", {})
    every = Counter(d.code for d in diagnostics)
    print(f"pages imported: {json.dumps(pages_all, sort_keys=True)}")
    print(
        f"all pages: {sum(every.values())} diagnostics on "
        f"{len({d.page for d in diagnostics})} pages (codes {', '.join(EXCLUDED_CODES)} left out)"
    )
    print(format_score(result, sample_size=len(sample)), end="")
    if args.unjudged:
        lines = ["page\tcode\tanchor\tverdict\tclass\treason"]
        lines += [f"{d.page}\t{d.code}\t{d.anchor}\t\t\t" for d in sorted(result.unjudged)]
        args.unjudged.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.json:
        rows = [
            {
                "page": d.page,
                "code": d.code,
                "anchor": d.anchor,
                "record": d.record,
                "line": d.line,
                "message": d.message,
                "judged": (j.verdict if (j := judged.get(d.key)) else None),
            }
            for d in sorted(diagnostics)
        ]
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
