"""Session-wide safety net: a thread a test leaves running must not hang the run.

pytest-timeout bounds each test, but not the interpreter's exit, which waits
for every non-daemon thread.  aiosqlite runs each connection on one; a test
that fails before closing its database leaves that thread blocked for ever,
and the run never ends after printing its results (seen: "1 failed, 567
passed in 74.88s", then no exit for 45 minutes).  So after the session,
lingering threads get a short grace period, then their stacks are printed and
the process exits with the session's status (1 if the tests passed: the leak
itself is a bug).

Also the storage backends (issue 20): ``database_target`` is a parametrised
fixture, ``sqlite`` (a file in the test's folder) and ``postgresql`` (a fresh
database on a throwaway server the run starts itself, tests/postgres.py), so
one test covers both.  When the server cannot be started, the PostgreSQL
tests fail, and the run ends with one banner saying why and what to install.
"""

from __future__ import annotations

import faulthandler
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import OPT_OUT, PostgresServer, PostgresUnavailable

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


#: Why the PostgreSQL test server could not be started (for the final banner).
_postgres_failure: list[str] = []


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The run's throwaway PostgreSQL server, started by the first test that needs it."""
    if os.environ.get(OPT_OUT, "").strip() == "0":
        pytest.skip(f"{OPT_OUT}=0: the PostgreSQL tests are skipped on purpose")
    try:
        server = PostgresServer.start()
    except PostgresUnavailable as exc:
        _postgres_failure.append(str(exc))
    if _postgres_failure:
        pytest.fail(
            f"The PostgreSQL test server could not be started. {_postgres_failure[0]}",
            pytrace=False,
        )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database, dropped after the test."""
    name = postgres_server.create_database()
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What CHAUPAL_DATABASE would hold: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "chaupal.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _postgres_failure:
        terminalreporter.write_sep("!", "PostgreSQL tests could not run", red=True, bold=True)
        terminalreporter.write_line(_postgres_failure[0], red=True)


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
