"""What the parts of the game service share: its constants and the small
pure helpers several parts use (issue 32 split them from one class)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.choices import split_words
from bot.engines.core import CHANCE, Engine, Outcome, Seat, SplitsMenus
from bot.engines.messages import Msg, Plural
from bot.levels import Level
from bot.live import ServiceError, StaleBoard
from storage.games import NewEntry, SeatHandover, SeatRecord
from storage.timekeeping import Timer

TABLE_EVENT = "@"
"""Log entries whose action starts with this are the table's, not the
engine's (a seat passing to the automatic player, a timeout, a pause): they
carry a public narration and are skipped when the game is replayed."""
AUTO_MOVES_LIMIT = 10_000
"""A guard: automatic seats never play more moves than this in a row."""
FORFEIT_EVENT = "@forfeit"
"""The log entry (actor: the seat) written when a seat is forfeited because
its time ran out; a tournament reads it to drop players who keep losing on
time."""

AUTO_DELAY = 4.0
"""Seconds an automatic seat waits before it acts, so a board is not
replaced faster than anyone can read it.  Constant, whatever the position
and whatever it decides, so its timing tells nobody anything (a private
decision included).  Kept in a ``clock`` timer of the seat, so it survives a
restart and fires once."""
SOLO_AUTO_DELAY = 0.3
"""``AUTO_DELAY`` at a table of one person and automatic seats (issue 30):
nobody else reads the boards between the person's decisions, which go out
as one board when the person must act again, so the automatic seats move
quickly.  Constant too, whatever the position or decision."""
THINK_PAD: Mapping[Level, float] = {"easy": 0.0, "medium": 0.5, "hard": 1.5}
"""Seconds a lobby's automatic player takes at least to choose, thinking
included (after ``AUTO_DELAY``): a search's time depends on the position,
and so on what the seat holds; padded to a constant, it tells nobody
anything.  Above a level's 95th percentile on the reference machine.  Only
in games that hide something (their engines deal what a seat cannot see:
``Determinizes``): where everything is on the board, how long a move took
tells nothing that is not public, and nothing is padded (issue 30)."""
THINK_LEASE = 120.0
"""How long a thinking seat's timer is moved on while it searches: a bot
stopped mid-thought moves after a restart once this has passed."""
RETRIES_AFTER_RACE = 1
"""A player's move that lost the race to another process's write of the
same game (issue 20: the version guard refused it, nothing was written) is
loaded again and tried once more against the new state: it applies if it
is still legal, and is refused as any move would be otherwise."""
OUT_OF_DATE = Msg("That board is out of date: the game has moved on since. Use the newest board.")
SERVER_SETTING_TTL = 30.0
"""Seconds a server's ``takeback`` setting is kept in memory: read on every
move a person makes where takebacks may apply, it is a read saved per move;
a change made in this process takes effect at once, one made in another
process within this long."""
HELD_CHANCE = Msg(
    "Wait a few seconds: the dice, shells or cards that follow the last move are not drawn "
    "yet, so that its player may still take it back."
)
AUTOMATIC_PLAYER = "🤖 Bot"
"""How a lobby's automatic players are named: "🤖 Bot 1", short so every board draws it whole."""


def automatic_player_name(n: int) -> str:
    return f"{AUTOMATIC_PLAYER} {n}"


def check_automatic_players(engine: Engine[Any, Any, Any], bots: int) -> None:
    """Refuse a number of automatic players the game cannot seat beside the
    player opening the lobby, with a sentence."""
    most = engine.max_players - 1
    if bots < 0:
        raise ServiceError(
            Msg(
                "`bots` is how many automatic players to seat: 0 to {most}, not {bots}.",
                most=most,
                bots=bots,
            )
        )
    if bots > most:
        players = (
            Msg("{count} players", count=engine.max_players)
            if engine.min_players == engine.max_players
            else Msg("{least}-{most} players", least=engine.min_players, most=engine.max_players)
        )
        raise ServiceError(
            Plural(
                "{title} is for {players}: at most {n} automatic player beside you, not {bots}.",
                "{title} is for {players}: at most {n} automatic players beside you, not {bots}.",
                most,
                title=Msg(engine.title),
                players=players,
                bots=bots,
            )
        )


def menu_words_of(
    engine: Engine[Any, Any, Any], state: Any, seat: Seat
) -> Callable[[str], tuple[str, ...]]:
    """How a game's action texts split into menu levels (pick a die, then
    its move), for any state."""
    if isinstance(engine, SplitsMenus):
        return lambda text: engine.menu_words(state, seat, text)
    return split_words


class LostRace(StaleBoard):
    """A move's write lost to another writer of the same game: nothing of
    it was stored, so it may be tried again (``RETRIES_AFTER_RACE``)."""


def secrets_of(engine: Engine[Any, Any, Any], state: Any, seat: Seat) -> Any:
    """The part of a seat's view that only it sees (the contract's ``me``)."""
    return getattr(engine.view(state, seat), "me", None)


def event_entry(seat: Seat, what: str, narration: str) -> NewEntry:
    """Something the table did (not a move), as the public log keeps it."""
    return NewEntry(actor=seat, action=f"{TABLE_EVENT}{what}", narration=narration, private_to=None)


def throws(timer: Timer, version: int) -> bool:
    """Whether ``timer`` makes the throw a game holds at ``version``."""
    return timer.kind == "clock" and timer.seat == CHANCE and timer.version == version


def reveal_seed(game_id: int, version: int) -> int:
    """The seed :func:`bot.takeback.reveals` deals with for the move made at
    ``version`` of a game: the same answer each time that move is asked about."""
    return game_id * 1_000_003 + version


def no_timers(stored: Sequence[Timer]) -> list[Timer]:
    """A game with nothing to wait for (over, paused, or owed nothing) has no timers."""
    return []


def merged(
    first: Mapping[int, Mapping[str, Any]], then: Mapping[int, Mapping[str, Any]]
) -> dict[int, dict[str, Any]]:
    """Seat changes ``{seat: {column: value}}``: ``then``'s over ``first``'s."""
    out = {seat: dict(columns) for seat, columns in first.items()}
    for seat, columns in then.items():
        out.setdefault(seat, {}).update(columns)
    return out


def after_seats(
    seats: Sequence[SeatRecord],
    changes: Mapping[int, Mapping[str, Any]],
    handover: SeatHandover | None,
) -> list[SeatRecord]:
    """The seats as a change leaves them (what :meth:`GameStore.commit`
    writes), to plan the clocks and timers that follow before writing."""
    out = []
    for seat in seats:
        if handover is not None and seat.seat == handover.seat:
            seat = replace(
                seat,
                user_id=handover.new_user_id,
                display_name=handover.display_name,
                controller="human",
                left_order=None,
                timeouts=0,
            )
        columns = changes.get(seat.seat)
        out.append(replace(seat, **columns) if columns else seat)
    return out


def ranked_with_departures(outcome: Outcome | None, seats: Iterable[SeatRecord]) -> Outcome | None:
    """The engine's outcome with seats that passed to the automatic player
    moved to the bottom, the first to leave lowest (issue 10: they rank last)."""
    if outcome is None:
        return None
    left = sorted(
        (s for s in seats if s.left_order is not None), key=lambda s: -(s.left_order or 0)
    )
    if not left:
        return outcome
    gone = {s.seat for s in left}
    ranking = [group - gone for group in outcome.ranking]
    ranking = [g for g in ranking if g]
    ranking += [frozenset({s.seat}) for s in left]
    return Outcome(ranking=tuple(ranking), scores=outcome.scores, reason=outcome.reason)
