"""A worker process: a real ChaupalBot over the fake Discord HTTP layer,
serving the coordinator's clicks and journalling every write and reply.
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
import signal
import time
from pathlib import Path
from typing import Any

from bot.tools.loadtest.fake_discord import APPLICATION_ID, FakeHttp, user_payload
from bot.tools.loadtest.journal import Journal, click_record, commit_record, outcome_record


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
    state.user = discord.ClientUser(state=state, data=user_payload(APPLICATION_ID))  # type: ignore[arg-type]
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
                member={"user": user_payload(user), "roles": [], "joined_at":
                        "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
                        "pending": False, "nick": None, "avatar": None, "premium_since": None,
                        "communication_disabled_until": None, "permissions": "0"},
                context=0,
                authorizing_integration_owners={"0": str(guild)},
            )  # fmt: skip
        else:
            payload.update(
                channel={"id": str(channel), "type": 1, "recipients": [user_payload(user)],
                         "last_message_id": None},
                user=user_payload(user),
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
