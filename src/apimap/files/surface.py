"""The committed public-surface table (``data/surface.json``), read without torch.

The file holds, per library, the version it was computed from and, per
namespace, every public name with its kind, the name it is an alias of and
where its object is defined (``torch.nn.modules.conv.Conv2d`` for
``torch.nn.Conv2d``). :class:`Surface` indexes it for look-ups: public names,
aliases, the module paths of the library, and resolution of a dotted path
written in code (``torch.nn.modules.conv.Conv2d``) to its public name.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Final

FORMAT: Final = "apimap-surface"
VERSION: Final = 1
DATA_FILE: Final = "surface.json"

KINDS: Final = ("function", "class", "method", "property", "attribute", "dtype", "constant")
"""Kinds of public names; a namespace itself is a module or a class."""


@dataclass(frozen=True)
class NameEntry:
    """One public name of a namespace."""

    kind: str
    alias_of: str | None = None
    """The canonical public name when this one is an alias (same object or documented alias)."""
    defined_in: str | None = None
    """``module.qualname`` of the defining class or function, when that is another name."""

    def to_json(self) -> dict[str, str]:
        """Only the fields that are set."""
        data = {"kind": self.kind}
        if self.alias_of:
            data["alias_of"] = self.alias_of
        if self.defined_in:
            data["defined_in"] = self.defined_in
        return data


@dataclass(frozen=True)
class NamespaceEntry:
    """A namespace: a module, or a class whose members are public API."""

    kind: str
    group: str
    """``core`` (shown as its own bar on the home page) or ``other``."""
    order: int
    names: dict[str, NameEntry]
    """Short name -> entry."""


@dataclass(frozen=True)
class LibrarySurface:
    """The public surface of one library, as computed in one environment."""

    version: str
    python: str
    modules: list[str]
    """Every public module path of the library seen while collecting."""
    skipped: dict[str, str]
    """Namespaces that could not be imported, with the reason."""
    namespaces: dict[str, NamespaceEntry]


@dataclass(frozen=True)
class PublicName:
    """A public name with its namespace and library."""

    name: str
    namespace: str
    library: str
    kind: str
    alias_of: str | None
    defined_in: str | None


def _entry(data: dict[str, Any]) -> NameEntry:
    if data["kind"] not in KINDS:
        raise ValueError(f"unknown kind {data['kind']!r}")
    return NameEntry(data["kind"], data.get("alias_of"), data.get("defined_in"))


def _library(data: dict[str, Any]) -> LibrarySurface:
    return LibrarySurface(
        version=data["version"],
        python=data["python"],
        modules=list(data["modules"]),
        skipped=dict(data["skipped"]),
        namespaces={
            name: NamespaceEntry(
                kind=ns["kind"],
                group=ns["group"],
                order=ns["order"],
                names={short: _entry(entry) for short, entry in ns["names"].items()},
            )
            for name, ns in data["namespaces"].items()
        },
    )


def parse_document(text: str) -> dict[str, LibrarySurface]:
    """Library -> surface; raises ``ValueError`` for a file of another format."""
    data = json.loads(text)
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"not an {FORMAT} version {VERSION} document")
    return {name: _library(lib) for name, lib in data["libraries"].items()}


@dataclass
class Surface:
    """Look-ups over every library of the table.

    Each index is built on first use: a pre-commit hook's check asks only for aliases, which
    need a small part of what the surveys' look-ups do.
    """

    libraries: dict[str, LibrarySurface]

    def _entries(self) -> Iterator[tuple[str, str, str, NameEntry]]:
        """``(library, namespace, full name, entry)`` of every public name, libraries sorted."""
        for library, surface in sorted(self.libraries.items()):
            for namespace, ns in surface.namespaces.items():
                for short, entry in ns.names.items():
                    yield library, namespace, f"{namespace}.{short}", entry

    @cached_property
    def names(self) -> dict[str, PublicName]:
        """Full name -> the public name."""
        return {
            full: PublicName(full, namespace, library, entry.kind, entry.alias_of, entry.defined_in)
            for library, namespace, full, entry in self._entries()
        }

    @cached_property
    def namespaces(self) -> dict[str, NamespaceEntry]:
        """Every namespace of every library."""
        return {
            namespace: ns
            for _, surface in sorted(self.libraries.items())
            for namespace, ns in surface.namespaces.items()
        }

    @cached_property
    def modules(self) -> frozenset[str]:
        """Every public module path, and every namespace that is a module."""
        modules = {module for surface in self.libraries.values() for module in surface.modules}
        modules.update(name for name, ns in self.namespaces.items() if ns.kind == "module")
        return frozenset(modules)

    @cached_property
    def tensor_methods(self) -> frozenset[str]:
        """Short names of the public ``torch.Tensor`` methods."""
        tensor = self.namespaces.get("torch.Tensor")
        return frozenset(
            short
            for short, entry in (tensor.names.items() if tensor else ())
            if entry.kind == "method"
        )

    @cached_property
    def _alias_of(self) -> dict[str, str]:
        return {full: entry.alias_of for _, _, full, entry in self._entries() if entry.alias_of}

    @cached_property
    def _aliases(self) -> dict[str, list[str]]:
        aliases: dict[str, list[str]] = {}
        for name, canonical in sorted(self._alias_of.items()):
            aliases.setdefault(canonical, []).append(name)
        return aliases

    @cached_property
    def _defined(self) -> dict[str, str]:
        defined: dict[str, str] = {}
        for public in sorted(self.names.values(), key=lambda p: (p.alias_of is not None, p.name)):
            if public.defined_in and public.defined_in not in self.names:
                defined.setdefault(public.defined_in, public.name)
        return defined

    @cached_property
    def _by_short(self) -> dict[str, list[tuple[str, str]]]:
        by_short: dict[str, list[tuple[str, str]]] = {}
        for where, public_name in self._defined.items():
            module, _, short = where.rpartition(".")
            by_short.setdefault(short, []).append((module, public_name))
        return by_short

    def ordered_namespaces(self) -> list[str]:
        """Namespaces by library, then in the order of the namespace list."""
        return [
            namespace
            for _, surface in sorted(self.libraries.items())
            for namespace, _ns in sorted(surface.namespaces.items(), key=lambda i: i[1].order)
        ]

    def in_namespace(self, namespace: str) -> Iterator[PublicName]:
        """The public names of one namespace, sorted."""
        ns = self.namespaces.get(namespace)
        if ns is None:
            return
        for short in sorted(ns.names):
            yield self.names[f"{namespace}.{short}"]

    def alias_group(self, name: str) -> list[str]:
        """The canonical name of ``name`` and all its aliases, canonical first."""
        canonical = self.canonical(name)
        return [canonical, *self._aliases.get(canonical, ())]

    def unnamed(self, names: list[str]) -> list[str]:
        """The names the table groups with any of ``names`` (the same object, or documented
        as an alias) that ``names`` leaves out, in the table's order."""
        found: list[str] = []
        for name in names:
            for other in self.alias_group(name):
                if other not in names and other not in found:
                    found.append(other)
        return found

    def star_names(self, module: str) -> list[str]:
        """The names ``from module import *`` binds, as far as the table knows them.

        A namespace binds its public names (``__all__`` where it has one); any
        other module of the library binds the objects the table says it defines.
        """
        ns = self.namespaces.get(module)
        if ns is not None and ns.kind == "module":
            return sorted(ns.names)
        return sorted(
            where.rpartition(".")[2]
            for where in self._defined
            if where.rpartition(".")[0] == module
        )

    def canonical(self, name: str) -> str:
        """The canonical name of a public name (itself unless it is an alias)."""
        return self._alias_of.get(name, name)

    def public_name(self, path: str) -> str | None:
        """The public name a dotted path in code refers to, or ``None``.

        A public name is itself; ``torch.nn.modules.conv.Conv2d`` is
        ``torch.nn.Conv2d`` through the defining-object map; a path into a
        module that re-exports a defining object (``torch.nn.modules.Conv2d``)
        resolves when exactly one defining object below that module has the name.
        """
        if path in self.names:
            return path
        found = self._defined.get(path)
        if found is not None:
            return found
        module, _, short = path.rpartition(".")
        if module not in self.modules:
            return None
        matches = {
            public
            for where, public in self._by_short.get(short, ())
            if where == module or where.startswith(module + ".")
        }
        return matches.pop() if len(matches) == 1 else None


def data_path() -> Path:
    """Where the table lives in the source tree (``apimap surface --update`` writes it)."""
    return Path(__file__).resolve().parents[1] / "data" / DATA_FILE


@cache
def load_surface() -> Surface:
    """The committed table (read once per process)."""
    return Surface(parse_document(data_path().read_text(encoding="utf-8")))
