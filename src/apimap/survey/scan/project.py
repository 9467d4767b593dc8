"""Follow names imported from the scanned project's own modules to torch (re-exports).

``from .layers import Conv`` in one file, ``from torch.nn import Conv2d as
Conv`` in ``layers.py``: the use of ``Conv`` is a use of ``torch.nn.Conv2d``.
Every file's module-level imports (its exports) and star imports are known
once all files are parsed; this index resolves the deferred uses then.
"""

from __future__ import annotations

from collections.abc import Iterable

from apimap.survey.scan.bindings import ProjectImport, TorchImport
from apimap.survey.scan.resolver import FileScan

_MAX_HOPS = 32


class ProjectIndex:
    """Module-level bindings of every scanned file, by module name."""

    def __init__(self, scans: Iterable[FileScan]) -> None:
        self._exports: dict[str, dict[str, TorchImport | ProjectImport]] = {}
        self._stars: dict[str, tuple[str, ...]] = {}
        for scan in scans:
            self._exports.setdefault(scan.module, scan.exports)
            if scan.stars:
                self._stars.setdefault(scan.module, scan.stars)
        self._modules = frozenset(self._exports)
        self._cache: dict[tuple[tuple[str, ...], tuple[str, ...]], str | None] = {}

    def resolve(self, modules: tuple[str, ...], attrs: tuple[str, ...]) -> str | None:
        """The torch path ``attrs`` below the first of ``modules`` that has it, or ``None``."""
        key = (modules, attrs)
        if key not in self._cache:
            self._cache[key] = self._resolve(modules, attrs, 0)
        return self._cache[key]

    def _resolve(self, modules: tuple[str, ...], attrs: tuple[str, ...], hops: int) -> str | None:
        if hops > _MAX_HOPS:
            return None
        for module in modules:
            found = self._resolve_in(module, attrs, hops)
            if found is not None:
                return found
        return None

    def _resolve_in(self, module: str, attrs: tuple[str, ...], hops: int) -> str | None:
        current = module
        for index, name in enumerate(attrs):
            binding = self._exports.get(current, {}).get(name)
            rest = attrs[index + 1 :]
            if isinstance(binding, TorchImport):
                return ".".join((binding.path, *rest))
            if isinstance(binding, ProjectImport):
                return self._resolve(binding.modules, binding.attrs + rest, hops + 1)
            submodule = f"{current}.{name}"
            if submodule in self._modules:
                current = submodule
                continue
            stars = self._stars.get(current)
            if stars:
                return self._resolve(stars, attrs[index:], hops + 1)
            return None
        return None
