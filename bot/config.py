"""Settings: the one place that reads the environment (and ``.env``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to set."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    dev_guild_id: int | None
    database_path: Path
    log_level: str
    snapshot_every: int
    render_workers: int = 1
    """Processes that draw images (0: a thread in the bot's process)."""

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Put your bot token in a .env file next to "
                "pyproject.toml (copy .env.example) or export DISCORD_TOKEN=... "
                "See README.md, 'Creating the Discord application'."
            )
        return self.token


def _int_or_none(name: str, raw: str | None) -> int | None:
    if raw is None or not raw.strip():
        return None
    try:
        return int(raw.strip())
    except ValueError:
        raise ConfigError(f"{name} must be a number (a Discord id), not {raw!r}.") from None


def load_settings(
    environ: Mapping[str, str] | None = None, *, dotenv_path: Path | None = None
) -> Settings:
    """Read settings; ``.env`` fills in what the real environment leaves unset."""
    if environ is None:
        load_dotenv(dotenv_path or Path.cwd() / ".env", override=False)
        environ = os.environ
    snapshot_raw = environ.get("CHAUPAL_SNAPSHOT_EVERY", "25")
    try:
        snapshot_every = int(snapshot_raw)
    except ValueError:
        raise ConfigError(
            f"CHAUPAL_SNAPSHOT_EVERY must be a whole number, not {snapshot_raw!r}."
        ) from None
    if snapshot_every < 1:
        raise ConfigError("CHAUPAL_SNAPSHOT_EVERY must be at least 1.")
    workers_raw = environ.get("CHAUPAL_RENDER_WORKERS", "1")
    if not workers_raw.strip().isdigit():
        raise ConfigError(
            f"CHAUPAL_RENDER_WORKERS must be 0 or a positive whole number, not {workers_raw!r}."
        )
    level = environ.get("CHAUPAL_LOG_LEVEL", "INFO").upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError(
            f"CHAUPAL_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}."
        )
    return Settings(
        token=(environ.get("DISCORD_TOKEN") or "").strip() or None,
        dev_guild_id=_int_or_none("DEV_GUILD_ID", environ.get("DEV_GUILD_ID")),
        database_path=Path(environ.get("CHAUPAL_DATABASE", "data/chaupal.sqlite3")),
        log_level=level,
        snapshot_every=snapshot_every,
        render_workers=int(workers_raw),
    )
