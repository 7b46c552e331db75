"""The tests' throwaway PostgreSQL server: :mod:`bot.tools.pgserver`, shipped
so that ``python -m bot.loadtest`` starts one too."""

from bot.tools.pgserver import (
    HOW_TO_INSTALL,
    OPT_OUT,
    SUPERUSER,
    PostgresServer,
    PostgresUnavailable,
    server_binaries,
)

__all__ = [
    "HOW_TO_INSTALL",
    "OPT_OUT",
    "SUPERUSER",
    "PostgresServer",
    "PostgresUnavailable",
    "server_binaries",
]
