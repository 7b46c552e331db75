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
from bot.i18n import DEFAULT, N_, localize, t
from storage.errors import StorageError

log = logging.getLogger(__name__)

SOMETHING_WENT_WRONG = N_("Something went wrong on my side; nothing was changed. Please try again.")

P = ParamSpec("P")
S = TypeVar("S")


def said(exc: Exception) -> str:
    """A refusal's sentence: its message (:class:`~bot.i18n.Msg`, which the
    catalog translates) when it was raised with one, else its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


async def reader_language(itx: discord.Interaction[Any]) -> str:
    """The language ``itx``'s user reads (English if it cannot be told:
    a refusal must never fail for it)."""
    languages = getattr(itx.client, "languages", None)
    if languages is None:
        return DEFAULT
    try:
        lang: str = await languages.for_reader(itx)
    except Exception:
        log.warning("the reader's language could not be read", exc_info=True)
        return DEFAULT
    return lang


async def refuse(itx: discord.Interaction[Any], exc: Exception) -> None:
    """A clear, specific reply; the game stays exactly as it was.  A game's
    or storage's refusal says its own sentence; anything else is a bug,
    logged with its traceback and answered with a sentence that quotes
    nothing."""
    lang = await reader_language(itx)
    if isinstance(exc, GameError | StorageError):
        message = localize(said(exc), lang)
    else:
        log.exception("unexpected error while handling an interaction", exc_info=exc)
        message = t(lang, SOMETHING_WENT_WRONG)
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
