"""What a name in a scope is bound to, as far as the scan cares.

The scan tracks imports only: a name bound by an import of torch or
torchvision is a :class:`TorchImport` (``F`` -> ``torch.nn.functional``), one
bound by an import of a module of the scanned project is a
:class:`ProjectImport` (resolved once every file's module-level bindings are
known), any other import is :data:`OTHER_IMPORT`, and every other binding
(assignment, parameter, loop or ``with`` target, ``def``, ``class``, ...) is
:data:`LOCAL`, which shadows the imports of enclosing scopes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, TypeVar

LIBRARIES: Final = frozenset({"torch", "torchvision"})
"""Top-level packages whose references the scan reports."""


@dataclass(frozen=True, slots=True)
class TorchImport:
    """A name bound to a torch or torchvision path (module or object)."""

    path: str
    line: int


@dataclass(frozen=True, slots=True)
class ProjectImport:
    """A name bound to something of the scanned project: a module, or a name in one.

    ``modules`` are tried in order (several for names a star import may
    provide); ``attrs`` is the path below the module (``("Conv",)`` for
    ``from .layers import Conv``, empty for ``import pkg.layers as L``).
    """

    modules: tuple[str, ...]
    attrs: tuple[str, ...]
    line: int


@dataclass(frozen=True, slots=True)
class _Marker:
    name: str


OTHER_IMPORT: Final = _Marker("other import")
"""Bound by an import of another package (numpy, os, ...)."""
LOCAL: Final = _Marker("local")
"""Bound by anything but an import."""

Binding = TorchImport | ProjectImport | _Marker


@dataclass(slots=True)
class NameBindings:
    """Every binding of one name in one scope (Python scopes are not flow-sensitive)."""

    torch: list[TorchImport] = field(default_factory=list)
    project: list[ProjectImport] = field(default_factory=list)
    other: bool = False
    local: bool = False

    def choose(self, line: int) -> Binding:
        """The binding a use on ``line`` sees.

        An import of torch wins over every other binding of the name in the same
        scope (``try: import torch`` / ``except ImportError: torch = None``),
        then a project import, then another import; among imports of one kind
        the last one before the use, else the first one.
        """
        if self.torch:
            return _latest(self.torch, line)
        if self.project:
            return _latest(self.project, line)
        if self.other:
            return OTHER_IMPORT
        return LOCAL


_Import = TypeVar("_Import", TorchImport, ProjectImport)


def _latest(imports: list[_Import], line: int) -> _Import:
    before = [item for item in imports if item.line <= line]
    if before:
        return max(before, key=lambda item: item.line)
    return min(imports, key=lambda item: item.line)
