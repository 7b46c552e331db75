"""What delivery writes and compares (pure): the board's headline, status
and clock lines, who comes next, links to messages, what each seat was last
sent (a fingerprint), the outbox's target names, and who may be told what
now (:class:`Audience`)."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.edge.tables.menus import board_menu
from bot.engines.core import CHANCE, Seat
from bot.i18n import DEFAULT, t
from bot.outgoing import (
    channel_mention,
    clip,
    discord_time,
    fill_seats,
    game_title,
    left_text,
    mention,
    names_of,
    safe_name,
)
from bot.service import TABLE_EVENT, LiveGame, secrets_of
from bot.timekeeping import clock_deadline, time_left
from storage.games import OutboxRow

if TYPE_CHECKING:
    pass


NARRATION_LINES = 6
"""At most this many recent narrations go above a board (older ones are in
the images and the log)."""


def next_up(
    game: LiveGame,
    *,
    already_said: str = "",
    named: Collection[Seat] = (),
    lang: str = DEFAULT,
) -> str:
    """Who acts next (mentioned; the seats in ``named`` by their names
    instead, bold and escaped), or how the game ended, in ``lang`` (the
    channel's language)."""
    title = game_title(game, lang)
    if game.is_over and game.outcome is not None:
        outcome = game.outcome
        places = [
            f"{rank}. {names_of(game, group)}"
            for rank, group in enumerate(outcome.ranking, start=1)
        ]
        result = (
            t(lang, "Draw.")
            if outcome.is_draw
            else t(lang, "Winner: {names}.", names=names_of(game, outcome.winners))
        )
        reason = fill_seats(outcome.reason, game, lang=lang)
        reason = "" if reason in already_said else f" {reason}"
        return t(
            lang,
            "**{title} is over.**{reason} {result} ({places})",
            title=title,
            reason=reason,
            result=result,
            places="; ".join(places),
        )
    if game.state is None:
        return ""
    engine = game.engine
    waiting = engine.waiting_on(game.state)
    if waiting:
        who = ", ".join(
            # An automatic seat is named, never mentioned: it is nobody to ping.
            f"**{safe_name(game.names[s])}**"
            if s in named or game.is_auto(s)
            else mention(game.user_of(s))
            for s in sorted(waiting)
        )
        return t(lang, "{title}: {who} to play.", title=title, who=who)
    if engine.to_move(game.state) - {CHANCE}:
        return t(
            lang,
            "{title}: waiting on private decisions; whoever is asked has a DM "
            "(or can use /game hand).",
            title=title,
        )
    return f"{title}."


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link that opens a message (or a channel or thread) in Discord."""
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return where if message_id is None else f"{where}/{message_id}"


def thread_name(game: LiveGame, lang: str = DEFAULT) -> str:
    return clip(game_title(game, lang), 100)


def status_line(
    game: LiveGame, thread_id: int | None, final_board: str = "", lang: str = DEFAULT
) -> str:
    """The last line of the lobby message once a game runs: its state (in
    progress, paused, or over with the result) and where it is played.
    Nothing in it changes with a move, so the channel's lobby message is
    edited only for what a reader of the channel cares about (issue 30):
    the start, a pause or resume, a seat changing hands (the seats above
    it), the end.  Names are escaped and shown bold, never as mentions (an
    edit pings nobody anyway).  In ``lang``, the channel's language."""
    if game.is_over:
        outcome = game.outcome
        if outcome is None:
            said = t(lang, "Over.")
        elif outcome.is_draw:
            said = t(lang, "Over: a draw.")
        else:
            said = t(lang, "Over: won by {names}.", names=names_of(game, outcome.winners))
        if thread_id is not None:
            where = channel_mention(thread_id)
            return t(lang, "{said} Its thread: {where}.", said=said, where=where)
        if final_board:
            return t(lang, "{said} Final board: {link}", said=said, link=final_board)
        return said
    if game.paused:
        if thread_id is None:
            return t(lang, "Paused by a moderator; it is played in this channel.")
        where = channel_mention(thread_id)
        return t(lang, "Paused by a moderator; it is played in {where}.", where=where)
    if thread_id is None:
        return t(lang, "The game has started; it is played in this channel.")
    where = channel_mention(thread_id)
    return t(lang, "The game has started; it is played in {where}.", where=where)


def clock_line(
    game: LiveGame,
    now: float,
    away: Mapping[Seat, float] | None = None,
    lang: str = DEFAULT,
) -> str:
    """Each player's clock and who is away, for the text above the board
    ("" when there is nothing to say): ``Clocks: Asha ⏳ runs out <t:…:R> ·
    Bhima 1d (away, back <t:…:R>)``, in ``lang``.

    A running clock shows its deadline as a Discord timestamp, which each
    reader sees as a live countdown in their own time zone: a duration would
    be stale as soon as the board is posted.  A stopped clock keeps its time
    left, which does not change until it runs again."""
    if game.state is None or game.is_over:
        return ""
    away = away or {}
    rule = game.table.clock
    parts: list[str] = []
    for s in game.seats:
        if s.controller == "auto":
            continue
        back = away.get(s.seat)
        note = "" if back is None else t(lang, " (away, back {when})", when=discord_time(back))
        left = time_left(s, rule, now)
        who = f"{{p{s.seat}}}"
        if left is None:
            if note:
                parts.append(f"{who}{note}")
            continue
        deadline = clock_deadline(s, rule)
        if deadline is not None and not game.paused:
            runs_out = t(lang, "⏳ runs out {when}", when=discord_time(deadline))
            parts.append(f"{who} {runs_out}{note}")
        else:
            parts.append(f"{who} {left_text(left, lang)}{note}")
    if not parts:
        return ""
    listed = " · ".join(parts)
    if rule is not None:
        line = t(lang, "Clocks: {clocks}", clocks=listed)
    else:
        line = t(lang, "Away: {players}", players=listed)
    return t(lang, "Paused. {line}", line=line) if game.paused else line


def headline(
    game: LiveGame,
    narrations: Sequence[str],
    now: float | None = None,
    away: Mapping[Seat, float] | None = None,
    named: Collection[Seat] = (),
    lines: int = NARRATION_LINES,
    lang: str = DEFAULT,
) -> str:
    """The text above a board: what happened since the last board (its last
    ``lines`` narrations), who acts next (``named``: seats named rather than
    mentioned), and (with a clock, given the time ``now``) everyone's time
    left; all in ``lang`` (the channel's language: one per message)."""
    said = [fill_seats(n, game, lang=lang) for n in narrations if n]
    if len(said) > lines:
        said = ["…", *said[-lines:]]
    clocks = (
        fill_seats(clock_line(game, now, away, lang=lang), game, lang=lang)
        if now is not None
        else ""
    )
    parts = [
        *said,
        next_up(game, already_said=" ".join(said), named=named, lang=lang),
        clocks,
    ]
    return clip("\n".join(p for p in parts if p))


def asked_privately(game: LiveGame, seat: Seat, served: frozenset[Seat] | None = None) -> bool:
    """Whether ``seat`` must decide now and the public board does not offer
    its choices as buttons (its decision is secret, its choices depend on
    something hidden, or they differ from other awaited seats'): such a seat
    gets its menu by DM.  ``served`` is what :func:`board_menu` says the
    board serves, when the caller has it already."""
    state = game.state
    if state is None or game.is_over:
        return False
    if seat not in game.engine.to_move(state) or game.is_auto(seat):
        return False  # an automatic seat decides by itself, when its timer fires
    if served is None:
        served = board_menu(game).seats
    return seat not in served


def _canonical(value: Any) -> Any:
    """A value made of JSON types in a stable order (sets sorted), for hashing."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__] + [
            _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
        ]
    if isinstance(value, dict):
        return sorted(([_canonical(k), _canonical(v)] for k, v in value.items()), key=repr)
    if isinstance(value, set | frozenset):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if isinstance(value, enum.Enum):
        return _canonical(value.value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def _fingerprint(value: Any) -> str:
    raw = json.dumps(_canonical(value), separators=(",", ":"), default=repr)
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def seat_digest(game: LiveGame, seat: Seat, served: frozenset[Seat] | None = None) -> str:
    """What a seat was last sent: its secrets, and its private choices."""
    me = secrets_of(game.engine, game.state, seat)
    asked = ""
    if asked_privately(game, seat, served):
        asked = _fingerprint(game_texts(game, seat))
    return f"{_fingerprint(me)}:{asked}"


def game_texts(game: LiveGame, seat: Seat) -> list[str]:
    engine, state = game.engine, game.state
    return [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]


def _frozen(game: LiveGame) -> LiveGame:
    """A consistent copy of a live game: the service may replace its state
    while delivery awaits Discord."""
    return dataclasses.replace(game, recent={})


TIMEOUT_EVENT = f"{TABLE_EVENT}timeout"
"""The log's entry for a timeout under ``substitute`` or ``skip``, written
just before the move the automatic player made for the seat."""

TURN = "turn:"
"""Outbox targets ``turn:<seat>``: the "your turn" DM of a seat's current
wait.  ``version`` is the game version the wait's DM became owed at,
``digest`` is ``owed``, then ``sent`` or ``dropped`` (``owed:last``, for
the last of a simultaneous phase, is from before issue 30 and reads as
``owed``); ``notice`` marks a player whose DMs are closed (the
channel pings them instead)."""
OWED = "owed"

FOLLOW = "follow:"
"""Outbox targets ``follow:<user_id>`` (issue 21): what a member who follows
the game (``/game follow``) was last sent.  ``version`` is the game version
the DM became owed at, ``digest`` ``owed`` (a new board, for a follower of
every move) or ``owed:end`` (the game ended), then ``sent`` or
``dropped``.  Owed by the board's delivery before the board's own row, as
the turn DMs are, so a crash in between loses none."""
OWED_END = "owed:end"


@dataclasses.dataclass(frozen=True)
class Audience:
    """How each seat of a game may be told it must act, now: their own
    notifications (``/chaupal me``), their vacations and quiet hours."""

    away: Mapping[Seat, float]
    """Seats whose players are away, and when they are back: never pinged."""
    quiet: frozenset[Seat]
    """Seats in their quiet hours: never pinged, DMs go silent."""
    ping: frozenset[Seat]
    """Seats that may be pinged in the channel now (``ping`` or ``both``,
    or ``dm`` with DMs closed, and neither away nor quiet)."""
    dm: frozenset[Seat]
    """Seats told by DM (``dm`` or ``both``, DMs not known to be closed,
    not away)."""
    reach: frozenset[Seat] = frozenset()
    """Seats a DM can reach now, whatever they asked for (held by a person,
    not away, DMs not known to be closed): a decision made in a DM menu is
    announced by that DM (issue 30)."""
    views: frozenset[Seat] = frozenset()
    """Seats whose players keep their private view up to date in its
    standing DM (``/chaupal me views``, on unless turned off)."""

    def reachable(self, seat: Seat) -> bool:
        """Whether a ping may reach this seat's player now."""
        return seat not in self.away and seat not in self.quiet

    def silent(self, seat: Seat) -> bool:
        """Whether a DM to this seat's player must not notify them."""
        return not self.reachable(seat)


def _owed(row: OutboxRow | None) -> bool:
    return row is not None and row.digest.startswith(OWED)
