"""What the fake Discord records: each message the bot created or edited
(:class:`Outgoing`), whom it notified, and where it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, Literal

JSON = dict[str, Any]

EPHEMERAL: Final = 1 << 6
LOADING: Final = 1 << 7
SUPPRESS_NOTIFICATIONS: Final = 1 << 12
"""A message sent with ``silent=True``: Discord delivers it without a
notification."""

MENTION: Final = re.compile(r"<@!?(\d+)>")
BOARD_FILE: Final = re.compile(r"^chaupal-(\d+)-(\d+)\.png$")
"""A board image's file name: game and version (posts and edits alike)."""
SEAT_NONCE: Final = re.compile(r"^[st](\d+)\.(\d+)v(\d+)$")
"""A seat's private view (``s``) or "your turn" DM (``t``): game, seat, version."""
CHOICE_IDS: Final = ("chaupal:move:", "chaupal:board:")
"""Custom ids of a board's choices (pick buttons, "Choose…", selects of moves)."""

Place = Literal["channel", "dm", "ephemeral"]


class Stalled(AssertionError):
    """A game that waits on nobody, or a menu that leads nowhere: the
    instrument cannot go on (a bug, in the bot or here)."""


@dataclass(frozen=True)
class Outgoing:
    """One message the bot created, or one edit of a message, as Discord
    would show it after the call (an edit's fields are the message's own
    once edited)."""

    seq: int
    new: bool
    """A new message; False: an edit (edits never notify)."""
    place: Place
    """Where it shows: a guild channel or thread, a DM, or an ephemeral reply."""
    message_id: int
    channel_id: int
    user_id: int | None
    """A DM's recipient; an ephemeral reply's reader."""
    content: str
    custom_ids: tuple[str, ...]
    has_select: bool
    files: tuple[str, ...]
    allowed_users: frozenset[int] | None
    """The users its ``allowed_mentions`` lets be pinged; None: every
    mention pings (no ``allowed_mentions``, or ``parse`` with users)."""
    flags: int
    nonce: str | None
    at: float
    """The fake clock when it was sent."""
    interaction_id: int | None = None
    """The interaction it answers, for a response or follow-up."""
    uploaded: tuple[str, ...] = ()
    """The files this call uploaded (a board edited in place uploads its
    new image; an old board losing its buttons uploads none)."""

    @property
    def pinged(self) -> frozenset[int]:
        """Whom Discord notifies for this call, by mention: a new message in
        a channel or thread that mentions them and lets the mention through."""
        if not self.new or self.place != "channel":
            return frozenset()
        mentioned = {int(m) for m in MENTION.findall(self.content)}
        if self.allowed_users is None:
            return frozenset(mentioned)
        return frozenset(mentioned & self.allowed_users)

    @property
    def notifying_dm(self) -> bool:
        """A new DM that Discord announces (not sent with ``silent=True``)."""
        return self.new and self.place == "dm" and not self.flags & SUPPRESS_NOTIFICATIONS

    def notified(self) -> frozenset[int]:
        """Every user this call notifies."""
        if self.notifying_dm and self.user_id is not None:
            return frozenset({self.user_id})
        return self.pinged

    @property
    def board_version(self) -> tuple[int, int] | None:
        """(game, version) of the board image it shows, if it is a board."""
        if self.place != "channel":
            return None
        for name in self.files:
            found = BOARD_FILE.match(name)
            if found:
                return int(found[1]), int(found[2])
        return None

    @property
    def shows_choices(self) -> bool:
        return any(c.startswith(CHOICE_IDS) for c in self.custom_ids)


def source_of(sent: Outgoing) -> str:
    """What kind of message it is, in the words of the report (for the
    breakdown of notifications: which message pinged or DMed whom)."""
    text = sent.content
    if sent.place == "dm":
        if sent.has_select:
            return "DM menu (your view, your decision)"
        if text.startswith("Your view of"):
            return "DM view (no menu)"
        if text.startswith("Your turn in") or "it is your turn" in text:
            return "turn DM"
        if text.startswith("Reminder:"):
            return "reminder DM"
        if "time ran out" in text:
            return "timeout DM"
        if "game you follow" in text:
            return "follower DM"
        return "other DM"
    if sent.place == "channel":
        if sent.board_version is not None:
            if "Everyone else is waiting for you" in text:
                return "board ping (last one of a phase)"
            return "board ping"
        if "has chosen: the game is waiting for you" in text:
            return "last-one nudge"
        if "DMs are closed" in text or "can't DM you" in text:
            return "DMs-closed notice"
        if text.startswith("Rematch of game"):
            return "rematch lobby"
        return "other channel message"
    return "ephemeral reply"
