"""How often popular model code uses each public name (``data/usage.json``).

Built by ``apimap coverage --update-usage DIR...``: each DIR is an unpacked
wheel of a model library (its ``*.dist-info/METADATA`` gives the name and the
version); every DIR is scanned with ``apimap scan`` and the uses of public
torch/torchvision names (calls and references) and of Tensor methods (the
heuristic) are summed per library. The file names the libraries, their
versions, the date and the command; the libraries' code is never committed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from email.parser import HeaderParser
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from apimap.files.surface import Surface
from apimap.survey.scan.classify import Classifier
from apimap.survey.scan.runner import scan_paths

FORMAT: Final = "apimap-usage"
VERSION: Final = 1
DATA_FILE: Final = "usage.json"
DOWNLOAD_NOTE: Final = (
    "The libraries were fetched with `pip download --no-deps --only-binary=:all: NAME==VERSION` "
    "and unpacked with `python -m zipfile -e WHEEL DIR`; only the counts are kept."
)


@dataclass(frozen=True)
class LibraryInfo:
    """One scanned library."""

    name: str
    version: str
    files: int


@dataclass(frozen=True)
class UsageData:
    """The usage counts: name -> library -> uses."""

    libraries: list[LibraryInfo]
    apis: dict[str, dict[str, int]]
    tensor_methods: dict[str, dict[str, int]]
    generated: str
    command: str

    def uses(self, name: str) -> int:
        """Uses of ``name`` in all libraries; a Tensor method adds the heuristic's calls."""
        total = sum(self.apis.get(name, {}).values())
        if name.startswith("torch.Tensor."):
            total += sum(self.tensor_methods.get(name.removeprefix("torch.Tensor."), {}).values())
        return total

    def library_count(self, name: str) -> int:
        """In how many libraries ``name`` is used."""
        found = set(self.apis.get(name, {}))
        if name.startswith("torch.Tensor."):
            found |= set(self.tensor_methods.get(name.removeprefix("torch.Tensor."), {}))
        return len(found)


def parse_usage(text: str) -> UsageData:
    """Read a usage document; ``ValueError`` for another format."""
    data = json.loads(text)
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"not an {FORMAT} version {VERSION} document")
    return UsageData(
        libraries=[LibraryInfo(**lib) for lib in data["libraries"]],
        apis={name: dict(counts["by_library"]) for name, counts in data["apis"].items()},
        tensor_methods={
            name: dict(counts["by_library"]) for name, counts in data["tensor_methods"].items()
        },
        generated=data["generated"],
        command=data["command"],
    )


def empty_usage() -> UsageData:
    """No counts (when the data file is absent)."""
    return UsageData([], {}, {}, "", "")


@cache
def load_usage() -> UsageData:
    """The committed counts, or none if the file does not exist."""
    resource = resources.files("apimap") / "data" / DATA_FILE
    if not resource.is_file():
        return empty_usage()
    return parse_usage(resource.read_text(encoding="utf-8"))


def usage_path() -> Path:
    """Where the counts live in the source tree."""
    return Path(str(resources.files("apimap") / "data" / DATA_FILE))


def distribution(folder: Path) -> tuple[str, str]:
    """Name and version from the ``*.dist-info/METADATA`` of an unpacked wheel."""
    for metadata in sorted(folder.glob("*.dist-info/METADATA")):
        headers = HeaderParser().parsestr(metadata.read_text(encoding="utf-8", errors="replace"))
        if headers.get("Name") and headers.get("Version"):
            return str(headers["Name"]), str(headers["Version"])
    raise ValueError(f"{folder}: 没有 *.dist-info/METADATA (not an unpacked wheel)")


def _today() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = time.gmtime(int(epoch)) if epoch else time.gmtime()
    return time.strftime("%Y-%m-%d", moment)


def build_usage(
    folders: Sequence[Path], surface: Surface, classifier: Classifier, jobs: int, command: str
) -> dict[str, Any]:
    """Scan each unpacked wheel and sum the uses of public names per library."""
    libraries: list[dict[str, Any]] = []
    apis: dict[str, dict[str, int]] = {}
    methods: dict[str, dict[str, int]] = {}
    for folder in folders:
        name, version = distribution(folder)
        report = scan_paths([folder], surface, classifier, jobs=jobs)
        libraries.append({"name": name, "version": version, "files": report.files})
        for usage in report.apis:
            if usage.classification.public:
                apis.setdefault(usage.api, {})[name] = usage.uses
        for usage in report.methods:
            if usage.method is not None:
                methods.setdefault(usage.method, {})[name] = usage.uses

    def counts(table: dict[str, dict[str, int]]) -> dict[str, Any]:
        return {
            key: {"by_library": dict(sorted(by.items())), "total": sum(by.values())}
            for key, by in sorted(table.items())
        }

    return {
        "comment": [
            "Uses (calls and references) of public torch/torchvision names in popular model "
            "libraries, by `apimap scan`; tensor_methods are the scan's Tensor-method heuristic.",
            DOWNLOAD_NOTE,
            "Ranks `apimap coverage --todo`. Rebuild with the command below.",
        ],
        "format": FORMAT,
        "version": VERSION,
        "generated": _today(),
        "command": command,
        "surface": {lib: data.version for lib, data in sorted(surface.libraries.items())},
        "libraries": sorted(libraries, key=lambda lib: str(lib["name"])),
        "apis": counts(apis),
        "tensor_methods": counts(methods),
    }


def dump_usage(document: dict[str, Any]) -> str:
    """Sorted keys and one line per name, so that reruns are byte-identical and diffs small."""
    lines = ["{"]
    keys = sorted(document)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = document[key]
        if key in ("apis", "tensor_methods"):
            lines.append(f'  "{key}": {{')
            items = list(value.items())
            for position, (name, counts) in enumerate(items):
                tail = "," if position < len(items) - 1 else ""
                dumped = json.dumps(counts, ensure_ascii=False, sort_keys=True)
                lines.append(f"    {json.dumps(name)}: {dumped}{tail}")
            lines.append("  }" + comma)
        else:
            dumped = json.dumps(value, ensure_ascii=False, sort_keys=True)
            lines.append(f"  {json.dumps(key)}: {dumped}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
