"""Look up APIs by their dotted names in whatever library this process has imported.

Only workers and ``apimap new`` use this module. Modules are imported through
:mod:`importlib`, so that type checking does not descend into the libraries.
"""

from __future__ import annotations

import importlib
import warnings
from dataclasses import dataclass
from types import ModuleType
from typing import Any


class ApiNotFound(LookupError):
    """The dotted name does not resolve; ``found`` is the longest prefix that does."""

    def __init__(self, api: str, found: str | None) -> None:
        super().__init__(api)
        self.api = api
        self.found = found


@dataclass(frozen=True)
class Resolved:
    """An API object with its owner (the module or class it was found in)."""

    api: str
    obj: Any
    owner: Any

    @property
    def owner_is_class(self) -> bool:
        """Whether the API is a member of a class (``torch.Tensor.view``)."""
        return isinstance(self.owner, type)


def _import(name: str) -> ModuleType | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(name)
    except Exception:  # ImportError, or a module that fails while importing
        return None


def resolve(api: str) -> Resolved:
    """Walk ``api`` attribute by attribute from its package, importing submodules on demand.

    Attributes win over submodules of the same name (``paddle.nn.utils.clip_grad_value_``
    is a function even though a module of that name exists).
    """
    parts = api.split(".")
    obj: Any = _import(parts[0])
    if obj is None:
        raise ApiNotFound(api, None)
    owner: Any = None
    for position in range(1, len(parts)):
        owner = obj
        try:
            obj = getattr(owner, parts[position])
            if obj is not None or not _invented(owner, parts[position]):
                continue
        except Exception:
            pass
        submodule = (
            _import(".".join(parts[: position + 1])) if isinstance(owner, ModuleType) else None
        )
        if submodule is None:
            raise ApiNotFound(api, ".".join(parts[:position]))
        obj = submodule
    return Resolved(api, obj, owner)


def _invented(owner: Any, name: str) -> bool:
    """A module whose ``__getattr__`` answers ``None`` for any name (``paddle.compat``) has
    not really got ``name``; a module whose class defines it (``torch.backends.cudnn``'s
    ``benchmark_limit`` property, ``None`` without cuDNN) has."""
    return (
        isinstance(owner, ModuleType)
        and name not in vars(owner)
        and not any(name in vars(klass) for klass in type(owner).__mro__)
    )
