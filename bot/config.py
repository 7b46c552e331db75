"""Settings: the one place that reads the environment (and ``.env``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from storage.backend import is_postgres_url, sqlite_path

#: Where games are stored when CHAUPAL_DATABASE is unset or empty.
DEFAULT_DATABASE = "data/chaupal.sqlite3"


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to set."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    dev_guild_id: int | None
    database: Path | str
    """A SQLite file (a Path), or a PostgreSQL database (its ``postgresql://`` URL)."""
    log_level: str
    snapshot_every: int
    render_workers: int = 1
    """Processes that draw images (0: a thread in the bot's process)."""
    think_workers: int = 1
    """Processes where automatic players search (0: a thread)."""
    search_scale: float = 1.0
    """Shrinks the automatic players' search budgets (tests)."""
    think_pad: bool = True
    """Each level's moves take a constant time (``bot.service.THINK_PAD``);
    off in tests, which run on a fake clock."""
    throw_grace: bool = True
    """The chance after a person's move waits a few seconds for a takeback
    (``bot.takeback.THROW_GRACE``); off in tests, whose games would wait on
    a timer after every turn (a test of the grace turns it on)."""
    shards: tuple[int, ...] | None = None
    """The Discord shards this process runs (``CHAUPAL_SHARDS``, ``--shards``);
    None: every shard (issue 20: several processes on one database)."""
    shard_count: int | None = None
    """How many shards the bot has in all (``CHAUPAL_SHARD_COUNT``); None:
    Discord's recommended count, which is what a single process wants."""

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Put your bot token in a .env file next to "
                "pyproject.toml (copy .env.example) or export DISCORD_TOKEN=... "
                "See README.md, 'Quick start'."
            )
        return self.token


#: Longest excerpt of a bad value quoted back in an error (a pasted token
#: or file must not flood the terminal).
QUOTE_LIMIT = 40

_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _quote(raw: str) -> str:
    """*raw*, quoted and cut to a readable length."""
    cut = raw if len(raw) <= QUOTE_LIMIT else raw[: QUOTE_LIMIT - 1] + "…"
    return repr(cut)


def _optional(environ: Mapping[str, str], name: str) -> str | None:
    """The setting's value, or None when unset, empty or only whitespace.

    ``NAME=`` in ``.env`` (as .env.example has it) means "use the default".
    """
    raw = environ.get(name)
    if raw is None or not raw.strip():
        return None
    return raw.strip()


def _whole_number(name: str, raw: str, what: str) -> int:
    # Not int(): it also takes "1_000", "-3", "+3" and non-ASCII digits such as "٣".
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 20:
        raise ConfigError(f"{name} must be {what}, not {_quote(raw)}.")
    return int(raw)


MAX_SHARDS = 10_000
"""More shards than any bot has (Discord recommends one per 1,000 servers)."""


def parse_shards(raw: str, name: str = "CHAUPAL_SHARDS") -> tuple[int, ...]:
    """``0-3`` or ``0,2,5`` (or both: ``0-3,8``): the shard ids, sorted, each
    once.  Ranges include both ends."""
    what = "shard ids such as 0-3 or 0,2,5"
    ids: set[int] = set()
    for part in raw.replace(" ", "").split(","):
        if not part:
            raise ConfigError(f"{name} must list {what}, not {_quote(raw)}.")
        low, dash, high = part.partition("-")
        first = _whole_number(name, low, what) if low else None
        last = _whole_number(name, high, what) if dash else first
        if first is None or last is None or last < first:
            raise ConfigError(f"{name} must list {what}, not {_quote(raw)}.")
        if last >= MAX_SHARDS:
            raise ConfigError(f"{name} names shard {last}; a bot has fewer than {MAX_SHARDS}.")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def parse_shard_count(raw: str, name: str = "CHAUPAL_SHARD_COUNT") -> int:
    count = _whole_number(name, raw, "a whole number of shards (at least 1)")
    if not 1 <= count <= MAX_SHARDS:
        raise ConfigError(f"{name} must be at least 1 and below {MAX_SHARDS}, not {count}.")
    return count


def check_shards(
    shards: tuple[int, ...] | None,
    count: int | None,
    database: Path | str,
    *,
    how: str = "CHAUPAL_SHARDS",
) -> None:
    """Shards need their count (each process must agree on how guilds are
    divided), and every id must be below it.  A process that runs only some
    of the shards implies other processes for the rest, and those need
    PostgreSQL: a SQLite file is one process's (docs/ARCHITECTURE.md,
    Deployment)."""
    if shards is None:
        return
    if count is None:
        raise ConfigError(
            f"{how} needs the total number of shards too: set CHAUPAL_SHARD_COUNT "
            "(or --shard-count), the same in every process."
        )
    outside = [s for s in shards if s >= count]
    if outside:
        from bot.outgoing import plural  # here: config is read before the rest loads

        raise ConfigError(
            f"Shard {outside[0]} does not exist with {plural(count, 'shard')}: "
            f"ids run from 0 to {count - 1}."
        )
    if isinstance(database, Path) and len(shards) < count:
        raise ConfigError(
            f"{how} runs {len(shards)} of {count} shards here, so other processes run the "
            "rest, and several processes need PostgreSQL: a SQLite database belongs to one "
            "process. Set CHAUPAL_DATABASE to a postgresql:// URL, or run every shard here."
        )


def load_settings(
    environ: Mapping[str, str] | None = None,
    *,
    dotenv_path: Path | None = None,
    shards: str | None = None,
    shard_count: str | None = None,
) -> Settings:
    """Read settings; ``.env`` fills in what the real environment leaves unset.

    Every setting but DISCORD_TOKEN is optional: unset, empty and blank all
    mean its default.  ``shards`` and ``shard_count`` (``python -m bot
    --shards 0-3 --shard-count 8``) override CHAUPAL_SHARDS and
    CHAUPAL_SHARD_COUNT.
    """
    if environ is None:
        load_dotenv(dotenv_path or Path.cwd() / ".env", override=False)
        environ = os.environ

    raw = _optional(environ, "DEV_GUILD_ID")
    dev_guild_id = None if raw is None else _whole_number("DEV_GUILD_ID", raw, "a Discord id")

    raw = _optional(environ, "CHAUPAL_DATABASE") or DEFAULT_DATABASE
    database: Path | str = raw if is_postgres_url(raw) else Path(sqlite_path(raw))

    raw = _optional(environ, "CHAUPAL_LOG_LEVEL")
    level = (raw or "INFO").upper()
    if level not in _LOG_LEVELS:
        raise ConfigError(
            f"CHAUPAL_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {_quote(raw or '')}."
        )

    raw = _optional(environ, "CHAUPAL_SNAPSHOT_EVERY")
    snapshot_every = (
        25 if raw is None else _whole_number("CHAUPAL_SNAPSHOT_EVERY", raw, "a whole number")
    )
    if snapshot_every < 1:
        raise ConfigError("CHAUPAL_SNAPSHOT_EVERY must be at least 1.")

    raw = _optional(environ, "CHAUPAL_RENDER_WORKERS")
    render_workers = (
        1
        if raw is None
        else _whole_number("CHAUPAL_RENDER_WORKERS", raw, "0 or a positive whole number")
    )

    raw = _optional(environ, "CHAUPAL_THINK_WORKERS")
    think_workers = (
        1
        if raw is None
        else _whole_number("CHAUPAL_THINK_WORKERS", raw, "0 or a positive whole number")
    )

    if shards is not None:
        shard_ids: tuple[int, ...] | None = parse_shards(shards, "--shards")
    else:
        raw = _optional(environ, "CHAUPAL_SHARDS")
        shard_ids = None if raw is None else parse_shards(raw)
    if shard_count is not None:
        count: int | None = parse_shard_count(shard_count, "--shard-count")
    else:
        raw = _optional(environ, "CHAUPAL_SHARD_COUNT")
        count = None if raw is None else parse_shard_count(raw)
    check_shards(
        shard_ids, count, database, how="--shards" if shards is not None else "CHAUPAL_SHARDS"
    )

    return Settings(
        token=(environ.get("DISCORD_TOKEN") or "").strip() or None,
        dev_guild_id=dev_guild_id,
        database=database,
        log_level=level,
        snapshot_every=snapshot_every,
        render_workers=render_workers,
        think_workers=think_workers,
        shards=shard_ids,
        shard_count=count,
    )
