"""The parent's reading of worker lines: large lines arrive in pipe-sized chunks."""

from __future__ import annotations

import subprocess
import sys
import time

from apimap.verify.pool import Worker

WRITER = """
import sys
out = sys.stdout.buffer
out.write(b'x' * 30_000_000 + b'\\n' + b'second\\nthird')
out.flush()
"""


def _reader(command: list[str]) -> Worker:
    """A ``Worker`` reading the stdout of ``command`` (no sandbox: only the reading is tested)."""
    worker = Worker.__new__(Worker)
    worker.process = subprocess.Popen(command, stdout=subprocess.PIPE)
    worker._buffer = bytearray()
    return worker


def test_lines_larger_than_the_pipe_arrive_whole_and_in_order() -> None:
    worker = _reader([sys.executable, "-c", WRITER])
    deadline = time.monotonic() + 60
    first = worker._read_line(deadline)
    assert first is not None and len(first) == 30_000_001
    assert first == b"x" * 30_000_000 + b"\n"
    assert worker._read_line(deadline) == b"second\n"
    # "third" has no end of line: the end of the stream says so with b"".
    assert worker._read_line(deadline) == b""
    worker.process.wait()
