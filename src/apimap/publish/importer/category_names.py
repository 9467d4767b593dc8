"""Category names as pages write them: the specification's labels, group and template names,
the upstream documentation's current names, and legacy names (a violation, reported)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from apimap.record.categories import GROUP_NAMES, Category, RowKind, computed_category
from apimap.record.phrases import TEMPLATE_CATEGORY_NAMES, UPSTREAM_CATEGORY_LABELS

_IGNORED = re.compile(r"[\s:：,，、]+")

LEGACY_NAMES = {
    "参数用法不一致": Category.INPUT_USAGE_DIFF,
    "参数类型不一致": Category.INPUT_TYPE_DIFF,
    "返回值类型不一致": Category.RETURN_TYPE_DIFF,
    "组合实现": Category.COMPOSITE,
}
"""Names older pages use for one current category: neither the specification's nor upstream's."""

_GROUP_DEFAULTS = {1: Category.IDENTICAL, 3: Category.INPUT_USAGE_DIFF}
"""A group name says only the group; this sub-case is used when the rows do not decide."""


def key(name: str) -> str:
    """A name without spacing and punctuation, lower-cased: how names are compared."""
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
    for legacy, category in LEGACY_NAMES.items():
        names[key(legacy)] = CategoryName(category, None, legacy=True)
    current = {**TEMPLATE_CATEGORY_NAMES, **{v: k for k, v in UPSTREAM_CATEGORY_LABELS.items()}}
    for name, value in current.items():
        names[key(name)] = CategoryName(Category(value), None, legacy=False)
    for group, name in GROUP_NAMES.items():
        members = [c for c in Category if c.group == group]
        single = members[0] if len(members) == 1 else None
        names[key(name)] = CategoryName(single, None if single else group, legacy=False)
    for category in Category:
        names[key(category.label)] = CategoryName(category, None, legacy=False)
    return names


_BY_KEY = _names()


def category_name(text: str) -> CategoryName | None:
    """The category ``text`` names (spacing, punctuation and case ignored)."""
    return _BY_KEY.get(key(text))
