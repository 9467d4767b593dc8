"""Category names as pages write them: current labels, group names and legacy names."""

from __future__ import annotations

import re
from dataclasses import dataclass

from apimap.categories import GROUP_NAMES, Category, RowKind, computed_category

_IGNORED = re.compile(r"[\s:：,，、]+")

LEGACY_NAMES = {
    "仅 paddle 参数更多": Category.PADDLE_MORE,
    "参数用法不一致": Category.INPUT_USAGE_DIFF,
    "参数类型不一致": Category.INPUT_TYPE_DIFF,
    "返回值类型不一致": Category.RETURN_TYPE_DIFF,
    "参数默认值不一致": Category.DEFAULTS_DIFFER,
    "涉及上下文修改": Category.CONTEXT_CHANGE,
    "组合实现": Category.COMPOSITE,
}
"""Names older pages use for one current category."""

_GROUP_DEFAULTS = {1: Category.IDENTICAL, 3: Category.INPUT_USAGE_DIFF}
"""A group name says only the group; this sub-case is used when the rows do not decide."""


def _key(name: str) -> str:
    return _IGNORED.sub("", name).lower()


@dataclass(frozen=True)
class CategoryName:
    """What a title or table cell names: one category, or only a group to infer within."""

    category: Category | None
    group: int | None
    legacy: bool

    def resolve(self, kinds: list[RowKind]) -> Category:
        """The category; a group is narrowed by the rows' computed category."""
        if self.category is not None:
            return self.category
        assert self.group is not None
        computed = computed_category(kinds)
        return computed if computed.group == self.group else _GROUP_DEFAULTS[self.group]


def _names() -> dict[str, CategoryName]:
    names: dict[str, CategoryName] = {}
    for group, name in GROUP_NAMES.items():
        members = [c for c in Category if c.group == group]
        if len(members) == 1:
            names[_key(name)] = CategoryName(members[0], None, legacy=name != members[0].label)
        else:
            names[_key(name)] = CategoryName(None, group, legacy=True)
    for legacy, category in LEGACY_NAMES.items():
        names[_key(legacy)] = CategoryName(category, None, legacy=True)
    for category in Category:
        names[_key(category.label)] = CategoryName(category, None, legacy=False)
    return names


_BY_KEY = _names()


def category_name(text: str) -> CategoryName | None:
    """The category ``text`` names (spacing, punctuation and case ignored)."""
    return _BY_KEY.get(_key(text))
