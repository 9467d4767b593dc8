"""The packages a record's torch API may come from, and where paddle counterparts live."""

from __future__ import annotations

TORCH_FAMILY = ("torch", "torchvision", "torchaudio", "torchtext")
"""PyTorch and its own libraries."""

THIRD_PARTY = (
    "accelerate",
    "apex",
    "deepspeed",
    "diffusers",
    "einops",
    "fairscale",
    "flash_attn",
    "kornia",
    "peft",
    "timm",
    "torchmetrics",
    "transformers",
    "xformers",
)
"""PyTorch ecosystem packages whose APIs migrating projects use (category 6 records mostly)."""

PADDLE = "paddle"


def package_of(api: str) -> str:
    """The top-level package of a dotted API name."""
    return api.split(".", 1)[0]


def is_torch_family(api: str) -> bool:
    """Whether ``api`` belongs to PyTorch or one of its own libraries."""
    return package_of(api) in TORCH_FAMILY
