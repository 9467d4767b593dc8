"""A realistic benchmark corpus: the project's real records, cloned until there are COUNT.

Usage: python bench/realistic.py OUT_DIR COUNT

Clone ``k`` of a real record moves its torch names into a namespace of its own
(``torch.nn.Conv2d`` -> ``torch.b7.nn.Conv2d``, aliases and in-place variants
likewise, in the code too; the section the original's name points to is written out where
the new name points elsewhere), so the corpus has the real size distribution (rows,
overloads, calls, examples, notes, text lengths) and category mix, and still
checks clean: each clone gets a stamp for its own content (with what the original's stamp
measured: probes and each paddle release's facts), as ``apimap verify``
would write. ``OUT_DIR/mappings`` and ``OUT_DIR/stamps`` are written.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from apimap.checking.runner import iter_record_files
from apimap.files import loader
from apimap.files.canonical import canonical_text
from apimap.files.stamps import (
    VERIFIER_VERSION,
    ProbeResult,
    Proven,
    Release,
    Stamp,
    digest,
    parse_stamp,
    stamp_file,
)
from apimap.record.categories import guessed_section
from apimap.record.paths import record_path, relative_to_mappings
from apimap.record.pins import pins_for

SOURCE = Path(__file__).resolve().parent.parent / "mappings"


def _names(data: dict[str, Any]) -> list[str]:
    names = [data["torch_api"], *data.get("torch_aliases", [])]
    inplace = data.get("inplace")
    if isinstance(inplace, dict) and isinstance(inplace.get("torch"), str):
        names.append(inplace["torch"])
    return sorted(set(names), key=len, reverse=True)


def _moved(name: str, clone: int) -> str:
    root, _, rest = name.partition(".")
    return f"{root}.b{clone}.{rest}"


def clone_text(text: str, data: dict[str, Any], clone: int) -> str:
    """The record's text with its torch names moved into namespace ``b<clone>``."""
    if clone == 0:
        return text
    for name in _names(data):
        pattern = re.escape(name) + r"(?![\w])"
        text = re.sub(pattern, _moved(name, clone), text)
    return text


def _with_section(text: str, data: dict[str, Any], original: dict[str, Any], relpath: Any) -> str:
    """The clone's text keeping the original's section: written only where its new name does
    not point to it."""
    section = original.get("section") or guessed_section(original["torch_api"]).value
    wanted = None if guessed_section(data["torch_api"]).value == section else section
    if data.get("section") == wanted:
        return text
    data = {key: value for key, value in data.items() if key != "section"}
    if wanted is not None:
        data["section"] = wanted  # the canonical form puts it in its place
    return canonical_text(text, data, relpath)


def _measured(record_file: Path) -> tuple[Proven, list[ProbeResult], dict[str, Release]]:
    """What the record's own stamp proved and measured (its probes and each release's facts, so
    that a clone's page and guidance cost what the original's do)."""
    location = stamp_file(record_file)
    try:
        stamp = parse_stamp(location.read_bytes()) if location else None
    except (OSError, ValueError):
        stamp = None
    if stamp is None:
        return Proven(), [], {}
    return stamp.proven, stamp.behaviour, stamp.releases


def write_corpus(out: Path, count: int, source: Path = SOURCE) -> list[Path]:
    """Write ``count`` records (and their stamps) below ``out``; returns the record files."""
    originals = []
    for file in iter_record_files([source]):
        text = file.read_text(encoding="utf-8")
        doc, _ = loader.parse(text)
        if doc is not None:
            originals.append((text, doc.data, _measured(file)))
    written = []
    for index in range(count):
        text, data, (proven, behaviour, releases) = originals[index % len(originals)]
        clone = index // len(originals)
        new_text = clone_text(text, data, clone)
        doc, _ = loader.parse(new_text)
        assert doc is not None
        api = doc.data["torch_api"]
        target = out / "mappings" / record_path(api)
        target.parent.mkdir(parents=True, exist_ok=True)
        depth = len(record_path(api).parts)
        schema = "../" * depth + "schema/mapping.schema.json"
        new_text = re.sub(r"\$schema=\S+", f"$schema={schema}", new_text, count=1)
        new_text = _with_section(new_text, doc.data, data, relative_to_mappings(target))
        doc, _ = loader.parse(new_text)
        assert doc is not None
        target.write_text(new_text, encoding="utf-8")
        stamp = Stamp(
            record=digest(doc.data),
            verifier=VERIFIER_VERSION,
            versions=dict(sorted(pins_for(api).items())),
            date="2026-11-23",
            proven=proven,
            behaviour=behaviour,
            releases=releases,
        )
        location = stamp_file(target)
        assert location is not None
        location.parent.mkdir(parents=True, exist_ok=True)
        location.write_text(stamp.to_json(), encoding="utf-8")
        written.append(target)
    return written


if __name__ == "__main__":
    write_corpus(Path(sys.argv[1]), int(sys.argv[2]))
