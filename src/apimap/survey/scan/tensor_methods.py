"""The Tensor-method heuristic: ``expr.name(...)`` with ``name`` a public ``torch.Tensor`` method.

The scan does not know the receiver's type, so every such call whose receiver
is not an import counts. A method whose name is also a method of Python's
built-in types (``split``, ``add``, ``copy``, ...), of ``torch.nn.Module`` or
of ``torch.optim.Optimizer`` (``to``, ``cuda``, ``float``, ...) is reported with
``low`` confidence; the others (``view``, ``permute``, ``unsqueeze``, ...)
with ``high`` confidence. NumPy arrays share names such as ``reshape`` and
``mean``; those still count as ``high``.
"""

from __future__ import annotations

from typing import Final, Literal

from apimap.files.surface import Surface

Confidence = Literal["high", "low"]

_BUILTIN_TYPES: Final = (str, bytes, bytearray, list, tuple, dict, set, frozenset, int, float)
_SHARED_CLASSES: Final = ("torch.nn.Module", "torch.optim.Optimizer")

CONFIDENCE_NOTE: Final = (
    "启发式：接收者的类型未知，凡方法名是 torch.Tensor 的公开方法且接收者不是导入的名称都计入；"
    "low 表示同名方法也存在于 Python 内置类型、torch.nn.Module 或 torch.optim.Optimizer "
    "(heuristic: the receiver's type is unknown; low: the name is also a method of built-in "
    "types, nn.Module or Optimizer)"
)


def shared_names(surface: Surface) -> frozenset[str]:
    """Tensor method names that other common receivers have too."""
    names = {name for cls in _BUILTIN_TYPES for name in dir(cls) if not name.startswith("_")}
    for namespace in _SHARED_CLASSES:
        names.update(public.name.rpartition(".")[2] for public in surface.in_namespace(namespace))
    return frozenset(names & surface.tensor_methods)


def confidence(method: str, shared: frozenset[str]) -> Confidence:
    """``low`` when other receivers share the name, else ``high``."""
    return "low" if method in shared else "high"
