"""What rules see: one parsed record, or a summary of every record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePosixPath
from typing import Any, TypeVar, cast

from apimap.files.loader import Document
from apimap.record import derived
from apimap.record.categories import Category
from apimap.record.location import Loc, Path
from apimap.record.model import Record
from apimap.record.signature import Param, Signature, SignatureError, parse_signature

T = TypeVar("T")


@dataclass
class RecordContext:
    """A record with its source positions and its parsed signatures."""

    path: str
    """The path as given on the command line (used in diagnostics)."""
    relpath: PurePosixPath | None
    """The path below the ``mappings/`` folder, or ``None`` outside one."""
    doc: Document
    record: Record
    text: str
    """The file's decoded text (for rules that compare it with a canonical form)."""
    stamp: bytes | None = None
    """The bytes of the record's verification stamp file, when there is one."""

    _memo: dict[str, Any] = field(default_factory=dict)

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """A value several rules derive from the record, computed once."""
        if key not in self._memo:
            self._memo[key] = compute()
        return cast(T, self._memo[key])

    def loc(self, *path: str | int) -> Loc:
        """Where the value at ``path`` starts."""
        return self.doc.loc(tuple(path))

    def key_loc(self, *path: str | int) -> Loc:
        """Where the key of ``path`` starts."""
        return self.doc.key_loc(tuple(path))

    @cached_property
    def category(self) -> Category:
        """The declared category, or the one the rows imply."""
        return derived.category(self.record)

    @property
    def has_paddle_side(self) -> bool:
        """The record compares with a paddle API (not composite, not missing)."""
        return self.record.paddle_api is not None and self.category not in {
            Category.COMPOSITE,
            Category.MISSING,
        }

    @cached_property
    def torch_signatures(self) -> list[Signature]:
        """The torch overloads that parse (the others are reported by their own rule)."""
        return [sig for sig in map(_try_parse, self.record.torch_overloads) if sig is not None]

    @cached_property
    def paddle_signatures(self) -> list[Signature]:
        """The paddle overloads that parse."""
        return [sig for sig in map(_try_parse, self.record.paddle_overloads) if sig is not None]

    @cached_property
    def signatures_complete(self) -> bool:
        """Every recorded signature parsed, so coverage rules can judge the rows."""
        record = self.record
        torch_ok = len(self.torch_signatures) == len(record.torch_overloads)
        paddle_ok = len(self.paddle_signatures) == len(record.paddle_overloads)
        return torch_ok and paddle_ok

    def paddle_canonical(self, name: str) -> str:
        """The paddle parameter a row names, resolving accepted torch-style names."""
        return self.record.paddle_accepts.get(name, name)

    def paddle_find(self, name: str) -> Param | None:
        """The paddle parameter ``name`` (or the one it is accepted for) in any overload."""
        canonical = self.paddle_canonical(name)
        for sig in self.paddle_signatures:
            found = sig.find(canonical)
            if found is not None:
                return found
        return None

    def torch_find(self, name: str) -> Param | None:
        """The torch parameter ``name`` in any overload."""
        for sig in self.torch_signatures:
            found = sig.find(name)
            if found is not None:
                return found
        return None

    def paddle_params(self) -> list[str]:
        """Paddle parameters that the rows must cover, in first-seen order.

        Paddle's generated ``name`` is left out unless a row maps a torch parameter onto it
        (``register_buffer(name, tensor)``); so is the parameter that receives the object a
        torch method is called on (``self_param``).
        """
        mapped = {
            self.paddle_canonical(name)
            for row in self.record.params
            if derived.torch_names(row)
            for name in derived.paddle_names(row)
        }
        seen: dict[str, None] = {}
        for sig in self.paddle_signatures:
            for param in sig.params:
                if param.name == "name" and "name" not in mapped:
                    continue
                if param.spelled == self.record.self_param:
                    continue
                seen.setdefault(param.spelled)
        return list(seen)

    def torch_params(self) -> list[str]:
        """Every torch parameter of every overload, in first-seen order."""
        seen: dict[str, None] = {}
        for sig in self.torch_signatures:
            for param in sig.params:
                seen.setdefault(param.spelled)
        return list(seen)


def _try_parse(text: str) -> Signature | None:
    try:
        return parse_signature(text)
    except SignatureError:
        return None


@dataclass(frozen=True)
class RecordSummary:
    """What corpus rules need of one record (small enough to cache)."""

    path: str
    api: str
    api_loc: Loc
    aliases: tuple[tuple[str, Loc], ...] = ()

    def to_json(self) -> dict[str, object]:
        """A plain dict for the cache."""
        return {
            "path": self.path,
            "api": self.api,
            "api_loc": list(self.api_loc),
            "aliases": [[name, list(loc)] for name, loc in self.aliases],
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> RecordSummary:
        """Inverse of :meth:`to_json`."""
        api_loc = data["api_loc"]
        aliases = data["aliases"]
        assert isinstance(api_loc, list) and isinstance(aliases, list)
        return cls(
            path=str(data["path"]),
            api=str(data["api"]),
            api_loc=Loc(*api_loc),
            aliases=tuple((str(name), Loc(*loc)) for name, loc in aliases),
        )

    @classmethod
    def of_names(cls, path: str, api: str, names: list[str]) -> RecordSummary:
        """A summary without positions (for records read without their source text)."""
        start = Loc(1, 1)
        return cls(path=path, api=api, api_loc=start, aliases=tuple((n, start) for n in names))

    @classmethod
    def of(cls, ctx: RecordContext) -> RecordSummary:
        """Summarise a parsed record."""
        return cls(
            path=ctx.path,
            api=ctx.record.torch_api,
            api_loc=ctx.loc("torch_api"),
            aliases=tuple(
                [
                    (alias, ctx.loc("torch_aliases", index))
                    for index, alias in enumerate(ctx.record.torch_aliases)
                ]
                + (
                    [(ctx.record.inplace.torch, ctx.loc("inplace", "torch"))]
                    + [
                        (alias, ctx.loc("inplace", "aliases", index))
                        for index, alias in enumerate(ctx.record.inplace.aliases)
                    ]
                    if ctx.record.inplace
                    else []
                )
            ),
        )


@dataclass
class CorpusContext:
    """Every record of the run, summarised."""

    records: list[RecordSummary] = field(default_factory=list)


__all__ = ["CorpusContext", "Path", "RecordContext", "RecordSummary"]
