"""The operating-system sandbox every verification worker runs in.

Records arrive by pull request from strangers, and ``apimap verify`` executes
their code, so static rules (see the example-code rules) are only the first
line. Each worker also gets, where the platform allows:

* resource limits (``setrlimit``): CPU seconds, address space, size of files
  written, open files, processes (see :class:`Limits`);
* a private, empty working directory;
* no network: a new network namespace (``bwrap --unshare-net``, else
  ``unshare --net``), on top of the worker refusing socket connections;
* a read-only view of the whole file system except that working directory and
  a private ``/tmp`` (Debian's ``bubblewrap``), and its own process namespace.

A mechanism that is missing is skipped with one warning (:attr:`Sandbox.warnings`)
instead of failing: the limits then still apply.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

GIB = 1 << 30
MIB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """The resource limits of one worker process (and everything it starts)."""

    cpu_seconds: int = 1800
    """A worker lives for many jobs; a busy loop in one example still ends here."""
    address_space: int = 16 * GIB
    """Importing paddle maps several GiB of virtual memory; an example allocating
    tens of GiB is stopped."""
    file_size: int = 64 * MIB
    open_files: int = 1024
    processes: int = 256

    def apply(self) -> None:
        """Set the limits in the current process (called in the child before ``exec``)."""
        for kind, value in (
            (resource.RLIMIT_CPU, self.cpu_seconds),
            (resource.RLIMIT_AS, self.address_space),
            (resource.RLIMIT_FSIZE, self.file_size),
            (resource.RLIMIT_NOFILE, self.open_files),
            (resource.RLIMIT_NPROC, self.processes),
        ):
            resource.setrlimit(kind, (value, value))


@cache
def _works(command: tuple[str, ...]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _bwrap(directory: str) -> list[str]:
    return [
        "bwrap",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
        "--bind", directory, directory,
        "--chdir", directory,
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--new-session",
        "--",
    ]  # fmt: skip


@dataclass
class Sandbox:
    """How workers are started: a wrapper command, and limits applied before ``exec``."""

    limits: Limits = field(default_factory=Limits)
    isolation: str = "none"
    """``bwrap`` (read-only file system, own network and process namespaces), ``unshare``
    (own network namespace) or ``none``."""
    warnings: list[str] = field(default_factory=list)

    def command(self, argv: list[str], directory: str) -> list[str]:
        """``argv`` wrapped in the isolation this machine offers."""
        if self.isolation == "bwrap":
            return [*_bwrap(directory), *argv]
        if self.isolation == "unshare":
            return ["unshare", "--net", "--", *argv]
        return argv

    @property
    def limit(self) -> Callable[[], None]:
        """The function ``subprocess`` calls in the child."""
        return self.limits.apply


def detect(limits: Limits | None = None) -> Sandbox:
    """The strongest sandbox this machine offers (set ``APIMAP_SANDBOX=none`` to switch it off
    when debugging a worker)."""
    chosen = os.environ.get("APIMAP_SANDBOX", "auto")
    sandbox = Sandbox(limits or Limits())
    if chosen == "none":
        sandbox.warnings.append("APIMAP_SANDBOX=none：示例在没有隔离的进程中运行 (no isolation)")
        return sandbox
    if shutil.which("bwrap") and _works((*_bwrap(tempfile.gettempdir()), "true")):
        sandbox.isolation = "bwrap"
        return sandbox
    sandbox.warnings.append(
        "没有可用的 bubblewrap：文件系统不是只读的 (no bubblewrap: the file system stays "
        "writable; apt-get install bubblewrap)"
    )
    if shutil.which("unshare") and _works(("unshare", "--net", "true")):
        sandbox.isolation = "unshare"
        return sandbox
    sandbox.warnings.append(
        "无法创建网络命名空间，只在进程内禁止网络 (no network namespace: sockets are "
        "refused inside the worker only)"
    )
    return sandbox
