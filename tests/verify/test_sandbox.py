"""The sandbox of the verification workers: each limit, broken by a small program.

Each test starts a Python child the way a worker is started
(:meth:`apimap.verify.sandbox.Sandbox.start`) with limits small enough to be
reached in a moment, and checks that the child is stopped or refused. The
isolation tests need bubblewrap, which CI installs: without it they are skipped
on a developer's machine and fail in CI.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from apimap.verify import sandbox as sandbox_module
from apimap.verify.sandbox import MIB, Limits, detect


@dataclass
class Ended:
    """How a sandboxed child ended."""

    status: int
    out: str
    err: str
    seconds: float


def run(
    script: str,
    work: Path,
    limits: Limits | None = None,
    python: str = sys.executable,
    readable: tuple[str, ...] = (),
) -> Ended:
    """``python -c script`` in the sandbox, in ``work`` (``readable``: directories shown)."""
    work.mkdir(exist_ok=True)
    box = replace(detect(limits), readable=readable)
    began = time.monotonic()
    started = box.start(
        [python, "-c", script],
        str(work),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        out, err = started.process.communicate(timeout=120)
    finally:
        started.process.kill()
        started.release()
    return Ended(started.process.returncode, out.decode(), err.decode(), time.monotonic() - began)


def _killed_by(status: int, *signals: int) -> bool:
    """A signal death, seen directly or through bwrap (which exits with 128 + the signal)."""
    return any(status in (-number, 128 + number) for number in signals)


@pytest.fixture
def outside() -> Iterator[Path]:
    """A file the host can write outside the worker's folder and outside /tmp (which the
    sandbox replaces with a private, empty one)."""
    folder = Path(tempfile.mkdtemp(prefix="apimap-sandbox-test-", dir="/var/tmp"))
    yield folder / "outside.txt"
    shutil.rmtree(folder)


@pytest.fixture(scope="module")
def isolated() -> None:
    """The isolation tests need bubblewrap; CI has it."""
    if detect().isolation != "bwrap":
        if os.environ.get("CI"):
            pytest.fail("bubblewrap is missing in CI: apt-get install bubblewrap")
        pytest.skip("bubblewrap is not installed")


def test_cpu_time_stops_a_busy_loop(tmp_path: Path) -> None:
    ended = run("while True:\n    pass\n", tmp_path / "work", Limits(cpu_seconds=1))
    assert _killed_by(ended.status, signal.SIGXCPU, signal.SIGKILL), ended
    assert ended.seconds < 60


def test_address_space_stops_a_memory_hungry_program(tmp_path: Path) -> None:
    script = (
        "chunks = []\n"
        "try:\n"
        "    for _ in range(64):\n"
        "        chunks.append(bytearray(1 << 26))\n"
        "except MemoryError:\n"
        "    print('MemoryError after', len(chunks))\n"
    )
    ended = run(script, tmp_path / "work", Limits(address_space=512 * MIB))
    assert ended.status == 0, ended
    assert ended.out.startswith("MemoryError after"), ended
    assert int(ended.out.split()[-1]) < 8


def test_file_size_stops_a_large_write(tmp_path: Path) -> None:
    script = (
        "try:\n"
        "    with open('big.bin', 'wb') as out:\n"
        "        out.write(b'x' * (4 << 20))\n"
        "except OSError as exc:\n"
        "    print(exc.errno)\n"
    )
    ended = run(script, tmp_path / "work", Limits(file_size=1 * MIB))
    assert ended.out.strip() == str(errno.EFBIG), ended
    assert (tmp_path / "work" / "big.bin").stat().st_size <= 1 * MIB


def test_open_files_are_limited(tmp_path: Path) -> None:
    script = (
        "handles = []\n"
        "try:\n"
        "    for index in range(200):\n"
        "        handles.append(open(f'f{index}', 'w'))\n"
        "except OSError as exc:\n"
        "    print(exc.errno, len(handles))\n"
    )
    ended = run(script, tmp_path / "work", Limits(open_files=32))
    code, opened = ended.out.split()
    assert int(code) == errno.EMFILE, ended
    assert int(opened) < 32


def test_processes_are_limited_so_a_fork_bomb_stops(tmp_path: Path) -> None:
    script = (
        "import os\n"
        "read, write = os.pipe()\n"
        "started = 0\n"
        "try:\n"
        "    for _ in range(200):\n"
        "        if os.fork() == 0:\n"
        "            os.close(write)\n"
        "            os.read(read, 1)\n"
        "            os._exit(0)\n"
        "        started += 1\n"
        "except OSError as exc:\n"
        "    print(exc.errno, started)\n"
        "os.close(write)\n"
    )
    ended = run(script, tmp_path / "work", Limits(processes=16))
    code, started = ended.out.split()
    assert int(code) == errno.EAGAIN, ended
    assert int(started) < 16


@pytest.mark.usefixtures("isolated")
def test_no_network(tmp_path: Path) -> None:
    script = (
        "import socket\n"
        "print(sorted(name for _, name in socket.if_nameindex()))\n"
        "try:\n"
        "    socket.create_connection(('1.1.1.1', 53), timeout=3)\n"
        "except OSError as exc:\n"
        "    print('refused', exc.errno)\n"
    )
    ended = run(script, tmp_path / "work")
    interfaces, refused = ended.out.splitlines()
    assert interfaces == "['lo']", ended
    assert refused.startswith("refused"), ended


@pytest.mark.usefixtures("isolated")
def test_writes_outside_the_work_directory_fail_and_tmp_is_private(
    tmp_path: Path, outside: Path
) -> None:
    script = (
        "import os\n"
        "def write(path):\n"
        "    try:\n"
        "        with open(path, 'w') as out:\n"
        "            out.write('x')\n"
        "        return 'written'\n"
        "    except OSError as exc:\n"
        "        return str(exc.errno)\n"
        f"print(write({str(outside)!r}), write('inside.txt'), write('/tmp/apimap-private.txt'))\n"
    )
    ended = run(script, tmp_path / "work")
    assert ended.out.split() == [str(errno.EROFS), "written", "written"], ended
    assert not outside.exists()
    assert (tmp_path / "work" / "inside.txt").read_text() == "x"
    assert not Path("/tmp/apimap-private.txt").exists()


@pytest.mark.usefixtures("isolated")
def test_no_way_back_to_the_host_even_for_root(tmp_path: Path, outside: Path) -> None:
    # Root keeps no capability (no remount of the read-only view), kernel settings are
    # read-only and the host's UNIX sockets (/run) are out of sight.
    script = (
        "import os, subprocess\n"
        "print(os.listdir('/run'))\n"
        "remount = subprocess.run(['mount', '-o', 'remount,rw', '/'], capture_output=True)\n"
        "print(remount.returncode != 0)\n"
        "try:\n"
        f"    open({str(outside)!r}, 'w')\n"
        "    print('written')\n"
        "except OSError as exc:\n"
        "    print(exc.errno)\n"
        "try:\n"
        "    open('/proc/sys/kernel/printk_ratelimit', 'w')\n"
        "    print('written')\n"
        "except OSError as exc:\n"
        "    print(exc.errno)\n"
    )
    ended = run(script, tmp_path / "work")
    assert ended.out.split("\n")[:4] == [
        "[]",
        "True",
        str(errno.EROFS),
        str(errno.EROFS if os.geteuid() == 0 else errno.EACCES),
    ], ended
    assert not outside.exists()


def test_a_missing_mechanism_degrades_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APIMAP_SANDBOX", "none")
    off = detect()
    assert off.isolation == "none"
    assert any("APIMAP_SANDBOX=none" in warning for warning in off.warnings)
    monkeypatch.delenv("APIMAP_SANDBOX")
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name: None)
    bare = detect()
    assert bare.isolation == "none"
    assert any("bubblewrap" in warning for warning in bare.warnings)
    assert any("网络命名空间" in warning for warning in bare.warnings)
    assert bare.command(["python"], "/tmp") == ["python"]


def test_a_worker_inherits_none_of_the_callers_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    from apimap.verify.pool import worker_environment

    monkeypatch.setenv("GITHUB_TOKEN", "secret")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    env = worker_environment("/tmp/work")
    assert "GITHUB_TOKEN" not in env
    assert env["PATH"] == "/usr/bin:/bin" and env["HOME"] == "/tmp/work"
    assert env["CUDA_VISIBLE_DEVICES"] == "" and "PYTHONPATH" in env
    assert env["POLYGRAPHY_INSTALL_CMD"] == "false"  # paddle2onnx may not run pip


def test_an_environment_under_tmp_stays_visible(isolated: None, tmp_path: Path) -> None:
    # A checkout or a virtual environment under /tmp (common on CI machines) must still run,
    # although the sandbox replaces /tmp with an empty one; the rest of /tmp stays hidden.
    secret = tmp_path / "secret.txt"
    secret.write_text("x", encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "env")], check=True
    )
    python = str(tmp_path / "env" / "bin" / "python")
    script = f"import os; print(os.path.exists({str(secret)!r}))"
    ended = run(script, tmp_path / "work", python=python)
    assert (ended.status, ended.out.strip(), ended.err) == (0, "False", "")


def test_the_runs_weights_directory_is_readable_and_nothing_else_of_tmp(
    isolated: None, tmp_path: Path
) -> None:
    # paddle workers read the weights torch jobs made from the run's directory under /tmp
    shared = tmp_path / "weights"
    shared.mkdir()
    (shared / "0.bin").write_bytes(b"ab")
    (tmp_path / "secret.txt").write_text("x", encoding="utf-8")
    script = (
        f"print(open({str(shared / '0.bin')!r}, 'rb').read(), "
        f"os.path.exists({str(tmp_path / 'secret.txt')!r}))\n"
        f"open({str(shared / 'new.bin')!r}, 'wb')\n"
    )
    ended = run("import os\n" + script, tmp_path / "work", readable=(str(shared),))
    assert ended.out.strip() == "b'ab' False", ended
    assert "Read-only file system" in ended.err  # read, never written
