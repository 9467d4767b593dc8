"""The seven mapping categories of the specification and their sub-cases.

The order of :class:`Category` is the specification's priority order: when
several apply, the later one wins.
"""

from __future__ import annotations

from enum import StrEnum


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
        return _LABELS[self]

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


_LABELS = {
    Category.NO_PARAMS: "无参数",
    Category.IDENTICAL: "参数完全一致",
    Category.NAMES_DIFFER: "仅参数名不一致",
    Category.PADDLE_MORE: "paddle 参数更多",
    Category.DEFAULTS_DIFFER: "仅参数默认值不一致",
    Category.TORCH_MORE: "torch 参数更多",
    Category.INPUT_TYPE_DIFF: "输入参数类型不一致",
    Category.INPUT_USAGE_DIFF: "输入参数用法不一致",
    Category.RETURN_TYPE_DIFF: "返回参数类型不一致",
    Category.COMPOSITE: "组合替代实现",
    Category.CONTEXT_CHANGE: "用法不同：涉及上下文修改",
    Category.OTHER_PACKAGE: "对应 API 不在主框架",
    Category.MISSING: "功能缺失",
}

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

GROUP_NAMES = {
    1: "API 完全一致",
    2: "torch 参数更多",
    3: "参数不一致",
    4: "组合替代实现",
    5: "用法不同：涉及上下文修改",
    6: "对应 API 不在主框架",
    7: "功能缺失",
}


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
        return _ACTION_PHRASES[self]


_ACTION_PHRASES = {
    Action.REWRITE: "需要转写",
    Action.NONE: "暂无转写方式",
    Action.DELETE: "一般对网络训练结果影响不大，可直接删除",
}


class Section(StrEnum):
    """Sections of the seed mapping tables."""

    BASIC = "基础操作类"
    NETWORK = "组网类"
    LOSS = "Loss 类"
    UTILITY = "工具类"
    VISION = "视觉类"


def computed_category(kinds: list[RowKind]) -> Category:
    """The category implied by the parameter rows (categories 1 to 3)."""
    if not kinds:
        return Category.NO_PARAMS
    return max((kind.implies for kind in kinds), key=lambda category: category.rank)
