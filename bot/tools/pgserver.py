"""A throwaway PostgreSQL server for one test run or one load test (issue 20).

The tests (tests/conftest.py) and ``python -m bot.loadtest`` start it
themselves, so a fresh machine runs the PostgreSQL tests too: ``initdb``
into a temporary folder, ``pg_ctl start`` on a free port of 127.0.0.1
(trust authentication, no fsync: nothing here must survive), and
``pg_ctl stop`` with the folder removed at the end.  Each test gets a
database of its own (:meth:`PostgresServer.create_database`, a few tens of
milliseconds), dropped after it.

The binaries are the server's (Debian's ``postgresql`` package, which
``make setup`` installs): ``initdb`` on PATH, else the newest
``/usr/lib/postgresql/<version>/bin``.  PostgreSQL refuses to run as root:
as root the server runs as the ``postgres`` user the package creates.

When the server cannot be had, :class:`PostgresUnavailable` says why and
what to install; tests/conftest.py fails the PostgreSQL tests with it (or
skips them when ``CHAUPAL_TEST_POSTGRES=0`` asks for that on purpose).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import asyncpg

#: The environment variable that skips the PostgreSQL tests on purpose ("0").
OPT_OUT = "CHAUPAL_TEST_POSTGRES"

HOW_TO_INSTALL = (
    "Install the PostgreSQL server: `make setup` does it as root on Debian "
    "(apt-get install postgresql), or install your system's PostgreSQL server "
    "package so that initdb, postgres and pg_ctl are on PATH. "
    f"To run the tests without PostgreSQL on purpose, set {OPT_OUT}=0 "
    "(`make test` and CI never do)."
)

#: The superuser initdb creates; the tests connect as it.
SUPERUSER = "chaupal"

T = TypeVar("T")


class PostgresUnavailable(Exception):
    """The test server cannot be started; the message says why and what to do."""


def server_binaries() -> Path:
    """The folder holding ``initdb``, ``postgres`` and ``pg_ctl``."""
    candidates: list[Path] = []
    found = shutil.which("initdb")
    if found is not None:
        candidates.append(Path(found).resolve().parent)
        candidates.append(Path(found).parent)

    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", folder.parent.name)) or (0,)

    packaged = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    candidates += packaged
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "postgres", "pg_ctl")):
            return folder
    raise PostgresUnavailable(
        "The PostgreSQL tests need a PostgreSQL server, and none was found "
        "(no initdb, postgres and pg_ctl on PATH or in /usr/lib/postgresql/*/bin). "
        + HOW_TO_INSTALL
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _in_a_thread(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to the end on a loop of its own, in a worker thread,
    so that a fixture may use it whatever loop pytest-asyncio runs."""

    async def run() -> T:
        return await make()

    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, run()).result()


class PostgresServer:
    """One running server; :meth:`start` it, :meth:`stop` it."""

    def __init__(self, root: Path, bindir: Path, port: int, run_as: list[str]) -> None:
        self.root = root
        self.bindir = bindir
        self.port = port
        self._run_as = run_as
        self._names = itertools.count(1)

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres", *, password: str | None = None) -> str:
        """The URL of one of its databases (the password is ignored: trust)."""
        user = SUPERUSER if password is None else f"{SUPERUSER}:{password}"
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    # ----------------------------------------------------------------- life

    @classmethod
    def start(cls) -> PostgresServer:
        bindir = server_binaries()
        run_as: list[str] = []
        root = Path(tempfile.mkdtemp(prefix="chaupal-postgres-"))
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(root, ignore_errors=True)
                raise PostgresUnavailable(
                    "The PostgreSQL tests run as root here, and PostgreSQL refuses to: "
                    "they run the server as the 'postgres' user, which does not exist. "
                    + HOW_TO_INSTALL
                ) from None
            runuser = shutil.which("runuser")
            if runuser is None:
                shutil.rmtree(root, ignore_errors=True)
                raise PostgresUnavailable(
                    "The PostgreSQL tests run as root, and need runuser (util-linux) "
                    "to start the server as the 'postgres' user."
                )
            os.chown(root, owner.pw_uid, owner.pw_gid)
            run_as = [runuser, "-u", "postgres", "--"]
        server = cls(root, bindir, _free_port(), run_as)
        try:
            server._initdb()
            server._pg_ctl_start()
        except BaseException:
            server.stop()
            raise
        return server

    def _run(self, *args: str, what: str, timeout: float = 120) -> None:
        try:
            done = subprocess.run(
                [*self._run_as, *args],
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=self.root,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PostgresUnavailable(f"{what} failed: {exc}. {HOW_TO_INSTALL}") from None
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise PostgresUnavailable(
                f"{what} failed (exit {done.returncode}):\n{done.stdout[-2000:]}"
                f"{done.stderr[-2000:]}{tail}"
            )

    def _initdb(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
            what="initdb (creating the test server's data folder)",
        )

    def _pg_ctl_start(self) -> None:
        options = " ".join(
            [
                f"-p {self.port}",
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={self.root}",
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
                "-c max_connections=200",
            ]
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-o",
            options,
            what="pg_ctl start (starting the test server)",
        )

    def stop(self) -> None:
        """Stop the server (at once: nothing in it is kept) and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                [
                    *self._run_as,
                    str(self.bindir / "pg_ctl"),
                    "stop",
                    "-D",
                    str(self.data),
                    "-m",
                    "immediate",
                    "-w",
                ],
                capture_output=True,
                timeout=60,
                cwd=self.root,
                check=False,
            )
        shutil.rmtree(self.root, ignore_errors=True)

    # ----------------------------------------------------------------- databases

    def admin(self, *statements: str) -> None:
        """Run statements on the server's ``postgres`` database, as the superuser."""

        async def run() -> None:
            conn = await asyncpg.connect(self.url(), timeout=30)
            try:
                for statement in statements:
                    await conn.execute(statement)
            finally:
                await conn.close()

        _in_a_thread(run)

    def create_database(self) -> str:
        """A new, empty database; returns its name."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self.admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return name

    def drop_database(self, name: str) -> None:
        """Drop a database, ending any connection a test left open to it."""
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
