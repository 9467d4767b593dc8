"""The record paths a subcommand was given, refused with one line when one does not exist."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path


def existing_paths(command: str, given: Sequence[str]) -> list[Path] | None:
    """``given`` as paths (default ``mappings``); ``None`` after saying which do not exist.

    An empty argument is refused too: ``Path("")`` would silently mean the whole working
    directory.
    """
    paths = [Path(p) for p in given] or [Path("mappings")]
    missing = [repr(p) for p in given if not p.strip() or not Path(p).exists()]
    if not given and not paths[0].exists():
        missing = [str(paths[0])]
    if missing:
        print(f"apimap {command}: 路径不存在 (no such path): {', '.join(missing)}", file=sys.stderr)
        return None
    return paths
