"""The one way text leaves the bot: Discord's limits, escaping and mentions.

Every reply, post, edit and DM is built here (the edge sends them and says
who they ping: :mod:`bot.edge.replies`), so that

- content never passes Discord's 2,000-character limit (Discord answers 400
  past it, and the player is left with "This interaction failed");
- text that players wrote (display names) is escaped before it enters
  content, so a nickname like ``<@123>`` or ``**x**`` is shown, not obeyed;
- each message pings exactly the users it names in ``mentions``, and nobody
  else (the bot's default allows no mentions at all).

Plain text, no discord.py: the service and the director use it too.
"""

from __future__ import annotations

import enum
import math
import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from bot.engines.core import format_points as format_points
from bot.engines.core import plural as plural

# The one way to say a count, "1 move", "2 moves", and the one way to
# write points, "3½" (issue 31): the engines' own helpers (the renderers use
# them too), re-exported for every other text.  A translation changes them
# alone.
from bot.engines.messages import decode
from bot.i18n import DEFAULT, localize, t

if TYPE_CHECKING:
    from bot.engines.core import Seat
    from bot.live import LiveGame

MAX_CONTENT = 2000
"""Discord's limit on a message's content."""

MAX_NAME = 32
"""Display names are at most 32 characters in Discord; longer ones are ours to cut."""

_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]])")


def clip(content: str, limit: int = MAX_CONTENT) -> str:
    """``content`` cut to Discord's limit, marking the cut."""
    if len(content) <= limit:
        return content
    return content[: limit - 1] + "…"


def plain_name(display_name: str) -> str:
    """A display name on one line, without control characters, at most
    :data:`MAX_NAME` long: for places Discord shows as plain text (select
    option labels, button labels, image captions)."""
    cleaned = "".join(
        " " if ch.isspace() else ch
        for ch in display_name
        if ch.isspace() or unicodedata.category(ch)[0] != "C"
    )
    cleaned = " ".join(cleaned.split()) or "?"
    return cleaned if len(cleaned) <= MAX_NAME else cleaned[: MAX_NAME - 1] + "…"


def safe_name(display_name: str) -> str:
    """A display name made harmless for message content: Markdown is escaped,
    and ``@`` and ``<`` cannot form a mention (a zero-width joiner breaks
    them), so a nickname never pings or restyles anything."""
    name = _MARKDOWN.sub(r"\\\1", plain_name(display_name))
    return name.replace("@", "@\u200b").replace("<", "<\u200b")


def mention(user_id: int) -> str:
    return f"<@{int(user_id)}>"


def channel_mention(channel_id: int) -> str:
    """A channel or thread as Discord links it in message content."""
    return f"<#{int(channel_id)}>"


class Style(enum.Enum):
    CONTENT = "content"
    """Bold, escaped names for message content."""
    MENTION = "mention"
    """Mentions (they ping only if the message's allowed_mentions says so)."""
    PLAIN = "plain"
    """Plain names for labels Discord shows as text (selects, buttons)."""
    ESCAPED = "escaped"
    """Escaped names without bold, for content that may be cut short (the
    lobby's status line)."""


def fill_seats(
    text: str, game: LiveGame, style: Style = Style.CONTENT, lang: str = DEFAULT
) -> str:
    """Replace ``{p0}``-style seat tags with names (or mentions), after
    putting the text in ``lang`` (a stored message is decoded first)."""
    text = localize(decode(text), lang)
    names: dict[str, str] = {}
    for s in game.seats:
        if style is Style.MENTION:
            names[f"p{s.seat}"] = mention(s.user_id)
        elif style is Style.PLAIN:
            names[f"p{s.seat}"] = plain_name(s.display_name)
        elif style is Style.ESCAPED:
            names[f"p{s.seat}"] = safe_name(s.display_name)
        else:
            names[f"p{s.seat}"] = f"**{safe_name(s.display_name)}**"
    try:
        return text.format_map(names)
    except (KeyError, IndexError, ValueError):
        return text


def names_of(game: LiveGame, seats: Iterable[Seat]) -> str:
    return " & ".join(f"**{safe_name(game.names[s])}**" for s in sorted(seats))


TimeStyle = Literal["t", "T", "d", "D", "f", "F", "R"]
"""Discord's timestamp styles: ``R`` a live relative time ("in 5 hours",
"2 days ago"), ``f`` the full date and time; the others are shorter forms."""


def discord_time(unix: float, style: TimeStyle = "R") -> str:
    """A moment in message content as a Discord timestamp, which each reader's
    client shows in their own time zone and language (``R`` counts live).
    Whole seconds, rounded down: a deadline is never shown later than it is.
    Only for content Discord renders (messages, not files or image text)."""
    return f"<t:{math.floor(unix)}:{style}>"


def points_text(value: float) -> str:
    """Points with their word: ``1 point``, ``½ point``, ``3½ points``."""
    return f"{format_points(value)} {'point' if 0 < abs(value) <= 1 else 'points'}"


def points_in(value: float, lang: str = DEFAULT) -> str:
    """:func:`points_text` in ``lang``: ``1 point``, ``½ point``, ``3½ points``."""
    if lang == DEFAULT:
        return points_text(value)
    shown = format_points(value)
    if 0 < abs(value) <= 1:
        return t(lang, "{points} point", points=shown)
    return t(lang, "{points} points", points=shown)


def left_text(seconds: float, lang: str = DEFAULT) -> str:
    """Time left on a clock, short, in ``lang``: ``2d 3h``, ``5h 10m``,
    ``12m``, ``0m`` in English (:func:`bot.timekeeping.format_left`)."""
    whole = max(0, int(seconds // 60))
    days, rest = divmod(whole, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        if hours:
            return t(lang, "{days}d {hours}h", days=days, hours=hours)
        return t(lang, "{days}d", days=days)
    if hours:
        if minutes:
            return t(lang, "{hours}h {minutes}m", hours=hours, minutes=minutes)
        return t(lang, "{hours}h", hours=hours)
    return t(lang, "{minutes}m", minutes=minutes)


def game_title(game: LiveGame, lang: str = DEFAULT) -> str:
    """A game as texts name it, ``Artaban #12``, its title in ``lang``."""
    return f"{t(lang, game.engine.title)} #{game.id}"
