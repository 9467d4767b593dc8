"""Writing the public-surface table: the document ``apimap surface --update`` commits.

Reading it (and every look-up over it) is :mod:`apimap.files.surface`, which the lower
layers use too.
"""

from __future__ import annotations

import json
from typing import Any, Final

from apimap.files.surface import FORMAT, VERSION, LibrarySurface
from apimap.survey.surface.namespaces import DEFINITION

_HEADER: Final = [
    "The public API surface of the pinned torch and torchvision, the target of coverage.",
    "Written by `apimap surface --update` (run it in .venv for torch and in .venv-vision "
    "for torchvision: each environment updates the library it pins); do not edit by hand.",
    "Per namespace: short name -> kind (function, class, method, property, attribute, "
    "dtype, constant), alias_of (canonical public name) and defined_in (module.qualname of "
    "the defining object when it differs, used to resolve re-exports).",
]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def dump_document(libraries: dict[str, LibrarySurface]) -> str:
    """The file's text: sorted keys, one line per public name, byte-identical on rerun."""
    lines = ["{", f'  "comment": {_json(_HEADER)},', f'  "definition": {_json(DEFINITION)},']
    lines += [f'  "format": {_json(FORMAT)},', '  "libraries": {']
    for lib_index, (library, surface) in enumerate(sorted(libraries.items())):
        lines.append(f"    {_json(library)}: {{")
        lines.append(f'      "modules": {_json(surface.modules)},')
        lines.append('      "namespaces": {')
        ordered = sorted(surface.namespaces.items())
        for ns_index, (namespace, ns) in enumerate(ordered):
            head = {"group": ns.group, "kind": ns.kind, "order": ns.order}
            lines.append(f"        {_json(namespace)}: {{")
            for key, value in head.items():
                lines.append(f"          {_json(key)}: {_json(value)},")
            lines.append('          "names": {')
            names = sorted(ns.names.items())
            for index, (short, entry) in enumerate(names):
                comma = "," if index < len(names) - 1 else ""
                lines.append(f"            {_json(short)}: {_json(entry.to_json())}{comma}")
            lines.append("          }")
            lines.append("        }" + ("," if ns_index < len(ordered) - 1 else ""))
        lines.append("      },")
        lines.append(f'      "python": {_json(surface.python)},')
        lines.append(f'      "skipped": {_json(surface.skipped)},')
        lines.append(f'      "version": {_json(surface.version)}')
        lines.append("    }" + ("," if lib_index < len(libraries) - 1 else ""))
    lines += ["  },", f'  "version": {VERSION}', "}"]
    return "\n".join(lines) + "\n"
