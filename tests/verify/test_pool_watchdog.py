"""A run that hangs in native code, where the alarm cannot interrupt it, ends its worker at
its own limit (faulthandler's watchdog), not at the deadline of its whole batch."""

from __future__ import annotations

import sys
import time

from apimap.verify.pool import Job, WorkerPool
from apimap.verify.runtime import HANG_GRACE
from apimap.verify.sandbox import detect

NATIVE_HANG = "import hashlib\nkey = hashlib.pbkdf2_hmac('sha256', b'x', b'y', 2**31 - 1)"
"""Minutes in C that never look at Python's signals."""


def test_a_run_hanging_in_native_code_is_a_timeout_at_its_own_limit() -> None:
    pool = WorkerPool(sys.executable, "torch", size=1, timeout=300, sandbox=detect())
    pool.start()
    try:
        runs = [
            {"code": NATIVE_HANG, "inputs": {}, "outputs": ["key"], "seconds": 1.0},
            {"code": "y = 1", "inputs": {}, "outputs": ["y"], "seconds": 1.0},
        ]
        started = time.monotonic()
        result = pool.submit(Job(1, "runs", {"runs": runs}, timeout=300)).result()
        waited = time.monotonic() - started
        assert result.timed_out and result.seconds == 1.0 + HANG_GRACE
        assert waited < 60  # not the job's 300 s
        # the pool goes on with a fresh worker
        again = pool.submit(Job(2, "runs", {"runs": runs[1:]}, timeout=300)).result()
        assert again.data["runs"][0]["ok"], again
    finally:
        pool.close()
