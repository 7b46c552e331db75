"""A load test of several bot processes on one database (issue 20, phase 3).

``python -m bot.loadtest`` starts a throwaway PostgreSQL server
(:mod:`storage.pgserver`; or ``--database URL``), seeds it with live games
of all five games through :class:`~bot.service.GameService`, some with a
clock that runs out during the run, and for each N of ``--processes``
starts N worker processes.  Each worker runs a real
:class:`~bot.edge.client.ChaupalBot` (its service, delivery and its sweep, the
timer and round schedulers, the keeper, the tournament director) over a
fake Discord HTTP layer that answers like Discord and writes every request
to a journal (JSON lines).  Worker *i* runs the shards ``s % N == i``.

Simulated players in the coordinator (``--players`` asyncio tasks) pick a
game, ask the worker that would receive the click what the board shows
(version, who must act, the legal moves and their menu paths), choose one
and click it: three in four on the board's button in the game's channel,
sent to the worker running the game's guild shard, one in four on the last
level of the seat's menu in a DM, sent to the worker running shard 0 (which
Discord delivers DMs on), so processes keep serving games another process
changed.  A click is an ``INTERACTION_CREATE`` payload handed to discord.py's
own dispatch (``parse_interaction_create``, what the gateway reader calls):
the bot's dynamic item, ``Table.pick``, the service, the reply through the
interaction's webhook and the board's delivery all run as in production.
The move is acknowledged once the service committed it (the interaction's
task reports what ``play_path`` returned); a board button is strict about
its version, a menu reads an older path against the current moves, as for
a player.

Mid-run one worker is killed with SIGKILL and started again on its shards.
Requests in flight to it count as errors; a move it acknowledged must be in
the log.  At the end the database and the journals are checked (see
:func:`check`): double applies, lost moves, deadlines fired twice or never,
boards posted twice (raw, and after Discord's nonce de-duplication).  The
exit status is 1 when any of those is not zero.

The claims' lease (180 s in production) is shortened to ``--lease`` in the
workers, and the delivery sweep runs every few seconds, so that the work a
killed process held is taken over within the run.
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
from typing import Any, TextIO

ENGINE_NAMES = ("mahabharata", "artaban", "sangram", "chaturaji", "kauda_baji")
APPLICATION_ID = 900_000_000_000_000_001
DISCORD_EPOCH_MS = 1_420_070_400_000
USERS = 10_000
"""Players' user ids start here."""
BOARD_NONCE = re.compile(r"^b(\d+)v(\d+)(o?)$")
TIMEOUT_EVENTS = ("@timeout", "@forfeit")


# -- the fake Discord HTTP layer (in a worker) ---------------------------------------------


class Journal:
    """Every request a worker made to Discord, one JSON line each, written
    (and flushed) before the answer: a line is a request Discord accepted."""

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
        return self._message(channel, body)

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
    from bot.choices import format_path, path_to
    from bot.config import Settings
    from bot.edge import delivery
    from bot.edge.client import ChaupalBot
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
        scheduler.job_limit = args.lease * 2 / 3
    service = bot.service
    clock_timer = service.clock_timer

    async def journalled_clock_timer(timer: Any) -> Any:
        # Each deadline acted on, by identity (the timer row as claimed):
        # what "fired twice" counts, across every worker's journal.
        result = await clock_timer(timer)
        if result is not None and result.timeout is not None:
            journal.write(
                timeout=result.timeout,
                timer=[
                    timer.game_id,
                    timer.kind,
                    timer.seat,
                    timer.due,
                    timer.version,
                    timer.count,
                ],
            )
        return result

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
        reset = clicks.set(done)
        try:
            # What the gateway reader does with an INTERACTION_CREATE event.
            state.parse_interaction_create(payload)
        finally:
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
            # A menu applies the move at the game's version now, which may
            # be past the one the player saw: each step is one log entry.
            "from": result.version - len(result.steps),
            "to": result.version,
            "seat": result.actor if result.actor is not None else -2,
        }

    async def handle(request: dict[str, Any]) -> dict[str, Any]:
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
            return {
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
    game: int
    start: int
    end: int
    seat: int


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    error_kinds: Counter[str] = field(default_factory=Counter)


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
    """(game id, guild id) of the games players play."""
    deadlines: dict[int, float]
    """Games nobody plays whose clock runs out during the run: when."""


async def seed(target: str, args: argparse.Namespace) -> Seeded:
    """``--games`` live games through GameService (several at a time); a
    ``--deadline-share`` of them get a clock that runs out during the run."""
    from bot.engines import get_engine
    from bot.service import GameService, Player
    from storage.database import Database
    from storage.games import GameStore

    rng = random.Random(args.seed)
    db = await Database.open(target)
    service = GameService(GameStore(db), draw=rng.random, think_pad={})
    played: list[tuple[int, int]] = []
    deadline_games: list[tuple[int, int]] = []
    count = args.games
    deadline_count = max(1, int(count * args.deadline_share)) if count >= 5 else 0

    async def make(n: int) -> None:
        name = ENGINE_NAMES[n % len(ENGINE_NAMES)]
        engine = get_engine(name)
        guild = guild_of(n % args.guilds)
        channel = guild + 1 + n % 3
        timed = n < deadline_count
        players = rng.randint(engine.min_players, min(engine.max_players, 4))
        users = rng.sample(range(USERS, USERS + args.user_pool), players)
        options: dict[str, Any] = {k: o.default for k, o in engine.options.items()}
        if timed:
            options.update(clock="1m", timeout="substitute", substitute="easy")
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
        (deadline_games if timed else played).append((live.id, guild))

    queue = list(range(count))

    async def seeder() -> None:
        while queue:
            await make(queue.pop())

    await asyncio.gather(*(seeder() for _ in range(8)))
    await db.close()
    return Seeded(played, {game_id: 0.0 for game_id, _ in deadline_games})


async def set_deadlines(target: str, seeded: Seeded, start: float, span: float, seed: int) -> None:
    """The clocks of the timed games run out at times spread over the run:
    their clock timers and the seats' time left are set to match."""
    from storage.database import Database

    rng = random.Random(seed)
    db = await Database.open(target)
    async with db.transaction() as conn:
        for game_id in seeded.deadlines:
            due = start + rng.random() * span
            rows = await conn.execute_fetchall(
                "SELECT seat FROM timers WHERE game_id = ? AND kind = 'clock'", (game_id,)
            )
            for row in rows:
                await conn.execute(
                    "UPDATE seats SET clock_left = ? - clock_since WHERE game_id = ? AND seat = ?",
                    (due, game_id, row[0]),
                )
            await conn.execute(
                "UPDATE timers SET due = ? WHERE game_id = ? AND kind = 'clock'", (due, game_id)
            )
            await conn.execute(
                "UPDATE timers SET due = ? WHERE game_id = ? AND kind = 'remind'",
                (due + 3600.0, game_id),
            )
            seeded.deadlines[game_id] = due
    await db.close()


def percentile(samples: Sequence[float], q: float) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def drive(
    workers: list[Worker], seeded: Seeded, args: argparse.Namespace, processes: int
) -> Stats:
    """The players, and the SIGKILL and restart of one worker mid-run."""
    stats = Stats()
    games = list(seeded.games)
    done: set[int] = set()
    end = time.monotonic() + args.seconds

    def owner(guild: int) -> Worker:
        return workers[shard_of(guild, args.shard_count) % processes]

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
            answer = await worker.call(
                op="click",
                where="dm" if dm else "channel",
                game=game_id,
                guild=guild,
                channel=turn["channel"],
                user=turn["user"],
                path=path,
                version=turn["version"],
            )
            if answer.get("ok"):
                stats.latencies.append((time.monotonic() - sent) * 1000)
                stats.acks.append(Ack(game_id, answer["from"], answer["to"], answer["seat"]))
            elif "refused" in answer:
                stats.refused[answer["refused"]] += 1
            else:
                stats.errors += 1
                stats.error_kinds[str(answer.get("error"))[:80]] += 1
                await asyncio.sleep(0.2)

    async def killer() -> None:
        await asyncio.sleep(args.seconds * args.kill_at)
        victim = workers[-1]
        victim.kill()
        if victim.process is not None:
            await victim.process.wait()
        await victim.start()

    tasks = [asyncio.create_task(player(i)) for i in range(args.players)]
    kill = asyncio.create_task(killer()) if args.kill_at > 0 else None
    await asyncio.gather(*tasks)
    if kill is not None:
        await kill
    return stats


# -- the checks ------------------------------------------------------------------------------


@dataclass
class LogEntry:
    game: int
    seq: int
    actor: int
    action: str
    at: float


def check_moves(acks: Sequence[Ack], log: Sequence[LogEntry]) -> dict[str, int]:
    """Double applies (a log seq twice, or two acknowledged moves sharing
    log entries) and lost moves (an acknowledged move not in the log, or a
    gap in a game's log)."""
    seen: Counter[tuple[int, int]] = Counter((e.game, e.seq) for e in log)
    entries = {(e.game, e.seq): e for e in log}
    double = sum(n - 1 for n in seen.values() if n > 1)
    by_game: dict[int, list[Ack]] = defaultdict(list)
    for ack in acks:
        by_game[ack.game].append(ack)
    for game_acks in by_game.values():
        game_acks.sort(key=lambda a: a.start)
        for before, after in itertools.pairwise(game_acks):
            if after.start < before.end:
                double += 1
    lost = 0
    for ack in acks:
        first = entries.get((ack.game, ack.start + 1))
        written = all((ack.game, s) in entries for s in range(ack.start + 1, ack.end + 1))
        if first is None or (ack.seat >= 0 and first.actor != ack.seat) or not written:
            lost += 1
    gaps = 0
    seqs: dict[int, list[int]] = defaultdict(list)
    for e in log:
        seqs[e.game].append(e.seq)
    for numbers in seqs.values():
        distinct = sorted(set(numbers))
        gaps += distinct[-1] - len(distinct)
    return {"double_applies": double, "lost_moves": lost, "log_gaps": gaps}


def check_deadlines(
    deadlines: Mapping[int, float],
    log: Sequence[LogEntry],
    pending: Sequence[tuple[int, str, int, float, float | None]],
    now: float,
    grace: float,
    acted: Iterable[Sequence[Any]] = (),
) -> dict[str, int]:
    """Deadlines fired twice, by identity: one timer (game, kind, seat, due,
    version, count) acted on more than once in the workers' journals
    (``acted``), or a seat's timeout in the log followed by another of the
    same seat before that seat moved (each timeout is followed by the move
    made for the seat, or the seat leaves: a second one in between acted on
    one deadline twice).  Never: a timed game with no timeout, or any timer
    past due whose lease ran out more than ``grace`` ago.  And timers still
    held under a live lease at the end (a stopped process's, given back on
    a clean stop)."""
    twice = sum(n - 1 for n in Counter(tuple(t) for t in acted).values() if n > 1)
    waiting: set[tuple[int, int]] = set()
    fired: set[int] = set()
    for e in sorted(log, key=lambda e: (e.game, e.seq)):
        key = (e.game, e.actor)
        if e.action.startswith(TIMEOUT_EVENTS):
            fired.add(e.game)
            if key in waiting:
                twice += 1
            waiting.add(key)
        elif not e.action.startswith("@"):
            waiting.discard(key)
    never = sum(1 for game, due in deadlines.items() if due < now - grace and game not in fired)
    held = 0
    for _game, _kind, _seat, due, lease in pending:
        if due >= now - grace:
            continue
        if lease is not None and lease >= now - grace:
            held += 1
        else:
            never += 1
    return {
        "deadlines_fired_twice": twice,
        "deadlines_never_fired": never,
        "deadlines_fired": len(fired & set(deadlines)),
        "timers_under_a_live_lease": held,
    }


def check_boards(journal: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Board posts: the same nonce posted more than once (raw: what a
    Discord without nonce de-duplication would show twice), and one board
    (game, version) posted under different nonces (what even Discord would
    show twice)."""
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
    "double_applies",
    "lost_moves",
    "log_gaps",
    "deadlines_fired_twice",
    "deadlines_never_fired",
    "boards_posted_twice",
)


async def read_back(
    target: str, game_ids: Iterable[int]
) -> tuple[list[LogEntry], list[tuple[int, str, int, float, float | None]]]:
    from storage.database import Database

    db = await Database.open(target)
    wanted = set(game_ids)
    try:
        async with db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT game_id, seq, actor, action, created_at FROM actions "
                "WHERE actor >= -1 ORDER BY game_id, seq",
                (),
            )
            log = [LogEntry(r[0], r[1], r[2], r[3][:16], r[4]) for r in rows if r[0] in wanted]
            timer_rows = await conn.execute_fetchall(
                "SELECT t.game_id, t.kind, t.seat, t.due, t.lease_until FROM timers t "
                "JOIN games g ON g.id = t.game_id WHERE g.status = 'active'",
                (),
            )
            pending = [(r[0], r[1], r[2], r[3], r[4]) for r in timer_rows if r[0] in wanted]
    finally:
        await db.close()
    return log, pending


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
    # The timed games' clocks run out during the players' run, which starts
    # once the workers are up (a few seconds from now).
    await set_deadlines(target, seeded, time.time() + 8.0, max(1.0, args.seconds - 4.0), args.seed)
    workers = []
    for i in range(processes):
        shards = [s for s in range(args.shard_count) if s % processes == i]
        command = [
            sys.executable, "-m", "bot.loadtest", "worker",
            "--index", str(i), "--database", target, "--journal",
            str(folder / f"journal-{i}.jsonl"), "--lease", str(args.lease),
            "--shard-count", str(args.shard_count),
            "--render-workers", str(args.render_workers),
        ]  # fmt: skip
        if not sqlite:
            command += ["--shards", ",".join(map(str, shards))]
        workers.append(Worker(i, command))
    await asyncio.gather(*(w.start() for w in workers))
    clock_start = time.monotonic()
    stats = await drive(workers, seeded, args, processes)
    elapsed = time.monotonic() - clock_start
    # Grace: late deadlines fire, the killed worker's claims run out and are
    # taken over, deliveries settle.
    await asyncio.sleep(args.grace)
    for w in workers:
        await w.stop()
    now = time.time()
    ids = [g for g, _ in seeded.games] + list(seeded.deadlines)
    log, pending = await read_back(target, ids)
    report: dict[str, Any] = {
        "database": "sqlite" if sqlite else "postgresql",
        "processes": processes,
        "games": args.games,
        "players": args.players,
        "seconds": round(elapsed, 1),
        "seeding_seconds": round(seeding, 1),
        "moves": len(stats.acks),
        "moves_per_s": round(len(stats.acks) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {f"p{q}": round(percentile(stats.latencies, q), 1) for q in (50, 95, 99)},
        "refused": dict(stats.refused),
        "errors": stats.errors,
        "error_kinds": dict(stats.error_kinds.most_common(5)),
        "killed": args.kill_at > 0,
    }
    report.update(check_moves(stats.acks, log))
    journal = read_journals(folder)
    acted = [r["timer"] for r in journal if "timer" in r]
    report.update(check_deadlines(seeded.deadlines, log, pending, now, args.grace, acted))
    report.update(check_boards(journal))
    report["journals"] = str(folder)
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
    bad = [r for r in reports if any(r[k] for k in VIOLATIONS)]
    return 1 if bad else 0


def table(reports: Sequence[Mapping[str, Any]]) -> str:
    head = (
        "db          N  moves/s   p50 ms   p95 ms   p99 ms  moves  err  double  lost  "
        "dl-twice  dl-never  dl-fired  boards-twice(raw)"
    )
    lines = [head]
    for r in reports:
        lat = r["latency_ms"]
        lines.append(
            f"{r['database']:<10} {r['processes']:>2} {r['moves_per_s']:>8} {lat['p50']:>8} "
            f"{lat['p95']:>8} {lat['p99']:>8} {r['moves']:>6} {r['errors']:>4} "
            f"{r['double_applies']:>7} {r['lost_moves']:>5} {r['deadlines_fired_twice']:>9} "
            f"{r['deadlines_never_fired']:>9} {r['deadlines_fired']:>9} "
            f"{r['boards_posted_twice']:>6} ({r['boards_posted_twice_raw']})"
        )
    return "\n".join(lines)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot.loadtest", description=__doc__)
    parser.add_argument("role", nargs="?", default="coordinator", choices=["coordinator", "worker"])
    parser.add_argument("--quick", action="store_true", help="500 games, 20 players, 30 s")
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
    parser.add_argument("--deadline-share", type=float, default=0.05)
    parser.add_argument("--think", type=float, default=0.2, help="seconds a player waits at most")
    parser.add_argument("--kill-at", type=float, default=0.5, help="share of the run (0: no kill)")
    parser.add_argument(
        "--lease",
        type=float,
        default=None,
        help="seconds a claim lasts in the workers (default: a quarter of the run, at least 10)",
    )
    parser.add_argument("--grace", type=float, default=None)
    parser.add_argument("--render-workers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    # a worker's own
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--shards", default="")
    parser.add_argument("--journal", default="")
    args = parser.parse_args(argv)
    if args.quick:
        defaults = {"games": 500, "players": 20, "seconds": 30.0}
        given = set(argv or sys.argv[1:])
        for key, value in defaults.items():
            if f"--{key}" not in given:
                setattr(args, key, value)
    if args.lease is None:
        # Short enough that a killed worker's claims are taken over within
        # the run; long enough that the watchdog (two thirds of it) does
        # not stop jobs that are only slow because two cores serve 100
        # players (a stopped job is tried again a minute later, after the run).
        args.lease = max(10.0, args.seconds / 4)
    if args.grace is None:
        args.grace = args.lease * 2 + 5.0
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
