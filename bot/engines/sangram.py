"""Sangram: the pure rules engine.

The rulings R1-R14 in ``docs/rules/sangram.md`` fill the rulebook's gaps.
The 55 warrior cards (R1) live in ``bot/engines/data/sangram.toml`` and are checked when loaded
(:func:`load_components_text`).

Cards are identified by their motivation (unique, 1..55); in text a card is
written ``<type>-<motivation>`` (``acharya-53``); a bare motivation (``53``)
is accepted when typing.  Players are numbered from 1 in typed text
(``target 2`` is seat 1); labels, narration and the outcome's reason name
seats as ``{p1}``, filled in with names by the caller.

Action text (what :meth:`SangramEngine.describe` returns and
:meth:`SangramEngine.parse` accepts, case-insensitively, extra blanks ignored)::

    commit phase (R4, simultaneous)
      commit acharya-53     put this card face down (again: swap it for the one
                            committed before; allowed until the last player commits)
    activate phase (R5-R9), asked of the resolving card's owner
      target 2              Acharya: retreat the second player; Guptchar: pull
                            their crown down; Vyapari: trade with them
      copy 2                Yuvaraj: copy the card the second player committed
      discard 3             Maharaja/Senapati: discard 3 of your Britishers
      give 2 to 3           Mantri: give 2 of your Britishers to the third player
      take senapati-38      Vaidik: take this card from the 5 newest discards
      give vaidik-3         Vyapari: hand this card to the player you took from
      use                   Sarthi: draw a card and activate it (R4, R7)
      decline               do not use the activity (R4)
    recruit phase (R10), one player at a time
      recruit senapati-38   take this volunteer into hand
    chance (seat CHANCE)
      draw acharya-53       the next card drawn from the deck (R3), uniform over
                            the deck; into a hand, the volunteers or for a Sarthi
      grab acharya-53       Vyapari: the card taken at random from the hand (R9)

Every decision offers at most a dozen actions (a hand holds at most 6 cards,
there are at most 6 volunteers, 4 opponents, 6 Britishers to discard).

The state machine (:attr:`SangramState.phase`)::

    setup --(deal n+1 volunteers, 3 cards each: chance)--> commit
    commit --(last uncommitted player commits: reveal)--> activate
    activate --(all cards resolved; activated cards discarded)--> recruit
    recruit --(all recruited; leftover volunteers discarded)--> refill
    refill --(n+1 volunteers drawn: chance; then Train)--> grow
    grow --(Grow draws: chance; end check R13)--> commit (next round) or over

Automatic steps (reveal, activities without a choice, Train, the end check)
happen inside :meth:`SangramEngine.apply`; its narration lists them.  The
state is an immutable named tuple (:class:`SangramState`); ``apply`` works on a
mutable copy (:class:`_W`) and freezes it, or takes :meth:`_fast_path`.

Hidden information (R14): hands, face-down commits and the deck never reach
the public view or narration.  ``private_to``: a commit, a card drawn into a
hand (deal, Grow) and the Vyapari's gift go to the acting or drawing seat;
the Vyapari's random take goes to the taker (the victim sees it in their hand).

Interpretations of the rulings (each one is tested in tests/engines/test_sangram.py):

* R4 decline: only Shoorveer and Maharani, whose use can never hurt their
  owner or change anyone else's options, apply without asking; all others ask
  and offer ``decline``.  A Sarthi's owner is asked (``use`` or ``decline``)
  before the draw, a drawn or copied Sarthi too.  An activity that cannot do
  anything (no target, no Britishers, no discards, nothing to draw) is wasted
  without asking.
* Public choices (:meth:`SangramEngine.choices_are_public`): an activity's
  choice and recruiting follow from the table; commits, the Vyapari's gift
  and chance's draws and takes come from hidden hands or the deck.
* R4 outcome (public, :attr:`SangramState.outcomes`): a resolved card was
  ``used``, ``declined`` or ``wasted`` (nothing it could do, including a
  Maharani at 9).  A Yuvaraj takes the outcome of the activity it copies; a
  Sarthi is used once it draws, whatever its drawn card does.
* R5: the committed Acharya may retreat any opponent who committed a card and
  is not retreated; if that card already resolved, the target keeps it spent
  (it is discarded as usual) but still skips Recruit and cannot be targeted.
  A copied or drawn Acharya only offers opponents whose card has not resolved.
* R6: a Yuvaraj offers only opponents whose card is not a Yuvaraj (copying one
  is wasted, the same as declining).
* R7: a drawn card is discarded as soon as its activity ends (a drawn Sarthi
  at once, before the next draw), so a later Vaidik can see it.
* R9 Vyapari: targets are opponents with a card in hand; the random take is a
  chance action whose text is private to the taker; the gift is compulsory.
* R10: players who could not commit (empty hand) recruit after the others,
  in seat order; a single remaining volunteer is taken without asking.
* R12: both thresholds are judged on the Total Army Strength after Train;
  Grow draws count from then on (so also for the end check).  Hands never
  exceed 6: a recruit, a Vaidik take or a Grow draw that would is skipped
  (with the rulebook's card flow this cannot happen; it is a safety net).
* R3: "if both are empty, the draw is skipped" is implemented, but cannot
  happen: hands hold at most 30 cards and volunteers 6, so deck plus discard
  always hold at least 19.
* R12: the total is checked again after the 7-draws, so cards drawn at 7
  that carry it to 13 give the 13-draw in the same Grow (:meth:`_grow_again`).
* R13: the rulebook has no round limit.  The lobby option ``round_limit``
  (default 0, off) ends the game after that round, ranked the same way;
  automatic play (the demo, benchmarks, whole-game tests) sets it, because
  random players finish slowly (two random players: median 37 rounds, 1 game
  in 100 over 180).
* R14 for search (:meth:`SangramEngine.determinize`, issue 19): the cards a
  seat cannot see are dealt afresh; a card sent back to hand (R5) and a hand
  shown at Grow (R12) stay with their holder until the next reveal, and in
  the commit phase each hidden hand stays below the Grow step its holder has
  not reached (``grown`` is public).  What only the log tells (recruits, a
  Vaidik's take, a Vyapari's trade, the discards a reshuffled deck came
  from) is not in the state and is not honoured.
* Games created before revision 2 (R4's Sarthi question, R12's re-check,
  R13's lobby option) keep revision 1's rules, so their logs replay as they
  were played: see :attr:`SangramState.legacy_rules`.
"""

from __future__ import annotations

import re
import tomllib
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from math import comb
from pathlib import Path
from typing import Any, Final, NamedTuple, NoReturn

from mypy_extensions import mypyc_attr

from bot.engines.core import (
    CHANCE,
    JSON,
    ComponentError,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    Option,
    Outcome,
    Seat,
    excerpt,
    plural,
    seat_tag,
    whole_number,
)
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
    STATUS_DONE,
    STATUS_RESOLVING,
    STATUS_RETREATED,
    STATUS_WAITING,
    CardView,
    ChoiceView,
    FinalView,
    GrowRevealView,
    HandView,
    PlayerView,
    RevealView,
    SangramView,
)

# --------------------------------------------------------------------------
# Components (R1-R2)
# --------------------------------------------------------------------------

ACHARYA: Final = "acharya"
MAHARAJA: Final = "maharaja"
SHOORVEER: Final = "shoorveer"
SENAPATI: Final = "senapati"
MANTRI: Final = "mantri"
MAHARANI: Final = "maharani"
GUPTCHAR: Final = "guptchar"
YUVARAJ: Final = "yuvaraj"
VYAPARI: Final = "vyapari"
SARTHI: Final = "sarthi"
VAIDIK: Final = "vaidik"
WARRIORS: Final = (
    ACHARYA, MAHARAJA, SHOORVEER, SENAPATI, MANTRI, MAHARANI,
    GUPTCHAR, YUVARAJ, VYAPARI, SARTHI, VAIDIK,
)  # fmt: skip
"""R1: the eleven warrior types, in the reference guide's order."""

NUM_CARDS: Final = 55
CARDS_PER_TYPE: Final = 5
MAX_STRENGTH: Final = 2
MAX_CARD_BRITISHERS: Final = 3
BRITISHERS: Final = 40
"""R2: tokens in the common supply."""
MAX_LEVEL: Final = 9
"""R2: the strength track runs 0..9."""
START_HAND: Final = 3
MAX_HAND: Final = 6
"""R12: hand size never exceeds 6."""
KEEP_ON_RESHUFFLE: Final = 5
"""R3: the 5 most recent discards stay when the deck is rebuilt."""
VAIDIK_LOOK: Final = 5
"""R8: a Vaidik looks at the 5 most recent discards."""
TRAIN_MAX_BRITISHERS: Final = 4
"""R11: players with at most 4 Britishers train."""
GROW_FIRST: Final = 7
GROW_SECOND: Final = 13
WIN_STRENGTH: Final = 18
"""R13: the game ends after a round in which someone reaches 18."""
DISCARD_UP_TO: Final = {MAHARAJA: 4, SENAPATI: 6}
"""R9: Britishers a Maharaja / Senapati may discard."""
MANTRI_UP_TO: Final = 2
ROUND_LIMIT_MAX: Final = 999
"""R13: the largest ``round_limit`` the lobby accepts (0 is no limit)."""
LEGACY_ROUND_LIMIT: Final = 50
"""Revision 1's fixed round limit, kept for games created under it
(:attr:`SangramState.legacy_rules`)."""
RECENT_EVENTS: Final = 10
"""How many public event lines the state keeps for the view."""

_DEFAULT_SOURCE: Final = "sangram.toml"
_KEY_RE: Final = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class CardSpec:
    motivation: int
    kind: str
    name: str
    strength: int
    britishers: int
    activity: str

    @property
    def id(self) -> str:
        """How moves name the card: ``acharya-53``."""
        return f"{self.kind}-{self.motivation}"


@dataclass(frozen=True)
class WarriorSpec:
    key: str
    name: str
    activity: str
    motivations: tuple[int, ...]
    """Highest first."""


@dataclass(frozen=True, eq=False)
class Components:
    """The validated card table."""

    warriors: tuple[WarriorSpec, ...]
    """In :data:`WARRIORS` order."""
    cards: tuple[CardSpec, ...]
    """``cards[m - 1]`` is the card with motivation ``m``."""

    def card(self, motivation: int) -> CardSpec:
        return self.cards[motivation - 1]


def _fail(source: str, message: str) -> NoReturn:
    raise ComponentError(f"{source}: {message}")


def _int(source: str, where: str, entry: Mapping[str, Any], key: str) -> int:
    value = entry[key]
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(source, f"{where}: {key!r} must be a whole number")
    return value


def _str(source: str, where: str, entry: Mapping[str, Any], key: str) -> str:
    value = entry[key]
    if not isinstance(value, str) or not value.strip():
        _fail(source, f"{where}: {key!r} must be a non-empty string")
    return value.strip()


def _check_keys(source: str, where: str, entry: Mapping[str, Any], keys: set[str]) -> None:
    unknown = sorted(set(entry) - keys)
    if unknown:
        _fail(source, f"{where} has unknown field {unknown[0]!r}")
    missing = sorted(keys - set(entry))
    if missing:
        _fail(source, f"{where} lacks the field {missing[0]!r}")


def load_components_text(text: str, source: str = _DEFAULT_SOURCE) -> Components:
    """Parse and check the card table; a broken table raises ComponentError."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        _fail(source, f"not valid TOML ({exc})")
    unknown = sorted(set(data) - {"warriors"})
    if unknown:
        _fail(source, f"unknown table {unknown[0]!r} (expected only [[warriors]])")
    entries = data.get("warriors")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        _fail(source, "needs a list of [[warriors]] tables")
    specs: dict[str, WarriorSpec] = {}
    cards: dict[int, CardSpec] = {}
    for n, entry in enumerate(entries, 1):
        where = f"warrior #{n}"
        _check_keys(source, where, entry, {"key", "name", "activity", "cards"})
        key = _str(source, where, entry, "key")
        where = f"warrior {key!r}"
        if key not in WARRIORS:
            known = ", ".join(WARRIORS)
            _fail(source, f"{where} is not a warrior type of Sangram (types: {known})")
        if key in specs:
            _fail(source, f"warrior {key!r} appears twice")
        name = _str(source, where, entry, "name")
        activity = _str(source, where, entry, "activity")
        raw_cards = entry["cards"]
        if not isinstance(raw_cards, list) or not all(isinstance(c, dict) for c in raw_cards):
            _fail(source, f"{where}: 'cards' must be a list of inline tables")
        if len(raw_cards) != CARDS_PER_TYPE:
            _fail(source, f"{where} has {len(raw_cards)} cards; R1 needs {CARDS_PER_TYPE}")
        motivations: list[int] = []
        for k, raw in enumerate(raw_cards, 1):
            cwhere = f"{where}, card #{k}"
            _check_keys(source, cwhere, raw, {"motivation", "strength", "britishers"})
            m = _int(source, cwhere, raw, "motivation")
            if not 1 <= m <= NUM_CARDS:
                _fail(source, f"{cwhere} has motivation {m}; R1 needs 1 to {NUM_CARDS}")
            if m in cards:
                _fail(source, f"motivation {m} appears twice ({cards[m].kind} and {key})")
            cwhere = f"card {key}-{m}"
            strength = _int(source, cwhere, raw, "strength")
            if not 0 <= strength <= MAX_STRENGTH:
                _fail(source, f"{cwhere} has strength {strength}; R1 needs 0 to {MAX_STRENGTH}")
            brit = _int(source, cwhere, raw, "britishers")
            if not 0 <= brit <= MAX_CARD_BRITISHERS:
                _fail(
                    source,
                    f"{cwhere} has {brit} Britishers; R1 needs 0 to {MAX_CARD_BRITISHERS}",
                )
            cards[m] = CardSpec(m, key, name, strength, brit, activity)
            motivations.append(m)
        specs[key] = WarriorSpec(key, name, activity, tuple(sorted(motivations, reverse=True)))
    for key in WARRIORS:
        if key not in specs:
            _fail(source, f"lacks the warrior type {key!r}; R1 needs all {len(WARRIORS)}")
    # 11 types x 5 unique motivations in 1..55: exactly 1..55.
    return Components(
        warriors=tuple(specs[k] for k in WARRIORS),
        cards=tuple(cards[m] for m in range(1, NUM_CARDS + 1)),
    )


def load_components(path: str | Path) -> Components:
    """Load the card table from a file (tests feed broken ones)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ComponentError(f"{p.name}: cannot be read ({exc.strerror})") from None
    return load_components_text(text, p.name)


@cache
def default_components() -> Components:
    """The packaged table, parsed and checked once per process."""
    data = resources.files("bot.engines").joinpath("data")
    text = data.joinpath(_DEFAULT_SOURCE).read_text(encoding="utf-8")
    return load_components_text(text)


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
_CARD_WORDS: Final[dict[str, Callable[[int], SangramAction]]] = {
    "commit": Commit, "take": Take, "give": Give, "recruit": Recruit, "draw": Draw, "grab": Grab
}  # fmt: skip
_HELP: Final = (
    "Moves look like 'commit acharya-53', 'target 2', 'copy 2', 'discard 3', 'give 2 to 3', "
    "'take vaidik-3', 'give vaidik-3', 'use', 'recruit senapati-38' or 'decline'."
)
_PROMPTS: Final = {
    ACHARYA: "choose an opponent to retreat",
    MAHARAJA: "choose how many Britishers to discard",
    SENAPATI: "choose how many Britishers to discard",
    MANTRI: "choose Britishers to give and to whom",
    GUPTCHAR: "choose an opponent whose crown goes down",
    YUVARAJ: "choose an opponent's card to copy",
    VYAPARI: "choose an opponent to trade cards with",
    VAIDIK: "choose a card from the discard pile",
    SARTHI: "choose whether to draw a card",
}
_GROUP_LABELS: Final = {
    "commit": "Commit a card",
    "recruit": "Recruit a volunteer",
    "target": "Choose an opponent",
    "copy": "Copy an opponent's card",
    "discard": "Discard Britishers",
    "give": "Give",
    "take": "Take a card from the discard pile",
    "draw": "Draw a card",
    "grab": "Take a card at random",
}


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


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class SangramEngine:
    name: str = "sangram"
    title: str = "Sangram"
    revision: int = 2
    """2: R4 (a Sarthi may be declined), R12 (the 13-draw after the 7-draws)
    and R13 (no round limit unless the lobby sets one) replay old logs
    differently, so games created under 1 keep its rules
    (:attr:`SangramState.legacy_rules`)."""
    min_players: int = 2
    max_players: int = 5

    def __init__(self, components: Components | None = None, *, fast: bool = True) -> None:
        self.options: Mapping[str, Option] = {
            "round_limit": Option(
                0,
                "End the game after this many rounds, ranked as usual (0: no limit, as in "
                "the rulebook; R13)",
                low=0,
                high=ROUND_LIMIT_MAX,
            )
        }
        self._fast = fast
        """Use :meth:`_fast_path` (tests turn it off to compare)."""
        c = components if components is not None else default_components()
        self.components = c
        # Lookups indexed by motivation (index 0 unused).
        self._kind: tuple[str, ...] = ("", *(card.kind for card in c.cards))
        self._strength: tuple[int, ...] = (0, *(card.strength for card in c.cards))
        self._brit: tuple[int, ...] = (0, *(card.britishers for card in c.cards))
        self._id: tuple[str, ...] = ("", *(card.id for card in c.cards))
        self._names: tuple[str, ...] = ("", *(f"{card.name}-{card.motivation}" for card in c.cards))
        self._by_id: dict[str, int] = {card.id: card.motivation for card in c.cards}
        self._card_views: tuple[CardView, ...] = (
            CardView("", "", "", 0, 0, 0, ""),
            *(
                CardView(card.id, card.kind, card.name, card.motivation, card.strength,
                         card.britishers, card.activity)
                for card in c.cards
            ),
        )  # fmt: skip
        self._warrior_name: dict[str, str] = {w.key: w.name for w in c.warriors}
        # Every action built once; legal_actions picks from these (speed).
        cards = range(NUM_CARDS + 1)
        self._commit = tuple(Commit(m) for m in cards)
        self._take = tuple(Take(m) for m in cards)
        self._give = tuple(Give(m) for m in cards)
        self._recruit = tuple(Recruit(m) for m in cards)
        self._draw = tuple(Draw(m) for m in cards)
        self._grab = tuple(Grab(m) for m in cards)
        seats = range(self.max_players)
        self._target = tuple(Target(s) for s in seats)
        self._copy = tuple(Copy(s) for s in seats)
        self._discard = tuple(DiscardBritishers(k) for k in range(max(DISCARD_UP_TO.values()) + 1))
        self._give_brit = tuple(
            tuple(GiveBritishers(k, s) for s in seats) for k in range(MANTRI_UP_TO + 1)
        )
        self._uniform: dict[int, Fraction] = {k: Fraction(1, k) for k in range(1, NUM_CARDS + 1)}
        # R3, R9: chance is uniform over the cards it may pick, so each
        # (action, probability) pair is built once per number of cards:
        # ``self._draw_odds[size][card]`` (size 0 unused).
        uniform = (Fraction(0), *self._uniform.values())
        self._draw_odds: tuple[tuple[tuple[SangramAction, Fraction], ...], ...] = tuple(
            tuple((self._draw[c], p) for c in cards) for p in uniform
        )
        self._grab_odds: tuple[tuple[tuple[SangramAction, Fraction], ...], ...] = tuple(
            tuple((self._grab[c], p) for c in cards) for p in uniform
        )

    # ----- names ----------------------------------------------------------

    def card_name(self, card: int) -> str:
        """``Acharya-53``: how narration and labels write a card."""
        return self._names[card]

    def card_id(self, card: int) -> str:
        """``acharya-53``: how moves write a card."""
        return self._id[card]

    def card_view(self, card: int) -> CardView:
        return self._card_views[card]

    def total_strength(self, state: SangramState, seat: Seat) -> int:
        """R12: level plus the strengths of the cards in hand."""
        strength = self._strength
        return state.levels[seat] + sum(map(strength.__getitem__, state.hands[seat]))

    # ----- setup ------------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> SangramState:
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(f"Sangram takes {self.min_players} to {self.max_players} players.")
        for key in options:
            if key not in self.options:
                raise InvalidOptions(
                    f"Sangram has no option {excerpt(key)} (options: round_limit)."
                )
        # Every game created since revision 2 has its options resolved with
        # all defaults filled in, so only a game created under revision 1
        # lacks round_limit: it keeps revision 1's rules (legacy_rules).
        legacy = "round_limit" not in options
        limit = options.get("round_limit", LEGACY_ROUND_LIMIT)
        whole = isinstance(limit, int) and not isinstance(limit, bool)
        if not whole or not 0 <= limit <= ROUND_LIMIT_MAX:
            raise InvalidOptions(
                "Option round_limit takes a whole number of rounds from 0 (no limit) "
                f"to {ROUND_LIMIT_MAX}."
            )
        n = num_players
        zeros = (0,) * n
        # Setup: n+1 volunteers face up, then 3 cards to each player, dealt
        # round the table.  Every card is a chance draw (R3).
        draws = (VOLUNTEER,) * (n + 1) + tuple(s for _ in range(START_HAND) for s in range(n))
        return SangramState(
            num_players=n,
            phase=SETUP,
            round=0,
            deck=tuple(range(1, NUM_CARDS + 1)),
            discard=(),
            volunteers=(),
            hands=((),) * n,
            committed=zeros,
            levels=zeros,
            britishers=zeros,
            supply=BRITISHERS,
            grown=zeros,
            revealed=(),
            revealed_round=0,
            cursor=0,
            queue=(),
            retreated=frozenset(),
            returned=frozenset(),
            no_britishers=frozenset(),
            vaidik=frozenset(),
            task=IDLE,
            actor=CHANCE,
            effect="",
            origin="",
            target=CHANCE,
            flying=NO_CARD,
            draws=draws,
            grow_reveals=(),
            news=(),
            recent=(),
            reason="",
            movers=_ONLY[CHANCE],
            awaited=_NOBODY,
            outcomes=(),
            recruited=frozenset(),
            round_limit=limit,
            legacy_rules=legacy,
            known=((),) * num_players,
        )

    # ----- whose turn -------------------------------------------------------

    def to_move(self, state: SangramState) -> frozenset[Seat]:
        # Commit phase (R4): everybody with a card in hand, also those who
        # committed (they may change their card until the last one commits).
        # Activate: the resolving card's owner, or chance; Recruit: the next
        # recruiter; setup, refill and grow: chance (card draws).
        return state.movers

    def waiting_on(self, state: SangramState) -> frozenset[Seat]:
        # Commit phase: who has committed is public; those who have not yet
        # are waited on.  Otherwise the one player deciding (nobody for chance).
        return state.awaited

    # ----- legal actions ------------------------------------------------------

    def chance_outcomes(self, state: SangramState) -> list[tuple[SangramAction, Fraction]]:
        cards = self._chance_cards(state)
        if not cards:
            return []
        odds = (
            self._grab_odds if state.phase == ACTIVATE and state.task == GRAB else self._draw_odds
        )
        return list(map(odds[len(cards)].__getitem__, cards))

    def _chance_cards(self, state: SangramState) -> tuple[int, ...]:
        phase = state.phase
        if phase == ACTIVATE:
            if state.task == GRAB:
                return state.hands[state.target]
            if state.task != SARTHI_DRAW:
                return ()
        elif phase not in _DRAW_PHASES:
            return ()
        # R3: uniform over the deck; an empty deck is rebuilt from the
        # discard pile except its 5 most recent cards.
        return state.deck or tuple(sorted(state.discard[:-KEEP_ON_RESHUFFLE]))

    def legal_actions(self, state: SangramState, seat: Seat) -> list[SangramAction]:
        phase = state.phase
        if seat == CHANCE:
            cards = self._chance_cards(state)
            table = self._grab if phase == ACTIVATE and state.task == GRAB else self._draw
            return [table[c] for c in cards]
        if not 0 <= seat < state.num_players:
            return []
        if phase == COMMIT:
            commit = self._commit
            return [commit[c] for c in state.hands[seat]]
        if phase == ACTIVATE:
            if seat != state.actor:
                return []
            if state.task == CHOOSE:
                return list(self._options(state))
            if state.task == GIVE:
                give = self._give
                return [give[c] for c in state.hands[seat]]
            return []
        if phase == RECRUIT:
            if not state.queue or state.queue[0] != seat:
                return []
            recruit = self._recruit
            return [recruit[c] for c in state.volunteers]
        return []

    def choices_are_public(self, state: SangramState, seat: Seat) -> bool:
        """R14, phase by phase.  A seat with nothing to do has no choices to
        hide.  Committing and the Vyapari's gift choose from the seat's hidden
        hand; chance draws from the deck and takes from a hand, whose contents
        follow from the hidden hands.  An activity's choice (targets, amounts,
        the five newest discards, whether a Sarthi draws) and recruiting
        follow from public facts only: revealed cards, levels, Britishers,
        hand sizes, the discard pile, the deck's size and the volunteers."""
        if seat not in state.movers:
            return True
        phase = state.phase
        if phase == ACTIVATE:
            return state.task == CHOOSE and seat == state.actor
        return phase == RECRUIT

    # ----- search (issue 19) ----------------------------------------------------

    def determinize(
        self, state: SangramState, seat: Seat, draw: Callable[[], float]
    ) -> SangramState:
        """A state ``seat`` cannot tell apart from ``state`` (core.Determinizes).

        R14: the other hands, their face-down commits (commit phase only: the
        reveal shows them) and the deck are hidden from ``seat``; everything
        else is public or its own.  The unseen cards are gathered in card
        order (never in the order they lie, so twins that differ only there
        deal alike) and dealt afresh with ``draw``: the same hand sizes, a
        face-down card for the same players, the rest to the deck (a multiset
        without order, R3).  What the table has shown of a hidden hand stays
        with its holder (:meth:`_known_holdings`: recruits, a Vaidik's take,
        a hand shown at Grow, a card sent back), and in the commit phase a
        hand's strength stays below the Grow step its holder has not reached
        (:meth:`_strength_budget`).  What the seat alone learnt (the cards of
        its own Vyapari's trade) and which cards a reshuffled deck holds are
        not honoured: the search then assumes less than it could, never more."""
        phase = state.phase
        if phase == OVER:
            return state  # R13: every hand is shown at the end
        hands, committed = state.hands, state.committed
        face_down = phase == COMMIT
        others = [s for s in range(state.num_players) if s != seat]
        unseen = list(state.deck)
        slots: dict[Seat, int] = {}
        for s in others:
            unseen += hands[s]
            slots[s] = len(hands[s])
            if face_down and committed[s]:
                unseen.append(committed[s])
                slots[s] += 1
        unseen.sort()
        known = self._known_holdings(state, slots, unseen)
        if known:
            kept = {c for cards in known.values() for c in cards}
            unseen = [c for c in unseen if c not in kept]
        need = {s: slots[s] - len(known.get(s, ())) for s in others}
        dealt: dict[Seat, list[int]] = {}
        budgets = self._strength_budget(state, need, known) if face_down else {}
        if budgets:
            dealt, unseen = self._deal_within(unseen, need, budgets, draw)
        for s in others:
            if s not in dealt:
                dealt[s] = _deal(unseen, need[s], draw)
        new_hands = list(hands)
        new_committed = list(committed)
        for s in others:
            cards = [*known.get(s, ()), *dealt[s]]
            if face_down and committed[s]:
                # Any of the holder's hidden cards may be the face-down one.
                new_committed[s] = cards.pop(_index(draw, len(cards)))
            new_hands[s] = tuple(sorted(cards, reverse=True))
        return state._replace(
            deck=tuple(sorted(unseen)), hands=tuple(new_hands), committed=tuple(new_committed)
        )

    def _deal_within(
        self,
        unseen: list[int],
        need: Mapping[Seat, int],
        budgets: Mapping[Seat, int],
        draw: Callable[[], float],
    ) -> tuple[dict[Seat, list[int]], list[int]]:
        """Deal the hands with a strength budget from ``unseen``: the
        tightest first, each uniformly among the hands within its budget,
        keeping low cards back for the tight ones after.  Returns those hands
        and the cards left.  Keeping back is a rule of thumb, so when a hand
        finds no cards within budget the deal starts again (a few times, then
        the weakest cards are dealt: only a state that breaks the inference
        of :meth:`_strength_budget` comes that far)."""
        strength = self._strength
        order = sorted(budgets, key=lambda s: (budgets[s] - need[s], s))
        for attempt in range(_DEAL_ATTEMPTS):
            classes: tuple[list[int], list[int], list[int]] = ([], [], [])
            for c in unseen:
                classes[strength[c]].append(c)
            dealt: dict[Seat, list[int]] = {}
            sound = True
            for i, s in enumerate(order):
                later = [(need[t], max(budgets[t], 0)) for t in order[i + 1 :]]
                counts = (len(classes[0]), len(classes[1]), len(classes[2]))
                mix = _strength_mix(counts, need[s], budgets[s], later, draw)
                if mix is None:
                    if attempt + 1 < _DEAL_ATTEMPTS:
                        sound = False
                        break
                    a = min(need[s], counts[0])
                    b = min(need[s] - a, counts[1])
                    mix = (a, b, need[s] - a - b)
                dealt[s] = [
                    c for k, count in zip(classes, mix, strict=True) for c in _deal(k, count, draw)
                ]
            if sound:
                break
        return dealt, [*classes[0], *classes[1], *classes[2]]

    def _known_holdings(
        self, state: SangramState, slots: Mapping[Seat, int], unseen: list[int]
    ) -> dict[Seat, list[int]]:
        """Unseen cards the table has shown to be among a player's hidden
        cards (hand and face-down card): :attr:`SangramState.known`, and for
        snapshots written before that field, what the latest round showed.
        A card an Acharya sent back to hand
        (R5) stays there until the next reveal: a retreated player skips the
        rest of Activate and Recruit and cannot be a Vyapari's target.  A
        hand shown at Grow (R12) is kept until the next reveal, which clears
        it: only Grow draws join it, and committing moves a card face down."""
        pool = set(unseen)
        known: dict[Seat, list[int]] = {}
        for s in slots:
            if state.known[s]:
                mine = known.setdefault(s, [])
                mine += [c for c in state.known[s] if c in pool]
                pool.difference_update(state.known[s])
        if not state.returned and not state.grow_reveals:
            return {s: cards[: slots[s]] for s, cards in known.items() if cards}
        for s, card in state.revealed:
            if s in state.returned and s in slots and card in pool:
                known.setdefault(s, []).append(card)
                pool.discard(card)
        for s, _, shown, _ in state.grow_reveals:
            if s in slots:
                mine = known.setdefault(s, [])
                mine += [c for c in shown if c in pool]
                pool.difference_update(shown)
        # Never more than the holder has room for (a sound state always has).
        return {s: cards[: slots[s]] for s, cards in known.items() if cards}

    def _strength_budget(
        self, state: SangramState, need: Mapping[Seat, int], known: Mapping[Seat, list[int]]
    ) -> dict[Seat, int]:
        """Commit phase: the most strength each hidden hand's dealt cards may
        have, for the holders whose budget can bind.  Every Grow check is
        public (R12: :attr:`SangramState.grown`) and nothing has changed a
        hand since the last one but committing: a holder still at step 0 has
        Total Army Strength below 7, at step 1 below 13 (revision 1,
        ``legacy_rules``, had no re-check after the 7-draws: below 18), and
        nobody has 18 or more, or the game would be over (R13)."""
        strength = self._strength
        below = (GROW_FIRST, WIN_STRENGTH if state.legacy_rules else GROW_SECOND, WIN_STRENGTH)
        budgets: dict[Seat, int] = {}
        for s, count in need.items():
            shown = sum(strength[c] for c in known.get(s, ()))
            budget = below[state.grown[s]] - 1 - state.levels[s] - shown
            if budget < MAX_STRENGTH * count:
                budgets[s] = budget
        return budgets

    def _options(self, state: SangramState) -> tuple[SangramAction, ...]:
        """:meth:`_choices` of a state whose activity asks, computed once per
        state (usually by :meth:`_start`, which needs them to know whether
        to ask) and kept in its ``__dict__`` under :data:`_LEGAL`."""
        kept: dict[str, Any] = state.__dict__
        options: tuple[SangramAction, ...] | None = kept.get(_LEGAL)
        if options is None:
            options = kept[_LEGAL] = tuple(self._choices(state))
        return options

    def _choices(self, state: SangramState | _W) -> list[SangramAction]:
        """The actor's options for the activity resolving (task CHOOSE);
        empty when the activity can do nothing (it is then wasted)."""
        effect = state.effect
        actor = state.actor
        out: list[SangramAction]
        if effect in (MAHARAJA, SENAPATI):
            most = min(DISCARD_UP_TO[effect], state.britishers[actor])
            out = list(self._discard[1 : most + 1])
        elif effect == MANTRI:
            most = min(MANTRI_UP_TO, state.britishers[actor])
            targets = self._targets(state, effect)
            out = [self._give_brit[k][s] for k in range(1, most + 1) for s in targets]
        elif effect == VAIDIK:
            if len(state.hands[actor]) >= MAX_HAND:
                return []
            top = state.discard[-VAIDIK_LOOK:]
            take = self._take
            out = [take[c] for c in sorted(set(top), reverse=True)]
        elif effect == YUVARAJ:
            copy = self._copy
            out = [copy[s] for s in self._targets(state, effect)]
        elif effect == SARTHI:
            # R4: asked before the draw, which uses up a deck card and puts a
            # card where a later Vaidik can take it.  Revision 1
            # (legacy_rules) never asks: _start draws at once.
            out = [_USE] if _sarthi_can_draw(state) and not state.legacy_rules else []
        else:
            target = self._target
            out = [target[s] for s in self._targets(state, effect)]
        if out:
            out.append(_DECLINE)
        return out

    def _targets(self, state: SangramState | _W, effect: str) -> list[Seat]:
        """Opponents an activity may target now (R5, R6, R9)."""
        actor = state.actor
        retreated = state.retreated
        if effect in (ACHARYA, YUVARAJ):
            # Only players who committed a card this round, in seat order.
            pos = {s: i for i, (s, _) in enumerate(state.revealed)}
            out: list[Seat] = []
            for s in sorted(pos):
                if s == actor or s in retreated:
                    continue
                if effect == ACHARYA:
                    # R5: a copied or drawn Acharya only reaches unresolved cards.
                    if state.origin != FROM_CARD and pos[s] <= state.cursor:
                        continue
                elif self._kind[state.committed[s]] == YUVARAJ:
                    continue  # R6: copying a Yuvaraj is wasted
                out.append(s)
            return out
        seats = [s for s in range(state.num_players) if s != actor and s not in retreated]
        if effect == GUPTCHAR:
            return [s for s in seats if state.levels[s] > 0]
        if effect == VYAPARI:
            return [s for s in seats if state.hands[s]]
        return seats  # MANTRI

    # ----- apply --------------------------------------------------------------

    def apply(self, state: SangramState, seat: Seat, action: SangramAction) -> SangramState:
        phase = state.phase
        if phase == OVER:
            raise IllegalAction("The game is over.")
        if seat not in state.movers:
            raise NotYourTurn(self._not_your_turn(state, seat))
        if self._fast:
            done = self._fast_path(state, seat, action)
            if done is not None:
                return done
        w = _W(state)
        if seat == CHANCE:
            self._apply_chance(state, w, action)
        elif phase == COMMIT:
            self._apply_commit(state, w, seat, action)
        elif phase == ACTIVATE:
            if state.task == GIVE:
                self._apply_give(state, w, seat, action)
            else:
                self._apply_choice(state, w, seat, action)
        else:  # RECRUIT
            if not isinstance(action, Recruit):
                raise IllegalAction("It is time to recruit: try 'recruit <card>'.")
            if action.card not in state.volunteers:
                raise IllegalAction(f"{self._card_text(action.card)} is not a volunteer.")
            self._recruit_card(w, seat, action.card)
            w.queue = w.queue[1:]
        self._advance(w)
        return w.freeze()

    def _fast_path(
        self, state: SangramState, seat: Seat, action: SangramAction
    ) -> SangramState | None:
        """The commonest actions without the working copy, for speed: a
        commit that does not reveal, a draw that is not the last of its
        phase, a recruit after which the next recruiter chooses or Refill
        begins.  ``None``: take the general path, which gives the same result
        (a test compares the two), and which refuses what is not legal."""
        phase = state.phase
        if phase == COMMIT:
            if type(action) is Commit:
                return self._fast_commit(state, seat, action.card)
        elif phase == RECRUIT:
            if type(action) is Recruit:
                return self._fast_recruit(state, seat, action.card)
        elif type(action) is Draw and phase in _DRAW_PHASES and len(state.draws) > 1:
            return self._fast_draw(state, action.card)
        return None

    def _fast_commit(self, state: SangramState, seat: Seat, card: int) -> SangramState | None:
        """R4: a commit (or a change of card) that leaves someone to commit."""
        hand = state.hands[seat]
        if card not in hand:
            return None
        awaited = state.awaited
        old = state.committed[seat]
        hand = _remove(hand, card)
        if old:
            hand = _insert_desc(hand, old)
            line = f"{_TAG[seat]} changed their committed card."
        else:
            awaited = awaited - _ONLY[seat]
            if not awaited:
                return None  # the last commit: the reveal follows
            line = f"{_TAG[seat]} committed a card."
        v = list(state)
        v[_HANDS] = _set(state.hands, seat, hand)
        v[_COMMITTED] = _set(state.committed, seat, card)
        v[_NEWS] = (line,)
        v[_RECENT] = (*state.recent, line)[-RECENT_EVENTS:]
        v[_MOVERS] = state.movers if hand else state.movers - _ONLY[seat]
        v[_AWAITED] = awaited
        fast: SangramState = _new(SangramState, v)
        return fast

    def _fast_draw(self, state: SangramState, card: int) -> SangramState | None:
        """R3: a card from the deck (ascending) to a hand or the volunteers,
        with more draws to come."""
        deck = state.deck
        i = bisect_left(deck, card)
        if i == len(deck) or deck[i] != card:
            return None  # not in the deck, or the deck is to be rebuilt
        to = state.draws[0]
        v = list(state)
        v[_DECK] = deck[:i] + deck[i + 1 :]
        v[_DRAWS] = state.draws[1:]
        if to == VOLUNTEER:
            v[_VOLUNTEERS] = _insert_desc(state.volunteers, card)
            v[_NEWS] = ()  # said when the round they are for begins (_new_round)
        else:
            hands = state.hands
            v[_HANDS] = _set(hands, to, _insert_desc(hands[to], card))
            if state.phase == SETUP:
                v[_NEWS] = ()  # said once, with the last card of the deal
            else:
                line = f"{_TAG[to]} drew a card (Grow)."
                v[_NEWS] = (line,)
                v[_RECENT] = (*state.recent, line)[-RECENT_EVENTS:]
        fast: SangramState = _new(SangramState, v)
        return fast

    def _fast_recruit(self, state: SangramState, seat: Seat, card: int) -> SangramState | None:
        """R10: ``seat`` (the first in the queue: apply checked ``movers``)
        takes a volunteer; then the next recruiter chooses among two or more
        volunteers with room in hand, or, the queue done, Refill begins with
        cards to draw.  Any other step (a recruit without a choice, a skip)
        takes the general path."""
        volunteers = state.volunteers
        if card not in volunteers:
            return None
        volunteers = _remove(volunteers, card)
        queue = state.queue[1:]
        v = list(state)
        if queue:
            after = queue[0]
            if len(volunteers) < 2 or len(state.hands[after]) >= MAX_HAND:
                return None
            v[_VOLUNTEERS] = volunteers
            v[_MOVERS] = v[_AWAITED] = _ONLY[after]
        else:
            # _end_recruit: leftover volunteers are discarded; n+1 draws.
            discard = state.discard + volunteers
            if not state.deck and len(discard) <= KEEP_ON_RESHUFFLE:
                return None
            v[_VOLUNTEERS] = ()
            v[_DISCARD] = discard
            v[_DRAWS] = (VOLUNTEER,) * (state.num_players + 1)
            v[_PHASE] = REFILL
            v[_MOVERS] = _ONLY[CHANCE]
            v[_AWAITED] = _NOBODY
        v[_QUEUE] = queue
        v[_HANDS] = _set(state.hands, seat, _insert_desc(state.hands[seat], card))
        v[_KNOWN] = _set(state.known, seat, _insert_desc(state.known[seat], card))
        v[_RECRUITED] = state.recruited | _ONLY[seat]
        if seat in state.no_britishers:
            line = self._recruit_line(seat, card, -1)
        else:
            got = min(self._brit[card], state.supply)
            v[_SUPPLY] = state.supply - got
            v[_BRITISHERS] = _set(state.britishers, seat, state.britishers[seat] + got)
            line = self._recruit_line(seat, card, got)
        v[_NEWS] = (line,)
        v[_RECENT] = (*state.recent, line)[-RECENT_EVENTS:]
        fast: SangramState = _new(SangramState, v)
        return fast

    def _not_your_turn(self, state: SangramState, seat: Seat) -> str:
        phase = state.phase
        if seat == CHANCE:
            return "It is not chance's turn: a player is to decide."
        if not 0 <= seat < state.num_players:
            return f"There is no seat {seat} in this game."
        if phase == COMMIT:
            return "You have no card to commit this round."
        if phase == ACTIVATE:
            if state.task in (CHOOSE, GIVE):
                return "It is not your turn: another player is resolving their card."
            return "It is not your turn: a card is being drawn."
        if phase == RECRUIT:
            if seat in state.queue:
                return "It is not your turn: another player is recruiting first."
            return "You do not recruit again this round."
        return "It is not your turn: cards are being drawn."

    def _card_text(self, card: int) -> str:
        return self._names[card] if 0 < card <= NUM_CARDS else f"Card {card}"

    def _apply_chance(self, state: SangramState, w: _W, action: SangramAction) -> None:
        if state.phase == ACTIVATE and state.task == GRAB:
            if not isinstance(action, Grab):
                raise IllegalAction("A card is to be taken at random from a hand now.")
            if action.card not in state.hands[state.target]:
                raise IllegalAction("That card is not in the hand being taken from.")
            self._grab_card(w, action.card)
            return
        if not isinstance(action, Draw):
            raise IllegalAction("A card is to be drawn from the deck now.")
        card = action.card
        if state.deck:
            if card not in state.deck:
                raise IllegalAction(f"{self._card_text(card)} is not in the deck.")
        elif card not in state.discard[:-KEEP_ON_RESHUFFLE]:
            raise IllegalAction(f"{self._card_text(card)} is not in the deck.")
        self._draw_card(w, card)

    def _draw_card(self, w: _W, card: int) -> None:
        if not w.deck:
            # R3: rebuild the deck, keeping the 5 most recent discards.
            w.deck = tuple(sorted(w.discard[:-KEEP_ON_RESHUFFLE]))
            w.discard = w.discard[-KEEP_ON_RESHUFFLE:]
            w.say(
                f"The deck ran out: {plural(len(w.deck), 'discard')} went into a new deck "
                f"(the {KEEP_ON_RESHUFFLE} most recent stay)."
            )
        w.deck = _remove(w.deck, card)
        if w.phase == ACTIVATE:
            # R7: a Sarthi's draw, activated at once for its owner.
            w.flying = card
            _settle(w, OUTCOME_USED)  # the Sarthi drew: used, whatever follows
            w.say(f"{_TAG[w.actor]}'s Sarthi drew {self._names[card]}.")
            self._start(w, self._kind[card], FROM_DRAW)
            return
        to = w.draws[0]
        w.draws = w.draws[1:]
        if to == VOLUNTEER:
            # Said when the round they are for begins (_new_round): the last
            # round's Refill draws volunteers no round uses (R10, R13).
            w.volunteers = _insert_desc(w.volunteers, card)
        else:
            w.hands[to] = _insert_desc(w.hands[to], card)
            if w.phase == SETUP:
                # One line for the whole opening deal, not one per card.
                if not w.draws:
                    w.say(f"Each player was dealt {START_HAND} cards.", event=False)
            else:
                w.say(f"{_TAG[to]} drew a card (Grow).")

    def _apply_commit(self, state: SangramState, w: _W, seat: Seat, action: SangramAction) -> None:
        if not isinstance(action, Commit):
            raise IllegalAction("Everybody is choosing a card: try 'commit <card>'.")
        hand = state.hands[seat]
        if action.card not in hand:
            raise IllegalAction(f"You have no {self._card_text(action.card)} in hand.")
        hand = _remove(hand, action.card)
        old = state.committed[seat]
        if old:
            hand = _insert_desc(hand, old)
            w.say(f"{_TAG[seat]} changed their committed card.")
        else:
            w.say(f"{_TAG[seat]} committed a card.")
        w.hands[seat] = hand
        w.committed[seat] = action.card

    def _apply_choice(self, state: SangramState, w: _W, seat: Seat, action: SangramAction) -> None:
        if action not in self._options(state):
            raise IllegalAction(self._why_not(state, action))
        who = _TAG[seat]
        what = self._activity(state)
        effect = state.effect
        match action:
            case Decline():
                w.say(f"{who} declined to use {self._activity(state, 'their')}.")
                self._end(w, OUTCOME_DECLINED)
            case Use():
                # R7: draw and activate; a drawn Sarthi is discarded before
                # its own draw.
                w.say(f"{what} draws a card.")
                self._discard_flying(w)
                w.task = SARTHI_DRAW
            case Target(target):
                if effect == ACHARYA:
                    self._retreat(w, target, what)
                    self._end(w, OUTCOME_USED)
                elif effect == GUPTCHAR:
                    w.levels[target] -= 1
                    w.say(f"{what} pulled {_TAG[target]}'s crown down to level {w.levels[target]}.")
                    self._end(w, OUTCOME_USED)
                else:  # VYAPARI: chance picks the card (R9)
                    w.target = target
                    w.task = GRAB
                    w.say(f"{what} trades with {_TAG[target]}.")
            case Copy(target):
                copied = state.committed[target]
                w.say(f"{what} copies {_TAG[target]}'s {self._names[copied]}.")
                self._start(w, self._kind[copied], FROM_COPY)
            case DiscardBritishers(count):
                w.britishers[seat] -= count
                w.supply += count
                w.say(
                    f"{what}: {who} discarded {plural(count, 'Britisher')} "
                    f"({w.britishers[seat]} left)."
                )
                self._end(w, OUTCOME_USED)
            case GiveBritishers(count, target):
                w.britishers[seat] -= count
                w.britishers[target] += count
                w.say(f"{what}: {who} gave {plural(count, 'Britisher')} to {_TAG[target]}.")
                self._end(w, OUTCOME_USED)
            case Take(card):
                w.discard = _remove_last(w.discard, card)
                w.hands[seat] = _insert_desc(w.hands[seat], card)
                w.known[seat] = _insert_desc(w.known[seat], card)
                got = self._take_britishers(w, seat, self._brit[card])
                w.vaidik = w.vaidik | {seat}
                w.say(
                    f"{what}: {who} took {self._names[card]} from the discard pile "
                    f"and {_britishers_taken(got, self._brit[card])}; no Recruit this round."
                )
                self._end(w, OUTCOME_USED)
            case _:
                raise IllegalAction(self._why_not(state, action))

    def _why_not(self, state: SangramState, action: SangramAction) -> str:
        prompt = _PROMPTS.get(state.effect, "choose")
        return f"That is not possible now: you are to {prompt} for {self._activity(state, 'your')}."

    def _apply_give(self, state: SangramState, w: _W, seat: Seat, action: SangramAction) -> None:
        if not isinstance(action, Give):
            raise IllegalAction("Vyapari: give one card from your hand: try 'give <card>'.")
        if action.card not in state.hands[seat]:
            raise IllegalAction(f"You have no {self._card_text(action.card)} in hand.")
        target = state.target
        w.hands[seat] = _remove(w.hands[seat], action.card)
        w.hands[target] = _insert_desc(w.hands[target], action.card)
        w.say(f"{_TAG[seat]} gave a card to {_TAG[target]} in exchange.")
        self._end(w, OUTCOME_USED)

    def _grab_card(self, w: _W, card: int) -> None:
        target = w.target
        w.hands[target] = _remove(w.hands[target], card)
        w.hands[w.actor] = _insert_desc(w.hands[w.actor], card)
        # R9: the table does not see which card, nor the one given back.
        w.known[target] = w.known[w.actor] = ()
        w.task = GIVE
        w.say(f"{_TAG[w.actor]} took a random card from {_TAG[target]}.")

    def _activity(self, state: SangramState | _W, whose: str = "") -> str:
        """``{p0}'s Mantri-33`` (``{p0}'s Yuvaraj (as Mantri)``, ``{p0}'s drawn
        Mantri-33``); ``whose`` replaces ``{p0}'s``."""
        who = whose or f"{_TAG[state.actor]}'s"
        name = self._warrior_name[state.effect]
        if state.origin == FROM_DRAW:
            return f"{who} drawn {self._names[state.flying]}"
        if state.origin == FROM_COPY:
            return f"{who} Yuvaraj (as {name})"
        return f"{who} {self._names[state.committed[state.actor]]}"

    # ----- activities ----------------------------------------------------------

    def _start(self, w: _W, effect: str, origin: str) -> None:
        """Begin an activity for ``w.actor``: apply it at once or ask."""
        w.effect = effect
        w.origin = origin
        w.target = CHANCE
        actor = w.actor
        if effect == SARTHI:
            # R4: the owner is asked before the draw (see _choices).
            if self._ask(w):
                return
            if w.legacy_rules and _sarthi_can_draw(w):
                # Revision 1 (legacy_rules) does not ask: it draws at once,
                # as after ``use``.
                self._discard_flying(w)
                w.task = SARTHI_DRAW
            else:
                w.say(f"{self._activity(w)} has nothing to draw: wasted.")
                self._end(w, OUTCOME_WASTED)
            return
        what = self._activity(w) if effect in (SHOORVEER, MAHARANI) else ""
        if effect == SHOORVEER:
            w.no_britishers = w.no_britishers | {actor}
            w.say(f"{what}: {_TAG[actor]} takes no Britishers at Recruit.")
            self._end(w, OUTCOME_USED)
            return
        if effect == MAHARANI:
            if w.levels[actor] < MAX_LEVEL:
                w.levels[actor] += 1
                w.say(f"{what}: {_TAG[actor]}'s crown moves up to level {w.levels[actor]}.")
                self._end(w, OUTCOME_USED)
            else:
                w.say(f"{what}: {_TAG[actor]}'s crown is already at the top.")
                self._end(w, OUTCOME_WASTED)
            return
        if self._ask(w):
            return
        w.say(f"{self._activity(w)}: {self._wasted_reason(w, effect)}")
        self._end(w, OUTCOME_WASTED)

    def _ask(self, w: _W) -> bool:
        """Ask the actor when the activity has options (kept for the new
        state's legal actions); False when it can do nothing."""
        options = self._choices(w)
        if not options:
            return False
        w.task = CHOOSE
        w.legal = tuple(options)
        return True

    def _wasted_reason(self, w: _W, effect: str) -> str:
        if effect in (MAHARAJA, SENAPATI, MANTRI) and not w.britishers[w.actor]:
            return "no Britishers, wasted."
        if effect == VAIDIK:
            if not w.discard:
                return "the discard pile is empty, wasted."
            return "the hand is full, wasted."
        if effect == YUVARAJ:
            return "no opponent's card can be copied, wasted."
        return "no opponent can be targeted, wasted."

    def _retreat(self, w: _W, target: Seat, what: str) -> None:
        """R5: the target leaves the battlefield for this round."""
        w.retreated = w.retreated | {target}
        pos = next(i for i, (s, _) in enumerate(w.revealed) if s == target)
        if pos > w.cursor:
            card = w.committed[target]
            w.committed[target] = NO_CARD
            w.hands[target] = _insert_desc(w.hands[target], card)
            w.known[target] = _insert_desc(w.known[target], card)
            w.returned = w.returned | {target}
            w.say(
                f"{what} retreats {_TAG[target]}: {self._names[card]} goes back "
                "to their hand unused; they skip Activate and Recruit."
            )
        else:
            w.say(
                f"{what} retreats {_TAG[target]}, whose card was already used: they skip Recruit."
            )

    def _discard_flying(self, w: _W) -> None:
        if w.flying:
            w.discard = (*w.discard, w.flying)
            w.flying = NO_CARD

    def _end(self, w: _W, outcome: str) -> None:
        """The activity is over: a drawn card is discarded (R7)."""
        _settle(w, outcome)
        self._discard_flying(w)
        w.task = IDLE

    def _take_britishers(self, w: _W, seat: Seat, count: int) -> int:
        """R2: take up to ``count`` from the supply; returns how many."""
        got = min(count, w.supply)
        w.supply -= got
        w.britishers[seat] += got
        return got

    def _recruit_card(self, w: _W, seat: Seat, card: int) -> None:
        w.volunteers = _remove(w.volunteers, card)
        w.hands[seat] = _insert_desc(w.hands[seat], card)
        w.known[seat] = _insert_desc(w.known[seat], card)
        w.recruited = w.recruited | _ONLY[seat]
        if seat in w.no_britishers:
            w.say(self._recruit_line(seat, card, -1))
            return
        got = self._take_britishers(w, seat, self._brit[card])
        w.say(self._recruit_line(seat, card, got))

    def _recruit_line(self, seat: Seat, card: int, got: int) -> str:
        """The narration of a recruit; ``got`` -1: no Britishers (Shoorveer, R9)."""
        if got < 0:
            return f"{_TAG[seat]} recruited {self._names[card]} (no Britishers: Shoorveer)."
        taken = _britishers_taken(got, self._brit[card])
        return f"{_TAG[seat]} recruited {self._names[card]} and {taken}."

    # ----- the automatic part of the round ------------------------------------

    def _advance(self, w: _W) -> None:
        """Run automatic steps until a player or chance must act."""
        while True:
            phase = w.phase
            if phase in _DRAW_PHASES:
                if w.draws:
                    if w.deck or len(w.discard) > KEEP_ON_RESHUFFLE:
                        return
                    # R3: nothing left to draw: the draws are skipped.
                    w.say("The deck and the discard pile are empty: no card is drawn.")
                    w.draws = ()
                if phase == SETUP:
                    self._new_round(w)
                elif phase == REFILL:
                    self._train_and_grow(w)
                elif not w.legacy_rules and self._grow_again(w):
                    continue  # R12 (revision 2 only: legacy_rules)
                elif self._end_check(w):
                    return
                else:
                    self._new_round(w)
            elif phase == COMMIT:
                hands, committed = w.hands, w.committed
                if any(hands[s] and not committed[s] for s in range(w.num_players)):
                    return
                self._reveal(w)
            elif phase == ACTIVATE:
                if w.task != IDLE:
                    return
                self._next_card(w)
            elif phase == RECRUIT:
                if not w.queue:
                    self._end_recruit(w)
                    continue
                seat = w.queue[0]
                if not w.volunteers or len(w.hands[seat]) >= MAX_HAND:
                    why = "no volunteer is left" if not w.volunteers else "their hand is full"
                    w.say(f"{_TAG[seat]} cannot recruit: {why}.")
                    w.queue = w.queue[1:]
                elif len(w.volunteers) == 1:
                    self._recruit_card(w, seat, w.volunteers[0])
                    w.queue = w.queue[1:]
                else:
                    return
            else:
                return

    def _new_round(self, w: _W) -> None:
        w.round += 1
        w.phase = COMMIT
        w.retreated = frozenset()
        w.no_britishers = frozenset()
        w.vaidik = frozenset()
        w.recruited = _NOBODY
        if w.volunteers:
            names = ", ".join(self._names[c] for c in w.volunteers)
            w.say(f"New volunteers: {names}.", event=False)
        w.say(f"Round {w.round}: everybody commits a card.", event=False)

    def _reveal(self, w: _W) -> None:
        """R4: all committed cards are revealed; highest motivation first."""
        committed = w.committed
        order = sorted(
            (s for s in range(w.num_players) if committed[s]),
            key=lambda s: committed[s],
            reverse=True,
        )
        w.revealed = tuple((s, committed[s]) for s in order)
        for s in order:
            if committed[s] in w.known[s]:
                w.known[s] = _remove(w.known[s], committed[s])
        w.outcomes = ("",) * len(order)
        w.revealed_round = w.round
        w.returned = frozenset()
        w.grow_reveals = ()
        w.cursor = -1
        w.task = IDLE
        w.phase = ACTIVATE
        if order:
            shown = ", ".join(f"{_TAG[s]} {self._names[committed[s]]}" for s in order)
            w.say(f"Reveal: {shown}.")
        else:
            w.say("Nobody has a card to commit this round.")

    def _next_card(self, w: _W) -> None:
        """Resolve the next revealed card, or end the Activate phase."""
        w.cursor += 1
        if w.cursor >= len(w.revealed):
            self._end_activate(w)
            return
        seat, card = w.revealed[w.cursor]
        if seat in w.retreated and seat in w.returned:
            return  # R5: taken back unused
        w.actor = seat
        self._start(w, self._kind[card], FROM_CARD)

    def _end_activate(self, w: _W) -> None:
        # R4: activated cards go to the discard pile in resolution order.
        discard = list(w.discard)
        for seat, _ in w.revealed:
            card = w.committed[seat]
            if card:
                discard.append(card)
                w.committed[seat] = NO_CARD
        w.discard = tuple(discard)
        w.task = IDLE
        w.actor = CHANCE
        w.effect = ""
        w.origin = ""
        w.target = CHANCE
        w.queue = _recruit_order(w)
        w.phase = RECRUIT

    def _end_recruit(self, w: _W) -> None:
        if w.volunteers:
            w.discard = (*w.discard, *w.volunteers)
            w.volunteers = ()
        w.draws = (VOLUNTEER,) * (w.num_players + 1)
        w.phase = REFILL

    def _train_and_grow(self, w: _W) -> None:
        n = w.num_players
        # R11: Train.
        moved = []
        for s in range(n):
            if w.britishers[s] <= TRAIN_MAX_BRITISHERS and w.levels[s] < MAX_LEVEL:
                w.levels[s] += 1
                moved.append(_TAG[s])
        if moved:
            w.say(f"Train: {', '.join(moved)} moved up.")
        # R12: Grow, judged on the strength after Train; 7 before 13.
        strength = self._strength
        draws: list[Seat] = []
        reveals: list[tuple[Seat, int, tuple[int, ...], int]] = []
        for s in range(n):
            hand = w.hands[s]
            tas = w.levels[s] + sum(map(strength.__getitem__, hand))
            room = MAX_HAND - len(hand)
            if w.grown[s] == 0 and tas >= GROW_FIRST:
                w.grown[s] = 1
                reveals.append((s, w.round, hand, w.levels[s]))
                w.known[s] = hand
                shown = ", ".join(self._names[c] for c in hand) or "no cards"
                got = min(2, room)
                room -= got
                draws += [s] * got
                w.say(
                    f"Grow: {_TAG[s]} reached Total Army Strength {tas} and shows "
                    f"their hand: {shown}. {_drawing(got)}"
                )
            if w.grown[s] == 1 and tas >= GROW_SECOND:
                draws += self._grow_thirteen(w, s, room)
        if reveals:
            w.grow_reveals = tuple(reveals)
        w.draws = tuple(draws)
        w.phase = GROW

    def _grow_thirteen(self, w: _W, seat: Seat, room: int) -> list[Seat]:
        """R12: the first time Total Army Strength reaches 13: draw 1."""
        w.grown[seat] = 2
        got = min(1, room)
        w.say(f"Grow: {_TAG[seat]} reached Total Army Strength 13 or more. {_drawing(got)}")
        return [seat] * got

    def _grow_again(self, w: _W) -> bool:
        """R12: the total is checked again after the 7-draws, so cards drawn
        at 7 that carry it to 13 give the 13-draw in the same Grow.  True when
        that queued a draw.  Only the seats that drew can have changed, and a
        seat that reached 13 is at step 2, so this adds draws once at most."""
        strength = self._strength
        draws: list[Seat] = []
        for s in range(w.num_players):
            hand = w.hands[s]
            if w.grown[s] != 1:
                continue  # only a seat at step 1 can reach 13 now
            if w.levels[s] + sum(map(strength.__getitem__, hand)) >= GROW_SECOND:
                draws += self._grow_thirteen(w, s, MAX_HAND - len(hand))
        w.draws = tuple(draws)
        return bool(draws)

    def _end_check(self, w: _W) -> bool:
        """R13: after Grow, 18 or more ends the game (and the lobby's
        ``round_limit``, when set)."""
        strength = self._strength
        levels, hands = w.levels, w.hands
        best = max(
            levels[s] + sum(map(strength.__getitem__, hands[s])) for s in range(w.num_players)
        )
        if best >= WIN_STRENGTH:
            w.reason = (
                f"At the end of round {w.round} an army reached Total Army Strength {best} "
                f"(the goal is {WIN_STRENGTH})."
            )
        elif w.round_limit and w.round >= w.round_limit:
            w.reason = (
                f"The round limit ({plural(w.round_limit, 'round')}) was reached; "
                f"the strongest army has {best}."
            )
        else:
            return False
        w.phase = OVER
        w.task = IDLE
        w.queue = ()
        w.say(f"Game over. {w.reason}")
        return True

    # ----- outcome ----------------------------------------------------------------

    def _rank_key(self, state: SangramState, seat: Seat) -> tuple[int, int, int]:
        hand = state.hands[seat]
        best = hand[0] if hand else 0
        return (-self.total_strength(state, seat), state.britishers[seat], -best)

    def ranking(self, state: SangramState) -> tuple[frozenset[Seat], ...]:
        """R13: strength, then fewer Britishers, then the highest motivation
        card in hand; what is still equal shares a place."""
        keys = {s: self._rank_key(state, s) for s in range(state.num_players)}
        places: list[frozenset[Seat]] = []
        for key in sorted(set(keys.values())):
            places.append(frozenset(s for s, k in keys.items() if k == key))
        return tuple(places)

    def outcome(self, state: SangramState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores = tuple(self.total_strength(state, s) for s in range(state.num_players))
        return Outcome(ranking=self.ranking(state), scores=scores, reason=state.reason)

    # ----- view ---------------------------------------------------------------------

    def view(self, state: SangramState, seat: Seat | None) -> SangramView:
        cv = self._card_views
        n = state.num_players
        phase = state.phase
        in_round = phase in (COMMIT, ACTIVATE, RECRUIT)
        recruiting = phase == RECRUIT
        players = tuple(
            PlayerView(
                seat=s,
                level=state.levels[s],
                britishers=state.britishers[s],
                hand_size=len(state.hands[s]),
                committed=bool(state.committed[s]),
                retreated=in_round and s in state.retreated,
                skips_recruit=in_round and (s in state.retreated or s in state.vaidik),
                no_britishers=in_round and s in state.no_britishers,
                grown=state.grown[s],
                recruited=recruiting and s in state.recruited,
            )
            for s in range(n)
        )
        revealed: list[RevealView] = []
        active = phase == ACTIVATE
        outcomes = state.outcomes
        for i, (s, card) in enumerate(state.revealed):
            outcome: str | None = None
            if s in state.returned:
                status = STATUS_RETREATED
            elif not active or i < state.cursor:
                status = STATUS_DONE
                outcome = outcomes[i] or None
            elif i == state.cursor:
                status = STATUS_RESOLVING
            else:
                status = STATUS_WAITING
            revealed.append(RevealView(s, cv[card], status, outcome))
        choice: ChoiceView | None = None
        if active and state.task in (CHOOSE, GIVE):
            card_no = state.flying or state.committed[state.actor]
            if state.task == CHOOSE:
                prompt = _PROMPTS.get(state.effect, "choose")
                kind = "activity"
            else:
                # The view is drawn as it is: no {pN} tags here.
                prompt = "choose a card to give in exchange"
                kind = "give"
            choice = ChoiceView(
                seat=state.actor,
                kind=kind,
                effect=state.effect,
                card=cv[card_no] if card_no else None,
                origin=state.origin,
                prompt=f"{prompt[0].upper()}{prompt[1:]}.",
            )
        elif phase == RECRUIT and state.queue:
            choice = ChoiceView(
                seat=state.queue[0],
                kind="recruit",
                effect="",
                card=None,
                origin="",
                prompt="Choose a volunteer.",
            )
        strength = self._strength
        grow = tuple(
            GrowRevealView(
                seat=s,
                round=r,
                cards=tuple(cv[c] for c in hand),
                level=level,
                total_strength=level + sum(map(strength.__getitem__, hand)),
            )
            for s, r, hand, level in state.grow_reveals
        )
        final: FinalView | None = None
        if phase == OVER:
            final = FinalView(
                ranking=tuple(tuple(sorted(place)) for place in self.ranking(state)),
                total_strength=tuple(self.total_strength(state, s) for s in range(n)),
                britishers=state.britishers,
                best_card=tuple(cv[h[0]] if h else None for h in state.hands),
                hands=tuple(tuple(cv[c] for c in h) for h in state.hands),
                reason=state.reason,
            )
        me: HandView | None = None
        if seat is not None and 0 <= seat < n:
            hand = state.hands[seat]
            hand_strength = sum(map(strength.__getitem__, hand))
            mine = state.committed[seat]
            me = HandView(
                seat=seat,
                hand=tuple(cv[c] for c in hand),
                committed=cv[mine] if mine else None,
                hand_strength=hand_strength,
                total_strength=state.levels[seat] + hand_strength,
            )
        return SangramView(
            num_players=n,
            phase=phase,
            round=state.round,
            round_limit=state.round_limit,
            players=players,
            volunteers=tuple(cv[c] for c in state.volunteers),
            deck_size=len(state.deck),
            discard_size=len(state.discard),
            discard_top=tuple(cv[c] for c in reversed(state.discard[-KEEP_ON_RESHUFFLE:])),
            supply=state.supply,
            revealed=tuple(revealed),
            revealed_round=state.revealed_round,
            drawn=cv[state.flying] if state.flying else None,
            choice=choice,
            recruit_order=_recruit_order(state) if recruiting else (),
            waiting_on=tuple(sorted(self.waiting_on(state))),
            grow_reveals=grow,
            events=state.recent,
            final=final,
            me=me,
        )

    # ----- text ---------------------------------------------------------------------

    def parse(self, state: SangramState, seat: Seat, text: str) -> SangramAction:
        words = text.strip().lower().split()
        if words == ["decline"]:
            return _DECLINE
        if words == ["use"]:
            return _USE
        if len(words) == 2:
            verb, arg = words
            maker = _CARD_WORDS.get(verb)
            if verb == "give" and whole_number(arg) is not None and arg not in self._by_id:
                raise InvalidAction(
                    "Give a card like 'give vaidik-3', or Britishers like 'give 2 to 3'."
                )
            if maker is not None:
                card = self._parse_card(arg)
                return maker(card)
            if verb == "target":
                return Target(self._parse_player(state, arg))
            if verb == "copy":
                return Copy(self._parse_player(state, arg))
            if verb == "discard":
                count = whole_number(arg)
                if count is None or not 1 <= count <= max(DISCARD_UP_TO.values()):
                    raise InvalidAction("Discard 1 to 6 Britishers: try 'discard 3'.")
                return DiscardBritishers(count)
        if len(words) == 4 and words[0] == "give" and words[2] == "to":
            count = whole_number(words[1])
            if count is None or not 1 <= count <= MANTRI_UP_TO:
                raise InvalidAction("A Mantri gives 1 or 2 Britishers: try 'give 2 to 3'.")
            return GiveBritishers(count, self._parse_player(state, words[3]))
        raise InvalidAction(f"I don't understand {excerpt(text)}. {_HELP}")

    def _parse_card(self, word: str) -> int:
        m = self._by_id.get(word)
        if m is not None:
            return m
        number = whole_number(word)
        if number is not None and 1 <= number <= NUM_CARDS:
            return number
        raise InvalidAction(
            f"There is no card {excerpt(word)}: cards are written like 'acharya-53' "
            "(type and motivation)."
        )

    def _parse_player(self, state: SangramState, word: str) -> Seat:
        number = whole_number(word)
        if number is None or not 1 <= number <= state.num_players:
            raise InvalidAction(
                f"Players are numbered 1 to {state.num_players} in moves; "
                f"{excerpt(word)} is not one."
            )
        return number - 1

    def describe(self, state: SangramState, seat: Seat, action: SangramAction) -> str:
        ids = self._id
        match action:
            case Commit(card):
                return f"commit {ids[card]}"
            case Target(s):
                return f"target {s + 1}"
            case Copy(s):
                return f"copy {s + 1}"
            case DiscardBritishers(count):
                return f"discard {count}"
            case GiveBritishers(count, s):
                return f"give {count} to {s + 1}"
            case Take(card):
                return f"take {ids[card]}"
            case Give(card):
                return f"give {ids[card]}"
            case Decline():
                return "decline"
            case Use():
                return "use"
            case Recruit(card):
                return f"recruit {ids[card]}"
            case Draw(card):
                return f"draw {ids[card]}"
            case Grab(card):
                return f"grab {ids[card]}"
        raise InvalidAction(f"Not a Sangram action: {action!r}")

    def menu_words(self, state: SangramState, seat: Seat, text: str) -> tuple[str, ...]:
        """Menu levels for an action: every decision offers a dozen actions at
        most, so each action is one entry of a single menu."""
        return (text,)

    def choice_label(self, state: SangramState, seat: Seat, prefix: str) -> str:
        """Menu text for a group of actions sharing ``prefix`` (``commit``)."""
        words = prefix.split()
        if len(words) == 1 and words[0] in _GROUP_LABELS:
            if words[0] == "give" and state.phase == ACTIVATE and state.task == GIVE:
                return f"Give a card to {seat_tag(state.target)}"
            if words[0] == "give":
                return "Give Britishers"
            return _GROUP_LABELS[words[0]]
        try:
            return self.label(state, seat, self.parse(state, seat, prefix))
        except InvalidAction:
            return prefix

    def _card_label(self, card: int) -> str:
        b = self._brit[card]
        return f"{self._names[card]} (strength {self._strength[card]}, {plural(b, 'Britisher')})"

    def label(self, state: SangramState, seat: Seat, action: SangramAction) -> str:
        effect = state.effect
        match action:
            case Commit(card):
                return f"Commit {self._card_label(card)}"
            case Recruit(card):
                strength = self._strength[card]
                if seat in state.no_britishers:
                    return f"Recruit {self._names[card]} (strength {strength}, no Britishers)"
                # R2: the Britishers the supply still has, not the card's print.
                brought = _britishers_brought(self._brit[card], state.supply)
                return f"Recruit {self._names[card]} (strength {strength}, {brought})"
            case Target(s):
                who = seat_tag(s)
                if effect == ACHARYA:
                    return f"Retreat {who}"
                if effect == GUPTCHAR:
                    level = state.levels[s]
                    return f"Pull {who}'s crown down (level {level} to {level - 1})"
                if effect == VYAPARI:
                    size = len(state.hands[s])
                    return f"Trade cards with {who} ({plural(size, 'card')} in hand)"
                return f"Target {who}"
            case Copy(s):
                copied = state.committed[s]
                if copied:
                    return f"Copy {seat_tag(s)}'s {self._names[copied]}"
                return f"Copy {seat_tag(s)}'s card"
            case DiscardBritishers(count):
                have = state.britishers[seat]
                return f"Discard {plural(count, 'Britisher')} ({have} to {max(0, have - count)})"
            case GiveBritishers(count, s):
                return f"Give {plural(count, 'Britisher')} to {seat_tag(s)}"
            case Take(card):
                brought = _britishers_brought(self._brit[card], state.supply)
                return f"Take {self._names[card]} from the discards ({brought})"
            case Give(card):
                return f"Give {self._names[card]} to {seat_tag(state.target)}"
            case Use():
                return "Draw a card and activate it (Sarthi)"
            case Decline():
                if effect == VAIDIK:
                    return "Decline the Vaidik (recruit as usual)"
                name = self._warrior_name.get(effect, "")
                return f"Decline the {name} activity" if name else "Decline"
            case Draw(card):
                return f"Draw {self._names[card]}"
            case Grab(card):
                return f"Take {self._names[card]} at random"
        return self.describe(state, seat, action)

    def narrate(
        self, before: SangramState, seat: Seat, action: SangramAction, after: SangramState
    ) -> str:
        return " ".join(after.news)

    def private_to(self, before: SangramState, seat: Seat, action: SangramAction) -> Seat | None:
        # R14: a committed card, a card drawn into a hand, the card a Vyapari
        # takes at random (kept to the taker) and the card they give back.
        match action:
            case Commit() | Give():
                return seat
            case Grab():
                return before.actor
            case Draw():
                if before.phase in _DRAW_PHASES and before.draws:
                    to = before.draws[0]
                    return None if to == VOLUNTEER else to
                return None
        return None

    # ----- serialisation ---------------------------------------------------------

    def to_json(self, state: SangramState) -> JSON:
        ids = self._id

        def cards(seq: Sequence[int]) -> list[str]:
            return [ids[c] for c in seq]

        return {
            "players": state.num_players,
            "phase": state.phase,
            "round": state.round,
            "deck": cards(state.deck),
            "discard": cards(state.discard),
            "volunteers": cards(state.volunteers),
            "hands": [cards(h) for h in state.hands],
            "committed": [ids[c] if c else None for c in state.committed],
            "levels": list(state.levels),
            "britishers": list(state.britishers),
            "supply": state.supply,
            "grown": list(state.grown),
            "revealed": [[s, ids[c]] for s, c in state.revealed],
            "revealed_round": state.revealed_round,
            "cursor": state.cursor,
            "queue": list(state.queue),
            "retreated": sorted(state.retreated),
            "returned": sorted(state.returned),
            "no_britishers": sorted(state.no_britishers),
            "vaidik": sorted(state.vaidik),
            "task": state.task,
            "actor": state.actor,
            "effect": state.effect,
            "origin": state.origin,
            "target": state.target,
            "flying": ids[state.flying] if state.flying else None,
            "draws": list(state.draws),
            "grow_reveals": [
                {"seat": s, "round": r, "cards": cards(h), "level": lv}
                for s, r, h, lv in state.grow_reveals
            ],
            "news": list(state.news),
            "recent": list(state.recent),
            "reason": state.reason,
            "outcomes": list(state.outcomes),
            "recruited": sorted(state.recruited),
            "round_limit": state.round_limit,
            "legacy_rules": state.legacy_rules,
            "known": [cards(k) for k in state.known],
        }

    def from_json(self, obj: JSON) -> SangramState:
        by_id = self._by_id

        def card(value: Any) -> int:
            if value is None:
                return NO_CARD
            return by_id[str(value)]

        def desc(values: Any) -> tuple[int, ...]:
            return tuple(sorted((by_id[str(v)] for v in values), reverse=True))

        def seats(values: Any) -> frozenset[Seat]:
            return frozenset(int(s) for s in values)

        try:
            n = int(obj["players"])
            phase = str(obj["phase"])
            if phase not in _PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            task, effect, origin = str(obj["task"]), str(obj["effect"]), str(obj["origin"])
            if task not in _TASKS or origin not in _ORIGINS or (effect and effect not in WARRIORS):
                raise ValueError("unknown activity")
            state = SangramState(
                num_players=n,
                phase=phase,
                round=int(obj["round"]),
                deck=tuple(sorted(by_id[str(c)] for c in obj["deck"])),
                discard=tuple(by_id[str(c)] for c in obj["discard"]),
                volunteers=desc(obj["volunteers"]),
                hands=tuple(desc(h) for h in obj["hands"]),
                committed=tuple(card(c) for c in obj["committed"]),
                levels=tuple(int(v) for v in obj["levels"]),
                britishers=tuple(int(v) for v in obj["britishers"]),
                supply=int(obj["supply"]),
                grown=tuple(int(v) for v in obj["grown"]),
                revealed=tuple((int(s), by_id[str(c)]) for s, c in obj["revealed"]),
                revealed_round=int(obj["revealed_round"]),
                cursor=int(obj["cursor"]),
                queue=tuple(int(s) for s in obj["queue"]),
                retreated=seats(obj["retreated"]),
                returned=seats(obj["returned"]),
                no_britishers=seats(obj["no_britishers"]),
                vaidik=seats(obj["vaidik"]),
                task=task,
                actor=int(obj["actor"]),
                effect=effect,
                origin=origin,
                target=int(obj["target"]),
                flying=card(obj["flying"]),
                draws=tuple(int(s) for s in obj["draws"]),
                grow_reveals=tuple(
                    (int(g["seat"]), int(g["round"]), desc(g["cards"]), int(g["level"]))
                    for g in obj["grow_reveals"]
                ),
                news=tuple(str(x) for x in obj["news"]),
                recent=tuple(str(x) for x in obj["recent"]),
                reason=str(obj["reason"]),
                movers=_NOBODY,
                awaited=_NOBODY,
                outcomes=(),
                recruited=_NOBODY,
                # Snapshots written before revision 2 lack both fields: such a
                # game keeps revision 1's rules, with its 50-round limit.
                round_limit=int(obj.get("round_limit", LEGACY_ROUND_LIMIT)),
                legacy_rules=bool(obj.get("legacy_rules", "round_limit" not in obj)),
                # Older snapshots lack it: nothing known, which is always sound.
                known=tuple(desc(k) for k in obj.get("known", [[]] * n)),
            )
            # Fields added after the first release: older saves lack them.
            if "outcomes" in obj:
                outcomes = tuple(str(x) for x in obj["outcomes"])
            else:
                outcomes = ("",) * len(state.revealed)  # not known: shown as None
            if "recruited" in obj:
                recruited = seats(obj["recruited"])
            elif phase == RECRUIT:
                # Those whose turn has passed (one with a full hand took none).
                recruited = frozenset(_recruit_order(state)) - frozenset(state.queue)
            else:
                recruited = _NOBODY
            movers, awaited = _W(state).movers()
            state = state._replace(
                movers=movers, awaited=awaited, outcomes=outcomes, recruited=recruited
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"Not a Sangram state: {exc}") from None
        problem = self.check(state)
        if problem:
            raise ValueError(f"Not a Sangram state: {problem}")
        return state

    def check(self, state: SangramState) -> str:
        """The state's invariants; ``""`` when they hold, else the problem."""
        n = state.num_players
        if not self.min_players <= n <= self.max_players:
            return f"{n} players"
        per_seat = (state.hands, state.committed, state.levels, state.britishers, state.grown)
        if any(len(v) != n for v in per_seat):
            return "wrong number of seats"
        zones = [
            *state.deck, *state.discard, *state.volunteers,
            *(c for h in state.hands for c in h),
            *(c for c in state.committed if c),
        ]  # fmt: skip
        if state.flying:
            zones.append(state.flying)
        if sorted(zones) != list(range(1, NUM_CARDS + 1)):
            return "the 55 cards are not each in exactly one place"
        if state.supply < 0 or min(state.britishers) < 0:
            return "negative Britishers"
        if state.supply + sum(state.britishers) != BRITISHERS:
            return f"Britishers do not add up to {BRITISHERS}"
        if any(not 0 <= lv <= MAX_LEVEL for lv in state.levels):
            return "a level is off the track"
        if any(len(h) > MAX_HAND for h in state.hands):
            return "a hand holds more than 6 cards"
        if len(state.outcomes) != len(state.revealed) or not set(state.outcomes) <= _OUTCOMES:
            return "the outcomes do not match the revealed cards"
        if not state.recruited <= frozenset(range(n)):
            return "an unknown seat recruited"
        if len(state.known) != n or any(
            not set(k) <= {*state.hands[s], state.committed[s]} for s, k in enumerate(state.known)
        ):
            return "a card known to be in a hand is not there"
        return ""


def _britishers_taken(got: int, printed: int) -> str:
    """R2: the Britishers a recruit or a Vaidik's take brought, for the
    narration: the card's print, or what the supply still had."""
    if got == printed:
        return plural(got, "Britisher")
    if not got:
        return "no Britishers (the supply is empty)"
    return f"{plural(got, 'Britisher')} (the supply's last)"


def _britishers_brought(printed: int, supply: int) -> str:
    """R2: the Britishers a recruit or a Vaidik's take will bring, for its
    label: the card's print, or as many as the supply still has."""
    got = min(printed, supply)
    if got == printed:
        return plural(got, "Britisher")
    if not got:
        return "no Britishers: the supply is empty"
    return f"{plural(got, 'Britisher')}: the supply's last"


def _set(seq: tuple[int, ...] | tuple[tuple[int, ...], ...], i: int, value: Any) -> Any:
    """A copy of ``seq`` with item ``i`` replaced."""
    return (*seq[:i], value, *seq[i + 1 :])


def _drawing(count: int) -> str:
    if count:
        return f"They draw {plural(count, 'card')}."
    return "Their hand is full (6 cards), so they draw nothing."


def _sarthi_can_draw(state: SangramState | _W) -> bool:
    """R7: a Sarthi has a card to draw.  A drawn Sarthi is discarded before
    its own draw, so it counts towards the pile a new deck is built from (R3)."""
    pile = len(state.discard) + (1 if state.flying else 0)
    return bool(state.deck) or pile > KEEP_ON_RESHUFFLE


def _remove_last(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` without ``card`` (which is among its last few)."""
    i = len(cards) - 1 - cards[::-1].index(card)
    return cards[:i] + cards[i + 1 :]


def _index(draw: Callable[[], float], size: int) -> int:
    """A uniform index below ``size`` from a float in [0, 1) (``min``: a
    float just below 1 times ``size`` may round up to ``size``)."""
    return min(int(draw() * size), size - 1)


def _deal(cards: list[int], count: int, draw: Callable[[], float]) -> list[int]:
    """``count`` cards taken at random from ``cards`` (removed from it)."""
    size = len(cards)
    count = min(count, size)
    for i in range(count):
        j = i + int(draw() * (size - i))
        if j >= size:  # a float just below 1 times the size may round up
            j = size - 1
        cards[i], cards[j] = cards[j], cards[i]
    taken = cards[:count]
    del cards[:count]
    return taken


def _strength_mix(
    counts: tuple[int, ...],
    need: int,
    budget: int,
    later: list[tuple[int, int]],
    draw: Callable[[], float],
) -> tuple[int, int, int] | None:
    """How many cards of strength 0, 1 and 2 to deal a hand of ``need``
    cards from a pool holding ``counts`` of each, with at most ``budget``
    strength: drawn in proportion to the number of such hands, so that the
    hand is uniform among those within budget.  ``later``: (need, budget) of
    the hands still to deal, whose low cards are kept back; if no mix
    allows that, it is dropped.  None: no hand fits the budget."""
    zeros, ones, twos = counts
    keep_zeros = sum(max(0, n - b) for n, b in later)
    keep_low = sum(max(0, n - b // 2) for n, b in later)
    for reserve in (True, False):
        # a + b + c == need, b + 2c <= budget, a <= zeros (minus the zeros
        # kept back), a + b <= zeros + ones (minus the low cards kept back).
        most_zeros = zeros - keep_zeros if reserve else zeros
        most_low = zeros + ones - keep_low if reserve else zeros + ones
        mixes: list[tuple[int, int, int]] = []
        cumulative: list[int] = []
        total = 0
        for c in range(max(0, need - most_low), min(need, twos, budget // 2) + 1):
            rest = need - c
            by_c = _COMB[twos][c]
            for b in range(max(0, rest - most_zeros), min(rest, ones, budget - 2 * c) + 1):
                total += _COMB[zeros][rest - b] * _COMB[ones][b] * by_c
                mixes.append((rest - b, b, c))
                cumulative.append(total)
        if total:
            r = draw() * total
            for mix, upto in zip(mixes, cumulative, strict=True):
                if r < upto:
                    return mix
            return mixes[-1]
    return None


_DEAL_ATTEMPTS: Final = 8
"""How often :meth:`SangramEngine._deal_within` deals again."""


_COMB: Final = tuple(tuple(comb(n, k) for k in range(NUM_CARDS + 1)) for n in range(NUM_CARDS + 1))
"""``_COMB[n][k]``: the number of ways to choose k of n cards."""
