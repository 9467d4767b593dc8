"""The operating-system sandbox every verification worker runs in.

Records arrive by pull request from strangers, and ``apimap verify`` executes
their code, so static rules (the example-code rules AM261–AM264) are only the
first line. Each worker also gets, where the platform allows:

* resource limits (``setrlimit``): CPU seconds, address space, size of files
  written, open files (see :class:`Limits`), and a number of processes
  (:mod:`apimap.verify.pids`: its own ``pids`` cgroup, or ``RLIMIT_NPROC`` on
  top of the processes the user already has);
* a private, empty working directory;
* no network: a new network namespace (``bwrap --unshare-net``, else
  ``unshare --net``), on top of the worker refusing socket connections;
* a read-only view of the whole file system except that working directory and
  a private ``/tmp`` (Debian's ``bubblewrap``), its own process, IPC and host
  name namespaces, no capabilities even when started by root, no host UNIX
  sockets (``/run`` is empty) and read-only kernel settings (``/proc/sys``).

A mechanism that is missing is skipped with one warning (:attr:`Sandbox.warnings`)
instead of failing: the limits then still apply.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO, Any

from apimap.verify.pids import PidsGroup, PidsHierarchy, find_hierarchy, user_tasks

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
    processes: int = 64
    """Processes and threads a worker may have at once (it needs a handful)."""

    def apply(self, processes: int) -> None:
        """Set the limits in the current process (called in the child before ``exec``);
        ``processes`` is the ``RLIMIT_NPROC`` value, which counts the user's processes."""
        for kind, value in (
            (resource.RLIMIT_CPU, self.cpu_seconds),
            (resource.RLIMIT_AS, self.address_space),
            (resource.RLIMIT_FSIZE, self.file_size),
            (resource.RLIMIT_NOFILE, self.open_files),
            (resource.RLIMIT_NPROC, processes),
        ):
            _soft, hard = resource.getrlimit(kind)
            allowed = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (allowed, allowed))


@cache
def _works(command: tuple[str, ...]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


_KERNEL_SETTINGS = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
"""Files under ``/proc`` that root could write to change the host."""


def _kept(argv: list[str]) -> list[str]:
    """Read-only binds for what a worker needs from under ``/tmp``, which the sandbox replaces
    with an empty one: the interpreter's environment and apimap's own source (a checkout or a
    virtual environment under ``/tmp`` is common on CI machines)."""
    needed = [Path(argv[0]).absolute().parent.parent] if argv else []
    needed.append(Path(__file__).resolve().parents[2])
    temporary = Path("/tmp")
    kept = sorted(
        {str(path) for path in needed if path.is_relative_to(temporary) and path != temporary}
    )
    return [arg for path in kept for arg in ("--ro-bind", path, path)]


def _bwrap(
    directory: str, argv: list[str] | None = None, readable: tuple[str, ...] = ()
) -> list[str]:
    hidden = ["--tmpfs", "/run"]
    if os.path.isdir("/var/run") and not os.path.islink("/var/run"):
        hidden += ["--tmpfs", "/var/run"]
    read_only = [arg for path in _KERNEL_SETTINGS for arg in ("--ro-bind-try", path, path)]
    return [
        "bwrap",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        *read_only,
        "--tmpfs", "/tmp",
        *_kept(argv or []),
        *[arg for path in readable for arg in ("--ro-bind", path, path)],
        *hidden,
        "--bind", directory, directory,
        "--chdir", directory,
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--cap-drop", "ALL",
        "--new-session",
        "--",
    ]  # fmt: skip


@dataclass
class Sandboxed:
    """A started worker process and the cgroup that counts its processes."""

    process: subprocess.Popen[bytes]
    group: PidsGroup | None = None

    def release(self) -> None:
        """Remove the cgroup (once the process has ended): nothing it started survives."""
        if self.group is not None:
            self.group.remove()


@dataclass
class Sandbox:
    """How workers are started: a wrapper command, limits applied before ``exec``, a cgroup."""

    limits: Limits = field(default_factory=Limits)
    isolation: str = "none"
    """``bwrap`` (read-only file system, own network and process namespaces), ``unshare``
    (own network namespace) or ``none``."""
    pids: PidsHierarchy | None = None
    """Where each worker gets its own ``pids`` cgroup, when this process may make one."""
    warnings: list[str] = field(default_factory=list)
    readable: tuple[str, ...] = ()
    """Directories a worker may read although they lie under ``/tmp`` (the weights torch
    jobs made, which paddle jobs copy)."""

    def command(self, argv: list[str], directory: str) -> list[str]:
        """``argv`` wrapped in the isolation this machine offers."""
        if self.isolation == "bwrap":
            return [*_bwrap(directory, argv, self.readable), *argv]
        if self.isolation == "unshare":
            return ["unshare", "--net", "--", *argv]
        return argv

    def start(
        self,
        argv: list[str],
        directory: str,
        *,
        stdin: int | IO[Any] | None = None,
        stdout: int | IO[Any] | None = None,
        stderr: int | IO[Any] | None = None,
        env: dict[str, str] | None = None,
    ) -> Sandboxed:
        """Start ``argv`` in ``directory`` inside the sandbox, within the limits."""
        group = self.pids.new_group(self.limits.processes) if self.pids is not None else None
        processes = user_tasks() + self.limits.processes

        def prepare() -> None:
            if group is not None:
                group.enter()
            self.limits.apply(processes)

        try:
            process = subprocess.Popen(
                self.command(argv, directory),
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
                cwd=directory,
                env=env,
                preexec_fn=prepare,
            )
        except BaseException:
            if group is not None:
                group.remove()
            raise
        return Sandboxed(process, group)


def detect(limits: Limits | None = None) -> Sandbox:
    """The strongest sandbox this machine offers (set ``APIMAP_SANDBOX=none`` to switch it off
    when debugging a worker)."""
    chosen = os.environ.get("APIMAP_SANDBOX", "auto")
    sandbox = Sandbox(limits or Limits(), pids=find_hierarchy())
    if sandbox.pids is None and os.geteuid() == 0:
        sandbox.warnings.append(
            "以 root 运行且无法建立 pids cgroup：内核不对 root 限制进程数 (running as root "
            "without a pids cgroup: the process limit does not apply)"
        )
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
