"""The public API name a torch path written in code stands for."""

from __future__ import annotations

from apimap.files.surface import Surface


def public_api(surface: Surface, path: str) -> str | None:
    """The API a dotted torch path refers to; ``None`` for a bare module.

    The longest prefix of ``path`` that is a public name (directly, through the
    defining-object map, or by a unique re-export) is the API, extended by one
    component when that makes a member name (``torch.Tensor`` + ``view``).
    Trailing attributes of an object are part of using it
    (``torch.float32.itemsize`` uses ``torch.float32``). A path with no public
    prefix is returned whole: it is a name outside the public surface
    (``torch._C._get_tracing_state``).
    """
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
