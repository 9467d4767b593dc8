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
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
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
    """Look-ups over every library of the table."""

    libraries: dict[str, LibrarySurface]
    names: dict[str, PublicName] = field(init=False)
    namespaces: dict[str, NamespaceEntry] = field(init=False)
    modules: frozenset[str] = field(init=False)
    tensor_methods: frozenset[str] = field(init=False)
    """Short names of the public ``torch.Tensor`` methods."""
    _defined: dict[str, str] = field(init=False)
    _by_short: dict[str, list[tuple[str, str]]] = field(init=False)
    _aliases: dict[str, list[str]] = field(init=False)

    def __post_init__(self) -> None:
        self.names = {}
        self.namespaces = {}
        modules: set[str] = set()
        self._defined = {}
        self._by_short = {}
        for library, surface in sorted(self.libraries.items()):
            modules.update(surface.modules)
            for namespace, ns in surface.namespaces.items():
                self.namespaces[namespace] = ns
                if ns.kind == "module":
                    modules.add(namespace)
                for short, entry in ns.names.items():
                    full = f"{namespace}.{short}"
                    self.names[full] = PublicName(
                        full, namespace, library, entry.kind, entry.alias_of, entry.defined_in
                    )
        self.modules = frozenset(modules)
        tensor = self.namespaces.get("torch.Tensor")
        self.tensor_methods = frozenset(
            short
            for short, entry in (tensor.names.items() if tensor else ())
            if entry.kind == "method"
        )
        self._aliases = {}
        for public in sorted(self.names.values(), key=lambda p: p.name):
            if public.alias_of:
                self._aliases.setdefault(public.alias_of, []).append(public.name)
        for public in sorted(self.names.values(), key=lambda p: (p.alias_of is not None, p.name)):
            if public.defined_in and public.defined_in not in self.names:
                self._defined.setdefault(public.defined_in, public.name)
        for where, public_name in self._defined.items():
            module, _, short = where.rpartition(".")
            self._by_short.setdefault(short, []).append((module, public_name))

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
        public = self.names.get(name)
        return public.alias_of if public is not None and public.alias_of else name

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
    return Path(str(resources.files("apimap") / "data" / DATA_FILE))


@cache
def load_surface() -> Surface:
    """The committed table (read once per process)."""
    text = (resources.files("apimap") / "data" / DATA_FILE).read_text(encoding="utf-8")
    return Surface(parse_document(text))
