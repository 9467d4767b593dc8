"""The layers of docs/architecture.md, checked by walking every import of src/apimap.

Every module under ``src/apimap`` is parsed with :mod:`ast`; every ``import`` counts,
including those inside functions and under ``TYPE_CHECKING``. A module may import only from
its own layer or a lower one, and no packages (nor modules) may import each other in a cycle.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"

LAYERS: list[tuple[str, ...]] = [
    ("apimap", "apimap.exit_codes", "apimap.cli_paths"),
    ("apimap.record",),
    ("apimap.files",),
    ("apimap.checking",),
    ("apimap.verify",),
    ("apimap.survey",),
    ("apimap.publish",),
    ("apimap.contrib",),
    ("apimap.cli", "apimap.__main__"),
]
"""Lowest first: the package root and the command-line conventions everyone may use (layer 0),
then the seven layers, then the command line itself."""


@dataclass(frozen=True)
class Import:
    """One import of an apimap module: who, from which line, what."""

    module: str
    file: Path
    line: int
    target: str

    def where(self) -> str:
        return f"{self.file.relative_to(SOURCE.parent)}:{self.line}: {self.module} imports {self.target}"


def _module_name(file: Path) -> str:
    parts = list(file.relative_to(SOURCE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(file): file for file in sorted((SOURCE / "apimap").rglob("*.py"))}


MODULES = _modules()


def _imports(module: str, file: Path) -> Iterator[Import]:
    package = module if file.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, file, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                yield Import(
                    module, file, node.lineno, submodule if submodule in MODULES else source
                )


IMPORTS = list(
    dict.fromkeys(
        found
        for module, file in MODULES.items()
        for found in _imports(module, file)
        if found.target == "apimap" or found.target.startswith("apimap.")
    )
)


def layer_of(module: str) -> int:
    """The layer of a module: that of the longest package prefix named in :data:`LAYERS`."""
    best, rank = "", -1
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > len(best):
                best, rank = name, index
    return rank


def unit_of(module: str) -> str:
    """The package a module counts for in the cycle check: the layer's direct subpackage it lies
    in (``apimap.survey.scan``), or the module itself when it sits in the layer package."""
    parts = module.split(".")
    if layer_of(module) in (0, len(LAYERS) - 1):
        return module
    return ".".join(parts[:3])


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _shortest_cycle(members: list[str], edges: dict[str, set[str]]) -> list[str]:
    """One shortest cycle through the first member of a strongly connected component."""
    start = members[0]
    inside = set(members)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(edges.get(node, ())):
            if child == start:
                return [*paths[node], start]
            if child in inside and child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    raise AssertionError(f"{members} is no cycle")


def _cycle_report(
    cycles: list[list[str]], edges: dict[str, set[str]], unit: dict[str, str]
) -> list[str]:
    """Each cycle as a path, with the import (file and line) that makes each step."""
    lines = []
    for members in cycles:
        path = _shortest_cycle(members, edges)
        lines.append("cycle: " + " -> ".join(path))
        for source, target in pairwise(path):
            step = next(
                found
                for found in IMPORTS
                if unit[found.module] == source and unit.get(found.target) == target
            )
            lines.append("  " + step.where())
    return lines


def test_the_walk_sees_every_module_and_import_kind() -> None:
    # the walk must find imports inside functions and under TYPE_CHECKING, or it proves nothing
    assert len(MODULES) > 200
    assert all(layer_of(module) >= 0 for module in MODULES), "a module outside every layer"
    nested = {(found.module, found.target) for found in IMPORTS}
    assert ("apimap.checking.command", "apimap.checking.runner") in nested  # inside a function
    assert ("apimap.checking.rules.base", "apimap.checking.context") in nested  # TYPE_CHECKING


def test_no_module_imports_a_higher_layer() -> None:
    upward = [
        f"{found.where()} (layer {layer_of(found.target)} above layer {layer_of(found.module)})"
        for found in IMPORTS
        if layer_of(found.target) > layer_of(found.module)
    ]
    assert not upward, "\n".join(upward)


def test_no_cycle_between_packages() -> None:
    unit = {module: unit_of(module) for module in MODULES}
    edges: dict[str, set[str]] = defaultdict(set)
    for found in IMPORTS:
        if unit[found.module] != unit[found.target]:
            edges[unit[found.module]].add(unit[found.target])
    problems = _cycle_report(_cycles(edges), edges, unit)
    assert not problems, "\n".join(problems)


def test_no_cycle_between_modules() -> None:
    edges: dict[str, set[str]] = defaultdict(set)
    for found in IMPORTS:
        if found.target != found.module and found.target in MODULES:
            edges[found.module].add(found.target)
    identity = {module: module for module in MODULES}
    problems = _cycle_report(_cycles(edges), edges, identity)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
    ],
)
def test_the_cycle_finder_finds_cycles(
    edges: dict[str, set[str]], expected: list[list[str]]
) -> None:
    assert sorted(_cycles(edges)) == expected


def test_a_worker_imports_without_the_record_tools() -> None:
    """An older paddle release's environment holds paddle and NumPy only: the worker must not
    import PyYAML, pydantic or Jinja, even through a rule package it reads a code from."""
    import subprocess
    import sys

    blocked = (
        "import sys\nfor name in ('yaml', 'pydantic', 'jinja2'):\n    sys.modules[name] = None\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", blocked + "import apimap.verify.worker"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
