"""The parent's reading of worker output: large lines arrive in pipe-sized chunks, and the raw
weights that follow a result's line go to files."""

from __future__ import annotations

import base64
import gc
import os
import subprocess
import sys
import time
from pathlib import Path

from apimap.verify.pool import Job, Worker
from apimap.verify.weight_files import SIZES_KEY, WeightFiles, raw_blobs, spilled

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


RAW_WRITER = """
import sys
sys.stdin.buffer.readline()
out = sys.stdout.buffer
weights = b'\\x00\\x01' * 3_000_000 + b'\\n'
out.write(b'{"id": 1, "runs": [], "blob_sizes": {"w0": %d, "w1": 3}}\\n' % len(weights))
out.write(weights + b'abc' + b'next\\n')
out.write(b'{"id": 2, "blob_sizes": {"w0": 10}}\\n12345')
out.flush()
"""


def _raw_reader(tmp_path: Path, weights: WeightFiles | None) -> Worker:
    worker = Worker.__new__(Worker)
    worker.process = subprocess.Popen(
        [sys.executable, "-c", RAW_WRITER], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    worker._buffer = bytearray()
    worker.weights = weights
    worker.stderr_path = tmp_path / "stderr.log"
    worker.stderr = worker.stderr_path.open("wb")
    return worker


def test_weights_after_a_result_line_are_streamed_into_files_and_go_with_the_result(
    tmp_path: Path,
) -> None:
    weights = WeightFiles()
    worker = _raw_reader(tmp_path, weights)
    result = worker.run(Job(1, "runs", {}), timeout=60)
    files = spilled(result.data)
    assert sorted(files) == ["w0", "w1"]
    assert Path(files["w0"]).read_bytes() == b"\x00\x01" * 3_000_000 + b"\n"
    assert Path(files["w1"]).read_bytes() == b"abc"
    assert Path(files["w0"]).parent == Path(weights.path)
    assert SIZES_KEY not in result.data
    # the stream goes on right after the weights
    assert worker._read_line(time.monotonic() + 60) == b"next\n"
    # weights cut short by the end of the output: the job crashed, and nothing is kept
    cut = worker.run(Job(2, "runs", {}), timeout=60)
    assert cut.crashed is not None and cut.data == {}
    assert sorted(os.listdir(weights.path)) == sorted(Path(f).name for f in files.values())
    del result
    gc.collect()
    assert os.listdir(weights.path) == []  # the files go with the result that named them
    weights.close()
    worker.stderr.close()


def test_without_a_directory_the_weights_stay_in_the_result_as_base64(tmp_path: Path) -> None:
    worker = _raw_reader(tmp_path, None)
    result = worker.run(Job(1, "runs", {}), timeout=60)
    assert base64.b64decode(result.data["blobs"]["w1"]) == b"abc"
    assert len(base64.b64decode(result.data["blobs"]["w0"])) == 6_000_001
    worker.process.kill()
    worker.process.wait()
    worker.stderr.close()


def test_a_worker_sends_a_results_weights_raw_after_its_line() -> None:
    result: dict[str, object] = {"id": 3, "runs": [], "blobs": {"w0": b"ab", "w1": b""}}
    assert raw_blobs(result) == [b"ab", b""]
    assert result == {"id": 3, "runs": [], SIZES_KEY: {"w0": 2, "w1": 0}}
    assert raw_blobs({"id": 4, "runs": []}) == []
