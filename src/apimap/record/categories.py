"""The enumerations of the record format: categories, row kinds, actions and API types.

The order of :class:`Category` is the specification's priority order: when
several apply, the later one wins. The Chinese words for every value live in
:mod:`apimap.record.phrases`.
"""

from __future__ import annotations

from enum import StrEnum

from apimap.record import phrases


class Category(StrEnum):
    """Declared mapping category (with the sub-cases of categories 1 and 3)."""

    NO_PARAMS = "no_params"
    IDENTICAL = "identical"
    NAMES_DIFFER = "names_differ"
    PADDLE_MORE = "paddle_more"
    DEFAULTS_DIFFER = "defaults_differ"
    TORCH_MORE = "torch_more"
    INPUT_TYPE_DIFF = "input_type_diff"
    INPUT_USAGE_DIFF = "input_usage_diff"
    RETURN_TYPE_DIFF = "return_type_diff"
    COMPOSITE = "composite"
    CONTEXT_CHANGE = "context_change"
    OTHER_PACKAGE = "other_package"
    MISSING = "missing"

    @property
    def label(self) -> str:
        """The Chinese name used in titles and tables."""
        return phrases.CATEGORY_LABELS[self.value]

    @property
    def group(self) -> int:
        """The specification's category number, 1 to 7."""
        return _GROUPS[self]

    @property
    def rank(self) -> int:
        """Priority: a higher rank wins when several categories apply."""
        return _RANKS[self]

    @property
    def computable(self) -> bool:
        """Categories 1 to 3 follow from the parameter rows."""
        return self.group <= 3


_RANKS = {category: index for index, category in enumerate(Category)}

_GROUPS = {
    Category.NO_PARAMS: 1,
    Category.IDENTICAL: 1,
    Category.NAMES_DIFFER: 1,
    Category.PADDLE_MORE: 1,
    Category.DEFAULTS_DIFFER: 1,
    Category.TORCH_MORE: 2,
    Category.INPUT_TYPE_DIFF: 3,
    Category.INPUT_USAGE_DIFF: 3,
    Category.RETURN_TYPE_DIFF: 3,
    Category.COMPOSITE: 4,
    Category.CONTEXT_CHANGE: 5,
    Category.OTHER_PACKAGE: 6,
    Category.MISSING: 7,
}

GROUP_NAMES = phrases.GROUP_NAMES
"""Category number (1 to 7) -> its Chinese name."""

GROUP_COLOURS = {
    1: "#2e7d32",
    2: "#7cb342",
    3: "#f9a825",
    4: "#ef6c00",
    5: "#8e24aa",
    6: "#1e88e5",
    7: "#c62828",
}
"""Category number (1 to 7) -> the colour the site's chart and the scan report draw it in."""


class RowKind(StrEnum):
    """How one torch parameter relates to one paddle parameter."""

    SAME = "same"
    RENAME = "rename"
    PADDLE_ONLY = "paddle_only"
    DEFAULT_DIFF = "default_diff"
    TORCH_ONLY = "torch_only"
    TYPE_DIFF = "type_diff"
    USAGE_DIFF = "usage_diff"
    RETURN_DIFF = "return_diff"

    @property
    def implies(self) -> Category:
        """The category a row of this kind implies on its own."""
        return _IMPLIES[self]

    @property
    def needs_action(self) -> bool:
        """Rows that PyTorch code cannot keep as they are say what to do."""
        return self in _NEEDS_ACTION


_IMPLIES = {
    RowKind.SAME: Category.IDENTICAL,
    RowKind.RENAME: Category.NAMES_DIFFER,
    RowKind.PADDLE_ONLY: Category.PADDLE_MORE,
    RowKind.DEFAULT_DIFF: Category.DEFAULTS_DIFFER,
    RowKind.TORCH_ONLY: Category.TORCH_MORE,
    RowKind.TYPE_DIFF: Category.INPUT_TYPE_DIFF,
    RowKind.USAGE_DIFF: Category.INPUT_USAGE_DIFF,
    RowKind.RETURN_DIFF: Category.RETURN_TYPE_DIFF,
}

_NEEDS_ACTION = {RowKind.TORCH_ONLY, RowKind.TYPE_DIFF, RowKind.USAGE_DIFF, RowKind.RETURN_DIFF}


class Action(StrEnum):
    """What a migrating user does with a torch-only or inconsistent parameter."""

    REWRITE = "rewrite"
    NONE = "none"
    DELETE = "delete"

    @property
    def phrase(self) -> str:
        """The fixed remark phrase of the specification."""
        return phrases.ACTION_PHRASES[self.value]


class ApiType(StrEnum):
    """What kind of object the torch API is; it decides what its page and its calls look like."""

    FUNCTION = "function"
    CLASS = "class"
    METHOD = "method"
    ATTRIBUTE = "attribute"
    CONSTANT = "constant"
    CONTEXT_MANAGER = "context_manager"
    DECORATOR = "decorator"

    @property
    def label(self) -> str:
        """The Chinese name shown on the page."""
        return phrases.API_TYPE_LABELS[self.value]

    @property
    def callable(self) -> bool:
        """Attributes and constants have no call signature and no parameters."""
        return self not in {ApiType.ATTRIBUTE, ApiType.CONSTANT}


class MissingReason(StrEnum):
    """Why Paddle has no counterpart (category 7), in the upstream documentation's five classes."""

    CHEAP = "cheap"
    NEEDS_KERNELS = "needs_kernels"
    DESIGN_DIFFERS = "design_differs"
    DEPRECATED = "deprecated"
    EXPERIMENTAL = "experimental"

    @property
    def label(self) -> str:
        """The Chinese wording of the reason."""
        return phrases.MISSING_REASON_LABELS[self.value]


class Refusal(StrEnum):
    """What verify checks of code that needs what the verifying machine lacks."""

    BOTH = "both"
    """Both sides run it and must raise for want of it (a device, the network)."""
    PADDLE = "paddle"
    """torch runs it as usual; paddle's package on the machine lacks the feature and must
    raise inside paddle."""
    TORCH = "torch"
    """paddle runs it as usual; torch lacks what it needs on the machine and must raise."""
    NEVER_RUN = "never_run"
    """Verify never runs it: it would run code from outside the record."""


class Needs(StrEnum):
    """What code needs that a verifying machine may lack (or must never run)."""

    GPU = "gpu"
    XPU = "xpu"
    NETWORK = "network"
    RPC = "rpc"
    CUDA_TOOLKIT = "cuda_toolkit"
    FOREIGN_CODE = "foreign_code"

    @property
    def label(self) -> str:
        """The Chinese name of what is needed."""
        return phrases.NEEDS_LABELS[self.value]

    @property
    def refusal(self) -> Refusal:
        """How verify treats code that needs it."""
        if self is Needs.RPC:
            return Refusal.PADDLE
        if self is Needs.CUDA_TOOLKIT:
            return Refusal.TORCH
        if self is Needs.FOREIGN_CODE:
            return Refusal.NEVER_RUN
        return Refusal.BOTH

    @property
    def runs(self) -> bool:
        """Whether verify runs the code at all."""
        return self.refusal is not Refusal.NEVER_RUN


class ShapeOnly(StrEnum):
    """Why a result is compared by type, dtype and shape only (never its values)."""

    RANDOM = "random"
    UNINITIALIZED = "uninitialized"
    DEVICE = "device"

    @property
    def label(self) -> str:
        """The Chinese wording of the reason."""
        return phrases.SHAPE_ONLY_LABELS[self.value]


class Section(StrEnum):
    """Sections of the seed mapping tables."""

    BASIC = "基础操作类"
    NETWORK = "组网类"
    LOSS = "Loss 类"
    UTILITY = "工具类"
    VISION = "视觉类"


UTILITY_NAMESPACES = tuple(
    f"torch.{namespace}."
    for namespace in [
        "utils",
        "accelerator",
        "amp",
        "backends",
        "compiler",
        "cpu",
        "cuda",
        "distributed",
        "export",
        "fx",
        "hub",
        "jit",
        "library",
        "monitor",
        "mps",
        "mtia",
        "multiprocessing",
        "nn.utils",
        "onnx",
        "optim",
        "package",
        "profiler",
        "testing",
        "xpu",
    ]
)
"""Namespaces whose APIs the seed tables file under 工具类 (tools rather than tensor maths)."""


def guessed_section(torch_api: str) -> Section:
    """The section an API's name points to; a record writes ``section`` only when it differs."""
    name = torch_api.rsplit(".", 1)[-1]
    if torch_api.startswith("torchvision."):
        return Section.VISION
    if torch_api.startswith("torch.nn.") and name.endswith(("Loss", "_loss")):
        return Section.LOSS
    if torch_api.startswith(("torch.nn.functional.", "torch.nn.init.", "torch.nn.Module.")) or (
        torch_api.startswith("torch.nn.") and name[:1].isupper()
    ):
        return Section.NETWORK
    if torch_api.startswith(UTILITY_NAMESPACES):
        return Section.UTILITY
    return Section.BASIC


def computed_category(kinds: list[RowKind]) -> Category:
    """The category implied by the parameter rows (categories 1 to 3)."""
    if not kinds:
        return Category.NO_PARAMS
    return max((kind.implies for kind in kinds), key=lambda category: category.rank)
