"""Bringing Discord up to date with a game: the public board in its channel,
each seat's private view by DM, and the fallback when DMs are closed.

Delivery is driven by state, not by events.  The outbox (storage table
``outbox``) records, per game, the version the board last showed and a
fingerprint of what each seat was last sent.  :meth:`Delivery.catch_up`
compares that with the game as it is now and sends only what is behind, once:
after every move, at start-up, and on a timer after a failed post.  So a crash
between saving a move and posting it never stalls a game, and a move posted
twice is impossible short of a crash inside the post itself (where Discord's
``enforce_nonce`` de-duplicates the retry).

Only public views reach the channel; narration comes from the engine's
``narrate``, which never carries a secret.

Each player's own notifications (``/chaupal me``, :mod:`bot.notifications`)
decide how they hear that it is their turn: a ping in the channel, a DM, or
both; nothing pings them during their quiet hours or while they are away,
and the board then names them instead.  A turn DM is owed once per wait: the
board's delivery records it (outbox target ``turn:<seat>``) before the
board's own row, and it is sent, once, with a nonce naming the wait.

:class:`Delivery` is the front: the catch-up, its claim, retries and the
sweep.  What it delivers is three parts sharing one :class:`Posting`
(``posting.py``: the game's thread or channel, the images, recording what
was delivered): :class:`Boards` (``boards.py``: the public board, the turn
and follower DMs it owes) and :class:`PrivateViews` (``views.py``: each
seat's view by DM).  The other features call the front only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.claims import LEASE, SWEEP_EVERY
from bot.edge.delivery.boards import Boards
from bot.edge.delivery.posting import Posting, _ClaimLost
from bot.edge.delivery.texts import (
    FOLLOW,
    TURN,
    Audience,
    _frozen,
    _owed,
)
from bot.edge.delivery.views import PrivateViews
from bot.edge.ports import Edge
from bot.edge.tables.menus import board_menu
from bot.engines.core import Seat
from bot.i18n import DEFAULT
from bot.rendering import UPLOAD_LIMIT
from bot.service import LiveGame, MoveResult
from storage.games import OutboxRow

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

CLAIM_WAITS = (0.1, 0.25, 0.5, 1.0, 2.0)
"""Seconds a catch-up waits, one after the other, for another process that
holds the game's delivery (a move made there a moment ago) before it leaves
the game to a retry."""
SWEEP_QUIET = 60.0
"""The sweep leaves a game behind alone this long after its last change:
the process that made the change is delivering it."""
SWEEP_HORIZON = 3600.0
"""The sweep looks at games left behind for at most this long (a delivery
that keeps failing is not tried every sweep for ever); older ones wait for
their next move or a restart's catch-up, as before."""
RETRY_DELAYS = (15.0, 60.0, 300.0, 900.0)
"""Seconds before retrying a failed delivery; the last repeats."""
MAX_RETRIES = 24


class Delivery:
    """The front: catching a game up from its outbox (claimed, retried,
    swept), over three parts sharing one :class:`Posting`."""

    def __init__(self, bot: Edge, *, owner: str | None = None) -> None:
        self.bot = bot
        self.owner = owner or bot.process
        """This process in the delivery claims it takes (issue 20)."""
        self._sweeping: asyncio.Task[None] | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._attempts: dict[int, int] = {}
        self._tasks: set[asyncio.Task[bool]] = set()
        self.posting = Posting(bot, self.owner)
        self.boards = Boards(bot, self.posting)
        self.views = PrivateViews(bot, self.posting, self.boards)

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def publish(self, result: MoveResult) -> None:
        """Deliver what a request changed (the board, the DMs it caused)."""
        await self.catch_up(result.game.id, actor=result.actor)

    async def catch_up_all(self) -> None:
        """At start-up: settle every active game (pending chance is resolved
        as it loads) and deliver whatever a crash or a failed post left behind."""
        store, service = self.bot.store, self.bot.service
        try:
            live = await store.live_games()
            owing: list[int] = []
            for record in live:
                if record.status == "active":
                    try:
                        await service.get(record.id)
                    except Exception:
                        log.exception("game %d could not be loaded at start-up", record.id)
                    # Settled and stored: no need to hold thousands of idle
                    # games in memory; each loads again on its next move.
                    async with service.lock(record.id):
                        service.forget(record.id)
                    # A "your turn" DM recorded as owed but not yet sent.
                    rows = await store.outbox(record.id)
                    if any(k.startswith(TURN) and _owed(r) for k, r in rows.items()):
                        owing.append(record.id)
            behind = sorted({*await store.games_behind(), *owing})
        except Exception:
            log.exception("could not look for undelivered games at start-up")
            return
        if behind:
            log.info("delivering what %d game(s) missed", len(behind))
        for game_id in behind:
            await self.catch_up(game_id)

    async def _claim(self, game_id: int) -> bool:
        """Make delivering the game this process's (:data:`LEASE`); while
        another process holds it, wait a little for it to finish (it looks
        at the game again before it lets go)."""
        store = self.bot.store
        for wait in (*CLAIM_WAITS, None):
            now = self.bot.clock()
            if await store.claim_delivery(game_id, self.owner, now, now + LEASE):
                return True
            if wait is None:
                return False
            await asyncio.sleep(wait)
        return False

    async def catch_up(self, game_id: int, *, actor: Seat | None = None) -> bool:
        """Bring the board and every seat's DM up to the game's current
        version; ``actor`` is the seat whose interaction just answered them
        (their next menu is already in that reply).  True when everything
        was delivered; otherwise a retry is scheduled.

        Several processes may deliver (issue 20): a catch-up claims the
        game's delivery first, and records what it sent only while it holds
        the claim; while another process holds it, this one waits a little,
        then leaves it to a retry."""
        async with self._lock(game_id):
            try:
                live = await self.bot.service.get(game_id)
            except Exception:
                log.exception("game %d could not be loaded for delivery", game_id)
                return False
            if live.state is None:
                # A lobby: nothing to deliver (and nothing to hold, if the
                # sweep claimed it).
                with contextlib.suppress(Exception):
                    await self.bot.store.release_delivery(game_id, self.owner)
                return True
            try:
                claimed = await self._claim(game_id)
                if claimed:
                    # Read again: another process may have moved the game
                    # while this one waited for the claim.
                    live = await self.bot.service.get(game_id)
            except Exception:
                log.exception("game %d: its delivery could not be claimed; will retry", game_id)
                claimed = False
            if not claimed:
                self._schedule_retry(game_id)
                return False
            try:
                delivered = await self._deliver(live, actor)
            except _ClaimLost:
                # This process outlived its lease and another took the game
                # over: what is left is that process's to deliver.
                log.warning("game %d: delivery taken over by another process", game_id)
                return True
            except asyncio.CancelledError:
                self._schedule_retry(game_id)
                raise
            try:
                if delivered:
                    await self.bot.store.release_delivery(game_id, self.owner)
                else:
                    # Kept until the retry is due: if this process is gone
                    # by then, the sweep of another takes it over.
                    attempt = self._attempts.get(game_id, 0)
                    delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
                    await self.bot.store.release_delivery(
                        game_id, self.owner, until=self.bot.clock() + delay + LEASE
                    )
            except Exception:
                log.exception("game %d: its delivery claim could not be released", game_id)
        if delivered:
            self._attempts.pop(game_id, None)
        else:
            self._schedule_retry(game_id)
        return delivered

    async def sweep(self) -> int:
        """Claim and deliver what nobody delivers (issue 20): games whose
        delivery a process claimed and lost with its lease (it died), and
        games left behind a while ago that nobody holds (a process died
        between a move and its delivery).  How many games it caught up."""
        now = self.bot.clock()
        claimed = await self.bot.store.claim_deliveries(
            self.owner,
            now=now,
            until=now + LEASE,
            quiet_since=now - SWEEP_QUIET,
            horizon=now - SWEEP_HORIZON,
        )
        if claimed:
            log.info("taking over the delivery of %d game(s)", len(claimed))
        for game_id in claimed:
            await self.catch_up(game_id)
        return len(claimed)

    def start_sweeping(self) -> None:
        """Sweep every :data:`SWEEP_EVERY` seconds, in every process."""

        async def loop() -> None:
            while True:
                await asyncio.sleep(SWEEP_EVERY)
                try:
                    await self.sweep()
                except Exception:
                    log.exception("the delivery sweep failed; trying again later")

        if self._sweeping is None or self._sweeping.done():
            self._sweeping = asyncio.get_running_loop().create_task(
                loop(), name="chaupal-delivery-sweep"
            )

    async def _deliver(self, live: LiveGame, actor: Seat | None) -> bool:
        """The rest of :meth:`catch_up`, holding the game's delivery."""
        game_id = live.id
        if self.bot.service.holds_chance(live):
            # The chance after a person's move is held while the move may
            # still be taken back (issue 31): its board goes out with the
            # throw, when the throw's timer catches the game up.
            return True
        game = _frozen(live)
        try:
            store = self.bot.store
            rows = await store.outbox(game_id)
            if rows.get("board") is None:
                game = await self.posting.open_thread(game)
            audience = await self._audience(game, rows)
            delivered = await self._board(game, rows, actor, audience)
            rows = await store.outbox(game_id)  # with the turn DMs the board owes
            served = board_menu(game).seats
            for seat in range(len(game.seats)):
                key = f"seat:{seat}"
                row = rows.get(key, OutboxRow(key, -1))
                turn = rows.get(f"{TURN}{seat}")
                delivered &= await self.views.seat(game, seat, row, actor, served, audience, turn)
            if any(k.startswith(TURN) and _owed(r) for k, r in rows.items()):
                rows = await store.outbox(game_id)  # a private DM may have said it
                for seat in range(len(game.seats)):
                    turn = rows.get(f"{TURN}{seat}")
                    if _owed(turn):
                        delivered &= await self.boards.turn(game, seat, turn, audience)
            rows = await store.outbox(game_id)
            for key, row in sorted(rows.items()):
                if key.startswith(FOLLOW) and _owed(row):
                    delivered &= await self.boards.follow(game, row)
        except (asyncio.CancelledError, _ClaimLost):
            # Cut off (the scheduler's watchdog stopped the timeout that
            # asked for it: what was not recorded as delivered goes out on
            # the retry, as after a failure), or taken over.
            raise
        except Exception:
            # A render that timed out, storage that is full: what was not
            # recorded as delivered goes out on the retry.
            log.exception("game %d: delivery failed; will retry", game_id)
            delivered = False
        return delivered

    def _schedule_retry(self, game_id: int) -> None:
        if game_id in self._retries:
            return
        attempt = self._attempts.get(game_id, 0)
        if attempt >= MAX_RETRIES:
            log.warning("game %d: giving up delivery after %d attempts", game_id, attempt)
            return
        self._attempts[game_id] = attempt + 1
        delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._retries.pop(game_id, None)
            task = loop.create_task(self.catch_up(game_id), name=f"chaupal-retry-{game_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._retries[game_id] = loop.call_later(delay, fire)

    def close(self) -> None:
        if self._sweeping is not None:
            self._sweeping.cancel()
        for handle in self._retries.values():
            handle.cancel()
        self._retries.clear()
        for task in self._tasks:
            task.cancel()

    async def audience(self, game: LiveGame) -> Audience:
        """Who may be pinged now (a takeback's request pings only them)."""
        return await self._audience(game, await self.bot.store.outbox(game.id))

    async def _audience(self, game: LiveGame, rows: Mapping[str, OutboxRow]) -> Audience:
        """Who may be pinged, who is told by DM and who is quiet, now."""
        service = self.bot.service
        away = await service.away_until(game)
        prefs = await service.notifications(s.user_id for s in game.seats)
        now = self.bot.clock()
        quiet: set[Seat] = set()
        ping: set[Seat] = set()
        dm: set[Seat] = set()
        reach: set[Seat] = set()
        views: set[Seat] = set()
        for s in game.seats:
            seat, mine = s.seat, prefs[s.user_id]
            private, turn = rows.get(f"seat:{seat}"), rows.get(f"{TURN}{seat}")
            closed = (private is not None and private.notice) or (turn is not None and turn.notice)
            if mine.quiet_at(now):
                quiet.add(seat)
            if mine.views:
                views.add(seat)
            if seat in away or game.holder(seat) is None:
                continue  # the automatic player plays it: nobody to ping or DM
            if not closed:
                reach.add(seat)
            if mine.turn in ("dm", "both") and not closed:
                dm.add(seat)
            if (mine.turn in ("ping", "both") or closed) and seat not in quiet:
                ping.add(seat)
        return Audience(
            away,
            frozenset(quiet),
            frozenset(ping),
            frozenset(dm),
            frozenset(reach),
            frozenset(views),
        )

    async def hand_over(self, game_id: int, seat: Seat) -> bool:
        """A seat changed hands (``/moderate game replace``): forget what its old
        player was sent, so that the new one gets the seat's whole private
        view (and its menu), then catch up.  The service already dropped the
        seat's outbox row with the change; doing it again under this game's
        delivery lock means a delivery that was under way for the old player
        cannot leave its record behind as if the new one had been sent it."""
        async with self._lock(game_id):
            await self.bot.store.reset_outbox(game_id, f"seat:{seat}")
        return await self.catch_up(game_id)

    # -- what the other features use, from the parts ---------------------------

    def place_id(self, game: LiveGame) -> int:
        """Where the game is played: its thread, else its channel."""
        return self.posting.place_id(game)

    async def send(
        self, game: LiveGame, *, files: Sequence[tuple[str, bytes]] = (), **kwargs: Any
    ) -> discord.Message:
        """Post in the game's thread (or its channel): :meth:`Posting.send`
        (``descriptions=``, the files' alt texts, among ``kwargs``)."""
        return await self.posting.send(game, files=files, **kwargs)

    async def post_board(
        self, game: LiveGame, content: str, lang: str | None = None
    ) -> discord.Message | None:
        """The board, posted again (``/game board``): :meth:`Boards.post_board`."""
        return await self.boards.post_board(game, content, lang)

    async def channel_lang(self, game: LiveGame) -> str:
        """The language of what the game's channel reads (issue 33)."""
        return await self.posting.channel_lang(game)

    async def private_png(self, game: LiveGame, seat: Seat, lang: str = DEFAULT) -> bytes:
        return await self.posting.private_png(game, seat, lang)

    async def private_file(self, game: LiveGame, seat: Seat, lang: str = DEFAULT) -> discord.File:
        return await self.posting.private_file(game, seat, lang)

    async def final_files(
        self, game: LiveGame, limit: int = UPLOAD_LIMIT, lang: str | None = None
    ) -> list[tuple[str, bytes]]:
        return await self.boards.final_files(game, limit, lang)

    async def _board(
        self,
        game: LiveGame,
        rows: Mapping[str, OutboxRow],
        actor: Seat | None,
        audience: Audience,
    ) -> bool:
        """The board's part of a catch-up (:meth:`Boards.board`), a method of
        the front so that a test can stand in for it."""
        return await self.boards.board(game, rows, actor, audience)
