"""Signatures of torch builtins from the ``.pyi`` stubs shipped in the torch wheel.

``torch.abs``, ``torch.sum`` or ``torch.Tensor.view`` are implemented in C and
have no :func:`inspect.signature`. The stubs declare them, with one ``def`` per
overload. They are parsed with :mod:`ast`, never imported. The constructors of
the C extension's classes are not read from their stub classes: those disagree
with the runtime (the stub's ``finfo(dtype)`` is ``finfo(type)`` when called).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from apimap.record.signature import Param, params_of
from apimap.verify.libraries import Resolved

FUNCTIONS = "_C/_VariableFunctions.pyi"
TENSOR = "_C/__init__.pyi"
TENSOR_CLASS = "TensorBase"
NN = "_C/_nn.pyi"
FUNCTIONAL = "nn/functional.pyi"


@dataclass(frozen=True)
class StubSignature:
    """One ``def`` of a stub file (``self`` removed for methods)."""

    params: tuple[Param, ...]


def stub_files(api: str) -> list[tuple[str, str | None]]:
    """Which stub files (and class) may declare ``api``, in the order they are searched."""
    if not api.startswith("torch."):
        return []
    if api.startswith("torch.Tensor."):
        return [(TENSOR, TENSOR_CLASS)]
    if api.startswith("torch.nn.functional."):
        return [(FUNCTIONAL, None), (FUNCTIONS, None), (NN, None)]
    if api.count(".") == 1:
        return [(FUNCTIONS, None), (NN, None), (TENSOR, None)]
    return [(NN, None)] if api.startswith("torch._C._nn.") else []


def _torch_dir() -> Path | None:
    torch = sys.modules.get("torch")
    location = getattr(torch, "__file__", None)
    return Path(location).parent if isinstance(location, str) else None


def lookup(resolved: Resolved) -> list[StubSignature]:
    """Every overload the stubs declare for the API (empty when they declare none)."""
    root = _torch_dir()
    if root is None:
        return []
    names = [resolved.api.rsplit(".", 1)[-1]]
    own_name = getattr(resolved.obj, "__name__", None)
    if isinstance(own_name, str) and own_name not in names:
        names.append(own_name)
    for relative, class_name in stub_files(resolved.api):
        index = read_stub(root / relative, class_name)
        for name in names:
            if name in index:
                return index[name]
    return []


@lru_cache(maxsize=16)
def read_stub(path: Path, class_name: str | None) -> dict[str, list[StubSignature]]:
    """Name -> overloads of the module-level functions (or of one class's methods)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    body: list[ast.stmt] = tree.body
    is_method = class_name is not None
    if is_method:
        owner = next(
            (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None
        )
        body = [] if owner is None else owner.body
    index: dict[str, list[StubSignature]] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef):
            params = params_of(node.args, _text)
            if is_method and not _is_static(node):
                params = params[1:]
            index.setdefault(node.name, []).append(StubSignature(tuple(params)))
    return index


def _is_static(node: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _text(node: ast.expr | None) -> str | None:
    return None if node is None else ast.unparse(node)
