"""Import the verified libraries and look up APIs by their dotted names.

Only workers and ``apimap new`` use this module. The libraries are imported
through :mod:`importlib`, so that type checking does not descend into them.
"""

from __future__ import annotations

import importlib
import os
import warnings
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from apimap.pins import public_version


@dataclass(frozen=True)
class Libraries:
    """The imported libraries."""

    np: Any
    torch: Any
    paddle: Any

    @property
    def versions(self) -> dict[str, str]:
        """Installed public versions: ``{"torch": "2.13.0", "paddle": "3.3.1"}``."""
        versions = {
            "torch": public_version(str(self.torch.__version__)),
            "paddle": public_version(str(self.paddle.__version__)),
        }
        vision = _import("torchvision")
        if vision is not None:
            versions["torchvision"] = public_version(str(vision.__version__))
        return versions


def import_libraries() -> Libraries:
    """Import numpy, torch and paddle (CPU only, quietly). Raises ``ImportError``."""
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np = importlib.import_module("numpy")
        torch = importlib.import_module("torch")
        paddle = importlib.import_module("paddle")
    paddle.set_device("cpu")
    return Libraries(np=np, torch=torch, paddle=paddle)


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
