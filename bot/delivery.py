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
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import hashlib
import io
import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.engines.core import CHANCE, Seat
from bot.keeper import clock_line
from bot.outgoing import (
    NO_PINGS,
    Style,
    clip,
    fill_seats,
    mention,
    names_of,
    pinging,
    plain_name,
)
from bot.server_settings import server_settings
from bot.service import LiveGame, MoveResult, secrets_of
from storage.games import OutboxRow

if TYPE_CHECKING:
    from bot.client import ChaupalBot

log = logging.getLogger(__name__)

NARRATION_LINES = 6
"""At most this many recent narrations go above a board (older ones are in
the images and the log)."""

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread hides from the channel list after 7 days without posts
(posting reopens it)."""

LAST_MOVE_CHARS = 150
"""The lobby's status line quotes at most this much of the last narration."""

RETRY_DELAYS = (15.0, 60.0, 300.0, 900.0)
"""Seconds before retrying a failed delivery; the last repeats."""
MAX_RETRIES = 24


def next_up(game: LiveGame, *, already_said: str = "") -> str:
    """Who acts next (mentioned), or how the game ended."""
    title = f"{game.engine.title} #{game.id}"
    if game.is_over and game.outcome is not None:
        outcome = game.outcome
        places = [
            f"{rank}. {names_of(game, group)}"
            for rank, group in enumerate(outcome.ranking, start=1)
        ]
        result = "Draw." if outcome.is_draw else f"Winner: {names_of(game, outcome.winners)}."
        reason = fill_seats(outcome.reason, game)
        reason = "" if reason in already_said else f" {reason}"
        return f"**{title} is over.**{reason} {result} ({'; '.join(places)})"
    if game.state is None:
        return ""
    engine = game.engine
    waiting = engine.waiting_on(game.state)
    if waiting:
        who = ", ".join(mention(game.user_of(s)) for s in sorted(waiting))
        return f"{title}: {who} to play."
    if engine.to_move(game.state) - {CHANCE}:
        return (
            f"{title}: waiting on private decisions; whoever is asked has a DM "
            "(or can use /game hand)."
        )
    return f"{title}."


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link that opens a message (or a channel or thread) in Discord."""
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return where if message_id is None else f"{where}/{message_id}"


def thread_name(game: LiveGame) -> str:
    return clip(f"{game.engine.title} #{game.id}", 100)


def status_line(game: LiveGame, last: str, link: str) -> str:
    """The last line of the lobby message once a game runs: whose turn it is
    (or the result), the latest narration, and where the game is played.
    Names are escaped and shown bold, never as mentions (an edit pings nobody
    anyway)."""
    parts: list[str] = []
    if game.is_over:
        outcome = game.outcome
        if outcome is None:
            parts.append("The game is over.")
        elif outcome.is_draw:
            parts.append("The game is over: a draw.")
        else:
            parts.append(f"The game is over. Winner: {names_of(game, outcome.winners)}.")
    else:
        parts.append("The game has started.")
        if game.paused:
            parts.append("It is paused.")
        elif game.state is not None:
            waiting = game.engine.waiting_on(game.state)
            if waiting:
                parts.append(f"To play: {names_of(game, waiting)}.")
            elif game.engine.to_move(game.state) - {CHANCE}:
                parts.append("Waiting on private decisions.")
    if last:
        said = fill_seats(last, game, Style.ESCAPED)
        parts.append(f"Latest: {clip(said, LAST_MOVE_CHARS)}")
    parts.append(link)
    return clip(" ".join(p for p in parts if p))


def headline(
    game: LiveGame,
    narrations: Sequence[str],
    now: float | None = None,
    away: Mapping[Seat, float] | None = None,
) -> str:
    """The text above a board: what happened since the last board, who acts
    next, and (with a clock, given the time ``now``) everyone's time left."""
    lines = [fill_seats(n, game) for n in narrations if n]
    if len(lines) > NARRATION_LINES:
        lines = ["…", *lines[-NARRATION_LINES:]]
    said = " ".join(lines)
    clocks = fill_seats(clock_line(game, now, away), game) if now is not None else ""
    parts = [*lines, next_up(game, already_said=said), clocks]
    return clip("\n".join(p for p in parts if p))


def asked_privately(game: LiveGame, seat: Seat, served: frozenset[Seat] | None = None) -> bool:
    """Whether ``seat`` must decide now and the public board does not offer
    its choices as buttons (its decision is secret, its choices depend on
    something hidden, or they differ from other awaited seats'): such a seat
    gets its menu by DM.  ``served`` is what :func:`board_menu` says the
    board serves, when the caller has it already."""
    from bot.ui.items import board_menu

    state = game.state
    if state is None or game.is_over:
        return False
    if seat not in game.engine.to_move(state):
        return False
    if served is None:
        served = board_menu(game)[1]
    return seat not in served


def _canonical(value: Any) -> Any:
    """A value made of JSON types in a stable order (sets sorted), for hashing."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__] + [
            _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
        ]
    if isinstance(value, dict):
        return sorted(([_canonical(k), _canonical(v)] for k, v in value.items()), key=repr)
    if isinstance(value, set | frozenset):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if isinstance(value, enum.Enum):
        return _canonical(value.value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def _fingerprint(value: Any) -> str:
    raw = json.dumps(_canonical(value), separators=(",", ":"), default=repr)
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def seat_digest(game: LiveGame, seat: Seat, served: frozenset[Seat] | None = None) -> str:
    """What a seat was last sent: its secrets, and its private choices."""
    me = secrets_of(game.engine, game.state, seat)
    asked = ""
    if asked_privately(game, seat, served):
        asked = _fingerprint(game_texts(game, seat))
    return f"{_fingerprint(me)}:{asked}"


def game_texts(game: LiveGame, seat: Seat) -> list[str]:
    engine, state = game.engine, game.state
    return [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]


def _frozen(game: LiveGame) -> LiveGame:
    """A consistent copy of a live game: the service may replace its state
    while delivery awaits Discord."""
    return dataclasses.replace(game, recent={})


class Delivery:
    def __init__(self, bot: ChaupalBot) -> None:
        self.bot = bot
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
                "server (`/chaupal settings threads`)."
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

    async def _update_status(self, game: LiveGame, last: str) -> None:
        """Edit the lobby message: who plays (as the lobby said), then the
        game's status line.  Never fails delivery: a deleted lobby message
        just stays deleted."""
        from bot.table import lobby_text

        store = self.bot.store
        lobby = await store.get_message(game.id, "lobby")
        if lobby is None:
            return
        if self.place_id(game) != game.record.channel_id:
            where = "Its thread" if game.is_over else "Play in"
            link = f"{where}: <#{self.place_id(game)}>."
        else:
            board = await store.get_message(game.id, "board")
            if board is None:
                return
            link = f"Newest board: {jump_url(game.record.guild_id, board[0], board[1])}"
        content = lobby_text(
            game, status=status_line(game, last, link), heading=await self.bot.desk.heading(game)
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

    async def _last_narration(self, game: LiveGame, narrations: Sequence[str]) -> str:
        for text in reversed(narrations):
            if text:
                return text
        recent = await self.bot.store.log(game.id, after_seq=max(0, game.version - 20))
        return next((e.narration for e in reversed(recent) if e.narration), "")

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
            behind = await store.games_behind()
        except Exception:
            log.exception("could not look for undelivered games at start-up")
            return
        if behind:
            log.info("delivering what %d game(s) missed", len(behind))
        for game_id in behind:
            await self.catch_up(game_id)

    async def catch_up(self, game_id: int, *, actor: Seat | None = None) -> bool:
        """Bring the board and every seat's DM up to the game's current
        version; ``actor`` is the seat whose interaction just answered them
        (their next menu is already in that reply).  True when everything
        was delivered; otherwise a retry is scheduled."""
        from bot.ui.items import board_menu

        async with self._lock(game_id):
            try:
                live = await self.bot.service.get(game_id)
            except Exception:
                log.exception("game %d could not be loaded for delivery", game_id)
                return False
            if live.state is None:
                return True
            game = _frozen(live)
            try:
                rows = await self.bot.store.outbox(game_id)
                if rows.get("board") is None:
                    game = await self._open_thread(game)
                delivered = await self._board(game, rows.get("board"), actor)
                served = board_menu(game)[1]
                for seat in range(len(game.seats)):
                    key = f"seat:{seat}"
                    row = rows.get(key, OutboxRow(key, -1))
                    delivered &= await self._seat(game, seat, row, actor, served)
            except Exception:
                # A render that timed out, storage that is full: what was not
                # recorded as delivered goes out on the retry.
                log.exception("game %d: delivery failed; will retry", game_id)
                delivered = False
        if delivered:
            self._attempts.pop(game_id, None)
        else:
            self._schedule_retry(game_id)
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
        for handle in self._retries.values():
            handle.cancel()
        self._retries.clear()
        for task in self._tasks:
            task.cancel()

    # -- the board ----------------------------------------------------------

    async def _board(self, game: LiveGame, row: OutboxRow | None, actor: Seat | None) -> bool:
        over = game.is_over
        if row is not None and row.version >= game.version and (row.over or not over):
            return True
        awaited = frozenset() if over else game.engine.waiting_on(game.state)
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
        pings = set(awaited - before) - {actor}
        last_one = len(before) >= 2 and len(awaited) == 1 and awaited < before
        # A new message when someone new must act, the game ended or chance
        # showed something (dice, cards); when the awaited set only shrank
        # (players committing one by one) the board is edited in place.
        fresh = row is None or over or bool(awaited - before) or chance or resolved
        content = headline(
            game, narrations, now=self.bot.clock(), away=await self.bot.service.away_until(game)
        )
        sent = False
        if not fresh:
            sent = await self._edit_board(game, content)
        if not sent:
            if last_one:
                pings |= awaited
                content = clip(content + " Everyone else is waiting for you.")
            sent = await self._post_board(game, content, pings, nonce=True)
        elif last_one:
            sent = await self._nudge(game, next(iter(awaited)))
        if sent:
            # Sticky while the same message is edited: it still shows the
            # phase until a new board replaces it.
            shown = simultaneous or (not fresh and row is not None and row.simultaneous)
            await self.bot.store.set_outbox(
                game.id,
                OutboxRow("board", game.version, awaited=awaited, over=over, simultaneous=shown),
            )
            await self._update_status(game, await self._last_narration(game, narrations))
        return sent

    async def _nudge(self, game: LiveGame, seat: Seat) -> bool:
        """The last player of a simultaneous phase: one more ping."""
        user_id = game.user_of(seat)
        try:
            await self.send(
                game,
                content=(
                    f"{mention(user_id)} everyone else in {game.engine.title} #{game.id} "
                    "has chosen: the game is waiting for you."
                ),
                allowed_mentions=pinging([user_id]),
                nonce=f"n{game.id}v{game.version}",
            )
        except discord.HTTPException as exc:
            log.warning("game %d: could not post a reminder (%s %s)", game.id, exc.status, exc.code)
            return False
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
        from bot.ui.items import board_view

        png = await self.public_png(game)
        previous = await self.bot.store.get_message(game.id, "board")
        view = board_view(self.bot, game)
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

    async def _edit_board(self, game: LiveGame, content: str) -> bool:
        from bot.ui.items import board_view

        stored = await self.bot.store.get_message(game.id, "board")
        if stored is None:
            return False
        png = await self.public_png(game)
        view = board_view(self.bot, game)
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
    ) -> bool:
        if game.is_over:
            return True  # the final board shows everything there is to show
        digest = seat_digest(game, seat, served)
        if row.digest == digest:
            return True
        old_me, _, old_asked = row.digest.partition(":")
        me, _, asked = digest.partition(":")
        first = row.version < 0
        has_secrets = secrets_of(game.engine, game.state, seat) is not None
        wanted = (me != old_me and (has_secrets or not first)) or (asked and asked != old_asked)
        in_reply = seat == actor and seat in game.engine.to_move(game.state)
        done = dataclasses.replace(row, version=game.version, digest=digest)
        if wanted and not in_reply and not row.notice:
            outcome = await self.send_private(game, seat, served)
            if outcome is DM.FAILED:
                return False
            if outcome is DM.CLOSED:
                done = dataclasses.replace(done, notice=True)
        await self.bot.store.set_outbox(game.id, done)
        return True

    async def send_private(self, game: LiveGame, seat: Seat, served: frozenset[Seat]) -> DM:
        """DM one seat its private view (and its menu, when it must choose)."""
        from bot.ui.items import private_view

        user_id = game.user_of(seat)
        png = await self.private_png(game, seat)
        view = private_view(self.bot, game, seat) if asked_privately(game, seat, served) else None
        content = f"Your view of {game.engine.title} #{game.id} in <#{self.place_id(game)}>."
        if view is not None:
            content += " It is your decision: choose below."
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            await dm.send(
                content=content,
                file=discord.File(io.BytesIO(png), filename=f"chaupal-{game.id}-private.png"),
                view=view or discord.utils.MISSING,
                allowed_mentions=NO_PINGS,
                # A retry of the same version after a crash mid-send is
                # dropped by Discord instead of reaching the player twice.
                nonce=f"s{game.id}.{seat}v{game.version}",
            )
            return DM.SENT
        except discord.Forbidden as exc:
            log.info("game %d: DMs closed for a player (code %s)", game.id, exc.code)
            await self._dm_fallback(game, user_id)
            return DM.CLOSED
        except discord.HTTPException as exc:
            log.warning("game %d: DM failed (%s %s)", game.id, exc.status, exc.code)
            return DM.FAILED

    async def _dm_fallback(self, game: LiveGame, user_id: int) -> None:
        try:
            await self.send(
                game,
                content=(
                    f"{mention(user_id)} I can't DM you (your DMs are closed to me), so I'll keep "
                    f"your private view here instead: use **/game hand** or the "
                    f"**Show mine** button on the board; only you will see it."
                ),
                allowed_mentions=pinging([user_id]),
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


class DM(enum.Enum):
    SENT = "sent"
    CLOSED = "closed"
    """Discord refused (DMs closed): the channel was told, once."""
    FAILED = "failed"
    """Another error: worth retrying later."""
