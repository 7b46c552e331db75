"""One task that sleeps until the earliest deadline and fires what is due.

Deadlines live in the database (:class:`storage.timekeeping.TimerStore`),
so they survive restarts.  The scheduler never polls: it reads the earliest
timer (one indexed query), sleeps until it is due or until
:meth:`Scheduler.rearm` says the timers changed, then fires every due timer,
earliest first (due time, then game, kind and seat), several games side by
side and each game's timers in order.  Overdue timers found at start-up fire the same way,
once each: the handler claims a timer (a compare-and-delete) before acting on
it, so a timer can never be acted on twice, even by two processes.

Several processes may share the database (issue 20), each with its own
scheduler: a scheduler fires only the timers it claimed in one statement
(``claim_due``: ``claimed_by``, ``lease_until``), for :data:`LEASE`
seconds, longer than the watchdog (:data:`JOB_LIMIT`) that stops a stuck
job and gives its timer back.  A process that dies holding a claim loses it
when the lease runs out; another scheduler, which wakes then
(``earliest`` counts leases too), claims the timer and fires it.

Time comes from an injected clock, so tests drive the scheduler with a fake
clock: advance it, then :meth:`rearm` (or await :meth:`run_due`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.claims import LEASE
from storage.errors import StorageError
from storage.timekeeping import Timer

log = logging.getLogger(__name__)

MAX_SLEEP = 3600.0
"""Wake at least hourly, in case the machine's clock jumped (suspend, NTP)."""
RETRY_AFTER = 60.0
"""A timer whose handler failed is tried again this much later."""
BATCH = 16
"""Due timers are claimed and fired in batches of at most this many.

Small on purpose (issue 20): a batch is claimed under one lease, so a
process must fire the whole batch within it.  With 500 per claim, a busy
process held hundreds of overdue timers it could not reach before its lease
ran out, while the other processes, finding nothing unclaimed, slept: the
load test's deadlines fired minutes late, or not within the run.  Sixteen
at a time, the processes share a backlog, and a process that dies strands
at most sixteen timers for one lease."""
CONCURRENCY = 8
"""Games whose due timers fire at once (each game's own one after another)."""
JOB_LIMIT = 120.0
"""The watchdog: a timer's handler that has not finished after this many
seconds (a lock never released, a request that never answers) is cancelled,
logged and tried again later, so one stuck job never stalls the others."""


class Deadlines(Protocol):
    """Where a scheduler reads its deadlines: the games' timers
    (:class:`storage.timekeeping.TimerStore`) or the tournaments' round
    deadlines (:class:`storage.tournaments.RoundDeadlines`)."""

    async def claim_due(self, now: float, until: float, limit: int = ...) -> list[Timer]: ...

    async def earliest(self) -> Timer | None: ...

    async def reschedule(self, timer: Timer, due: float) -> bool: ...

    async def release(self, timer: Timer) -> bool: ...


class Scheduler:
    def __init__(
        self,
        timers: Deadlines,
        fire: Callable[[Timer], Awaitable[None]],
        clock: Callable[[], float],
        *,
        job_limit: float = JOB_LIMIT,
        lease: float = LEASE,
    ) -> None:
        self.timers = timers
        self.job_limit = job_limit
        self.lease = lease
        """How long a claimed timer stays this scheduler's (see :data:`LEASE`)."""
        self._fire = fire
        self._clock = clock
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        """Set while the loop sleeps with nothing due."""
        self._task: asyncio.Task[None] | None = None
        self._held: set[Timer] = set()
        """Timers of the current batch claimed and not yet fired: given
        back on :meth:`close`, so a process that stops cleanly leaves no
        claim for the others to wait out."""
        self.fired = 0
        """Timers handed to the handler so far (for tests and the bench)."""

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="chaupal-scheduler"
            )

    def rearm(self) -> None:
        """The timers changed: look again at the earliest."""
        self._wake.set()

    async def wait_idle(self) -> None:
        """Return once the running loop has fired everything due and sleeps
        (tests use it after moving a fake clock)."""
        while self._task is not None and not self._task.done():
            if self._idle.is_set() and not self._wake.is_set():
                return
            await asyncio.sleep(0.005)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        held, self._held = self._held, set()
        for timer in sorted(held):
            with contextlib.suppress(StorageError):
                await self.timers.release(timer)

    async def run_due(self) -> int:
        """Fire every timer due now, earliest first; how many were fired.

        The games of a batch fire side by side (at most :data:`CONCURRENCY`
        at once), each game's timers in order: one game's slow job (its
        board drawn and posted, a search) no longer holds up the deadlines
        of every other game behind it (the load test: with one job at a
        time a busy process fired its clocks minutes late)."""
        fired = 0
        seen: set[Timer] = set()
        gate = asyncio.Semaphore(CONCURRENCY)
        while True:
            now = self._clock()
            until = now + self.lease
            batch = await self.timers.claim_due(now, until, limit=BATCH)
            if not batch:
                return fired
            self._held.update(batch)
            games: dict[int, list[Timer]] = {}
            for timer in batch:
                games.setdefault(timer.game_id, []).append(timer)
            fired += sum(
                await asyncio.gather(
                    *(self._fire_game(t, until, seen, gate) for t in games.values())
                )
            )

    async def _fire_game(
        self, timers: list[Timer], until: float, seen: set[Timer], gate: asyncio.Semaphore
    ) -> int:
        """One game's claimed timers, in order, once ``gate`` lets it in."""
        done = 0
        async with gate:
            for timer in timers:
                self._held.discard(timer)
                done += await self._job(timer, until, seen)
        return done

    async def _job(self, timer: Timer, until: float, seen: set[Timer]) -> bool:
        """Fire one claimed timer (claimed until ``until``) under the
        watchdog; True if it was handed to the handler.  Never raises but
        for cancellation: a failing job is tried again later."""
        if self._clock() + min(self.job_limit, self.lease / 2) > until:
            # The claim could run out mid-job, and another process fire the
            # timer too (only the compare-and-delete would stop it): give
            # it back and claim afresh.
            with contextlib.suppress(StorageError):
                await self.timers.release(timer)
            return False
        if timer in seen:
            # The handler left it as it was (a bug): do not spin.
            log.error("timer %s of game %d was not handled", timer.kind, timer.game_id)
            with contextlib.suppress(StorageError):
                await self.timers.reschedule(timer, self._clock() + RETRY_AFTER)
            return False
        seen.add(timer)
        try:
            async with asyncio.timeout(self.job_limit):
                await self._fire(timer)
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            log.error(
                "timer %s of game %d did not finish within %.0f s; moved on, "
                "trying it again in %.0f s",
                timer.kind,
                timer.game_id,
                self.job_limit,
                RETRY_AFTER,
            )
            with contextlib.suppress(StorageError):
                await self.timers.reschedule(timer, self._clock() + RETRY_AFTER)
        except Exception:
            log.exception("timer %s of game %d failed", timer.kind, timer.game_id)
            # Never spin on a failing timer: try it again later.
            with contextlib.suppress(StorageError):
                await self.timers.reschedule(timer, self._clock() + RETRY_AFTER)
        else:
            # Done: a handler that left the timer as it was gives it back
            # (claimed again at once, then moved on above).
            with contextlib.suppress(StorageError):
                await self.timers.release(timer)
        self.fired += 1
        return True

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            self._idle.clear()
            try:
                await self.run_due()
                upcoming = await self.timers.earliest()
            except StorageError as exc:
                log.warning("scheduler: storage unavailable (%s); retrying", exc)
                upcoming = None
                delay: float | None = RETRY_AFTER
            else:
                delay = None if upcoming is None else upcoming.due - self._clock()
            if delay is not None and delay <= 0:
                continue
            timeout = MAX_SLEEP if delay is None else min(delay, MAX_SLEEP)
            # asyncio.timeout, not wait_for: no helper task is created for
            # the wait.
            self._idle.set()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._wake.wait()
