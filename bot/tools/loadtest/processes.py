"""The worker processes, seen from the coordinator: starting, calling,
killing and stopping one; settling after the players stop.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from typing import Any

from bot.tools.loadtest.world import OVERDUE

SETTLE_AT_LEAST = 3.0
"""Seconds the coordinator waits after the players stop, at least, for the
last deliveries."""


class Worker:
    """One worker process and the coordinator's connection to it."""

    def __init__(self, index: int, command: list[str]) -> None:
        self.index = index
        self.command = command
        self.process: asyncio.subprocess.Process | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.ids = 0
        self.up = asyncio.Event()
        self._reading: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            *self.command, stdout=asyncio.subprocess.PIPE, env=os.environ.copy()
        )
        assert self.process.stdout is not None
        while True:
            line = (await self.process.stdout.readline()).decode()
            if not line:
                raise RuntimeError(f"worker {self.index} exited at start")
            if line.startswith("READY "):
                break
        reader, self.writer = await asyncio.open_connection("127.0.0.1", int(line.split()[1]))
        self._reading = asyncio.create_task(self._read(reader))
        self.up.set()

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while line := await reader.readline():
            answer = json.loads(line)
            future = self.pending.pop(answer["id"], None)
            if future is not None and not future.done():
                future.set_result(answer)
        self.up.clear()
        for future in self.pending.values():
            if not future.done():
                future.set_result({"error": "connection lost"})
        self.pending.clear()

    async def call(self, **request: Any) -> dict[str, Any]:
        if not self.up.is_set() or self.writer is None:
            return {"error": "down"}
        self.ids += 1
        request["id"] = self.ids
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[self.ids] = future
        self.writer.write((json.dumps(request) + "\n").encode())
        try:
            return await asyncio.wait_for(future, 60)
        except TimeoutError:
            self.pending.pop(request["id"], None)
            return {"error": "timeout"}

    def kill(self) -> None:
        self.up.clear()
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        self.up.clear()
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


def deadline_grace(lease: float, job_limit: float, retry_after: float) -> float:
    """How late a deadline may fire in the workers, at most, without a
    fault: its claim held by the killed process runs out (``lease``), the
    next claim's job is stopped by the watchdog (``job_limit``), tried again
    ``retry_after`` later and runs (``job_limit`` at most), plus ten seconds
    for the scheduler's wake-up and the last deliveries."""
    return lease + 2 * job_limit + retry_after + 10.0


async def settle(target: str, grace: float) -> tuple[float, float]:
    """After the players: wait until no timer of a running game is overdue
    (at least :data:`SETTLE_AT_LEAST`, at most ``grace`` seconds).  Returns
    the time it stopped waiting (deadlines due after it are not checked)
    and how long it waited."""
    from storage.opening import open_database

    started = time.monotonic()
    db = await open_database(target)
    try:
        while True:
            now = time.time()
            async with db.read() as conn:
                rows = await conn.execute_fetchall(
                    "SELECT COUNT(*) FROM timers t JOIN games g ON g.id = t.game_id "
                    "WHERE g.status = 'active' AND t.due < ?",
                    (now - OVERDUE,),
                )
            overdue = int(next(iter(rows))[0])
            waited = time.monotonic() - started
            if (overdue == 0 and waited >= SETTLE_AT_LEAST) or waited >= grace:
                return now, waited
            await asyncio.sleep(1.0)
    finally:
        await db.close()
