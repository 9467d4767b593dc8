"""How many processes a verification worker may have: a pids cgroup, or the user's count.

``RLIMIT_NPROC`` counts every process (and thread) of the user, not those of one
worker, and the kernel does not apply it to root at all. So a worker gets its
own cgroup of the ``pids`` controller when this process may make one (root on
most machines, cgroup v1 or v2); otherwise ``RLIMIT_NPROC`` is set to the
processes the user already has plus the worker's allowance.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

_GROUPS = itertools.count()
_PROC = Path("/proc")


@dataclass(frozen=True)
class PidsGroup:
    """One worker's cgroup: at most ``pids.max`` processes and threads in it together."""

    folder: Path

    def enter(self) -> None:
        """Move the calling process into the group (called in the child before ``exec``)."""
        (self.folder / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        """Stop whatever is left in the group and remove it."""
        for _ in range(50):
            for pid in self._members():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            try:
                self.folder.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02)  # the killed processes are still being reaped

    def _members(self) -> list[int]:
        try:
            text = (self.folder / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(pid) for pid in text.split()]


@dataclass(frozen=True)
class PidsHierarchy:
    """A folder of the ``pids`` controller where this process may make groups."""

    parent: Path

    def new_group(self, limit: int) -> PidsGroup | None:
        """A fresh group holding at most ``limit`` tasks, or ``None`` if it cannot be made."""
        folder = self.parent / f"apimap-verify-{os.getpid()}-{next(_GROUPS)}"
        try:
            folder.mkdir()
        except OSError:
            return None
        group = PidsGroup(folder)
        try:
            (folder / "pids.max").write_text(str(limit))
        except OSError:
            group.remove()
            return None
        return group


def find_hierarchy() -> PidsHierarchy | None:
    """Where this process's ``pids`` cgroup is mounted, if it may make groups below it."""
    own = _own_groups()
    for mount_point, kind, options in _cgroup_mounts():
        if kind == "cgroup" and "pids" in options:
            path = own.get("pids")
        elif kind == "cgroup2":
            path = own.get("")
        else:
            continue
        if path is None:
            continue
        parent = Path(mount_point) / path.lstrip("/")
        if kind == "cgroup2" and "pids" not in _read(parent / "cgroup.subtree_control").split():
            continue
        if parent.is_dir() and os.access(parent, os.W_OK):
            hierarchy = PidsHierarchy(parent)
            probe = hierarchy.new_group(1)
            if probe is not None:
                probe.remove()
                return hierarchy
    return None


def _cgroup_mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, ``cgroup`` or ``cgroup2``, super options) of every cgroup mount."""
    found = []
    for line in _read(_PROC / "self" / "mountinfo").splitlines():
        head, _, tail = line.partition(" - ")
        fields, described = head.split(), tail.split()
        if len(fields) >= 5 and len(described) >= 3 and described[0].startswith("cgroup"):
            found.append((fields[4], described[0], set(described[2].split(","))))
    return found


def _own_groups() -> dict[str, str]:
    """Controller (``""`` for cgroup v2) -> this process's group path."""
    groups: dict[str, str] = {}
    for line in _read(_PROC / "self" / "cgroup").splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            for controller in parts[1].split(","):
                groups[controller] = parts[2]
    return groups


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def user_tasks() -> int:
    """Processes and threads of this process's real user, as ``RLIMIT_NPROC`` counts them."""
    uid = str(os.getuid())
    count = 0
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        status = _read(entry / "status")
        uid_line = next((line for line in status.splitlines() if line.startswith("Uid:")), "")
        if uid_line.split()[1:2] == [uid]:
            threads = next(
                (line for line in status.splitlines() if line.startswith("Threads:")), ""
            )
            count += int(threads.split()[1]) if threads.split()[1:] else 1
    return count
