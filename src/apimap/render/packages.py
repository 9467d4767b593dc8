"""The torch packages the home page counts by.

The list is the package table of ``shared/seeds/004_*.txt`` in its order, with
two typos of that table corrected: ``torch.distribution`` is
``torch.distributions`` and ``torch.tils.cpp_extension`` is
``torch.utils.cpp_extension``. An API belongs to the longest package that
prefixes it; APIs of no listed package (``torchvision.*``) count as 其他.
"""

from __future__ import annotations

TORCH_PACKAGES: tuple[str, ...] = (
    "torch",
    "torch.Tensor",
    "torch.dtype",
    "torch.device",
    "torch.layout",
    "torch.finfo",
    "torch.iinfo",
    "torch.sparse",
    "torch.cuda",
    "torch.Storage",
    "torch.nn",
    "torch.nn.functional",
    "torch.optim",
    "torch.autograd",
    "torch.distributed",
    "torch.distributions",
    "torch.hub",
    "torch.multiprocessing",
    "torch.utils.bottleneck",
    "torch.utils.checkpoint",
    "torch.utils.cpp_extension",
    "torch.utils.data",
    "torch.utils.dlpack",
    "torch.onnx",
)

OTHER = "其他"


def package_of(api: str) -> str:
    """The longest listed package that ``api`` is (or lies in); :data:`OTHER` if none."""
    best = OTHER
    for package in TORCH_PACKAGES:
        inside = api == package or api.startswith(package + ".")
        if inside and (best == OTHER or len(package) > len(best)):
            best = package
    return best
