"""``python -m bot`` runs the bot; ``python -m bot demo`` plays demo games offline;
``python -m bot backup FILE`` copies the database safely, even while the bot runs;
``python -m bot migrate-db --from SOURCE --to TARGET`` copies a community's
data into an empty database (SQLite to PostgreSQL, or back);
``python -m bot export GAME_ID`` writes a game's complete record (every action,
hidden ones included: the operator's) and ``python -m bot replay FILE`` draws a
complete record's animated replay offline.

Exit codes: 0 fine (also after SIGTERM or Ctrl-C: a clean stop), 1 Discord
unreachable, 2 a setting is missing or wrong (or Discord refused the token),
3 the database cannot be used (or backed up).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from pathlib import Path

from bot.config import ConfigError, load_settings
from storage.errors import StorageError


def configure_logging(level: str) -> None:
    logging.basicConfig(format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)
    # discord.py logs whole request and response bodies at DEBUG: DMs and
    # ephemeral menus carry hands and screens, which must never reach a log.
    discord_logger = logging.getLogger("discord")
    discord_logger.setLevel(max(logging.INFO, logging.getLevelName(level)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Chaupal, board games in Discord."
    )
    parser.add_argument(
        "--shards",
        metavar="IDS",
        help="the Discord shards this process runs, e.g. 0-3 or 0,2,5 (overrides "
        "CHAUPAL_SHARDS; other processes on the same PostgreSQL database run the rest)",
    )
    parser.add_argument(
        "--shard-count",
        metavar="N",
        help="how many shards the bot has in all, the same in every process (overrides "
        "CHAUPAL_SHARD_COUNT)",
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="connect to Discord and serve games (the default)")
    from bot.demo import add_arguments as add_demo_arguments

    demo = sub.add_parser(
        "demo", help="play seeded games offline: a gallery (or --all: every image)"
    )
    add_demo_arguments(demo)
    backup = sub.add_parser(
        "backup",
        help="copy the database (CHAUPAL_DATABASE) to FILE, a SQLite file; safe while the "
        "bot runs",
    )
    backup.add_argument("file", type=Path, help="the backup file to write (replaced if it exists)")
    migrate = sub.add_parser(
        "migrate-db",
        help="copy every game, rating and tournament into an empty database "
        "(stop the bot first)",
    )
    migrate.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="SOURCE",
        help="the database to copy: sqlite:FILE (or a path), or a postgresql:// URL",
    )
    migrate.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="TARGET",
        help="an empty database: a postgresql:// URL (leave its password out and set "
        "PGPASSWORD), or sqlite:FILE",
    )
    export = sub.add_parser(
        "export",
        help="write a game's complete record (every action, hidden ones included) to "
        "stdout or --out; for the operator only",
    )
    export.add_argument("game", type=int, metavar="GAME_ID", help="the game's number")
    export.add_argument(
        "--database",
        metavar="TARGET",
        help="the database to read: a SQLite file (or sqlite:FILE) or a postgresql:// URL "
        "(default: CHAUPAL_DATABASE)",
    )
    export.add_argument("--out", type=Path, help="the file to write (default: stdout)")
    export.add_argument(
        "--public",
        action="store_true",
        help="write the public record instead: what players may read (hidden actions as ?)",
    )
    replay = sub.add_parser(
        "replay", help="draw a complete record (from export) as an animated GIF, offline"
    )
    replay.add_argument("file", type=Path, help="the record, as `export` wrote it")
    replay.add_argument(
        "--out", type=Path, help="the GIF to write (default: FILE with the suffix .gif)"
    )
    replay.add_argument(
        "--frames",
        type=Path,
        metavar="FOLDER",
        help="also write every frame as a PNG into FOLDER (frame-000.png, ...)",
    )
    args = parser.parse_args(argv)

    if args.command == "export":
        return _export(args.game, args.database, args.out, public=args.public)

    if args.command == "replay":
        return _replay(args.file, args.out, args.frames)

    if args.command == "demo":
        from bot.demo import run as run_demo_command

        return run_demo_command(args)

    if args.command == "backup":
        return _backup(args.file)

    if args.command == "migrate-db":
        return _migrate_db(args.source, args.target)

    try:
        settings = load_settings(shards=args.shards, shard_count=args.shard_count)
        token = settings.require_token()
    except ConfigError as exc:
        print(f"chaupal: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from bot.edge.client import ChaupalBot
    from bot.engines import ENGINE_BUILD
    from storage.opening import open_database

    logging.getLogger("chaupal").info("Game engines: %s.", ENGINE_BUILD)

    async def runner() -> None:
        # Open (and migrate) the database before connecting, so a broken
        # file is reported at once instead of after logging in.
        database = await open_database(settings.database)
        async with ChaupalBot(settings, database=database) as bot:
            # A service manager stops the bot with SIGTERM (systemd, docs/deploy):
            # close it as Ctrl-C would, so claimed timers are given back and
            # the database is closed, instead of dying mid-write.
            loop = asyncio.get_running_loop()
            with contextlib.suppress(NotImplementedError):  # not on Windows
                loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(stop(bot)))
            await bot.start(token)

    async def stop(bot: ChaupalBot) -> None:
        logging.getLogger("chaupal").info("Stopping (SIGTERM).")
        await bot.close()

    try:
        asyncio.run(runner())
    except StorageError as exc:
        print(f"chaupal: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        pass
    except Exception as exc:
        import aiohttp
        import discord

        if isinstance(exc, aiohttp.ClientError | OSError):
            print(f"chaupal: could not reach Discord: {exc}", file=sys.stderr)
            return 1
        if isinstance(exc, discord.LoginFailure):
            print(
                "chaupal: Discord refused DISCORD_TOKEN. Copy the token again from the "
                "Developer Portal (Bot -> Reset Token) into .env.",
                file=sys.stderr,
            )
            return 2
        raise
    return 0


def _backup(target: Path) -> int:
    from storage.backups import backup_database, backup_postgres

    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"chaupal: {exc}", file=sys.stderr)
        return 2
    try:
        if isinstance(settings.database, str):
            done = asyncio.run(backup_postgres(settings.database, target))
        else:
            done = backup_database(settings.database, target)
    except StorageError as exc:
        print(f"chaupal: {exc}", file=sys.stderr)
        return 3
    from bot.outgoing import plural

    games = "" if done.games is None else f", {plural(done.games, 'game')}"
    print(f"Backed up {done.source} to {done.target} ({done.size:,} bytes{games}).")
    return 0


def _migrate_db(source: str, target: str) -> int:
    from storage.copying import migrate_database

    def progress(table: str, rows: int) -> None:
        print(f"  {table:<20} {rows:>9,} {'row' if rows == 1 else 'rows'}")

    print("Copying every table in one transaction (nothing is kept if it fails)...")
    try:
        origin, destination, copied = asyncio.run(
            migrate_database(source, target, progress=progress)
        )
    except StorageError as exc:
        print(f"chaupal: {exc}", file=sys.stderr)
        return 3
    print(
        f"Copied {copied.total:,} rows from {origin} to {destination}. "
        "Set CHAUPAL_DATABASE to the new database and start Chaupal."
    )
    return 0


def _export(game_id: int, database: str | None, out: Path | None, *, public: bool) -> int:
    from bot.replay import RecordError, load_record, public_record
    from storage.backend import is_postgres_url, sqlite_path
    from storage.games import GameStore
    from storage.opening import open_database

    if database is None:
        try:
            target: Path | str = load_settings().database
        except ConfigError as exc:
            print(f"chaupal: {exc}", file=sys.stderr)
            return 2
    else:
        target = database if is_postgres_url(database) else Path(sqlite_path(database))
    if isinstance(target, Path) and not target.is_file():
        # open_database would create an empty one: say what is wrong instead.
        print(f"chaupal: there is no database at {target}", file=sys.stderr)
        return 3

    async def read() -> str:
        db = await open_database(target)
        try:
            record = await load_record(GameStore(db), game_id)
        finally:
            await db.close()
        return (public_record(record) if public else record).format()

    try:
        text = asyncio.run(read())
    except StorageError as exc:
        print(f"chaupal: {exc}", file=sys.stderr)
        return 3
    except RecordError as exc:
        print(f"chaupal: {exc}", file=sys.stderr)
        return 1
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        print(f"Game #{game_id} written to {out}.", file=sys.stderr)
    return 0


def _replay(source: Path, out: Path | None, frames_folder: Path | None) -> int:
    from bot.replay import GameRecord, RecordError, frames
    from renderers import get_renderer
    from renderers.common import to_png
    from renderers.replay import encode_replay, frame_image

    try:
        record = GameRecord.parse(source.read_text(encoding="utf-8"))
        shown = frames(record)
    except OSError as exc:
        print(f"chaupal: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 1
    except (RecordError, UnicodeDecodeError) as exc:
        print(f"chaupal: {source}: {exc}", file=sys.stderr)
        return 1
    renderer = get_renderer(record.engine)
    encoded = encode_replay(renderer, shown, record.names)
    target = out or source.with_suffix(".gif")
    target.write_bytes(encoded.data)
    kept = f"{encoded.frames} of {encoded.of} frames" if encoded.sampled else f"{encoded.of} frames"
    print(f"Replay written to {target} ({len(encoded.data):,} bytes, {kept}).")
    if frames_folder is not None:
        frames_folder.mkdir(parents=True, exist_ok=True)
        last = shown[-1].move
        for i, frame in enumerate(shown):
            png = to_png(frame_image(renderer, frame, record.names, last))
            (frames_folder / f"frame-{i:03d}.png").write_bytes(png)
        print(f"{len(shown)} frames written to {frames_folder}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
