"""The record's verification stamp as the stamp rules read it (AM701, AM703): parsed once,
and whether it is for exactly this record's data."""

from __future__ import annotations

from apimap.checking.context import RecordContext
from apimap.files.stamps import Stamp, StampFormatError, digest, parse_stamp


def stamp_of(ctx: RecordContext) -> Stamp | StampFormatError | None:
    """The parsed stamp, the reason it cannot be read, or ``None`` without one."""

    def parse() -> Stamp | StampFormatError | None:
        if ctx.stamp is None:
            return None
        try:
            return parse_stamp(ctx.stamp)
        except StampFormatError as exc:
            return exc

    return ctx.memo("stamp", parse)


def verified_this_data(ctx: RecordContext, stamp: Stamp) -> bool:
    """Whether ``stamp`` was written for the record's data as it is now."""
    return stamp.record == ctx.memo("record digest", lambda: digest(ctx.doc.data))
