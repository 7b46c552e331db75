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
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import hashlib
import io
import logging
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.claims import LEASE, SWEEP_EVERY
from bot.edge.delivery.texts import (
    FOLLOW,
    NARRATION_LINES,
    OWED,
    OWED_END,
    TIMEOUT_EVENT,
    TURN,
    Audience,
    _frozen,
    _owed,
    asked_privately,
    headline,
    jump_url,
    seat_digest,
    status_line,
    thread_name,
)
from bot.edge.lobby.texts import lobby_text
from bot.edge.play.menus import board_menu
from bot.edge.ports import Edge
from bot.edge.replies import NO_PINGS, pinging
from bot.engines.core import CHANCE, Seat
from bot.outgoing import (
    clip,
    discord_time,
    fill_seats,
    mention,
    plain_name,
    safe_name,
)
from bot.rendering import UPLOAD_LIMIT
from bot.replay import load_record
from bot.server_settings import server_settings
from bot.service import LiveGame, MoveResult, secrets_of
from bot.takeback import takeback_target
from storage.games import OutboxRow

if TYPE_CHECKING:
    from storage.followers import Follower

log = logging.getLogger(__name__)

SOLO_NARRATION_LINES = 12
"""At a person's table with automatic seats, a board tells a whole round of
their moves (issue 30): up to this many lines."""

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread hides from the channel list after 7 days without posts
(posting reopens it)."""

VIEW_NOTE_CHARS = 300
"""A standing private view's line on what changed is at most this long."""

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
    def __init__(self, bot: Edge, *, owner: str | None = None) -> None:
        self.bot = bot
        self.owner = owner or bot.process
        """This process in the delivery claims it takes (issue 20)."""
        self._sweeping: asyncio.Task[None] | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._attempts: dict[int, int] = {}
        self._tasks: set[asyncio.Task[bool]] = set()
        self._gone: set[int] = set()
        """Threads found deleted (their games fall back to their channels)."""
        self._status: dict[int, str] = {}
        """The status line each game's lobby message was last edited to."""

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def place_id(self, game: LiveGame) -> int:
        """Where the game is played: its thread, else its channel."""
        thread_id = game.record.thread_id
        if thread_id is not None and thread_id not in self._gone:
            return thread_id
        return game.record.channel_id

    def channel(self, game: LiveGame) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(self.place_id(game), guild_id=game.record.guild_id)

    async def send(
        self, game: LiveGame, *, files: Sequence[tuple[str, bytes]] = (), **kwargs: Any
    ) -> discord.Message:
        """Post in the game's thread (or its channel).  ``files`` are
        ``(filename, bytes)``; other arguments go to ``send`` as they are (build
        them with :mod:`bot.outgoing`).  A thread that is gone (deleted, or
        closed to the bot) is dropped: the game falls back to its channel, the
        channel is told once, and the message is posted there instead.  Raises
        ``discord.HTTPException`` when the post fails anyway."""

        async def post() -> discord.Message:
            made = [discord.File(io.BytesIO(data), filename=name) for name, data in files]
            extra: dict[str, Any] = {"files": made} if made else {}
            return await self.channel(game).send(**kwargs, **extra)

        in_thread = self.place_id(game) != game.record.channel_id
        try:
            return await post()
        except (discord.NotFound, discord.Forbidden) as exc:
            if not in_thread:
                raise
            log.info(
                "game %d: its thread is gone (%s %s); back to its channel",
                game.id,
                exc.status,
                exc.code,
            )
            await self._thread_gone(game)
            return await post()

    async def _thread_gone(self, game: LiveGame) -> None:
        thread_id = game.record.thread_id
        if thread_id is None:
            return
        self._gone.add(thread_id)
        live = await self.bot.service.get(game.id)
        if live.record.thread_id == thread_id:
            await self.bot.store.set_thread(game.id, None)
            live.record = dataclasses.replace(live.record, thread_id=None)
        await self._notice(
            game,
            "thread-gone",
            f"The thread of {game.engine.title} #{game.id} is gone, so the game goes on "
            "here in the channel.",
        )

    async def _notice(self, game: LiveGame, kind: str, text: str) -> bool:
        """A short message in the game's channel, at most once per game and
        ``kind`` (remembered with the game's messages); True once posted."""
        key = f"notice:{kind}"
        if await self.bot.store.get_message(game.id, key) is not None:
            return True
        try:
            message = await self.bot.get_partial_messageable(
                game.record.channel_id, guild_id=game.record.guild_id
            ).send(content=clip(text), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.warning("game %d: could not post a notice (%s %s)", game.id, exc.status, exc.code)
            return False
        await self.bot.store.set_message(game.id, key, message.channel.id, message.id)
        return True

    # -- the game's thread and the lobby's status line -----------------------

    async def _open_thread(self, game: LiveGame) -> LiveGame:
        """Before a game's first board: open its thread from the lobby
        message, or say once in the channel why it is played there."""
        record = game.record
        if record.thread_id is not None or record.guild_id is None:
            return game
        store = self.bot.store
        if await store.get_message(game.id, "notice:no-thread") is not None:
            return game  # decided (and said) already
        lobby = await store.get_message(game.id, "lobby")
        if lobby is None:
            # A tournament's game has no lobby: its table message is posted
            # now, and the thread opens from it.
            lobby = await self.bot.desk.table_message(game)
        if lobby is None:
            return game  # no lobby message to open a thread from
        if isinstance(self.bot.get_channel(lobby[0]), discord.Thread):
            return game  # opened in a thread already: played there
        title = f"{game.engine.title} #{game.id}"
        settings = await server_settings(self.bot.server_settings, record.guild_id)
        if not settings.threads:
            why = (
                f"{title} is played here in the channel: threads are turned off on this "
                "server (`/moderate settings threads`)."
            )
        else:
            try:
                thread = await (
                    self.bot.get_partial_messageable(lobby[0], guild_id=record.guild_id)
                    .get_partial_message(lobby[1])
                    .create_thread(
                        name=thread_name(game), auto_archive_duration=THREAD_ARCHIVE_MINUTES
                    )
                )
            except discord.Forbidden as exc:
                log.info("game %d: may not open a thread (%s)", game.id, exc.code)
                why = (
                    f"{title} is played here in the channel: I may not open threads here "
                    "(I need the Create Public Threads and Send Messages in Threads "
                    "permissions)."
                )
            except (discord.HTTPException, ValueError) as exc:
                log.warning("game %d: could not open a thread (%s)", game.id, exc)
                why = f"{title} is played here in the channel: Discord would not open a thread."
            else:
                live = await self.bot.service.get(game.id)
                await store.set_thread(game.id, thread.id)
                live.record = dataclasses.replace(live.record, thread_id=thread.id)
                return dataclasses.replace(
                    game, record=dataclasses.replace(record, thread_id=thread.id)
                )
        await self._notice(game, "no-thread", why)
        return game

    async def _update_status(self, game: LiveGame) -> None:
        """Edit the lobby message: who plays (as the lobby said), then the
        game's status line, only when that text changed (a move changes
        neither).  Never fails delivery: a deleted lobby message just stays
        deleted."""
        store = self.bot.store
        lobby = await store.get_message(game.id, "lobby")
        if lobby is None:
            return
        place = self.place_id(game)
        thread_id = place if place != game.record.channel_id else None
        final_board = ""
        if thread_id is None and game.is_over:
            # Without a thread the final board is the one worth a link; the
            # newest board during play would change with every move.
            board = await store.get_message(game.id, "board")
            if board is not None:
                final_board = jump_url(game.record.guild_id, board[0], board[1])
        content = lobby_text(
            game,
            defaults=await self.bot.service.server_defaults(game.record.guild_id),
            status=status_line(game, thread_id, final_board),
            heading=await self.bot.desk.heading(game),
        )
        if self._status.get(game.id) == content:
            return
        try:
            await (
                self.bot.get_partial_messageable(lobby[0], guild_id=game.record.guild_id)
                .get_partial_message(lobby[1])
                .edit(content=content, allowed_mentions=NO_PINGS)
            )
        except discord.HTTPException as exc:
            log.info("game %d: lobby status not edited (%s %s)", game.id, exc.status, exc.code)
            return
        if game.is_over:
            self._status.pop(game.id, None)  # final: nothing to compare with any more
        else:
            self._status[game.id] = content

    # -- catching up --------------------------------------------------------

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

    async def _record(self, game_id: int, row: OutboxRow) -> None:
        """Record a delivery, only while this process holds the game's
        delivery (issue 20: marked done only by whoever still holds it)."""
        if not await self.bot.store.set_outbox(game_id, row, claimed_by=self.owner):
            raise _ClaimLost(game_id)

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
                game = await self._open_thread(game)
            audience = await self._audience(game, rows)
            delivered = await self._board(game, rows, actor, audience)
            rows = await store.outbox(game_id)  # with the turn DMs the board owes
            served = board_menu(game).seats
            for seat in range(len(game.seats)):
                key = f"seat:{seat}"
                row = rows.get(key, OutboxRow(key, -1))
                turn = rows.get(f"{TURN}{seat}")
                delivered &= await self._seat(game, seat, row, actor, served, audience, turn)
            if any(k.startswith(TURN) and _owed(r) for k, r in rows.items()):
                rows = await store.outbox(game_id)  # a private DM may have said it
                for seat in range(len(game.seats)):
                    turn = rows.get(f"{TURN}{seat}")
                    if _owed(turn):
                        delivered &= await self._turn(game, seat, turn, audience)
            rows = await store.outbox(game_id)
            for key, row in sorted(rows.items()):
                if key.startswith(FOLLOW) and _owed(row):
                    delivered &= await self._follow(game, row)
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

    # -- the board ----------------------------------------------------------

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

    async def _board(
        self,
        game: LiveGame,
        rows: Mapping[str, OutboxRow],
        actor: Seat | None,
        audience: Audience,
    ) -> bool:
        row = rows.get("board")
        over = game.is_over
        if row is not None and row.version >= game.version and (row.over or not over):
            return True
        awaited = frozenset() if over else game.engine.waiting_on(game.state)
        if not over and game.solo and not game.awaits_people():
            # A person alone with automatic seats: their moves go out
            # together, on the board the person acts on next (issue 30).
            # Nothing is recorded: that board tells everything since this.
            return True
        before = row.awaited if row is not None else frozenset()
        since = row.version if row is not None else 0
        entries = await self.bot.store.log(game.id, after_seq=since, up_to=game.version)
        narrations = [e.narration for e in entries if e.narration]
        chance = any(e.actor == CHANCE for e in entries)
        # A simultaneous phase (several seats to move: commits, set-ups) that
        # resolved is a public event (the reveal) worth a new message, even
        # when the last to commit is also the first to act after it; a first
        # commit that merely leaves one seat to move is not.
        simultaneous = len(game.engine.to_move(game.state) - {CHANCE}) >= 2
        resolved = row is not None and row.simultaneous and not simultaneous and actor in awaited
        # Ping whoever newly must act; a seat still waited on from the last
        # board was pinged then, and the actor is at the keyboard already.
        # A seat whose time ran out since the last board and that still owes
        # the next decision (a second die, a banked throw, a second pick in
        # a snake draft) starts a new wait, with a full clock: the automatic
        # player made its move, so its player is not at the keyboard and is
        # told as if the turn had just passed to them.
        timed_out = {e.actor for e in entries if e.action == TIMEOUT_EVENT}
        # So does a seat that made a move since the last board and is awaited
        # again after others moved (a person alone with automatic seats,
        # whose rounds go out as one board): a new decision, not the one the
        # last board named.
        moved = {e.actor for e in entries if e.actor >= 0 and not e.action.startswith("@")}
        # So does every seat a takeback (issue 31) awaits again: the game went
        # back, and its decision is not the one the last board named.
        went_back = any(takeback_target(e.action) is not None for e in entries)
        back = set(awaited) if went_back else set()
        renewed = (awaited & before & (timed_out | (moved - {actor}) | back)) - {actor}
        newly = (set(awaited - before) | renewed) - {actor}
        # One notification per owed decision (issue 30), the way the player
        # asked (``/chaupal me turn``): a ping on this board, a "your turn"
        # DM, or both.  A decision made in a DM menu is announced by that DM
        # (the decision is one tap away there), whatever the setting, and
        # the board names its player without pinging them; a player who
        # asked for both is pinged here as well.  Nobody is told again when
        # a simultaneous phase comes down to them: the last to commit was
        # told when it began.
        served = board_menu(game).seats
        by_menu = {s for s in newly if asked_privately(game, s, served)} & audience.reach
        both = audience.ping & audience.dm
        pings = (newly - by_menu) | (by_menu & both)
        turns = ((newly - by_menu) & audience.dm) | by_menu
        # A new message when someone new must act, the game ended or chance
        # showed something (dice, cards); when the awaited set only shrank
        # (players committing one by one) the board is edited in place.
        fresh = row is None or over or bool(awaited - before) or bool(renewed) or chance or resolved
        # Players who asked not to be pinged in the channel (DM only), who
        # are away or in their quiet hours, or whose DM announces their
        # decision, are named, not mentioned.
        content = headline(
            game,
            narrations,
            now=self.bot.clock(),
            away=audience.away,
            named=awaited - (pings & audience.ping),
            lines=SOLO_NARRATION_LINES if game.solo else NARRATION_LINES,
        )
        sent = False
        if not fresh:
            sent = await self._edit_board(game, content)
        edited = sent
        if not sent:
            sent = await self._post_board(game, content, pings & audience.ping, nonce=True)
        if sent:
            # The DMs this wait owes, recorded before the board's own row so
            # that a crash in between loses none (see ``TURN``).
            shown_at = row.version if row is not None else -1
            await self._owe_turns(game, rows, turns, shown_at)
            await self._owe_follows(game, rows, new_board=not edited)
            # Sticky while the same message is edited: it still shows the
            # phase until a new board replaces it.
            shown = simultaneous or (not fresh and row is not None and row.simultaneous)
            await self._record(
                game.id,
                OutboxRow("board", game.version, awaited=awaited, over=over, simultaneous=shown),
            )
            await self._update_status(game)
        return sent

    async def _owe_turns(
        self,
        game: LiveGame,
        rows: Mapping[str, OutboxRow],
        seats: Collection[Seat],
        since: int,
    ) -> None:
        """Record that ``seats`` are owed a "your turn" DM for the wait that
        began after the board of version ``since``; a seat whose DM for that
        wait is owed or sent already (a retry, a restart) owes nothing more."""
        for seat in sorted(seats):
            key = f"{TURN}{seat}"
            old = rows.get(key)
            if old is not None and old.version > since:
                continue
            await self._record(
                game.id,
                OutboxRow(
                    key,
                    game.version,
                    digest=OWED,
                    notice=old.notice if old is not None else False,
                ),
            )

    async def _owe_follows(
        self, game: LiveGame, rows: Mapping[str, OutboxRow], *, new_board: bool
    ) -> None:
        """Record the DMs this board owes the game's followers: the final
        board to every follower, and each new board message (not an edit in
        place: the channel's own rhythm) to those who follow every move.  A
        follower owed or sent this version already (a retry) owes nothing."""
        over = game.is_over
        if not over and not new_board:
            return
        for follower in await self.bot.followers.of_game(game.id):
            if follower.dms_closed or not (over or follower.every_move):
                continue
            key = f"{FOLLOW}{follower.user_id}"
            old = rows.get(key)
            if old is not None and old.version >= game.version:
                continue
            await self._record(
                game.id, OutboxRow(key, game.version, digest=OWED_END if over else OWED)
            )

    async def _follow(self, game: LiveGame, row: OutboxRow) -> bool:
        """Send a follower the DM their row owes, once: the public board and
        the public narration only, never a seat's view.  A follower who
        unfollowed or whose DMs are closed is dropped; Discord's refusal
        (50007) closes them for this game and never fails the game's
        delivery."""
        user_id = int(row.target.removeprefix(FOLLOW))
        follower = await self.bot.followers.get(game.id, user_id)
        if follower is None or follower.dms_closed or (not game.is_over and row.digest == OWED_END):
            await self._record(game.id, dataclasses.replace(row, digest="dropped"))
            return True
        content, files = await self.follower_message(game, follower, row)
        # One DM per follower and version: a retry after a crash mid-send is
        # dropped by Discord.  A digest, because a user id is too long for
        # Discord's 25 characters (it names nothing hidden either way).
        nonce = "f" + hashlib.sha256(f"{game.id}.{user_id}.{row.version}".encode()).hexdigest()
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            await dm.send(
                content=clip(content),
                files=[discord.File(io.BytesIO(data), filename=name) for name, data in files],
                allowed_mentions=NO_PINGS,
                nonce=nonce[:25],
            )
        except discord.Forbidden as exc:
            log.info("game %d: a follower's DMs are closed (code %s)", game.id, exc.code)
            await self.bot.followers.close_dms(game.id, user_id)
            await self._record(game.id, dataclasses.replace(row, digest="dropped"))
            return True
        except discord.HTTPException as exc:
            log.warning("game %d: a follower's DM failed (%s %s)", game.id, exc.status, exc.code)
            return False
        await self._record(game.id, dataclasses.replace(row, digest="sent"))
        return True

    async def follower_message(
        self, game: LiveGame, follower: Follower, row: OutboxRow
    ) -> tuple[str, list[tuple[str, bytes]]]:
        """A follower's DM: its text and its files.  Only what the channel
        shows: the public narration since the follower's last DM, who acts
        next or the result (names, never mentions: nobody but the reader is
        in a DM), a link to the game, and :meth:`final_files` at the end."""
        since = max(0, game.version - NARRATION_LINES * 4)
        entries = await self.bot.store.log(game.id, after_seq=since, up_to=game.version)
        narrations = [e.narration for e in entries if e.narration]
        # The end: the last moves before the result; else what led to this board.
        narrations = narrations[-2:] if game.is_over else narrations[-NARRATION_LINES:]
        everyone = set(range(len(game.seats)))
        text = headline(game, narrations, named=everyone)
        link = await self._board_link(game)
        lead = (
            "The end of a game you follow (its final board and the replay of the whole game):"
            if game.is_over
            else "A game you follow moved on:"
        )
        tail = f"The game: {link} · `/game unfollow game:{game.id}` to stop."
        if game.is_over:
            files = await self.final_files(game)
        else:
            files = [(f"chaupal-{game.id}-{game.version}.png", await self.public_png(game))]
        return clip(f"{lead}\n{text}\n{tail}"), files

    async def final_files(
        self, game: LiveGame, limit: int = UPLOAD_LIMIT
    ) -> list[tuple[str, bytes]]:
        """How a game that is over is shown to a follower at its end: its
        final board (the public view) and the animated replay of the whole
        game (issue 21 §1, drawn in the render pool, from its cache when
        someone asked for it already).  Both within ``limit`` bytes (one
        message's upload): the replay alone when both would not fit; the
        board alone, and a log line, when the replay cannot be drawn (the DM
        still goes out; ``/game replay`` can try again)."""
        board = (f"chaupal-{game.id}-{game.version}.png", await self.public_png(game))
        try:
            drawn = await self.bot.renders.replay(await load_record(self.bot.store, game.id))
        except Exception:
            log.exception("game %d: its replay could not be drawn; the final board alone", game.id)
            return [board]
        replay = (f"chaupal-{game.id}-replay.gif", drawn.data)
        if len(board[1]) + len(drawn.data) > limit:
            return [replay] if len(drawn.data) <= limit else [board]
        return [board, replay]

    def _turn_text(self, game: LiveGame, row: OutboxRow, link: str) -> str:
        return f"Your turn in {game.engine.title} #{game.id}: {link}"

    async def _board_link(self, game: LiveGame) -> str:
        board = await self.bot.store.get_message(game.id, "board")
        if board is None:
            return f"<#{self.place_id(game)}>"
        return jump_url(game.record.guild_id, board[0], board[1])

    async def _turn(
        self, game: LiveGame, seat: Seat, row: OutboxRow | None, audience: Audience
    ) -> bool:
        """Send a seat the "your turn" DM its wait owes (see ``TURN``), once;
        silently in their quiet hours, never while they are away or once the
        wait is over.  With DMs closed, the channel pings them instead."""
        if row is None or not _owed(row):
            return True
        awaited = frozenset() if game.is_over else game.engine.waiting_on(game.state)
        # Only to whoever holds the seat now: a player who left it has no turn.
        user_id = game.holder(seat)
        if seat not in awaited or seat in audience.away or user_id is None:
            await self._record(game.id, dataclasses.replace(row, digest="dropped"))
            return True
        link = await self._board_link(game)
        closed = False
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            await dm.send(
                content=clip(self._turn_text(game, row, link)),
                allowed_mentions=NO_PINGS,
                silent=audience.silent(seat),
                # One wait, one DM: a retry after a crash mid-send is dropped
                # by Discord.
                nonce=f"t{game.id}.{seat}v{row.version}",
            )
        except discord.Forbidden as exc:
            log.info("game %d: DMs closed for a player's turn (code %s)", game.id, exc.code)
            closed = True
            if audience.reachable(seat):
                # The channel tells them instead, with a ping; by name when
                # the board just pinged them (``both``): one wait, one ping.
                ping = seat not in audience.ping
                who = mention(user_id) if ping else f"**{safe_name(game.names[seat])}**"
                try:
                    await self.send(
                        game,
                        content=clip(
                            f"{who} it is your turn in {game.engine.title} "
                            f"#{game.id} (your DMs are closed to me, so I say it here)."
                        ),
                        allowed_mentions=pinging([user_id]) if ping else NO_PINGS,
                        nonce=f"t{game.id}.{seat}v{row.version}",
                    )
                except discord.HTTPException as exc2:
                    log.warning(
                        "game %d: could not post a turn notice (%s %s)",
                        game.id,
                        exc2.status,
                        exc2.code,
                    )
                    return False
        except discord.HTTPException as exc:
            log.warning("game %d: turn DM failed (%s %s)", game.id, exc.status, exc.code)
            return False
        await self._record(
            game.id, dataclasses.replace(row, digest="sent", notice=row.notice or closed)
        )
        return True

    async def post_board(self, game: LiveGame, content: str) -> discord.Message | None:
        """Post the current board again (``/game board``), pinging nobody."""
        return await self._send_board(game, content, set(), nonce=False)

    async def _post_board(
        self, game: LiveGame, content: str, pings: set[Seat], *, nonce: bool
    ) -> bool:
        return await self._send_board(game, content, pings, nonce=nonce) is not None

    async def _send_board(
        self, game: LiveGame, content: str, pings: set[Seat], *, nonce: bool
    ) -> discord.Message | None:
        png = await self.public_png(game)
        previous = await self.bot.store.get_message(game.id, "board")
        view = self.bot.components.board_view(game, rematch=await self.offers_rematch(game))
        kwargs: dict[str, Any] = {}
        if nonce:
            # Discord drops a second message with the same nonce for a few
            # minutes: a retry after a crash mid-post cannot post twice.
            kwargs["nonce"] = f"b{game.id}v{game.version}{'o' if game.is_over else ''}"
        try:
            message = await self.send(
                game,
                content=clip(content),
                files=[(f"chaupal-{game.id}-{game.version}.png", png)],
                view=view or discord.utils.MISSING,
                allowed_mentions=pinging(game.user_of(s) for s in pings),
                **kwargs,
            )
        except discord.HTTPException as exc:
            log.warning("game %d: could not post the board (%s %s)", game.id, exc.status, exc.code)
            return None
        await self.bot.store.set_message(game.id, "board", message.channel.id, message.id)
        if previous is not None and previous[1] != message.id:
            # Old boards keep their image but lose their buttons.
            with contextlib.suppress(discord.HTTPException):
                await (
                    self.bot.get_partial_messageable(previous[0])
                    .get_partial_message(previous[1])
                    .edit(view=None)
                )
        return message

    async def offers_rematch(self, game: LiveGame) -> bool:
        """Whether a finished game's board offers **Rematch**: not a
        tournament's game, whose players meet as the pairings say (issue 31)."""
        return game.is_over and not await self.bot.desk.heading(game)

    async def _edit_board(self, game: LiveGame, content: str) -> bool:
        stored = await self.bot.store.get_message(game.id, "board")
        if stored is None:
            return False
        png = await self.public_png(game)
        view = self.bot.components.board_view(game, rematch=await self.offers_rematch(game))
        try:
            await (
                self.bot.get_partial_messageable(stored[0])
                .get_partial_message(stored[1])
                .edit(
                    content=clip(content),
                    attachments=[
                        discord.File(
                            io.BytesIO(png), filename=f"chaupal-{game.id}-{game.version}.png"
                        )
                    ],
                    view=view,
                    allowed_mentions=NO_PINGS,
                )
            )
        except discord.HTTPException as exc:
            # Deleted, or too old to edit: post a new board instead.
            log.info("game %d: board could not be edited (%s %s)", game.id, exc.status, exc.code)
            return False
        return True

    # -- private views ------------------------------------------------------

    async def _seat(
        self,
        game: LiveGame,
        seat: Seat,
        row: OutboxRow,
        actor: Seat | None,
        served: frozenset[Seat],
        audience: Audience,
        turn: OutboxRow | None = None,
    ) -> bool:
        """Bring one seat's private view up to date (issue 30): a new DM, which
        notifies, only with a decision the seat owes (its menu comes with it,
        and it announces the decision when the board said it is theirs);
        any other change to what the seat sees edits its standing DM in
        place, silently, with a line on what changed, unless its player
        turned view updates off."""
        if game.is_over:
            return True  # the final board shows everything there is to show
        digest = seat_digest(game, seat, served)
        if game.holder(seat) is None:
            # Nobody holds the seat: a lobby's automatic player sits there,
            # or its player left it and watches like anyone else now
            # (bot.tenure).  Its record moves on without a DM; a member who
            # takes the seat over is sent its whole view all the same, as
            # the hand-over drops this row.
            if row.digest != digest:
                await self._record(
                    game.id, dataclasses.replace(row, version=game.version, digest=digest)
                )
            return True
        # A wait the board announces by this seat's DM (see ``_board``).
        announce = turn if _owed(turn) and asked_privately(game, seat, served) else None
        if row.digest == digest and announce is None:
            return True
        old_me, _, old_asked = row.digest.partition(":")
        me, _, asked = digest.partition(":")
        first = row.version < 0
        has_secrets = secrets_of(game.engine, game.state, seat) is not None
        # A game that hides nothing has no private view worth a DM (its
        # seat's view is the board turned to the seat's side).
        seen = game.hides_information and (has_secrets or not first)
        changed = (me != old_me and seen) or asked != old_asked
        in_reply = seat == actor and seat in game.engine.to_move(game.state)
        public, private = self.bot.service.owing(game)
        owes = seat in public | private
        # A decision the seat owes, whose menu is not in its own reply: new
        # choices, or a wait the board announces here.
        decision = (
            owes and bool(asked) and not in_reply and (announce is not None or asked != old_asked)
        )
        done = dataclasses.replace(row, version=game.version, digest=digest)
        if row.notice:
            pass  # DMs closed: the channel was told once; /game hand shows it
        elif decision:
            link = await self._board_link(game) if announce is not None else ""
            line = "" if announce is None else self._turn_text(game, announce, link)
            outcome = await self.send_private(game, seat, served, audience, line)
            if outcome is DM.FAILED:
                return False
            if announce is not None:
                closed = outcome is DM.CLOSED
                await self._record(
                    game.id,
                    dataclasses.replace(announce, digest="sent", notice=announce.notice or closed),
                )
            if outcome is DM.CLOSED:
                done = dataclasses.replace(done, notice=True)
        elif changed and seat in audience.views:
            note = await self._what_changed(game, seat, since=row.version)
            outcome = await self.update_view(game, seat, served, audience, note)
            if outcome is DM.FAILED:
                return False
            if outcome is DM.CLOSED:
                done = dataclasses.replace(done, notice=True)
        await self._record(game.id, done)
        return True

    def _view_kind(self, seat: Seat, user_id: int) -> str:
        """The ``messages`` kind of a seat's standing private view: keyed by
        its holder too, so that a seat that changed hands never edits the
        DM of the member who held it before (issue 29)."""
        return f"view:{seat}:{user_id}"

    async def _what_changed(self, game: LiveGame, seat: Seat, *, since: int) -> str:
        """The line on a standing view's edit: what happened since the view
        was last sent that concerns this seat (the public narrations naming
        it: a card sent back to its hand, a capture of its pieces), the last
        two at most."""
        tag = f"{{p{seat}}}"
        entries = await self.bot.store.log(game.id, after_seq=max(0, since), up_to=game.version)
        said = [e.narration for e in entries if tag in e.narration]
        return clip(" ".join(fill_seats(n, game) for n in said[-2:]), VIEW_NOTE_CHARS)

    async def send_private(
        self,
        game: LiveGame,
        seat: Seat,
        served: frozenset[Seat],
        audience: Audience,
        line: str = "",
    ) -> DM:
        """DM one seat its private view with its menu (``line``: the "your
        turn" line its wait owes) as a new message, which notifies unless its
        player is away or in their quiet hours.  The new DM becomes the
        seat's standing view; the one before is deleted, so that the player
        never scrolls through old pictures."""
        user_id = game.holder(seat)
        if user_id is None:
            return DM.SENT  # nobody may read the seat now (bot.tenure): nothing to send
        png = await self.private_png(game, seat)
        asked = asked_privately(game, seat, served)
        view = self.bot.components.private_view(game, seat) if asked else None
        content = f"Your view of {game.engine.title} #{game.id} in <#{self.place_id(game)}>."
        if view is not None:
            content += " It is your decision: choose below."
            if line:
                content += f"\n{line}"
        return await self._new_view(
            game,
            seat,
            user_id,
            content=content,
            png=png,
            view=view,
            silent=audience.silent(seat),
            audience=audience,
            # The DM was to announce the decision (``line``); the board
            # pinged only a player who asked for both, so the channel's one
            # notice that their DMs are closed says it is their turn instead.
            told=bool(line) and view is not None and seat not in audience.ping & audience.dm,
        )

    async def update_view(
        self,
        game: LiveGame,
        seat: Seat,
        served: frozenset[Seat],
        audience: Audience,
        note: str,
    ) -> DM:
        """Edit the seat's standing private view in place (silent: an edit
        never notifies), with ``note`` on what changed; the menu it carries
        is the seat's choices now (none when it has none).  Without a
        standing view (the first, or the player deleted it), a new DM that
        does not notify."""
        user_id = game.holder(seat)
        if user_id is None:
            return DM.SENT
        png = await self.private_png(game, seat)
        asked = asked_privately(game, seat, served)
        view = self.bot.components.private_view(game, seat) if asked else None
        when = discord_time(self.bot.clock())
        content = clip(
            f"Your view of {game.engine.title} #{game.id} in <#{self.place_id(game)}>, "
            f"as of {when}." + (f" {note}" if note else "")
        )
        name = f"chaupal-{game.id}-private.png"
        standing = await self.bot.store.get_message(game.id, self._view_kind(seat, user_id))
        if standing is not None:
            try:
                await (
                    self.bot.get_partial_messageable(standing[0])
                    .get_partial_message(standing[1])
                    .edit(
                        content=content,
                        attachments=[discord.File(io.BytesIO(png), filename=name)],
                        view=view,
                        allowed_mentions=NO_PINGS,
                    )
                )
                return DM.SENT
            except discord.NotFound:
                pass  # deleted by the player: a new one below
            except discord.HTTPException as exc:
                log.warning("game %d: view edit failed (%s %s)", game.id, exc.status, exc.code)
                return DM.FAILED
        return await self._new_view(
            game,
            seat,
            user_id,
            content=content,
            png=png,
            view=view,
            silent=True,
            audience=audience,
            told=False,
        )

    async def _new_view(
        self,
        game: LiveGame,
        seat: Seat,
        user_id: int,
        *,
        content: str,
        png: bytes,
        view: discord.ui.View | None,
        silent: bool,
        audience: Audience,
        told: bool,
    ) -> DM:
        """Send the seat's view as a new DM, make it the standing one, and
        delete the one before."""
        kind = self._view_kind(seat, user_id)
        before = await self.bot.store.get_message(game.id, kind)
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            message = await dm.send(
                content=clip(content),
                file=discord.File(io.BytesIO(png), filename=f"chaupal-{game.id}-private.png"),
                view=view or discord.utils.MISSING,
                allowed_mentions=NO_PINGS,
                silent=silent,
                # A retry of the same version after a crash mid-send is
                # dropped by Discord instead of reaching the player twice.
                nonce=f"s{game.id}.{seat}v{game.version}",
            )
        except discord.Forbidden as exc:
            log.info("game %d: DMs closed for a player (code %s)", game.id, exc.code)
            # The notice says it is their turn when the DM was to say it and
            # the board did not (``dm``; ``both`` was pinged by the board).
            await self._dm_fallback(game, user_id, ping=audience.reachable(seat), turn=told)
            return DM.CLOSED
        except discord.HTTPException as exc:
            log.warning("game %d: DM failed (%s %s)", game.id, exc.status, exc.code)
            return DM.FAILED
        await self.bot.store.set_message(game.id, kind, message.channel.id, message.id)
        if before is not None and before[1] != message.id:
            with contextlib.suppress(discord.HTTPException):
                await (
                    self.bot.get_partial_messageable(before[0])
                    .get_partial_message(before[1])
                    .delete()
                )
        return DM.SENT

    async def _dm_fallback(
        self, game: LiveGame, user_id: int, *, ping: bool = True, turn: bool = False
    ) -> None:
        """The channel's one notice that a player's DMs are closed; ``turn``:
        the DM that failed was to tell them it is their turn (their ``dm``
        setting), so this notice says it instead."""
        now = f" it is your turn in {game.engine.title} #{game.id}." if turn else ""
        try:
            await self.send(
                game,
                content=(
                    f"{mention(user_id)}{now} I can't DM you (your DMs are closed to me), so I'll "
                    f"keep your private view here instead: use **/game hand** or the "
                    f"**Show mine** button on the board; only you will see it."
                ),
                allowed_mentions=pinging([user_id] if ping else []),
            )
        except discord.HTTPException:
            log.warning("game %d: could not post the DM fallback notice", game.id)

    # -- images -------------------------------------------------------------

    async def public_png(self, game: LiveGame) -> bytes:
        view = game.engine.view(game.state, None)
        return await self.bot.renders.png(game.engine.name, "board", view, self._names(game))

    async def private_png(self, game: LiveGame, seat: Seat) -> bytes:
        view = game.engine.view(game.state, seat)
        return await self.bot.renders.png(game.engine.name, "private", view, self._names(game))

    @staticmethod
    def _names(game: LiveGame) -> list[str]:
        return [plain_name(n) for n in game.names]

    async def private_file(self, game: LiveGame, seat: Seat) -> discord.File:
        png = await self.private_png(game, seat)
        return discord.File(io.BytesIO(png), filename=f"chaupal-{game.id}-private.png")

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


class _ClaimLost(Exception):
    """Another process took this game's delivery over (issue 20)."""


class DM(enum.Enum):
    SENT = "sent"
    CLOSED = "closed"
    """Discord refused (DMs closed): the channel was told, once."""
    FAILED = "failed"
    """Another error: worth retrying later."""
