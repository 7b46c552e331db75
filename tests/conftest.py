"""Session-wide safety net: a thread a test leaves running must not hang the run.

pytest-timeout bounds each test, but not the interpreter's exit, which waits
for every non-daemon thread.  aiosqlite runs each connection on one; a test
that fails before closing its database leaves that thread blocked for ever,
and the run never ends after printing its results (seen: "1 failed, 567
passed in 74.88s", then no exit for 45 minutes).  So after the session,
lingering threads get a short grace period, then their stacks are printed and
the process exits with the session's status (1 if the tests passed: the leak
itself is a bug).
"""

from __future__ import annotations

import faulthandler
import os
import sys
import threading
import time

import pytest

# The shared helpers assert too: give their failures pytest's full report.
pytest.register_assert_rewrite(
    "tests.bot.driver", "tests.renderers.images", "tests.engines.components"
)

#: Seconds lingering threads get to end after the session.
EXIT_GRACE = float(os.environ.get("CHAUPAL_TESTS_EXIT_GRACE", "10"))

_status: list[int] = []


def _lingering() -> list[threading.Thread]:
    return [
        t
        for t in threading.enumerate()
        if t is not threading.main_thread()
        and t.is_alive()
        and not t.daemon
        # Executor threads are stopped by the interpreter itself at exit.
        and not t.name.startswith(("ThreadPoolExecutor", "asyncio_"))
        and type(t).__name__ != "_ExecutorManagerThread"
    ]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _status.append(int(exitstatus))


def pytest_unconfigure(config: pytest.Config) -> None:
    deadline = time.monotonic() + EXIT_GRACE
    for thread in _lingering():
        thread.join(max(0.0, deadline - time.monotonic()))
    left = _lingering()
    if not left:
        return
    names = ", ".join(t.name for t in left)
    sys.stdout.flush()
    sys.stderr.write(
        f"\n{len(left)} thread(s) still running after the tests ({names}); the process "
        "would never exit. Most often a test failed before closing its Database (an "
        "aiosqlite connection). Stacks:\n"
    )
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    status = _status[-1] if _status else 1
    os._exit(status or 1)
