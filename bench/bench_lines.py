"""Benchmark how the parent reads a worker's result line, by the line's size.

Usage: python bench/bench_lines.py [MEGABYTES ...]

A layer's weights travel from the torch worker to the parent as one JSON line
(AlexNet's are about 300 MB). The line arrives in pipe-sized chunks; this
prints the seconds to read lines of each size, side by side, and the seconds
per 100 MB, which stay flat when reading is linear in the line's length.
"""

from __future__ import annotations

import subprocess
import sys
import time

from apimap.verify.pool import Worker

WRITER = "import sys; sys.stdout.buffer.write(b'x' * {size} + b'\\n')"


def read_seconds(size: int) -> float:
    """Seconds from the writer's start to the whole line read."""
    worker = Worker.__new__(Worker)
    worker._buffer = bytearray()
    start = time.perf_counter()
    worker.process = subprocess.Popen(
        [sys.executable, "-c", WRITER.format(size=size)], stdout=subprocess.PIPE
    )
    line = worker._read_line(time.monotonic() + 600)
    seconds = time.perf_counter() - start
    worker.process.wait()
    assert line is not None and len(line) == size + 1
    return seconds


def main(sizes: list[int]) -> None:
    """Measure and print the figures."""
    for megabytes in sizes:
        seconds = read_seconds(megabytes * 1_000_000)
        print(
            f"{megabytes:5d} MB line: {seconds:6.2f} s ({seconds * 100 / megabytes:.2f} s per 100 MB)"
        )


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [10, 50, 100, 300])
