"""The public API name a torch path written in code stands for."""

from __future__ import annotations

from apimap.files.surface import Surface

ATEN = "torch.ops.aten."
_NAMESPACED = (("linalg_", "torch.linalg."), ("special_", "torch.special."), ("fft_", "torch.fft."))
"""aten operators of the sub-namespaces carry the namespace as a prefix (``linalg_vector_norm``)."""


def aten_operator(surface: Surface, path: str) -> str | None:
    """The public function an operator of ``torch.ops.aten`` calls, with or without its
    overload (``torch.ops.aten.mm.default`` -> ``torch.mm``,
    ``torch.ops.aten.linalg_vector_norm.default`` -> ``torch.linalg.vector_norm``,
    ``torch.ops.aten.gelu`` -> ``torch.nn.functional.gelu``, the in-place
    ``torch.ops.aten.add_.Tensor`` -> ``torch.Tensor.add_``); ``None`` when ``path`` is not
    an aten operator or no public function has its name."""
    if not path.startswith(ATEN):
        return None
    name = path[len(ATEN) :].split(".", 1)[0]
    if not name.strip("_"):
        return None
    candidates = [f"torch.{name}", f"torch.nn.functional.{name}", f"torch.Tensor.{name}"]
    for prefix, namespace in _NAMESPACED:
        if name.startswith(prefix):
            candidates.insert(0, namespace + name[len(prefix) :])
    return next((candidate for candidate in candidates if candidate in surface.names), None)


def public_api(surface: Surface, path: str) -> str | None:
    """The API a dotted torch path refers to; ``None`` for a bare module.

    The longest prefix of ``path`` that is a public name (directly, through the
    defining-object map, or by a unique re-export) is the API, extended by one
    component when that makes a member name (``torch.Tensor`` + ``view``).
    Trailing attributes of an object are part of using it
    (``torch.float32.itemsize`` uses ``torch.float32``). An operator of ``torch.ops.aten``
    is the public function it calls (:func:`aten_operator`). A path with no public
    prefix is returned whole: it is a name outside the public surface
    (``torch._C._get_tracing_state``).
    """
    operator = aten_operator(surface, path)
    if operator is not None:
        return operator
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        public = surface.public_name(prefix)
        if public is not None:
            if end < len(parts):
                member = f"{public}.{parts[end]}"
                if member in surface.names:
                    return member
            return public
        if end == len(parts) and prefix in surface.modules:
            return None
    return path
