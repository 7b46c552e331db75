"""Sangram's state and actions: the immutable :class:`SangramState`, the
actions players and chance take, and :class:`_W`, the mutable working copy
an action is applied to (see :mod:`bot.engines.sangram_round`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from bot.engines.core import (
    CHANCE,
    Seat,
    seat_tag,
)
from bot.engines.sangram_cards import KEEP_ON_RESHUFFLE, RECENT_EVENTS
from bot.engines.sangram_views import (
    OUTCOME_DECLINED,
    OUTCOME_USED,
    OUTCOME_WASTED,
    PHASE_ACTIVATE,
    PHASE_COMMIT,
    PHASE_GROW,
    PHASE_OVER,
    PHASE_RECRUIT,
    PHASE_REFILL,
    PHASE_SETUP,
)

# --------------------------------------------------------------------------
# State and actions
# --------------------------------------------------------------------------

SETUP: Final = PHASE_SETUP
COMMIT: Final = PHASE_COMMIT
ACTIVATE: Final = PHASE_ACTIVATE
RECRUIT: Final = PHASE_RECRUIT
REFILL: Final = PHASE_REFILL
GROW: Final = PHASE_GROW
OVER: Final = PHASE_OVER
_PHASES: Final = (SETUP, COMMIT, ACTIVATE, RECRUIT, REFILL, GROW, OVER)
_DRAW_PHASES: Final = frozenset((SETUP, REFILL, GROW))

# Activate-phase tasks (SangramState.task).
IDLE: Final = ""
"""The current activity is finished: the next card resolves."""
CHOOSE: Final = "choose"
"""The actor makes the activity's choice (target, amount, card, decline)."""
GIVE: Final = "give"
"""Vyapari: the actor gives a card to the target."""
GRAB: Final = "grab"
"""Vyapari: chance takes a card from the target's hand."""
SARTHI_DRAW: Final = "sarthi"
"""Sarthi: chance draws the card the actor activates."""
_TASKS: Final = (IDLE, CHOOSE, GIVE, GRAB, SARTHI_DRAW)

# Where an activity comes from (SangramState.origin).
FROM_CARD: Final = "card"
FROM_COPY: Final = "copy"
FROM_DRAW: Final = "draw"
_ORIGINS: Final = ("", FROM_CARD, FROM_COPY, FROM_DRAW)
_OUTCOMES: Final = frozenset(("", OUTCOME_USED, OUTCOME_DECLINED, OUTCOME_WASTED))

VOLUNTEER: Final = -1
"""In :attr:`SangramState.draws`: the card goes to the volunteers."""

NO_CARD: Final = 0
"""In :attr:`SangramState.committed` and ``flying``: no card."""


class _SangramFields(NamedTuple):
    """The fields of :class:`SangramState` (a named tuple: building one is six
    times cheaper than a frozen dataclass of this size, and a state is built
    for every action)."""

    num_players: int
    phase: str
    round: int
    deck: tuple[int, ...]
    """Motivations of the cards in the draw deck, ascending: a multiset, the
    order does not exist until a card is drawn (R3)."""
    discard: tuple[int, ...]
    """The discard pile, oldest first: the last cards are the most recent."""
    volunteers: tuple[int, ...]
    """Highest motivation first."""
    hands: tuple[tuple[int, ...], ...]
    """Per seat, highest motivation first."""
    committed: tuple[int, ...]
    """Per seat: the card put face down this round, or :data:`NO_CARD`."""
    levels: tuple[int, ...]
    britishers: tuple[int, ...]
    supply: int
    """Britishers left in the common supply (R2)."""
    grown: tuple[int, ...]
    """Per seat: Grow steps taken, 0, 1 (reached 7) or 2 (reached 13)."""
    revealed: tuple[tuple[Seat, int], ...]
    """The latest reveal: (seat, card) in resolution order."""
    revealed_round: int
    cursor: int
    """Activate: index into :attr:`revealed` of the card resolving."""
    queue: tuple[Seat, ...]
    """Recruit: seats still to recruit, the first is to choose."""
    retreated: frozenset[Seat]
    returned: frozenset[Seat]
    """Retreated before their card resolved: it went back to hand (R5).
    Kept with :attr:`revealed` for the view."""
    no_britishers: frozenset[Seat]
    """A Shoorveer activity was used this round (R9)."""
    vaidik: frozenset[Seat]
    """A Vaidik activity was used this round: no Recruit (R8)."""
    task: str
    actor: Seat
    effect: str
    """The warrior key of the activity resolving."""
    origin: str
    target: Seat
    flying: int
    """The card a Sarthi drew, while its activity resolves (face up)."""
    draws: tuple[Seat, ...]
    """Pending card draws: a seat (into their hand) or :data:`VOLUNTEER`."""
    grow_reveals: tuple[tuple[Seat, int, tuple[int, ...], int], ...]
    """R12: (seat, round, hand shown, level) of the latest round with any."""
    news: tuple[str, ...]
    """Public lines describing the last action (its narration)."""
    recent: tuple[str, ...]
    """The last public events, for the view."""
    reason: str
    """Why the game ended."""
    movers: frozenset[Seat]
    """Who may act now (:meth:`SangramEngine.to_move`); derived from the rest,
    kept because every caller asks for it."""
    awaited: frozenset[Seat]
    """:meth:`SangramEngine.waiting_on`, derived and kept likewise."""
    outcomes: tuple[str, ...]
    """Per card of :attr:`revealed`: ``""`` until it resolved, then ``used``,
    ``declined`` or ``wasted`` (the view's ``OUTCOME_*``).  Public."""
    recruited: frozenset[Seat]
    """Seats that took a volunteer this round (R10).  Public."""
    round_limit: int
    """R13: the lobby option ``round_limit``: the game ends after this round
    (0: no limit, as in the rulebook)."""
    legacy_rules: bool
    """The game was created under revision 1 of these rules (its stored
    options lack ``round_limit``, its snapshots lack this field) and keeps
    them, so that its log replays as it was played: a Sarthi draws without
    asking (no ``use``/``decline``), Grow has no re-check after the 7-draws,
    and the game ends after round :data:`LEGACY_ROUND_LIMIT`.  A log of
    revision 1 has no ``use`` before a Sarthi's draw, so revision 2 cannot
    replay it.  Delete this field and the branches reading it once no game
    created before revision 2 remains in any database."""
    known: tuple[tuple[int, ...], ...]
    """Per seat, highest first: cards the whole table knows to be among the
    seat's hidden cards (hand and face-down card), R14: volunteers it
    recruited (R10), a Vaidik's take (R8), a hand shown at Grow (R12), a
    card an Acharya sent back (R5).  A card leaves when it is revealed; a
    Vyapari's trade (R9), which the table does not see, forgets both hands.
    Derived from the public log, so a snapshot without it loses nothing but
    what the search may assume (:meth:`SangramEngine.determinize`)."""


_LEGAL: Final = "_legal"
"""Where a state keeps its actor's options (:meth:`SangramEngine._choices`)
once they are known, in the instance's ``__dict__``, outside the fields."""


# A Python class when compiled (see bot/engines/compiled.py): it keeps
# derived data in its ``__dict__``, which mypyc's native classes lack.
@mypyc_attr(native_class=False)
class SangramState(_SangramFields):
    """The whole game: an immutable value.

    Unlike its fields' class, it has a ``__dict__``, which may keep derived
    data under :data:`_LEGAL` (the actor's options while an activity asks,
    computed once when the activity starts and read by ``legal_actions``
    and ``apply``).  Equality, hashing and repr are the tuple's, JSON lists
    the fields, pickles leave it out (``__getstate__``), and a state built
    from another (``_make``, ``_replace``) starts without it."""

    def __getstate__(self) -> None:
        return None  # the fields travel as the tuple; _LEGAL is rebuilt

    def __repr__(self) -> str:
        # The tuple's repr, with the narration's messages (issue 33) written
        # as the English strings they are, as a state read from JSON has them.
        shown = ", ".join(f"{k}={_plain(v)}" for k, v in zip(self._fields, self, strict=True))
        return f"{type(self).__name__}({shown})"


def _plain(value: object) -> str:
    """``repr`` as before issue 33: a message (a str) as its English text."""
    if isinstance(value, str):
        return str.__repr__(value)
    if isinstance(value, tuple):
        inner = ", ".join(_plain(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


_FIELD: Final = {name: i for i, name in enumerate(_SangramFields._fields)}
"""Field name -> index, for the fast paths that edit a list of the fields."""
_PHASE: Final = _FIELD["phase"]
_DECK: Final = _FIELD["deck"]
_DISCARD: Final = _FIELD["discard"]
_VOLUNTEERS: Final = _FIELD["volunteers"]
_HANDS: Final = _FIELD["hands"]
_COMMITTED: Final = _FIELD["committed"]
_BRITISHERS: Final = _FIELD["britishers"]
_SUPPLY: Final = _FIELD["supply"]
_QUEUE: Final = _FIELD["queue"]
_DRAWS: Final = _FIELD["draws"]
_NEWS: Final = _FIELD["news"]
_RECENT: Final = _FIELD["recent"]
_MOVERS: Final = _FIELD["movers"]
_AWAITED: Final = _FIELD["awaited"]
_RECRUITED: Final = _FIELD["recruited"]
_KNOWN: Final = _FIELD["known"]

_TAG: Final = {s: seat_tag(s) for s in range(CHANCE, 8)}
"""``seat_tag`` of each seat, looked up rather than formatted (narration)."""

_new: Final = tuple.__new__
"""``_new(SangramState, values)``: a state from its 38 field values, without
``_make``'s Python frame (apply builds one per action)."""


@dataclass(frozen=True, slots=True)
class Commit:
    card: int


@dataclass(frozen=True, slots=True)
class Target:
    seat: Seat


@dataclass(frozen=True, slots=True)
class Copy:
    seat: Seat


@dataclass(frozen=True, slots=True)
class DiscardBritishers:
    count: int


@dataclass(frozen=True, slots=True)
class GiveBritishers:
    count: int
    seat: Seat


@dataclass(frozen=True, slots=True)
class Take:
    card: int


@dataclass(frozen=True, slots=True)
class Give:
    card: int


@dataclass(frozen=True, slots=True)
class Decline:
    pass


@dataclass(frozen=True, slots=True)
class Use:
    """R4: a Sarthi's owner chooses to draw (the alternative is declining)."""


@dataclass(frozen=True, slots=True)
class Recruit:
    card: int


@dataclass(frozen=True, slots=True)
class Draw:
    card: int


@dataclass(frozen=True, slots=True)
class Grab:
    card: int


SangramAction = (
    Commit | Target | Copy | DiscardBritishers | GiveBritishers | Take | Give | Decline
    | Use | Recruit | Draw | Grab
)  # fmt: skip
_DECLINE: Final = Decline()
_USE: Final = Use()


class _W:
    """A mutable working copy of a state, used inside :meth:`apply`."""

    __slots__ = (
        "actor",
        "britishers",
        "committed",
        "cursor",
        "deck",
        "discard",
        "draws",
        "effect",
        "events",
        "flying",
        "grow_reveals",
        "grown",
        "hands",
        "known",
        "legacy_rules",
        "legal",
        "levels",
        "news",
        "no_britishers",
        "num_players",
        "origin",
        "outcomes",
        "phase",
        "queue",
        "reason",
        "recent",
        "recruited",
        "retreated",
        "returned",
        "revealed",
        "revealed_round",
        "round",
        "round_limit",
        "supply",
        "target",
        "task",
        "vaidik",
        "volunteers",
    )  # fmt: skip

    def __init__(self, s: SangramState) -> None:
        (
            self.num_players, self.phase, self.round, self.deck, self.discard,
            self.volunteers, hands, committed, levels, britishers, self.supply, grown,
            self.revealed, self.revealed_round, self.cursor, self.queue, self.retreated,
            self.returned, self.no_britishers, self.vaidik, self.task, self.actor,
            self.effect, self.origin, self.target, self.flying, self.draws,
            self.grow_reveals, _, self.recent, self.reason, _, _, self.outcomes,
            self.recruited, self.round_limit, self.legacy_rules, known,
        ) = s  # fmt: skip
        self.hands: list[tuple[int, ...]] = list(hands)
        self.known: list[tuple[int, ...]] = list(known)
        self.committed: list[int] = list(committed)
        self.levels: list[int] = list(levels)
        self.britishers: list[int] = list(britishers)
        self.grown: list[int] = list(grown)
        self.news: list[str] = []
        self.events: list[str] = []
        self.legal: tuple[SangramAction, ...] | None = None
        """The actor's options, once an activity asks (:meth:`SangramEngine._start`)."""

    def say(self, line: str, event: bool = True) -> None:
        """Add a public line to the narration (and to the recent events)."""
        self.news.append(line)
        if event:
            self.events.append(line)

    def movers(self) -> tuple[frozenset[Seat], frozenset[Seat]]:
        """(to_move, waiting_on)."""
        phase = self.phase
        if phase == COMMIT:
            # R4: everybody with a card; those who committed may change it.
            # Those who have not committed yet are waited on (public).
            hands, committed = self.hands, self.committed
            can = waiting = 0
            for s in range(self.num_players):
                if hands[s]:
                    can |= 1 << s
                    if not committed[s]:
                        waiting |= 1 << s
            return _SEATS[can], _SEATS[waiting]
        if phase == ACTIVATE:
            if self.task == CHOOSE or self.task == GIVE:
                return _ONLY[self.actor], _ONLY[self.actor]
            return _ONLY[CHANCE], _NOBODY
        if phase == RECRUIT:
            return (_ONLY[self.queue[0]],) * 2 if self.queue else (_NOBODY, _NOBODY)
        if phase == OVER:
            return _NOBODY, _NOBODY
        return _ONLY[CHANCE], _NOBODY

    def freeze(self) -> SangramState:
        recent = self.recent
        if self.events:
            recent = (*recent, *self.events)[-RECENT_EVENTS:]
        state: SangramState = _new(
            SangramState,
            (
                self.num_players, self.phase, self.round, self.deck, self.discard,
                self.volunteers, tuple(self.hands), tuple(self.committed),
                tuple(self.levels), tuple(self.britishers), self.supply, tuple(self.grown),
                self.revealed, self.revealed_round, self.cursor, self.queue, self.retreated,
                self.returned, self.no_britishers, self.vaidik, self.task, self.actor,
                self.effect, self.origin, self.target, self.flying, self.draws,
                self.grow_reveals, tuple(self.news), recent, self.reason, *self.movers(),
                self.outcomes, self.recruited, self.round_limit, self.legacy_rules,
                tuple(self.known),
            ),
        )  # fmt: skip
        if self.legal is not None and self.task == CHOOSE:
            # Computed by _start for this very activity: the new state's
            # legal actions (and what apply accepts), kept outside the fields.
            state.__dict__[_LEGAL] = self.legal
        return state


_ONLY: Final = {s: frozenset((s,)) for s in range(CHANCE, 8)}
_NOBODY: Final[frozenset[Seat]] = frozenset()
_SEATS: Final = tuple(frozenset(s for s in range(8) if mask >> s & 1) for mask in range(1 << 8))
"""The set of seats whose bits are set in the index."""


def _insert_desc(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` (highest first) with ``card`` added in order."""
    for i, c in enumerate(cards):
        if c < card:
            return (*cards[:i], card, *cards[i:])
    return (*cards, card)


def _remove(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _settle(w: _W, outcome: str) -> None:
    """Record what became of the revealed card resolving (the first word
    wins: a Sarthi is used when it draws, whatever its drawn card does)."""
    i = w.cursor
    if 0 <= i < len(w.outcomes) and not w.outcomes[i]:
        w.outcomes = (*w.outcomes[:i], outcome, *w.outcomes[i + 1 :])


def _recruit_order(state: SangramState | _W) -> tuple[Seat, ...]:
    """R10: activation order; retreated and Vaidik players skip; players who
    had nothing to commit come last, in seat order."""
    order = [s for s, _ in state.revealed]
    skip = state.retreated | state.vaidik
    queue = [s for s in order if s not in skip]
    queue += [s for s in range(state.num_players) if s not in order and s not in skip]
    return tuple(queue)


def _set(seq: tuple[int, ...] | tuple[tuple[int, ...], ...], i: int, value: Any) -> Any:
    """A copy of ``seq`` with item ``i`` replaced."""
    return (*seq[:i], value, *seq[i + 1 :])


def _sarthi_can_draw(state: SangramState | _W) -> bool:
    """R7: a Sarthi has a card to draw.  A drawn Sarthi is discarded before
    its own draw, so it counts towards the pile a new deck is built from (R3)."""
    pile = len(state.discard) + (1 if state.flying else 0)
    return bool(state.deck) or pile > KEEP_ON_RESHUFFLE


def _remove_last(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` without ``card`` (which is among its last few)."""
    i = len(cards) - 1 - cards[::-1].index(card)
    return cards[:i] + cards[i + 1 :]
