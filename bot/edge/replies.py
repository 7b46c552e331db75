"""How the edge answers and posts: who a message pings, and the answer to
an interaction.

The bot's default allows no mentions at all; each message pings exactly the
users it names (:func:`pinging`) or nobody (:data:`NO_PINGS`).  The text
itself is built by :mod:`bot.outgoing` (limits, escaping, mentions)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.outgoing import clip


def pinging(user_ids: Iterable[int] = ()) -> discord.AllowedMentions:
    """Allowed mentions for a message meant to ping exactly ``user_ids``."""
    users = [discord.Object(id=int(u)) for u in sorted(set(user_ids))]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


NO_PINGS = discord.AllowedMentions.none()


async def reply(
    itx: discord.Interaction[Any],
    content: str,
    *,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Answer an interaction (first response, or a followup once it was
    deferred or answered); nobody is pinged."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if itx.response.is_done():
        await itx.followup.send(content=clip(content), ephemeral=ephemeral, **kwargs)
    else:
        await itx.response.send_message(content=clip(content), ephemeral=ephemeral, **kwargs)


async def edit_reply(itx: discord.Interaction[Any], content: str, **kwargs: Any) -> None:
    """Edit the message a component belongs to, as the interaction's response."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    await itx.response.edit_message(content=clip(content), **kwargs)
