"""Documentation links derived from API names; a record writes a link only where these fail."""

from __future__ import annotations

TORCH_DOCS = "https://docs.pytorch.org/docs/stable/"
VISION_DOCS = "https://docs.pytorch.org/vision/stable/"
PADDLE_DOCS = "https://www.paddlepaddle.org.cn/documentation/docs/zh/api/"


SOURCE_REPOSITORIES = ("https://github.com/pytorch/", "https://github.com/PaddlePaddle/")
"""Where the libraries' own source lives: the only reference an API without a documentation
page has."""
INTERNAL_PADDLE_MODULES = (
    "paddle.base.",
    "paddle.fluid.",
    "paddle.framework.",
    "paddle.nn.layer.",
    "paddle.tensor.",
    "paddle.distributed.fleet.meta_parallel.",
    "paddle.distributed.fleet.layers.",
)
"""Paddle modules whose members the documentation shows, if at all, under their public name."""


def undocumented(api: str) -> bool:
    """An API that no official documentation page shows: a private name (``_ntuple``), a
    paddle internal module's member, or a paddle counterpart from another package
    (``paddlenlp``)."""
    parts = api.split(".")
    if any(part.startswith("_") and not part.startswith("__") for part in parts):
        return True
    if api.startswith(INTERNAL_PADDLE_MODULES):
        return True
    return parts[0].startswith("paddle") and parts[0] != "paddle"


def is_source_link(url: str) -> bool:
    """A link into the source repository of torch or paddle."""
    return url.startswith(SOURCE_REPOSITORIES)


def _member_of_class(parts: list[str]) -> bool:
    """``torch.nn.Module.to``: the second to last part names a class."""
    return len(parts) >= 3 and parts[-2][:1].isupper()


def default_torch_url(api: str) -> str | None:
    """The page of ``api`` in the PyTorch or torchvision documentation; ``None`` elsewhere."""
    parts = api.split(".")
    if parts[0] == "torchvision":
        folder = "models/generated/" if api.startswith("torchvision.models.") else "generated/"
        return f"{VISION_DOCS}{folder}{api}.html"
    if parts[0] != "torch":
        return None
    if api.startswith("torch.utils.data."):
        return f"{TORCH_DOCS}data.html#{api}"
    if _member_of_class(parts) and parts[-2] != "Tensor":
        owner = ".".join(parts[:-1])
        return f"{TORCH_DOCS}generated/{owner}.html#{api}"
    return f"{TORCH_DOCS}generated/{api}.html"


def default_paddle_url(api: str) -> str | None:
    """The page of ``api`` in the Paddle documentation (a member's class page); ``None``
    for APIs of other packages."""
    parts = api.split(".")
    if parts[0] != "paddle":
        return None
    if _member_of_class(parts):
        parts = parts[:-1]
    return f"{PADDLE_DOCS}{'/'.join(parts)}_cn.html"
