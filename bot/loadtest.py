"""A load test of several bot processes on one database (issue 20, phase 3;
its counts made able to fail in issue 29).

``python -m bot.loadtest`` starts a throwaway PostgreSQL server
(:mod:`storage.pgserver`; or ``--database URL``), seeds it with live games
of all five games through :class:`~bot.service.GameService`, and for each N
of ``--processes`` starts N worker processes.  Each worker runs a real
:class:`~bot.edge.client.ChaupalBot` (its service, delivery and its sweep, the
timer and round schedulers, the keeper, the tournament director) over a
fake Discord HTTP layer that answers like Discord and writes every request
to a journal (JSON lines).  Worker *i* runs the shards ``s % N == i``.

**Players.** Simulated players in the coordinator (``--players`` asyncio
tasks) pick an untimed game, ask the worker that would receive the click
what the board shows (version, who must act, the legal moves and their menu
paths), choose one and click it: three in four on the board's button in the
game's channel, sent to the worker running the game's guild shard, one in
four on the last level of the seat's menu in a DM, sent to the worker
running shard 0 (which Discord delivers DMs on), so processes keep serving
games another process changed.  A click is an ``INTERACTION_CREATE``
payload handed to discord.py's own dispatch (``parse_interaction_create``,
what the gateway reader calls): the bot's dynamic item, ``Table.pick``, the
service, the reply through the interaction's webhook and the board's
delivery all run as in production.

**Racing players.** A ``--deadline-share`` of the games have a clock (a
bank, :data:`CLOCK`) under each timeout policy in turn (``substitute``,
``skip``, ``forfeit``; Chaturaji with four players, where a forfeit hands
the seat to the automatic player).  Every seat's bank is set to a few
seconds, so each game is a chain of deadlines during the run.  Nobody plays
these games but one racer each, which reads the awaited seat's deadline and
clicks its move so that the click lands while the timeout is being written
(:class:`Aim`): the timeout, fired by whichever process claimed the timer,
races the player's move, received by the process of the guild's shard (or
shard 0's).  While a worker handles a
clock timer, each of its game writes waits a random moment first
(``--timer-jitter``), as on a loaded machine, which widens the windows in
which a click can fall between two of a timeout's writes.

**The journals.** Besides every request to Discord, each worker journals,
*before* each write to a game's log returns, what it is about to write (the
entries, the version they are applied at, the click or timer it is for),
then whether the write returned, and every reply it sent to a click.  So a
process killed mid-move still leaves what it told its player, and the
checks compare actions (actor, action text, the version applied at) with
the log, not counts.

Mid-run one worker is killed with SIGKILL and started again on its shards.
After the players stop, the coordinator waits until no timer is overdue (at
most the grace the workers' lease, watchdog and retry settings allow, see
:func:`deadline_grace`), has the workers start no new clock job and finish
the ones under way, stops them, reads the database back and checks it
against the journals (see :data:`VIOLATIONS`); ``findings.json`` beside the
journals holds the games each count names.  The exit status is 1 when any
violation is not zero.

The claims' lease (180 s in production) is shortened to ``--lease`` in the
workers, the watchdog to two thirds of it and a failed timer's retry to
half of it, and the delivery sweep runs every few seconds, so that the work
a killed process held is taken over within the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import itertools
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO

ENGINE_NAMES = ("mahabharata", "artaban", "sangram", "chaturaji", "kauda_baji")
TIMEOUT_POLICIES = ("substitute", "skip", "forfeit")
APPLICATION_ID = 900_000_000_000_000_001
DISCORD_EPOCH_MS = 1_420_070_400_000
USERS = 10_000
"""Players' user ids start here."""
BOARD_NONCE = re.compile(r"^b(\d+)v(\d+)(o?)$")
TIMEOUT_EVENTS = ("@timeout", "@forfeit")
LEFT_EVENT = "@left"
ACKNOWLEDGEMENTS = ("Played:", "Done.")
"""How the bot's reply to a click begins when it made the move
(``Table._done_text``): what the player reads as "your move is in"."""
CLOCK = "1m+1m"
"""The timed games' clock: a bank of a minute, a minute more after each
move (never past a minute).  A bank, so that each seat can be given a few
seconds for its first wait (:func:`set_deadlines`) and the game becomes a
chain of deadlines; after any move or timeout the seat has a minute again,
which :func:`check_deadlines` uses: a seat cannot time out twice sooner."""
CLOCK_AFTER_A_TIMEOUT = 60.0
"""What :data:`CLOCK` gives a seat after a move or a timeout (its increment,
capped by its bank)."""
FIRST_WAIT = (2.0, 6.0)
"""Seconds on the clock of each timed seat not yet awaited at the start."""
RACE_SPREAD = 0.3
"""A racer's click lands within this many seconds either side of its aim
(:class:`Aim`)."""
OVERDUE = 1.0
"""A timer due more than this long ago is overdue (the scheduler needs a
moment to wake and claim it)."""
SETTLE_AT_LEAST = 3.0
"""Seconds the coordinator waits after the players stop, at least, for the
last deliveries."""


# -- what the workers journal ---------------------------------------------------------------
#
# The worker writes these records and the checks read them back; the tests
# build journals with the same functions, so the two cannot drift apart.


def click_record(interaction: int, game: int, seat: int, version: int) -> dict[str, Any]:
    """A click handed to discord.py: whose move, at which version."""
    return {"click": interaction, "g": game, "seat": seat, "v": version}


def commit_record(
    key: str,
    game: int,
    start: int,
    entries: Sequence[tuple[int, str]],
    interaction: int | None = None,
    timer: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """A write to a game's log about to be made: its entries (actor, action
    text), applied at version ``start`` (they become seqs ``start + 1 …``),
    for a click (``interaction``) or a timer (its identity)."""
    return {
        "commit": key,
        "g": game,
        "at": start,
        "e": [[actor, action] for actor, action in entries],
        "i": interaction,
        "t": None if timer is None else list(timer),
    }


def outcome_record(
    key: str, version: int | None = None, error: str | None = None
) -> dict[str, Any]:
    """How the write ``key`` ended: returned (the game's new version), or
    raised ``error`` (an exception's class name)."""
    if version is not None:
        return {"stored": key, "v": version}
    return {"failed": key, "err": error}


def reply_record(interaction: int, text: str) -> dict[str, Any]:
    """A reply sent to a click (what the player read)."""
    return {"reply": interaction, "text": text[:100]}


REFUSED_WRITES = frozenset(
    {"StaleVersion", "WrongStatus", "GameNotFound", "NotSeated", "SeatTaken"}
)
"""A write that raised one of these wrote nothing (the store's contract);
any other exception (a cancelled task, a lost connection) may have come
after the commit."""


@dataclass(frozen=True)
class Click:
    interaction: int
    game: int
    seat: int
    version: int


@dataclass(frozen=True)
class Commit:
    """A write to a game's log, as its worker journalled it."""

    game: int
    start: int
    entries: tuple[tuple[int, str], ...]
    interaction: int | None = None
    timer: tuple[Any, ...] | None = None
    outcome: Literal["stored", "refused", "unknown"] = "unknown"
    """``stored``: the write returned; ``refused``: the version guard (or
    the game's status) refused it, nothing was written; ``unknown``: the
    process died or the write failed otherwise."""


@dataclass
class Journalled:
    """What the workers' journals say happened, besides Discord requests."""

    clicks: dict[int, Click] = field(default_factory=dict)
    commits: list[Commit] = field(default_factory=list)
    replies: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))


def parse_journal(records: Iterable[Mapping[str, Any]]) -> Journalled:
    found = Journalled()
    pending: dict[str, dict[str, Any]] = {}
    outcomes: dict[str, Literal["stored", "refused", "unknown"]] = {}
    for record in records:
        if "click" in record:
            click = Click(
                int(record["click"]), int(record["g"]), int(record["seat"]), int(record["v"])
            )
            found.clicks[click.interaction] = click
        elif "commit" in record:
            pending[str(record["commit"])] = dict(record)
        elif "stored" in record:
            outcomes[str(record["stored"])] = "stored"
        elif "failed" in record:
            error = str(record.get("err"))
            outcomes[str(record["failed"])] = "refused" if error in REFUSED_WRITES else "unknown"
        elif "reply" in record:
            found.replies[int(record["reply"])].append(str(record.get("text") or ""))
    for key, record in pending.items():
        found.commits.append(
            Commit(
                game=int(record["g"]),
                start=int(record["at"]),
                entries=tuple((int(a), str(t)) for a, t in record["e"]),
                interaction=None if record.get("i") is None else int(record["i"]),
                timer=None if record.get("t") is None else tuple(record["t"]),
                outcome=outcomes.get(key, "unknown"),
            )
        )
    return found


# -- the fake Discord HTTP layer (in a worker) ---------------------------------------------


class Journal:
    """Every request a worker made to Discord, one JSON line each, written
    (and flushed) before the answer: a line is a request Discord accepted.
    Also the worker's writes and replies (see :func:`commit_record`)."""

    def __init__(self, path: Path, worker: int) -> None:
        self.worker = worker
        self._out: TextIO = path.open("a", buffering=1, encoding="utf-8")
        self._count = 0

    def write(self, **record: Any) -> None:
        record["w"] = self.worker
        record["ts"] = round(time.time(), 4)
        self._out.write(json.dumps(record, separators=(",", ":")) + "\n")

    def snowflake(self) -> int:
        self._count += 1
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | ((self.worker & 0x1F) << 17) | (self._count & 0x1FFFF)


def _user_payload(user_id: int) -> dict[str, Any]:
    bot = user_id == APPLICATION_ID
    return {
        "id": str(user_id),
        "username": "chaupal" if bot else f"u{user_id}",
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": bot,
    }


def _request_body(kwargs: Mapping[str, Any], form: Iterable[Mapping[str, Any]] | None) -> Any:
    body = kwargs.get("json")
    if form is not None:
        for part in form:
            if part.get("name") == "payload_json":
                value = part.get("value")
                body = json.loads(value) if isinstance(value, str | bytes) else body
    return body if isinstance(body, dict) else {}


def _route_params(route: Any) -> dict[str, str]:
    """Values of a route's ``{placeholders}``, read back from its URL."""
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(route.path))
    match = re.fullmatch(pattern, route.url[len(route.BASE) :])
    return dict(match.groupdict()) if match else {}


class FakeHttp:
    """Stands in for ``bot.http.request``: answers each route as Discord would
    (a created message, an edit, a DM channel) and journals it."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.interaction_channels: dict[str, int] = {}
        """Interaction token -> the channel it came from (its responses' channel)."""
        self.clicks: dict[str, asyncio.Future[Any]] = {}
        """Interaction token -> the click waiting for what it led to."""
        self.interaction_ids: dict[str, int] = {}
        """Interaction token -> the interaction's id (its replies' key in the journal)."""

    async def request(self, route: Any, *, form: Any = None, **kwargs: Any) -> Any:
        method, path = route.method, route.path
        params = _route_params(route)
        body = _request_body(kwargs, None if form is None else list(form))
        nonce = body.get("nonce")
        files = len(kwargs.get("files") or ())
        self.journal.write(m=method, p=path, ch=params.get("channel_id"), nonce=nonce, files=files)
        if path == "/channels/{channel_id}/messages" and method == "POST":
            return self._message(int(params["channel_id"]), body)
        if path == "/channels/{channel_id}/messages/{message_id}":
            if method == "DELETE":
                return None
            message = self._message(int(params["channel_id"]), body)
            message["id"] = str(params["message_id"])
            return message
        if path == "/users/@me/channels" and method == "POST":
            user = int(body["recipient_id"])
            return {
                "id": str(user + 1),  # a DM channel of its own per user
                "type": 1,
                "last_message_id": None,
                "recipients": [_user_payload(user)],
            }
        if path == "/users/{user_id}":
            return _user_payload(int(params["user_id"]))
        if path == "/channels/{channel_id}/messages/{message_id}/threads":
            thread = self.journal.snowflake()
            return {
                "id": str(thread),
                "type": 11,
                "guild_id": str(params.get("guild_id") or 0),
                "parent_id": str(params["channel_id"]),
                "name": body.get("name", "game"),
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440},
            }
        if path == "/channels/{channel_id}" and method == "GET":
            return {"id": str(params["channel_id"]), "type": 0, "name": "games"}
        return None

    async def webhook(
        self,
        route: Any,
        *,
        payload: Mapping[str, Any] | None = None,
        multipart: Any = None,
        **_: Any,
    ) -> Any:
        """Stands in for discord.py's webhook adapter, which sends the
        interactions' responses (the callback, follow-ups, edits of the
        original response): answers as Discord would and journals them."""
        method, path = route.method, route.path
        body = _request_body({"json": payload}, multipart)
        channel = self.interaction_channels.get(str(route.webhook_token), 0)
        if path.endswith("/callback"):
            kind = int(body.get("type") or 0)
            self.journal.write(m="ITX", t=kind, i=str(route.webhook_id))
            data = body.get("data") or {}
            self._journal_reply(str(route.webhook_token), data)
            click = self.clicks.pop(str(route.webhook_token), None)
            if click is not None and not click.done():
                # Answered before any move was tried (a refusal the edge
                # gives itself): what the player read.
                click.set_result(str(data.get("content") or "")[:80])
            return {
                "interaction": {"id": str(route.webhook_id), "type": 3},
                "resource": {"type": kind, "message": self._message(channel, data)},
            }
        self.journal.write(m="WEBHOOK", p=path, x=method)
        if method == "DELETE":
            return None
        self._journal_reply(str(route.webhook_token), body)
        return self._message(channel, body)

    def _journal_reply(self, token: str, body: Mapping[str, Any]) -> None:
        """A reply's text, under the click it answers (a follow-up or an
        edit of the response too): what the player was told."""
        content = body.get("content")
        interaction = self.interaction_ids.get(token)
        if interaction is not None and isinstance(content, str):
            self.journal.write(**reply_record(interaction, content))

    def _message(self, channel_id: int, body: Mapping[str, Any]) -> dict[str, Any]:
        mid = self.journal.snowflake()
        return {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": _user_payload(APPLICATION_ID),
            "content": body.get("content") or "",
            "timestamp": "2025-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": list(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": 0,
        }


# -- a worker process ------------------------------------------------------------------------


async def worker_main(args: argparse.Namespace) -> None:
    import logging

    import discord
    from discord.webhook.async_ import AsyncWebhookAdapter

    from bot import claims
    from bot import scheduler as scheduler_module
    from bot.choices import format_path, path_to
    from bot.config import Settings
    from bot.edge.client import ChaupalBot
    from bot.edge.delivery import delivery
    from bot.engines.core import CHANCE, GameError, progress_seat

    logging.basicConfig(
        level=logging.WARNING, format=f"worker {args.index} %(levelname)s %(name)s: %(message)s"
    )
    # Leases short enough that a killed process's work is taken over
    # within the run (the module constants, as the tests patch them).
    vars(delivery).update(
        LEASE=args.lease,
        SWEEP_EVERY=max(1.0, args.lease / 3),
        SWEEP_QUIET=max(1.0, args.lease / 3),
    )
    claims.LEASE = args.lease
    # A timer whose job the watchdog stopped is tried again after
    # ``--retry-after`` (scaled with the lease), not production's minute:
    # the coordinator's grace is derived from these settings
    # (deadline_grace), so a deadline retried late is not hidden, and one
    # that never fires is still found.
    scheduler_module.RETRY_AFTER = args.retry_after
    shards = tuple(int(s) for s in args.shards.split(",")) if args.shards else None
    settings = Settings(
        token=None,
        dev_guild_id=None,
        database=args.database if "://" in args.database else Path(args.database),
        log_level="WARNING",
        snapshot_every=20,
        render_workers=args.render_workers,
        think_workers=0,
        search_scale=0.05,
        think_pad=False,
        # Chance drawn at once, as the load test's players and its end-of-run
        # checks expect (a game on chance is one left stuck); the throw
        # held for a takeback (issue 31) is the tests' own.
        throw_grace=False,
        shards=shards,
        shard_count=args.shard_count if shards else None,
    )
    bot = ChaupalBot(settings, sync_commands=False)
    journal = Journal(Path(args.journal), args.index)
    fake = FakeHttp(journal)
    await bot._async_setup_hook()
    state = bot._connection
    state.application_id = APPLICATION_ID
    state.user = discord.ClientUser(state=state, data=_user_payload(APPLICATION_ID))  # type: ignore[arg-type]
    bot.http.request = fake.request  # type: ignore[method-assign]
    # Interactions answer through discord.py's webhook adapter, not bot.http.
    AsyncWebhookAdapter.request = fake.webhook  # type: ignore[assignment,method-assign]
    await bot.setup_hook()
    for scheduler in (bot.scheduler, bot.round_scheduler):
        scheduler.lease = args.lease
        # The watchdog stays shorter than the lease, as in production.
        scheduler.job_limit = args.job_limit
    service = bot.service
    store = service.store

    # What a write is for, for the journal: the click (its interaction id)
    # or the timer (its identity) being handled.  The interaction's task and
    # the scheduler's job run in copies of the context these are set in.
    for_click: contextvars.ContextVar[int | None] = contextvars.ContextVar(
        "for_click", default=None
    )
    for_timer: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar(
        "for_timer", default=None
    )
    writes = itertools.count(1)
    jitter = random.Random(os.getpid())

    async def timer_jitter() -> None:
        # The wait a loaded machine adds before a timer's job writes: what
        # lets a click fall in between its look at the game and its write.
        if for_timer.get() is not None and args.timer_jitter > 0:
            await asyncio.sleep(jitter.random() * args.timer_jitter)

    commit = store.commit

    async def journalled_commit(game_id: int, *, expected_version: int, **rest: Any) -> Any:
        # Every change to a game is one commit (issue 29), journalled before
        # the write returns (and before it starts): a process killed
        # mid-write still leaves what it was writing and for whom; the
        # outcome follows once the write returned or raised.
        await timer_jitter()
        key = f"{os.getpid()}.{next(writes)}"
        entries = [(e.actor, e.action) for e in rest["change"].entries]
        journal.write(
            **commit_record(
                key, game_id, expected_version, entries, for_click.get(), for_timer.get()
            )
        )
        try:
            written = await commit(game_id, expected_version=expected_version, **rest)
        except BaseException as exc:
            journal.write(**outcome_record(key, error=type(exc).__name__))
            raise
        journal.write(**outcome_record(key, version=written.record.version))
        return written

    store.commit = journalled_commit  # type: ignore[method-assign]
    clock_timer = service.clock_timer

    quiet = asyncio.Event()
    timer_jobs = 0

    async def journalled_clock_timer(timer: Any) -> Any:
        nonlocal timer_jobs
        if quiet.is_set():
            # The run is over: no job starts any more (one cut off by the
            # stop would leave half a timeout behind, the test's doing).
            # Cancelled when the worker stops; the timer stays claimed.
            await asyncio.get_running_loop().create_future()
        # The writes a timer's job makes carry its identity (the timer row
        # as claimed): "fired twice" is one timer whose timeout was written
        # twice, across every worker's journal.
        identity = [timer.game_id, timer.kind, timer.seat, timer.due, timer.version, timer.count]
        reset = for_timer.set(identity)
        timer_jobs += 1
        try:
            return await clock_timer(timer)
        finally:
            timer_jobs -= 1
            for_timer.reset(reset)

    service.clock_timer = journalled_clock_timer  # type: ignore[method-assign]
    background: set[asyncio.Task[None]] = set()

    clicks: contextvars.ContextVar[asyncio.Future[Any] | None] = contextvars.ContextVar(
        "click", default=None
    )
    play_path = service.play_path

    async def answered_play_path(*args: Any, **kwargs: Any) -> Any:
        # What the click led to, for the coordinator: the interaction's task
        # runs in a copy of the context the click was dispatched in.
        click = clicks.get()
        try:
            step = await play_path(*args, **kwargs)
        except BaseException as exc:
            if click is not None and not click.done():
                click.set_exception(exc)
            raise
        if click is not None and not click.done():
            click.set_result(step)
        return step

    service.play_path = answered_play_path  # type: ignore[method-assign]

    def row(data: dict[str, Any]) -> dict[str, Any]:
        """The action row holding the component ``data`` presses."""
        component: dict[str, Any] = {"type": data["component_type"], "custom_id": data["custom_id"]}
        if data["component_type"] == 2:
            component.update(style=1, label="move")
        else:
            component.update(
                options=[{"label": v, "value": v} for v in data["values"]],
                min_values=1,
                max_values=1,
            )
        return {"type": 1, "components": [component]}

    def interaction(user: int, guild: int | None, channel: int, data: dict[str, Any]) -> Any:
        iid = journal.snowflake()
        token = f"load-{iid}"
        fake.interaction_channels[token] = channel
        fake.interaction_ids[token] = iid
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APPLICATION_ID),
            "type": 3,
            "token": token,
            "version": 1,
            "data": data,
            "locale": "en-US",
            "attachment_size_limit": 10 * 1024 * 1024,
            "entitlements": [],
            "app_permissions": str(discord.Permissions.all().value),
            "channel_id": str(channel),
            # discord.py finds the pressed item on the message's own components.
            "message": fake._message(channel, {"content": "board", "components": [row(data)]}),
        }
        if guild is not None:
            payload.update(
                guild_id=str(guild),
                guild_locale="en-US",
                guild={"id": str(guild), "locale": "en-US", "features": []},
                channel={"id": str(channel), "type": 0, "guild_id": str(guild), "name": "games",
                         "position": 0, "permissions": str(discord.Permissions.all().value)},
                member={"user": _user_payload(user), "roles": [], "joined_at":
                        "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
                        "pending": False, "nick": None, "avatar": None, "premium_since": None,
                        "communication_disabled_until": None, "permissions": "0"},
                context=0,
                authorizing_integration_owners={"0": str(guild)},
            )  # fmt: skip
        else:
            payload.update(
                channel={"id": str(channel), "type": 1, "recipients": [_user_payload(user)],
                         "last_message_id": None},
                user=_user_payload(user),
                context=1,
                authorizing_integration_owners={"0": str(user)},
            )  # fmt: skip
        return payload

    async def click(request: dict[str, Any]) -> dict[str, Any]:
        """A player's click, through discord.py's dispatch: the board's
        button in the game's channel, or the last level of the seat's menu
        in a DM (which Discord delivers on shard 0)."""
        game_id, user, version = int(request["game"]), int(request["user"]), int(request["version"])
        path = tuple(int(i) for i in request["path"])
        if request["where"] == "dm":
            data: dict[str, Any] = {
                "custom_id": f"chaupal:choose:{game_id}:{version}:{format_path(path[:-1])}:0",
                "component_type": 3,
                "values": [str(path[-1])],
            }
            payload = interaction(user, None, user + 1, data)
        else:
            data = {
                "custom_id": f"chaupal:move:{game_id}:{version}:{format_path(path)}",
                "component_type": 2,
            }
            payload = interaction(user, int(request["guild"]), int(request["channel"]), data)
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        fake.clicks[payload["token"]] = done
        interaction_id = int(payload["id"])
        journal.write(**click_record(interaction_id, game_id, int(request["seat"]), version))
        reset = clicks.set(done)
        reset_id = for_click.set(interaction_id)
        try:
            # What the gateway reader does with an INTERACTION_CREATE event.
            state.parse_interaction_create(payload)
        finally:
            for_click.reset(reset_id)
            clicks.reset(reset)
        try:
            async with asyncio.timeout(60.0):
                step = await done
        except GameError as exc:
            return {"refused": type(exc).__name__}
        finally:
            fake.clicks.pop(payload["token"], None)
        if isinstance(step, str):
            return {"refused": f"answered: {step}"}
        if step.result is None:
            return {"refused": "MenuNotLeaf"}
        result = step.result
        return {
            "ok": True,
            "interaction": interaction_id,
            # A menu applies the move at the game's version now, which may
            # be past the one the player saw: each step is one log entry.
            "from": result.version - len(result.steps),
            "to": result.version,
            "seat": result.actor if result.actor is not None else -2,
        }

    async def handle(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "rearm":
            # The coordinator moved deadlines in the database: look again.
            bot.scheduler.rearm()
            return {"ok": True}
        if request["op"] == "quiesce":
            # Before the stop: no clock job starts, those under way finish.
            quiet.set()
            started = time.monotonic()
            while timer_jobs and time.monotonic() - started < args.job_limit:
                await asyncio.sleep(0.05)
            return {"ok": True, "unfinished": timer_jobs}
        game_id = int(request["game"])
        if request["op"] == "turn":
            game = await service.get(game_id)
            if game.is_over or game.state is None:
                return {"over": True}
            seat = progress_seat(game.engine, game.state)
            if seat == CHANCE or game.is_auto(seat):
                return {"wait": True}
            texts = service.legal_texts(game, seat)
            words = service.menu_words(game, seat)
            # The seat's deadline, for a racing player: its clock timer
            # set for this version (one for an older version is void).
            deadline = next(
                (
                    t.due
                    for t in await service.timers.of_game(game_id)
                    if (t.kind, t.seat, t.version) == ("clock", seat, game.version)
                ),
                None,
            )
            return {
                "deadline": deadline,
                "version": game.version,
                "seat": seat,
                "user": game.user_of(seat),
                "channel": game.record.thread_id or game.record.channel_id,
                "texts": texts,
                "paths": [path_to(texts, text, words) for text in texts],
            }
        if request["op"] == "click":
            return await click(request)
        raise ValueError(f"unknown request {request['op']!r}")

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        lock = asyncio.Lock()

        async def one(request: dict[str, Any]) -> None:
            try:
                answer = await handle(request)
            except Exception as exc:
                answer = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
            answer["id"] = request["id"]
            async with lock:
                writer.write((json.dumps(answer) + "\n").encode())
                with contextlib.suppress(ConnectionError):
                    await writer.drain()

        with contextlib.suppress(asyncio.CancelledError, ConnectionError):
            while line := await reader.readline():
                task = asyncio.create_task(one(json.loads(line)))
                background.add(task)
                task.add_done_callback(background.discard)

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    print(f"READY {port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    server.close()
    await bot.close()


# -- the coordinator -------------------------------------------------------------------------


@dataclass
class Ack:
    """A move the coordinator heard back about (throughput and latency
    only: the checks read what the workers journalled)."""

    game: int
    start: int
    end: int
    seat: int
    interaction: int = 0


@dataclass(frozen=True)
class Deadline:
    """A seat's clock running out at ``due``, set for the game's ``version``."""

    game: int
    seat: int
    version: int
    due: float


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    error_kinds: Counter[str] = field(default_factory=Counter)
    deadlines: list[Deadline] = field(default_factory=list)
    """Every deadline a racer saw (the seeded ones are in :class:`Seeded`)."""
    races: Counter[str] = field(default_factory=Counter)
    """How racers' clicks ended: played, or refused (and why)."""
    race_aim: float = 0.0
    """Where racers aimed at the end, in seconds after a deadline."""


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


def guild_of(index: int) -> int:
    """Guild ids spread over the shards: (id >> 22) % shard_count = index % count."""
    return (index << 22) | 7


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


@dataclass
class Seeded:
    games: list[tuple[int, int]]
    """(game id, guild id) of the untimed games players play."""
    clocked: list[tuple[int, int]]
    """(game id, guild id) of the timed games the racers play."""
    deadlines: list[Deadline] = field(default_factory=list)
    """The timed games' first deadlines (:func:`set_deadlines`)."""


def timed_mix(given: str | None) -> list[tuple[str, str]]:
    """The timed games' (engine, timeout policy), in turn: every engine
    under every policy, or ``engine:policy,…`` (``--timed``; a name alone
    takes every policy) to race one kind of game harder."""
    if not given:
        return [(e, p) for p in TIMEOUT_POLICIES for e in ENGINE_NAMES]
    mix: list[tuple[str, str]] = []
    for item in given.split(","):
        name, _, policy = item.strip().partition(":")
        if name not in ENGINE_NAMES or (policy and policy not in TIMEOUT_POLICIES):
            raise ValueError(f"--timed: {item!r} is not engine[:policy]")
        mix += [(name, p) for p in ((policy,) if policy else TIMEOUT_POLICIES)]
    return mix


async def seed(target: str, args: argparse.Namespace) -> Seeded:
    """``--games`` live games through GameService (several at a time); a
    ``--deadline-share`` of them timed (:data:`CLOCK`), each engine under
    each timeout policy in turn (or the ``--timed`` ones)."""
    from bot.engines import get_engine
    from bot.service import GameService, Player
    from storage.games import GameStore
    from storage.opening import open_database

    rng = random.Random(args.seed)
    db = await open_database(target)
    service = GameService(GameStore(db), draw=rng.random, think_pad={})
    played: list[tuple[int, int]] = []
    clocked: list[tuple[int, int]] = []
    count = args.games
    clocked_count = max(1, int(count * args.deadline_share)) if count >= 5 else 0

    mix = timed_mix(args.timed)

    async def make(n: int) -> None:
        timed = n < clocked_count
        name, policy = mix[n % len(mix)] if timed else (ENGINE_NAMES[n % len(ENGINE_NAMES)], "")
        engine = get_engine(name)
        guild = guild_of(n % args.guilds)
        channel = guild + 1 + n % 3
        most = min(engine.max_players, 4)
        # Timed Chaturaji has four players: a forfeit there hands the seat
        # to the automatic player (with two, it ends the game).
        players = most if timed and name == "chaturaji" else rng.randint(engine.min_players, most)
        users = rng.sample(range(USERS, USERS + args.user_pool), players)
        options: dict[str, Any] = {k: o.default for k, o in engine.options.items()}
        if timed:
            # No reminders: with a few seconds on the clock, "auto" would
            # remind every wait a second in, which no table has, and their
            # jobs would crowd out the deadlines under test.
            options.update(clock=CLOCK, timeout=policy, substitute="easy", reminder="off")
        live = await service.new_game(
            name,
            creator=Player(users[0], f"u{users[0]}"),
            guild_id=guild,
            channel_id=channel,
            options=options,
        )
        for user in users[1:]:
            await service.join(live.id, Player(user, f"u{user}"))
        await service.start(live.id, users[0], moderator=False)
        (clocked if timed else played).append((live.id, guild))

    queue = list(range(count))

    async def seeder() -> None:
        while queue:
            await make(queue.pop())

    await asyncio.gather(*(seeder() for _ in range(8)))
    await db.close()
    return Seeded(sorted(played), sorted(clocked))


async def set_deadlines(target: str, seeded: Seeded, start: float, span: float, seed: int) -> None:
    """The timed games' first deadlines fall at times spread over
    ``[start, start + span]`` (their clock timers, and the running clocks'
    time left, set to match), and every seat not yet awaited gets
    :data:`FIRST_WAIT` seconds on its bank: each game is a chain of
    deadlines in the run.  Run while the workers are up, who are then told
    to look at their timers again (the ``rearm`` request)."""
    from storage.opening import open_database

    rng = random.Random(seed)
    db = await open_database(target)
    async with db.transaction() as conn:
        for game_id, _guild in seeded.clocked:
            due = start + rng.random() * span
            (version,) = [
                int(r[0])
                for r in await conn.execute_fetchall(
                    "SELECT version FROM games WHERE id = ?", (game_id,)
                )
            ]
            rows = await conn.execute_fetchall(
                "SELECT seat FROM timers WHERE game_id = ? AND kind = 'clock' AND version = ?",
                (game_id, version),
            )
            awaited = [int(r[0]) for r in rows]
            for seat in awaited:
                # A private decision's clock does not run (its deadline is
                # its timer's alone): only a running clock is moved.
                await conn.execute(
                    "UPDATE seats SET clock_left = ? - clock_since "
                    "WHERE game_id = ? AND seat = ? AND clock_since IS NOT NULL",
                    (due, game_id, seat),
                )
                seeded.deadlines.append(Deadline(game_id, seat, version, due))
            seats = await conn.execute_fetchall(
                "SELECT seat FROM seats WHERE game_id = ? AND clock_since IS NULL", (game_id,)
            )
            for row in seats:
                if int(row[0]) not in awaited:
                    await conn.execute(
                        "UPDATE seats SET clock_left = ? WHERE game_id = ? AND seat = ?",
                        (rng.uniform(*FIRST_WAIT), game_id, int(row[0])),
                    )
            await conn.execute(
                "UPDATE timers SET due = ? WHERE game_id = ? AND kind = 'clock'", (due, game_id)
            )
            await conn.execute(
                "UPDATE timers SET due = ? WHERE game_id = ? AND kind = 'remind'",
                (due + 3600.0, game_id),
            )
    await db.close()


def percentile(samples: Sequence[float], q: float) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


@dataclass
class Aim:
    """When racers click, after a deadline: ``offset`` seconds, give or take
    :data:`RACE_SPREAD`.  A timeout is written some time after its deadline
    (the scheduler wakes, claims, loads the game: a few milliseconds on an
    idle machine, seconds on a loaded one), and a click takes its own time
    to be dispatched and written, so a fixed aim would have the player win
    almost every race, or lose it.  The offset learns where the two meet
    as the run goes: earlier after a race the clock won, later after one
    the player won, by a step that grows while the races keep going the
    same way (to catch up with a loaded machine) and halves when they turn
    (to stay where they split), so about half go each way and the clicks
    keep landing while the timeout is being written."""

    offset: float = 0.3
    step: float = 0.1
    last: bool | None = None

    def landing(self, rng: random.Random) -> float:
        return self.offset + rng.uniform(-RACE_SPREAD, RACE_SPREAD)

    def learn(self, clock_won: bool) -> None:
        if self.last is not None:
            grown = self.step * 1.5 if clock_won == self.last else self.step / 2
            self.step = min(1.0, max(0.05, grown))
        self.last = clock_won
        self.offset += -self.step if clock_won else self.step
        self.offset = max(-RACE_SPREAD, self.offset)


async def drive(
    workers: list[Worker], seeded: Seeded, args: argparse.Namespace, processes: int
) -> Stats:
    """The players, the racers, and the SIGKILL and restart of one worker mid-run."""
    stats = Stats()
    aim = Aim()
    games = list(seeded.games)
    done: set[int] = set()
    end = time.monotonic() + args.seconds
    wall_end = time.time() + args.seconds

    def owner(guild: int) -> Worker:
        return workers[shard_of(guild, args.shard_count) % processes]

    async def click(worker: Worker, turn: Mapping[str, Any], path: Any, **where: Any) -> Any:
        return await worker.call(
            op="click",
            channel=turn["channel"],
            user=turn["user"],
            seat=turn["seat"],
            path=path,
            version=turn["version"],
            **where,
        )

    def count_error(answer: Mapping[str, Any]) -> None:
        stats.errors += 1
        stats.error_kinds[str(answer.get("error"))[:80]] += 1

    async def player(number: int) -> None:
        mine = random.Random(args.seed * 1000 + number)
        while time.monotonic() < end and len(done) < len(games):
            game_id, guild = games[mine.randrange(len(games))]
            if game_id in done:
                continue
            dm = mine.random() < 0.25
            worker = workers[0] if dm else owner(guild)
            turn = await worker.call(op="turn", game=game_id)
            if turn.get("over"):
                done.add(game_id)
                continue
            if "texts" not in turn or not turn["texts"]:
                await asyncio.sleep(0.05)
                continue
            path = mine.choice(turn["paths"])
            await asyncio.sleep(mine.random() * args.think)
            sent = time.monotonic()
            where = "dm" if dm else "channel"
            answer = await click(worker, turn, path, where=where, game=game_id, guild=guild)
            if answer.get("ok"):
                stats.latencies.append((time.monotonic() - sent) * 1000)
                stats.acks.append(
                    Ack(
                        game_id, answer["from"], answer["to"], answer["seat"], answer["interaction"]
                    )
                )
            elif "refused" in answer:
                stats.refused[answer["refused"]] += 1
            else:
                count_error(answer)
                await asyncio.sleep(0.2)

    async def racer(game_id: int, guild: int) -> None:
        """Plays one timed game, each move timed to land just before or
        just after the awaited seat's clock runs out."""
        mine = random.Random(args.seed * 7919 + game_id)
        while time.monotonic() < end:
            dm = mine.random() < 0.25
            worker = workers[0] if dm else owner(guild)
            turn = await worker.call(op="turn", game=game_id)
            if turn.get("over"):
                return
            deadline = turn.get("deadline")
            if not turn.get("texts") or deadline is None:
                # Chance, an automatic seat, or timers being set: look again.
                await asyncio.sleep(0.5)
                continue
            if deadline > wall_end:
                return  # its clock runs out after the run
            stats.deadlines.append(Deadline(game_id, turn["seat"], turn["version"], deadline))
            land = deadline + aim.landing(mine)
            await asyncio.sleep(max(0.0, land - time.time()))
            path = mine.choice(turn["paths"])
            where = "dm" if dm else "channel"
            answer = await click(worker, turn, path, where=where, game=game_id, guild=guild)
            if answer.get("ok"):
                stats.races["played"] += 1
                aim.learn(clock_won=False)
            elif "refused" in answer:
                # The timeout came first: the board moved on, the turn
                # passed, or the seat was forfeited.
                stats.races[f"refused: {answer['refused']}"[:60]] += 1
                aim.learn(clock_won=True)
            else:
                count_error(answer)
                await asyncio.sleep(0.2)

    async def killer() -> None:
        await asyncio.sleep(args.seconds * args.kill_at)
        victim = workers[-1]
        victim.kill()
        if victim.process is not None:
            await victim.process.wait()
        await victim.start()

    tasks = [asyncio.create_task(player(i)) for i in range(args.players)]
    tasks += [asyncio.create_task(racer(g, guild)) for g, guild in seeded.clocked]
    kill = asyncio.create_task(killer()) if args.kill_at > 0 else None
    await asyncio.gather(*tasks)
    if kill is not None:
        await kill
    stats.race_aim = aim.offset
    return stats


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


# -- the checks ------------------------------------------------------------------------------
#
# Each check compares what could disagree: what a worker told a player or
# believed it wrote (its journal) with what the database holds, or the
# database's own parts with each other (a log with the states it replays
# to, a game's seats with its log, a waiting game with its timers).  What
# the schema itself makes impossible (a (game, seq) twice, a gap in seqs:
# the primary key, and seqs numbered from the guarded version in one
# statement) is not counted: it could never fail.


Notes = dict[str, list[str]]
"""Per count, the first few things it counted (which game, what), for the
report: a count says that something went wrong, a note where to look."""
NOTES_PER_COUNT = 5


def note(notes: Notes | None, count: str, what: str) -> None:
    if notes is not None and len(notes.setdefault(count, [])) < NOTES_PER_COUNT:
        notes[count].append(what)


@dataclass(frozen=True)
class LogEntry:
    game: int
    seq: int
    actor: int
    action: str
    at: float


def _log_index(log: Iterable[LogEntry]) -> dict[tuple[int, int], tuple[int, str]]:
    return {(e.game, e.seq): (e.actor, e.action) for e in log}


def _in_log(commit: Commit, index: Mapping[tuple[int, int], tuple[int, str]]) -> bool:
    """The commit's entries are the log's, at the seqs it wrote them to."""
    return all(
        index.get((commit.game, commit.start + k)) == entry
        for k, entry in enumerate(commit.entries, start=1)
    )


def _moves_of(commit: Commit, seat: int) -> bool:
    """The commit holds a move of ``seat`` (not a table event)."""
    return any(actor == seat and not action.startswith("@") for actor, action in commit.entries)


def check_moves(
    journalled: Journalled, log: Sequence[LogEntry], notes: Notes | None = None
) -> dict[str, int]:
    """Moves acknowledged and not in the log, moves applied twice, and
    replies that contradict the log, by action (actor, action text, the
    version it was applied at), from what the workers journalled before
    their writes returned:

    - ``acked_not_in_log``: a write that returned whose entries are not
      the log's at its seqs (another action there, or none); or a click
      answered "Played" with no write of its seat's move in the log.
    - ``applied_twice``: one click whose seat's move is in the log from two
      writes (at two seqs); or two writes that both returned for one seq
      (the version guard let both through).
    - ``replies_contradicting_log``: a click refused (any reply but
      "Played") whose move was written and returned.
    """
    index = _log_index(log)
    lost = twice = contradicting = 0
    for commit in journalled.commits:
        if commit.outcome == "stored" and not _in_log(commit, index):
            lost += 1
            note(notes, "acked_not_in_log", f"game {commit.game}: write at {commit.start}")
    own: dict[int, list[Commit]] = defaultdict(list)
    for commit in journalled.commits:
        click = journalled.clicks.get(commit.interaction or -1)
        # A refused write wrote nothing: that its entries match the log is
        # another write's doing (the same move, clicked twice).
        if (
            click is not None
            and commit.outcome != "refused"
            and _moves_of(commit, click.seat)
            and _in_log(commit, index)
        ):
            own[click.interaction].append(commit)
    for interaction, replies in journalled.replies.items():
        acknowledged = any(text.startswith(ACKNOWLEDGEMENTS) for text in replies)
        mine = own.get(interaction, [])
        click = journalled.clicks.get(interaction)
        where = f"game {click.game} at {click.version}" if click else f"click {interaction}"
        if acknowledged and not mine:
            lost += 1
            note(notes, "acked_not_in_log", f"{where}: told {replies[0][:40]!r}")
        if replies and not acknowledged and any(c.outcome == "stored" for c in mine):
            contradicting += 1
            note(notes, "replies_contradicting_log", f"{where}: told {replies[0][:40]!r}")
    for commits in own.values():
        if len(commits) > 1:
            twice += len(commits) - 1
            starts = [c.start for c in commits]
            note(notes, "applied_twice", f"game {commits[0].game}: one click, at {starts}")
    claimed: set[tuple[int, int]] = set()
    for commit in sorted(
        (c for c in journalled.commits if c.outcome == "stored"), key=lambda c: (c.game, c.start)
    ):
        seqs = {(commit.game, commit.start + k) for k in range(1, len(commit.entries) + 1)}
        if seqs & claimed:
            twice += 1
            note(notes, "applied_twice", f"game {commit.game}: two writes at {commit.start}")
        claimed |= seqs
    return {
        "writes_returned": sum(1 for c in journalled.commits if c.outcome == "stored"),
        "acked_not_in_log": lost,
        "applied_twice": twice,
        "replies_contradicting_log": contradicting,
    }


def check_journal_complete(
    acks: Iterable[Ack],
    journalled: Journalled,
    log: Sequence[LogEntry],
    since: float,
    notes: Notes | None = None,
) -> dict[str, int]:
    """The journals against what they should hold:

    - ``acks_missing_from_journal``: a move the coordinator heard was
      played whose write or "Played" reply the journals lack: they would
      be blind to what :func:`check_moves` looks for (a check that cannot
      see cannot fail).
    - ``log_entries_unjournalled``: an entry the log got during the run
      (``since``: after seeding) that no journalled write put there, a
      write refused by the version guard aside: a write that raised
      ``StaleVersion`` and was stored all the same, or one the workers
      never said they made.
    """
    stored = {c.interaction for c in journalled.commits if c.outcome == "stored"}
    missing = 0
    for ack in acks:
        replies = journalled.replies.get(ack.interaction, [])
        if ack.interaction not in stored or not any(
            text.startswith(ACKNOWLEDGEMENTS) for text in replies
        ):
            missing += 1
            note(notes, "acks_missing_from_journal", f"game {ack.game}: click {ack.interaction}")
    written: set[tuple[int, int, int, str]] = set()
    for c in journalled.commits:
        if c.outcome != "refused":
            for k, (actor, action) in enumerate(c.entries, start=1):
                written.add((c.game, c.start + k, actor, action))
    unjournalled = 0
    for e in log:
        if e.at >= since and (e.game, e.seq, e.actor, e.action) not in written:
            unjournalled += 1
            note(notes, "log_entries_unjournalled", f"game {e.game}: seq {e.seq} {e.action!r}")
    return {"acks_missing_from_journal": missing, "log_entries_unjournalled": unjournalled}


@dataclass(frozen=True)
class GameLog:
    """One game as the database holds it at the end."""

    game: int
    engine: str
    seats: int
    options: Mapping[str, Any]
    entries: Sequence[tuple[int, int, str]]
    """(seq, actor, action), in seq order."""
    snapshots: Mapping[int, Any] = field(default_factory=dict)
    """seq -> the state's JSON stored there."""


def replay(game: GameLog) -> tuple[Any, str | None]:
    """The state the log replays to from the engine's set-up, or what is
    wrong: an action the engine refuses where it stands (a move applied
    twice, or computed from a state the game was no longer in), or a stored
    snapshot that is not the state the log gives at its seq (a process that
    wrote from a state that had drifted from its log)."""
    from bot.engines import get_engine
    from bot.takeback import LogReplay, targets_of

    engine = get_engine(game.engine)
    state = engine.setup(game.seats, dict(game.options))

    def differs(seq: int) -> bool:
        if seq not in game.snapshots:
            return False
        replayed = json.loads(json.dumps(engine.to_json(state)))
        return bool(replayed != game.snapshots[seq])

    if differs(0):
        return None, "snapshot 0"
    # Table events pass; a takeback returns to its version (issue 31).
    follow = LogReplay(engine, 0, state, targets_of(action for _, _, action in game.entries))
    for seq, actor, action in game.entries:
        try:
            state = follow.follow(seq, actor, action)
        except Exception as exc:
            return None, f"seq {seq}: {type(exc).__name__}"
        if differs(seq):
            return None, f"snapshot {seq}"
    return state, None


def check_replays(
    games: Iterable[GameLog], notes: Notes | None = None
) -> tuple[dict[str, int], dict[int, Any]]:
    """Games whose log does not replay (see :func:`replay`), and the state
    each game's log replays to (None where it does not)."""
    states: dict[int, Any] = {}
    broken = 0
    for game in games:
        states[game.game], problem = replay(game)
        if problem is not None:
            broken += 1
            note(notes, "logs_not_replaying", f"game {game.game}: {problem}")
    return {"logs_not_replaying": broken}, states


@dataclass(frozen=True)
class SeatAtEnd:
    seat: int
    user: int
    auto: bool
    """The seat is played by the automatic player (a lobby's, or a person's
    who left)."""


@dataclass(frozen=True)
class TableAtEnd:
    """A game at the end, as what it waits on and what will make it move."""

    game: int
    active: bool
    clocked: bool
    paused: bool
    chance_to_move: bool
    awaited: frozenset[int]
    """Seats owing a decision now (public and private)."""
    seats: tuple[SeatAtEnd, ...]
    clock_timers: frozenset[int]
    """Seats with a clock timer set for the game's current version."""
    void_timers: bool
    """A timer set for an older version is left: when it fires (or at the
    next start-up) the game's timers are set again."""
    left_logged: frozenset[int]
    """Seats with a ``@left`` entry in the log."""


def check_tables(tables: Iterable[TableAtEnd], notes: Notes | None = None) -> dict[str, int]:
    """Games that wait for ever, and seats handed over without the log
    saying so:

    - ``games_stranded``: a running game waiting on a decision nothing
      will make: an awaited seat a person left (the automatic player moves
      such a seat at once, with the change that made it due, and no timer
      or start-up ever does); or, unless a void timer will set the game's
      timers again, chance to move (resolved with the move that brings
      it), an awaited lobby automatic player with no clock timer, or an
      awaited person with no clock timer in a timed game (every decision
      owed has a deadline).
    - ``seats_left_unlogged``: a person's seat played by the automatic
      player without a ``@left`` entry of that seat, or a ``@left`` entry
      of a seat a person still plays.
    """
    stranded = unlogged = 0
    for table in tables:
        for seat in table.seats:
            person = seat.user > 0
            if person and seat.auto != (seat.seat in table.left_logged):
                unlogged += 1
                state = "automatic" if seat.auto else "a person's"
                note(notes, "seats_left_unlogged", f"game {table.game}: seat {seat.seat} {state}")
        if not table.active or table.paused:
            continue
        by_seat = {s.seat: s for s in table.seats}
        # A void timer loads the game when it fires (settling chance) and
        # sets its timers again; start-up does the same.  Neither moves a
        # seat a person left: that happens only with the change that made
        # it due.
        replanned = table.void_timers
        why = ["chance to move"] if table.chance_to_move and not replanned else []
        for number in sorted(table.awaited):
            awaited = by_seat.get(number)
            if awaited is None:
                continue
            needs_a_timer = awaited.auto or table.clocked
            if awaited.auto and awaited.user > 0:
                why.append(f"seat {number} left, awaited")
            elif needs_a_timer and number not in table.clock_timers and not replanned:
                why.append(f"seat {number} awaited, no clock timer")
        if why:
            stranded += 1
            note(notes, "games_stranded", f"game {table.game}: {', '.join(why)}")
    return {"games_stranded": stranded, "seats_left_unlogged": unlogged}


@dataclass(frozen=True)
class TimerAtEnd:
    game: int
    kind: str
    seat: int
    due: float
    version: int
    lease_until: float | None


def check_deadlines(
    deadlines: Iterable[Deadline],
    log: Sequence[LogEntry],
    timers: Sequence[TimerAtEnd],
    journalled: Journalled,
    active: Iterable[int],
    stop: float,
    min_gap: float = CLOCK_AFTER_A_TIMEOUT - OVERDUE,
    notes: Notes | None = None,
) -> dict[str, int]:
    """Deadlines fired twice, never, or still waiting, for the deadlines
    the run saw (``deadlines``: the seeded ones and every one a racer
    read) and the timers left at ``stop`` (when the coordinator stopped
    waiting; nothing due after it is checked).

    - ``deadlines_fired_twice``: one timer (game, kind, seat, due, version,
      count) whose timeout writes are in the log from two writes (the
      workers' journals); or a seat's timeout in the log after the seat had
      left.
    - ``timeouts_too_soon``: a seat's timeout in the log sooner after its
      previous one than its clock allows (``min_gap``: a timeout is the
      seat's move, after which :data:`CLOCK` leaves it a full minute): the
      seat's clock was not given its time for the move.
    - ``deadlines_never_fired``: a deadline past, its game still running,
      nothing in the log since the version it was set for, and no timer of
      that seat left: the deadline is gone and nothing happened.
    - ``timers_overdue_pending`` and ``timers_overdue_claimed``: timers of
      running games still there, past due at ``stop``; claimed: under a
      lease that has not run out (a process holds it and did not act).
    - ``deadlines_due``, ``deadlines_timed_out`` (the log's next entry is
      that seat's timeout: the clock won) and ``deadlines_met`` (something
      else came first: the player's move): what the racing amounted to.
    """
    index = _log_index(log)
    running = set(active)
    twice = 0
    acted: Counter[tuple[Any, ...]] = Counter()
    for commit in journalled.commits:
        if (
            commit.timer is not None
            and commit.outcome != "refused"
            and any(a.startswith(TIMEOUT_EVENTS) for _, a in commit.entries)
            and _in_log(commit, index)
        ):
            acted[commit.timer] += 1
    for timer, n in acted.items():
        if n > 1:
            twice += n - 1
            note(notes, "deadlines_fired_twice", f"timer {list(timer)} acted on {n} times")
    last_timeout: dict[tuple[int, int], float] = {}
    left: set[tuple[int, int]] = set()
    too_soon = 0
    for e in sorted(log, key=lambda e: (e.game, e.seq)):
        key = (e.game, e.actor)
        if e.action.startswith(TIMEOUT_EVENTS):
            previous = last_timeout.get(key)
            if key in left:
                twice += 1
                note(notes, "deadlines_fired_twice", f"game {e.game}: seat {e.actor} had left")
            elif previous is not None and e.at - previous < min_gap:
                too_soon += 1
                gap = e.at - previous
                note(notes, "timeouts_too_soon", f"game {e.game}: seat {e.actor}, {gap:.1f} s")
            last_timeout[key] = e.at
        elif e.action.startswith(LEFT_EVENT):
            left.add(key)
    overdue = [t for t in timers if t.game in running and t.due < stop - OVERDUE]
    for t in overdue:
        late = stop - t.due
        note(notes, "timers_overdue", f"game {t.game}: {t.kind} of seat {t.seat}, {late:.0f} s")
    claimed = sum(1 for t in overdue if t.lease_until is not None and t.lease_until > stop)
    timer_seats = {(t.game, t.seat) for t in timers if t.kind == "clock"}
    after: dict[int, list[LogEntry]] = defaultdict(list)
    for e in log:
        after[e.game].append(e)
    due = never = timed_out = met = 0
    for d in sorted(set(deadlines), key=lambda d: (d.game, d.version, d.seat)):
        if d.due >= stop - OVERDUE:
            continue
        due += 1
        later = sorted((e for e in after[d.game] if e.seq > d.version), key=lambda e: e.seq)
        if later:
            first = later[0]
            if first.actor == d.seat and first.action.startswith(TIMEOUT_EVENTS):
                timed_out += 1
            else:
                met += 1
        elif d.game in running and (d.game, d.seat) not in timer_seats:
            never += 1
            note(notes, "deadlines_never_fired", f"game {d.game}: seat {d.seat} at {d.version}")
    return {
        "deadlines_due": due,
        "deadlines_timed_out": timed_out,
        "deadlines_met": met,
        "deadlines_fired_twice": twice,
        "timeouts_too_soon": too_soon,
        "deadlines_never_fired": never,
        "timers_overdue_pending": len(overdue) - claimed,
        "timers_overdue_claimed": claimed,
    }


def check_boards(journal: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Board posts: the same nonce posted more than once (raw: what a
    Discord without nonce de-duplication would show twice; not a fault:
    Chaupal relies on the de-duplication after a crash mid-post), and one
    board (game, version) posted under different nonces (what even Discord
    would show twice)."""
    nonces: Counter[str] = Counter()
    versions: dict[tuple[int, int], set[str]] = defaultdict(set)
    posts = edits = 0
    for record in journal:
        if record.get("m") == "PATCH":
            edits += 1
        if record.get("m") != "POST" or record.get("p") != "/channels/{channel_id}/messages":
            continue
        match = BOARD_NONCE.match(str(record.get("nonce") or ""))
        if match is None:
            continue
        posts += 1
        nonces[match[0]] += 1
        versions[(int(match[1]), int(match[2]))].add(match[0])
    return {
        "boards_posted": posts,
        "board_edits": edits,
        "boards_posted_twice_raw": sum(n - 1 for n in nonces.values() if n > 1),
        "boards_posted_twice": sum(len(v) - 1 for v in versions.values() if len(v) > 1),
    }


VIOLATIONS = (
    "acks_missing_from_journal",
    "log_entries_unjournalled",
    "acked_not_in_log",
    "applied_twice",
    "replies_contradicting_log",
    "logs_not_replaying",
    "deadlines_fired_twice",
    "timeouts_too_soon",
    "deadlines_never_fired",
    "timers_overdue_pending",
    "timers_overdue_claimed",
    "games_stranded",
    "seats_left_unlogged",
    "boards_posted_twice",
)
"""The counts that must be zero (the exit status is 1 otherwise)."""


# -- reading the run back --------------------------------------------------------------------


@dataclass(frozen=True)
class GameFacts:
    """A game's row and seats at the end."""

    status: str
    version: int
    clocked: bool
    paused: bool
    seats: tuple[SeatAtEnd, ...]


@dataclass
class EndState:
    """The database at the end of a run."""

    log: list[LogEntry]
    games: list[GameLog]
    facts: dict[int, GameFacts]
    timers: list[TimerAtEnd]

    @property
    def active(self) -> set[int]:
        return {g for g, f in self.facts.items() if f.status == "active"}

    def tables(self, states: Mapping[int, Any]) -> list[TableAtEnd]:
        """Each game as it waits, from the states its log replays to."""
        from bot.engines import get_engine
        from bot.engines.core import CHANCE, owed_decisions

        of_game: dict[int, list[TimerAtEnd]] = defaultdict(list)
        for t in self.timers:
            of_game[t.game].append(t)
        tables = []
        for game in self.games:
            facts, state = self.facts[game.game], states.get(game.game)
            engine = get_engine(game.engine)
            # A log that does not replay is counted there, not here too.
            active = facts.status == "active" and state is not None
            awaited: frozenset[int] = frozenset()
            chance = False
            if active:
                public, private = owed_decisions(engine, state)
                awaited = frozenset(public | private) - {CHANCE}
                chance = engine.to_move(state) == frozenset({CHANCE})
            tables.append(
                TableAtEnd(
                    game=game.game,
                    active=active,
                    clocked=facts.clocked,
                    paused=facts.paused,
                    chance_to_move=chance,
                    awaited=awaited,
                    seats=facts.seats,
                    clock_timers=frozenset(
                        t.seat
                        for t in of_game[game.game]
                        if t.kind == "clock" and t.version == facts.version
                    ),
                    void_timers=any(t.version != facts.version for t in of_game[game.game]),
                    left_logged=frozenset(
                        actor for _, actor, action in game.entries if action.startswith(LEFT_EVENT)
                    ),
                )
            )
        return tables


async def read_back(target: str) -> EndState:
    from bot.timekeeping import TableOptions
    from storage.opening import open_database

    db = await open_database(target)
    try:
        async with db.read() as conn:
            game_rows = await conn.execute_fetchall(
                "SELECT id, engine, options, table_options, status, version, paused_at "
                "FROM games WHERE status <> 'lobby' ORDER BY id",
                (),
            )
            seat_rows = await conn.execute_fetchall(
                "SELECT game_id, seat, user_id, controller FROM seats ORDER BY game_id, seat", ()
            )
            action_rows = await conn.execute_fetchall(
                "SELECT game_id, seq, actor, action, created_at FROM actions ORDER BY game_id, seq",
                (),
            )
            snapshot_rows = await conn.execute_fetchall(
                "SELECT game_id, seq, state FROM snapshots", ()
            )
            timer_rows = await conn.execute_fetchall(
                "SELECT game_id, kind, seat, due, version, lease_until FROM timers", ()
            )
    finally:
        await db.close()
    log = [LogEntry(int(r[0]), int(r[1]), int(r[2]), str(r[3]), float(r[4])) for r in action_rows]
    entries: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for e in log:
        entries[e.game].append((e.seq, e.actor, e.action))
    snapshots: dict[int, dict[int, Any]] = defaultdict(dict)
    for r in snapshot_rows:
        snapshots[int(r[0])][int(r[1])] = json.loads(r[2])
    seats: dict[int, list[SeatAtEnd]] = defaultdict(list)
    for r in seat_rows:
        seats[int(r[0])].append(SeatAtEnd(int(r[1]), int(r[2]), str(r[3]) == "auto"))
    timers = [
        TimerAtEnd(
            int(r[0]),
            str(r[1]),
            int(r[2]),
            float(r[3]),
            int(r[4]),
            None if r[5] is None else float(r[5]),
        )
        for r in timer_rows
    ]
    games: list[GameLog] = []
    facts: dict[int, GameFacts] = {}
    for r in game_rows:
        game_id = int(r[0])
        games.append(
            GameLog(
                game=game_id,
                engine=str(r[1]),
                seats=len(seats[game_id]),
                options=json.loads(r[2]),
                entries=entries[game_id],
                snapshots=snapshots[game_id],
            )
        )
        facts[game_id] = GameFacts(
            status=str(r[4]),
            version=int(r[5]),
            clocked=TableOptions.from_json(json.loads(r[3])).clock is not None,
            paused=r[6] is not None,
            seats=tuple(seats[game_id]),
        )
    return EndState(log, games, facts, timers)


def write_findings(path: Path, notes: Notes, end: EndState) -> None:
    """The games the notes name, as the database left them (their log,
    seats and timers): a throwaway server's data is gone after the run."""
    named = {
        int(m[1]) for lines in notes.values() for line in lines if (m := GAME_NOTE.match(line))
    }
    games = {
        game: {
            "facts": repr(end.facts.get(game)),
            "log": [[e.seq, e.actor, e.action, e.at] for e in end.log if e.game == game],
            "timers": [repr(t) for t in end.timers if t.game == game],
        }
        for game in sorted(named)
    }
    path.write_text(json.dumps({"notes": notes, "games": games}, indent=1), encoding="utf-8")


GAME_NOTE = re.compile(r"game (\d+)")


def read_journals(folder: Path) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for path in sorted(folder.glob("journal-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(json.JSONDecodeError):  # a line cut by SIGKILL
                records.append(json.loads(line))
    return records


# -- one run ---------------------------------------------------------------------------------


async def run_once(target: str, processes: int, args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix=f"chaupal-load-{processes}-"))
    sqlite = "://" not in target
    seed_start = time.monotonic()
    seeded = await seed(target, args)
    seeding = time.monotonic() - seed_start
    seeded_at = time.time()
    workers = []
    for i in range(processes):
        shards = [s for s in range(args.shard_count) if s % processes == i]
        command = [
            sys.executable, "-m", "bot.loadtest", "worker",
            "--index", str(i), "--database", target, "--journal",
            str(folder / f"journal-{i}.jsonl"), "--lease", str(args.lease),
            "--job-limit", str(args.job_limit), "--retry-after", str(args.retry_after),
            "--timer-jitter", str(args.timer_jitter),
            "--shard-count", str(args.shard_count),
            "--render-workers", str(args.render_workers),
        ]  # fmt: skip
        if not sqlite:
            command += ["--shards", ",".join(map(str, shards))]
        workers.append(Worker(i, command))
    await asyncio.gather(*(w.start() for w in workers))
    # The timed games' first deadlines fall in the first half of the run,
    # which starts now that the workers are up; each game's chain of
    # deadlines follows them.
    await set_deadlines(target, seeded, time.time() + 2.0, max(1.0, args.seconds / 2), args.seed)
    await asyncio.gather(*(w.call(op="rearm") for w in workers))
    clock_start = time.monotonic()
    stats = await drive(workers, seeded, args, processes)
    elapsed = time.monotonic() - clock_start
    # Late deadlines fire, the killed worker's claims run out and are taken
    # over, deliveries settle: as long as the workers' settings allow.
    stop, waited = await settle(target, args.grace)
    await asyncio.gather(*(w.call(op="quiesce") for w in workers))
    for w in workers:
        await w.stop()
    end = await read_back(target)
    journal = read_journals(folder)
    journalled = parse_journal(journal)
    report: dict[str, Any] = {
        "database": "sqlite" if sqlite else "postgresql",
        "processes": processes,
        "games": args.games,
        "timed_games": len(seeded.clocked),
        "players": args.players,
        "seconds": round(elapsed, 1),
        "seeding_seconds": round(seeding, 1),
        "settle_seconds": round(waited, 1),
        "grace": round(args.grace, 1),
        "moves": len(stats.acks),
        "moves_per_s": round(len(stats.acks) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {f"p{q}": round(percentile(stats.latencies, q), 1) for q in (50, 95, 99)},
        "refused": dict(stats.refused),
        "races": dict(stats.races),
        "race_aim_s": round(stats.race_aim, 2),
        "errors": stats.errors,
        "error_kinds": dict(stats.error_kinds.most_common(5)),
        "killed": args.kill_at > 0,
    }
    notes: Notes = {}
    report.update(check_journal_complete(stats.acks, journalled, end.log, seeded_at, notes))
    report.update(check_moves(journalled, end.log, notes))
    replays, states = check_replays(end.games, notes)
    report.update(replays)
    report.update(check_tables(end.tables(states), notes))
    deadlines = [*seeded.deadlines, *stats.deadlines]
    report.update(
        check_deadlines(deadlines, end.log, end.timers, journalled, end.active, stop, notes=notes)
    )
    report.update(check_boards(journal))
    report["notes"] = notes
    report["journals"] = str(folder)
    write_findings(folder / "findings.json", notes, end)
    return report


async def main_async(args: argparse.Namespace) -> int:
    from storage.pgserver import PostgresServer

    reports: list[dict[str, Any]] = []
    server: PostgresServer | None = None
    try:
        for processes in args.processes:
            if args.database:
                target = args.database
            else:
                if server is None:
                    server = await asyncio.to_thread(PostgresServer.start)
                name = await asyncio.to_thread(server.create_database)
                target = server.url(name)
            print(f"-- {processes} process(es) on PostgreSQL", file=sys.stderr, flush=True)
            reports.append(await run_once(target, processes, args))
            print(json.dumps(reports[-1]), file=sys.stderr, flush=True)
        if args.sqlite:
            folder = Path(tempfile.mkdtemp(prefix="chaupal-load-sqlite-"))
            print("-- 1 process on SQLite", file=sys.stderr, flush=True)
            reports.append(await run_once(str(folder / "load.sqlite3"), 1, args))
    finally:
        if server is not None:
            await asyncio.to_thread(server.stop)
    print(json.dumps({"runs": reports}, indent=2))
    print(table(reports))
    for r in reports:
        for count, lines in r["notes"].items():
            where = f"{r['database']} N={r['processes']}"
            print(f"{where} {count}: {'; '.join(lines)} (see {r['journals']}/findings.json)")
    bad = [r for r in reports if any(r[k] for k in VIOLATIONS)]
    return 1 if bad else 0


TABLE_COLUMNS = (
    ("blind", "acks_missing_from_journal"),
    ("unjour", "log_entries_unjournalled"),
    ("lost", "acked_not_in_log"),
    ("twice", "applied_twice"),
    ("contra", "replies_contradicting_log"),
    ("replay", "logs_not_replaying"),
    ("dl-due", "deadlines_due"),
    ("dl-clock", "deadlines_timed_out"),
    ("dl-met", "deadlines_met"),
    ("dl-twice", "deadlines_fired_twice"),
    ("too-soon", "timeouts_too_soon"),
    ("dl-never", "deadlines_never_fired"),
    ("late", "timers_overdue_pending"),
    ("held", "timers_overdue_claimed"),
    ("strand", "games_stranded"),
    ("unlog", "seats_left_unlogged"),
)


def table(reports: Sequence[Mapping[str, Any]]) -> str:
    head = "db          N  moves/s   p50 ms   p95 ms   p99 ms  moves  err"
    head += "".join(f" {name:>{max(len(name), 3)}}" for name, _ in TABLE_COLUMNS)
    head += "  boards-twice(raw)"
    lines = [head]
    for r in reports:
        lat = r["latency_ms"]
        line = (
            f"{r['database']:<10} {r['processes']:>2} {r['moves_per_s']:>8} {lat['p50']:>8} "
            f"{lat['p95']:>8} {lat['p99']:>8} {r['moves']:>6} {r['errors']:>4}"
        )
        line += "".join(f" {r[key]:>{max(len(name), 3)}}" for name, key in TABLE_COLUMNS)
        line += f"  {r['boards_posted_twice']:>6} ({r['boards_posted_twice_raw']})"
        lines.append(line)
    return "\n".join(lines)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot.loadtest", description=__doc__)
    parser.add_argument("role", nargs="?", default="coordinator", choices=["coordinator", "worker"])
    parser.add_argument(
        "--quick", action="store_true", help="500 games (a tenth timed), 20 players, 30 s"
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120.0, help="how long players play")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--sqlite", action="store_true", help="also one process on SQLite")
    parser.add_argument(
        "--database", default=None, help="postgresql://… (else a server is started) or sqlite:FILE"
    )
    parser.add_argument("--shard-count", type=int, default=4)
    parser.add_argument("--guilds", type=int, default=16)
    parser.add_argument("--user-pool", type=int, default=400)
    parser.add_argument(
        "--deadline-share", type=float, default=0.05, help="share of the games that are timed"
    )
    parser.add_argument(
        "--timed",
        default=None,
        help="the timed games' engine:policy, comma-separated (default: every engine, policy)",
    )
    parser.add_argument("--think", type=float, default=0.2, help="seconds a player waits at most")
    parser.add_argument("--kill-at", type=float, default=0.5, help="share of the run (0: no kill)")
    parser.add_argument(
        "--lease",
        type=float,
        default=None,
        help="seconds a claim lasts in the workers (default: a quarter of the run, at least 10)",
    )
    parser.add_argument(
        "--job-limit", type=float, default=None, help="the watchdog (default: 2/3 of the lease)"
    )
    parser.add_argument(
        "--retry-after",
        type=float,
        default=None,
        help="a stopped timer's retry (default: half the lease)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=None,
        help="most seconds to wait for late deadlines (default: from lease, watchdog, retry)",
    )
    parser.add_argument(
        "--timer-jitter",
        type=float,
        default=0.25,
        help="a worker waits up to this long before each game write of a timer's job",
    )
    parser.add_argument("--render-workers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    # a worker's own
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--shards", default="")
    parser.add_argument("--journal", default="")
    args = parser.parse_args(argv)
    if args.quick:
        defaults = {"games": 500, "players": 20, "seconds": 30.0, "deadline_share": 0.1}
        given = set(argv or sys.argv[1:])
        for key, value in defaults.items():
            if f"--{key.replace('_', '-')}" not in given:
                setattr(args, key, value)
    if args.lease is None:
        # Short enough that a killed worker's claims are taken over within
        # the run; long enough that the watchdog (two thirds of it) does
        # not stop jobs that are only slow because two cores serve 100
        # players.
        args.lease = max(10.0, args.seconds / 4)
    if args.job_limit is None:
        # The watchdog stays shorter than the lease, as in production.
        args.job_limit = args.lease * 2 / 3
    if args.retry_after is None:
        # Production retries a stopped job a minute later (a third of its
        # lease); in a run of half a minute that was after the end.
        args.retry_after = args.lease / 2
    if args.grace is None:
        args.grace = deadline_grace(args.lease, args.job_limit, args.retry_after)
    if args.database and args.database.startswith("sqlite:"):
        args.database = args.database.removeprefix("sqlite:")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if args.role == "worker":
        asyncio.run(worker_main(args))
        return 0
    if args.database and "://" not in args.database and args.processes != [1]:
        print("A SQLite file is one process's: --processes 1 with sqlite:FILE.", file=sys.stderr)
        return 2
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
