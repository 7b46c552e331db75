"""Refusing a request: one answer for everything a handler refuses.

A handler raises (a :class:`~bot.engines.core.GameError` saying why, a
storage error, or a bug); :func:`refuse` answers the interaction
ephemerally and nothing changes.  :func:`refusing` is the decorator every
feature puts on the handlers its commands and components call, instead of
each one catching and refusing by hand."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord

from bot.edge.replies import reply
from bot.engines.core import GameError
from storage.errors import StorageError

log = logging.getLogger(__name__)

SOMETHING_WENT_WRONG = "Something went wrong on my side; nothing was changed. Please try again."

P = ParamSpec("P")
S = TypeVar("S")


async def refuse(itx: discord.Interaction[Any], exc: Exception) -> None:
    """A clear, specific reply; the game stays exactly as it was.  A game's
    or storage's refusal says its own sentence; anything else is a bug,
    logged with its traceback and answered with a sentence that quotes
    nothing."""
    if isinstance(exc, GameError | StorageError):
        message = str(exc)
    else:
        log.exception("unexpected error while handling an interaction", exc_info=exc)
        message = SOMETHING_WENT_WRONG
    try:
        await reply(itx, message)
    except discord.HTTPException:
        log.warning("could not send a refusal (interaction expired?)")


def refusing(
    handler: Callable[Concatenate[S, discord.Interaction[Any], P], Awaitable[None]],
) -> Callable[Concatenate[S, discord.Interaction[Any], P], Awaitable[None]]:
    """A feature's handler (``self, itx, ...``) whose every exception is
    answered by :func:`refuse`: the handler raises ``GameError("why")``
    instead of answering a refusal itself."""

    @functools.wraps(handler)
    async def answering(
        self: S, itx: discord.Interaction[Any], /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        try:
            await handler(self, itx, *args, **kwargs)
        except Exception as exc:
            await refuse(itx, exc)

    return answering
