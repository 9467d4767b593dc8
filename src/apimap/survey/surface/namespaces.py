"""Which namespaces make up the public surface, and what "public" means there.

The list is the Python API index of the torch 2.13 documentation (every
namespace that imports without optional extras) and the torchvision 0.29
packages. ``core`` namespaces are the ones a model's code uses every day; the
home page shows each of them as a bar and sums the ``other`` ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

NamespaceKind = Literal["module", "class"]
NamespaceGroup = Literal["core", "other"]


@dataclass(frozen=True)
class NamespaceSpec:
    """One namespace of the surface: a module, or a class whose members are public API."""

    name: str
    kind: NamespaceKind = "module"
    group: NamespaceGroup = "core"


def _modules(group: NamespaceGroup, *names: str) -> tuple[NamespaceSpec, ...]:
    return tuple(NamespaceSpec(name, "module", group) for name in names)


TORCH_NAMESPACES: Final[tuple[NamespaceSpec, ...]] = (
    *_modules("core", "torch"),
    NamespaceSpec("torch.Tensor", "class"),
    *_modules(
        "core",
        "torch.nn",
        "torch.nn.functional",
        "torch.nn.init",
        "torch.nn.utils",
        "torch.nn.utils.rnn",
        "torch.nn.utils.parametrizations",
    ),
    NamespaceSpec("torch.nn.Module", "class"),
    *_modules("core", "torch.optim", "torch.optim.lr_scheduler"),
    NamespaceSpec("torch.optim.Optimizer", "class"),
    *_modules(
        "core",
        "torch.utils.data",
        "torch.autograd",
        "torch.amp",
        "torch.linalg",
        "torch.fft",
        "torch.special",
        "torch.cuda",
        "torch.distributed",
        "torch.distributions",
        "torch.jit",
        "torch.onnx",
    ),
    *_modules(
        "other",
        "torch.accelerator",
        "torch.autograd.functional",
        "torch.autograd.graph",
        "torch.backends.cuda",
        "torch.backends.cudnn",
        "torch.backends.mps",
        "torch.compiler",
        "torch.cpu",
        "torch.cuda.amp",
        "torch.distributed.algorithms.join",
        "torch.distributed.checkpoint",
        "torch.distributed.fsdp",
        "torch.distributed.optim",
        "torch.distributed.pipelining",
        "torch.distributed.rpc",
        "torch.distributed.tensor",
        "torch.distributed.tensor.parallel",
        "torch.distributions.constraints",
        "torch.export",
        "torch.func",
        "torch.futures",
        "torch.fx",
        "torch.hub",
        "torch.library",
        "torch.masked",
        "torch.monitor",
        "torch.mps",
        "torch.mtia",
        "torch.multiprocessing",
        "torch.nested",
        "torch.nn.attention",
        "torch.nn.parallel",
        "torch.nn.utils.parametrize",
        "torch.nn.utils.prune",
        "torch.nn.utils.stateless",
        "torch.overrides",
        "torch.package",
        "torch.profiler",
        "torch.random",
        "torch.signal.windows",
        "torch.sparse",
        "torch.testing",
        "torch.utils.checkpoint",
        "torch.utils.cpp_extension",
        "torch.utils.dlpack",
        "torch.utils.hooks",
        "torch.utils.module_tracker",
        "torch.xpu",
    ),
)
"""torch 2.13.0. Left out: ``torch.utils.tensorboard`` (needs the tensorboard package) and
``torch.utils.model_zoo`` (its one name, ``load_url``, is ``torch.hub.load_state_dict_from_url``)."""

TORCHVISION_NAMESPACES: Final[tuple[NamespaceSpec, ...]] = (
    *_modules(
        "core",
        "torchvision",
        "torchvision.transforms",
        "torchvision.transforms.functional",
        "torchvision.models",
        "torchvision.ops",
        "torchvision.utils",
        "torchvision.io",
        "torchvision.datasets",
    ),
    *_modules(
        "other",
        "torchvision.models.detection",
        "torchvision.models.feature_extraction",
        "torchvision.models.optical_flow",
        "torchvision.models.quantization",
        "torchvision.models.segmentation",
        "torchvision.models.video",
        "torchvision.transforms.v2",
        "torchvision.transforms.v2.functional",
        "torchvision.tv_tensors",
    ),
)
"""torchvision 0.29.1."""

NAMESPACES: Final[dict[str, tuple[NamespaceSpec, ...]]] = {
    "torch": TORCH_NAMESPACES,
    "torchvision": TORCHVISION_NAMESPACES,
}
"""Library -> its namespaces, in display order."""

DEFINITION: Final = (
    "A name N of a listed namespace M is public when N has no leading underscore, is not a "
    "module nor None, and either (a) M defines __all__ and lists N, or (b) the object is the library's "
    "own and belongs to M: a class or function whose __module__ is M or lies below M, or is a "
    "private module of the library (torch._C..., torch._jit_internal: an implementation behind "
    "a public name such as torch.jit.is_scripting or torch.distributed.TCPStore), an instance "
    "of a class of the library's top-level module (dtypes, layouts, memory formats), or any object that "
    "M's own source binds at top level by a definition or an assignment rather than an import. "
    "Objects of other packages (typing, builtins, numpy, ...) are never public, even when "
    "__all__ lists them; a name M merely imports from elsewhere in the library is public "
    "only where it is defined. torch's __all__ misses documented names (set_default_dtype, "
    "unique, channels_last, ...), so rule (b) applies to every namespace, with or without "
    "__all__. For the class namespaces (torch.Tensor, torch.nn.Module, "
    "torch.optim.Optimizer) every member without a leading underscore that object does not "
    "have is public, inherited ones included. Aliases: names bound to the same object, and "
    "names whose docstring says 'Alias of/for X'; the canonical name is str() of a dtype, "
    "else the name whose namespace's source defines it, else the one in the namespace closest "
    "to the object's __module__, then the one equal to its __name__, then the shortest."
)
"""The definition written into the data file and the README."""
