"""Mahabharata: the pure rules engine.

The rulings R1-R14 in ``docs/rules/mahabharata.md`` fill the rulebook's
gaps.  Component tables (tokens, dice, leaders: R1-R3) live in
``bot/engines/data/mahabharata.toml`` and are checked when loaded
(:func:`load_components_text`).

Action text (what :meth:`MahabharataEngine.describe` returns and
:meth:`MahabharataEngine.parse` accepts, case-insensitively, extra blanks
ignored).  Dice are ``d1`` .. ``d8`` in table order (d1-d2 chariot, d3-d4
elephant, d5-d6 cavalry, d7-d8 infantry); leader spaces are numbered from 1 in
the card's icon order; leader names are lower case without spaces::

    player, draft phase (R7-R9)
      d3 screen            take die 3, put its token behind your screen
      d3 drona.2           take die 3, put its token on Drona's space 2
      d3 drona.2 cav2      the same for a Raja die: the token must be named
                           (naming the token of a non-Raja die is accepted too)
      d3 none              take die 3 and place nothing (R9: only when no
                           remaining die can be placed)
    player, announce phase (R10)
      announce             reveal a complete Pati: the game ends
      pass                 do not announce
    chance (seat CHANCE)
      leader drona         setup: Drona is drawn (R4)
      first 2              setup: seat 2 (0-based, as in {p2}) takes the elephant (R5)
      roll d3 cav2         die 3 shows Cavalry-2 (R6); faces that repeat on a die
                           are one outcome with their summed probability (2/6)

Token kinds: ``chariot``, ``elephant``, ``cav1``-``cav3``, ``inf1``-``inf5``;
``raja`` is a die face only.

:meth:`MahabharataEngine.legal_actions` lists actions in engine order: dice
ascending; for a die, ``screen`` first, then leaders in play (table order),
spaces ascending, and for a Raja die token kinds in table order (kind-major).

One rule is added to R10 (see :meth:`MahabharataEngine._end_of_round`): the game
also ends at the end of a round when no player has a token left in supply,
because from then on nothing can change the score and the game could otherwise
run forever.

Speed (issue 19): search plays many random games through this engine, so
the playout path works on small integers, prebuilt action objects and bit
masks, and a state keeps derived data outside its fields (its picker's
legal picks, each seat's open leader spaces: :data:`_LEGAL`, :data:`_OPEN`).
``apply`` takes the engine's own action objects (as ``legal_actions`` and
``chance_outcomes`` hand them out) by identity and checks them on integers;
any other action goes the long way, with the same rules and refusals.
"""

from __future__ import annotations

import itertools
import math
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cache
from importlib import resources
from operator import itemgetter
from pathlib import Path
from typing import Any, Final, NoReturn, TypeVar

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
from bot.engines.mahabharata_views import (
    DieView,
    FinalView,
    LastPickView,
    LeaderView,
    MahabharataView,
    PlayerView,
    ScreenView,
    SpaceView,
)

# --------------------------------------------------------------------------
# Components (R1-R3)
# --------------------------------------------------------------------------

CLASSES: Final = ("C", "E", "H", "I")
CLASS_WORD: Final = {"C": "chariot", "E": "elephant", "H": "cavalry", "I": "infantry"}
RAJA: Final = "raja"
TARGET_VP: Final = 18
"""R4: the leaders in play are worth exactly 18 VP (= 18 spaces, R3)."""
PATI_VP: Final = 7
"""R11: a complete Pati scores 7."""
PATI: Final = (
    # R11: per class, the icon sum a subset of the screen must hit exactly,
    # and how the screen view names what is missing.
    ("C", 1, "Chariot"),
    ("E", 1, "Elephant"),
    ("H", 3, "Cavalry summing to 3"),
    ("I", 5, "Infantry summing to 5"),
)
NUM_TOKEN_KINDS: Final = 10
TOKENS_PER_KIND: Final = 3
NUM_DICE: Final = 8
FACES_PER_DIE: Final = 6
NUM_LEADERS: Final = 10
SETUP_DRAW: Final = 4
"""R4: four cards are drawn before the sum is looked at."""

_T = TypeVar("_T")
_Groups = dict[tuple[int, bool], tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int]]
"""Draws of one icon class by (tokens drawn, complete): counts, ways each, total ways."""
_DEFAULT_SOURCE: Final = "mahabharata.toml"
_PATI_CACHE_SIZE: Final = 50_000
_KIND_RE: Final = re.compile(r"[a-z][a-z0-9]*")


@dataclass(frozen=True)
class TokenSpec:
    kind: str
    name: str
    cls: str
    icons: int
    count: int


@dataclass(frozen=True)
class DieSpec:
    kind: str
    faces: tuple[str, ...]


@dataclass(frozen=True)
class LeaderSpec:
    number: int
    name: str
    key: str
    """The name as typed: lower case, letters and digits only."""
    vp: int
    icons: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class Components:
    """The validated tables, plus lookups derived from them."""

    tokens: tuple[TokenSpec, ...]
    dice: tuple[DieSpec, ...]
    leaders: tuple[LeaderSpec, ...]
    """Sorted by card number."""
    token_index: Mapping[str, int] = field(init=False)
    leader_index: Mapping[str, int] = field(init=False)
    kinds_by_class: Mapping[str, tuple[int, ...]] = field(init=False)
    token_class: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "token_index", {t.kind: i for i, t in enumerate(self.tokens)})
        object.__setattr__(self, "leader_index", {ld.key: i for i, ld in enumerate(self.leaders)})
        object.__setattr__(
            self,
            "kinds_by_class",
            {c: tuple(i for i, t in enumerate(self.tokens) if t.cls == c) for c in CLASSES},
        )
        object.__setattr__(self, "token_class", tuple(t.cls for t in self.tokens))


def _fail(source: str, message: str) -> NoReturn:
    raise ComponentError(f"{source}: {message}")


def _entries(source: str, data: Mapping[str, Any], table: str) -> list[Mapping[str, Any]]:
    value = data.get(table)
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        _fail(source, f"needs a list of [[{table}]] tables")
    return value


def _check_keys(source: str, where: str, entry: Mapping[str, Any], keys: set[str]) -> None:
    unknown = sorted(set(entry) - keys)
    if unknown:
        _fail(source, f"{where} has unknown field {unknown[0]!r}")
    missing = sorted(keys - set(entry))
    if missing:
        _fail(source, f"{where} lacks the field {missing[0]!r}")


def _int(source: str, where: str, entry: Mapping[str, Any], key: str) -> int:
    value = entry[key]
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(source, f"{where}: {key!r} must be a whole number")
    return value


def _str(source: str, where: str, entry: Mapping[str, Any], key: str) -> str:
    value = entry[key]
    if not isinstance(value, str) or not value.strip():
        _fail(source, f"{where}: {key!r} must be a non-empty string")
    return value


def _str_list(source: str, where: str, entry: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = entry[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _fail(source, f"{where}: {key!r} must be a list of strings")
    return tuple(value)


def _leader_key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def load_components_text(text: str, source: str = _DEFAULT_SOURCE) -> Components:
    """Parse and check component tables; a broken table raises ComponentError."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        _fail(source, f"not valid TOML ({exc})")
    unknown = sorted(set(data) - {"tokens", "dice", "leaders"})
    if unknown:
        _fail(source, f"unknown table {unknown[0]!r} (expected tokens, dice and leaders)")

    # R1: ten token kinds, three of each.
    tokens: list[TokenSpec] = []
    for n, entry in enumerate(_entries(source, data, "tokens"), 1):
        where = f"token #{n}"
        _check_keys(source, where, entry, {"kind", "name", "class", "icons", "count"})
        kind = _str(source, where, entry, "kind")
        where = f"token {kind!r}"
        if not _KIND_RE.fullmatch(kind) or kind == RAJA:
            _fail(source, f"{where}: a kind is lower-case letters and digits, not 'raja'")
        if any(t.kind == kind for t in tokens):
            _fail(source, f"token kind {kind!r} appears twice")
        cls = _str(source, where, entry, "class")
        if cls not in CLASSES:
            _fail(source, f"{where} has class {cls!r}; classes are C, E, H or I")
        icons = _int(source, where, entry, "icons")
        if icons < 1:
            _fail(source, f"{where} has {icons} icons; it needs at least 1")
        count = _int(source, where, entry, "count")
        if count != TOKENS_PER_KIND:
            _fail(source, f"{where} has count {count}; R1 needs {TOKENS_PER_KIND} of each kind")
        tokens.append(TokenSpec(kind, _str(source, where, entry, "name"), cls, icons, count))
    if len(tokens) != NUM_TOKEN_KINDS:
        _fail(source, f"has {len(tokens)} token kinds; R1 needs {NUM_TOKEN_KINDS}")
    for cls in CLASSES:
        if not any(t.cls == cls for t in tokens):
            _fail(source, f"no token kind has class {cls!r}")
    kinds = {t.kind for t in tokens}

    # R2: eight six-sided dice, one Raja face each.
    dice: list[DieSpec] = []
    for n, entry in enumerate(_entries(source, data, "dice"), 1):
        where = f"die {n}"
        _check_keys(source, where, entry, {"kind", "faces"})
        die_kind = _str(source, where, entry, "kind")
        faces = _str_list(source, where, entry, "faces")
        if len(faces) != FACES_PER_DIE:
            _fail(source, f"{where} has {len(faces)} faces; R2 needs {FACES_PER_DIE}")
        rajas = faces.count(RAJA)
        if rajas != 1:
            _fail(source, f"{where} has {rajas} Raja faces; R2 needs exactly one")
        for face in faces:
            if face != RAJA and face not in kinds:
                _fail(source, f"{where} has face {face!r}, which is not a token kind")
        dice.append(DieSpec(die_kind, faces))
    if len(dice) != NUM_DICE:
        _fail(source, f"has {len(dice)} dice; R2 needs {NUM_DICE}")
    on_dice = {face for d in dice for face in d.faces}
    for t in tokens:
        if t.kind not in on_dice:
            # Such a token could only ever leave the supply by a Raja die.
            _fail(source, f"token kind {t.kind!r} is on no die face")

    # R3: ten leaders, VP = number of icon spaces.
    leaders: list[LeaderSpec] = []
    for n, entry in enumerate(_entries(source, data, "leaders"), 1):
        where = f"leader #{n}"
        _check_keys(source, where, entry, {"number", "name", "vp", "icons"})
        name = _str(source, where, entry, "name")
        where = f"leader {name!r}"
        key = _leader_key(name)
        if not key:
            _fail(source, f"{where} has no letters or digits in its name")
        if any(ld.key == key for ld in leaders):
            _fail(source, f"two leaders are both typed {key!r}")
        number = _int(source, where, entry, "number")
        if any(ld.number == number for ld in leaders):
            _fail(source, f"leader number {number} appears twice")
        vp = _int(source, where, entry, "vp")
        spaces = _str_list(source, where, entry, "icons")
        for icon in spaces:
            if icon not in CLASSES:
                _fail(source, f"{where} has icon {icon!r}; icons are C, E, H or I")
        if vp != len(spaces):
            _fail(source, f"{where} has {vp} VP but {len(spaces)} icon spaces")
        leaders.append(LeaderSpec(number, name, key, vp, spaces))
    if len(leaders) != NUM_LEADERS:
        _fail(source, f"has {len(leaders)} leaders; R3 needs {NUM_LEADERS}")
    if keep_for_eighteen(tuple(ld.vp for ld in leaders)) is None:
        _fail(
            source, f"no set of leaders is worth exactly {TARGET_VP} VP, so setup (R4) never ends"
        )
    leaders.sort(key=lambda ld: ld.number)
    return Components(tuple(tokens), tuple(dice), tuple(leaders))


def load_components(path: str | Path) -> Components:
    """Load component tables from a file (tests feed broken ones)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ComponentError(f"{p.name}: cannot be read ({exc.strerror})") from None
    return load_components_text(text, p.name)


@cache
def default_components() -> Components:
    """The packaged tables, parsed and checked once per process."""
    data = resources.files("bot.engines").joinpath("data")
    text = data.joinpath(_DEFAULT_SOURCE).read_text(encoding="utf-8")
    return load_components_text(text)


@cache
def keep_for_eighteen(vps: tuple[int, ...], target: int = TARGET_VP) -> tuple[int, ...] | None:
    """R4: which drawn cards to keep, as positions in draw order.

    The kept cards sum to exactly ``target``; the most cards are kept; among
    equally large choices the discarded cards are the most recently drawn
    ones (the discarded positions, latest first, compare highest).  ``None``
    when no subset sums to ``target``.
    """
    positions = range(len(vps))
    for size in range(len(vps), 0, -1):
        best: tuple[int, ...] | None = None
        best_discard: tuple[int, ...] = ()
        for keep in itertools.combinations(positions, size):
            if sum(vps[i] for i in keep) != target:
                continue
            kept = set(keep)
            discard = tuple(i for i in reversed(positions) if i not in kept)
            if best is None or discard > best_discard:
                best, best_discard = keep, discard
        if best is not None:
            return best
    return None


def snake_order(num_players: int, elephant: Seat) -> tuple[Seat, ...]:
    """R7: elephant holder to the left round the table, the last seat twice, back."""
    return _snake(num_players, elephant)


@cache
def _snake(num_players: int, elephant: Seat) -> tuple[Seat, ...]:
    forward = tuple((elephant + i) % num_players for i in range(num_players))
    return forward + forward[::-1]


@cache
def _one_in(count: int) -> Fraction:
    return Fraction(1, count)


@cache
def _first_outcomes(num_players: int) -> tuple[tuple[ChooseFirst, Fraction], ...]:
    """R5: each seat may take the elephant, equally likely."""
    return tuple((ChooseFirst(s), _one_in(num_players)) for s in range(num_players))


@cache
def _pickers(num_players: int, elephant: Seat) -> tuple[frozenset[Seat], ...]:
    """:func:`_snake` as the ``to_move`` of each pick: built once, not per call."""
    return tuple(frozenset((s,)) for s in _snake(num_players, elephant))


def leader_winner(influence: Sequence[int]) -> Seat | None:
    """R12: highest influence wins; on a tie at the top, the next lower level
    wins if exactly one player holds it and it is above zero."""
    levels = sorted(set(influence), reverse=True)
    top = levels[0]
    if top <= 0:
        return None
    holders = [s for s, v in enumerate(influence) if v == top]
    if len(holders) == 1:
        return holders[0]
    if len(levels) > 1 and levels[1] > 0:
        second = [s for s, v in enumerate(influence) if v == levels[1]]
        if len(second) == 1:
            return second[0]
    return None


def rank_scores(scores: Sequence[int]) -> tuple[frozenset[Seat], ...]:
    """R13: most VP wins; a tie on top hands the win to the single player with
    the next lower total; otherwise everybody draws."""
    levels = sorted(set(scores), reverse=True)
    groups = [frozenset(s for s, v in enumerate(scores) if v == level) for level in levels]
    if len(groups[0]) == 1:
        return tuple(groups)
    if len(groups) > 1 and len(groups[1]) == 1:
        # "The player with the second highest points wins": that seat first,
        # then the tied top group, then the rest by score.
        return (groups[1], groups[0], *groups[2:])
    return (frozenset(range(len(scores))),)


# --------------------------------------------------------------------------
# State and actions
# --------------------------------------------------------------------------

SETUP: Final = "setup"
FIRST: Final = "first"
ROLL: Final = "roll"
DRAFT: Final = "draft"
ANNOUNCE: Final = "announce"
OVER: Final = "over"
_PHASES: Final = (SETUP, FIRST, ROLL, DRAFT, ANNOUNCE, OVER)

Space = tuple[Seat | None, tuple[int, ...]]
"""(owner, stacked token kind indices bottom first) of one leader space."""

_EMPTY_SPACE: Final[Space] = (None, ())
PLACED_SCREEN: Final = "screen"
PLACED_LEADER: Final = "leader"
PLACED_NOTHING: Final = "nothing"
_PLACED: Final = (PLACED_SCREEN, PLACED_LEADER, PLACED_NOTHING)


@dataclass(frozen=True, slots=True)
class LastPick:
    """The latest draft pick, for the board (see :class:`LastPickView`)."""

    seat: Seat
    die: int
    """1-based."""
    face: str
    placed: str
    """``screen``, ``leader`` or ``nothing``."""
    leader: int | None = None
    """Leader placements: the leader's table index."""
    space: int | None = None
    """Leader placements: 1-based."""
    token: str | None = None
    """Leader placements: the token kind.  ``None`` for the screen (R14)."""


# A Python class when compiled (see bot/engines/compiled.py): it keeps
# derived data in its ``__dict__``, which mypyc's native classes lack.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class MahabharataState:
    """One moment of a game.  Immutable; built on the hot path by
    :func:`_build` from a dict of its fields (no ``__slots__``, so a draft
    state can keep its legal picks in its ``__dict__``, see :data:`_LEGAL`)."""

    num_players: int
    phase: str
    drawn: tuple[int, ...]
    """R4: leader table indices drawn in the current attempt, in draw order."""
    leaders: tuple[int, ...]
    """Leader table indices in play, in table order (empty during setup)."""
    round: int
    elephant: Seat | None
    faces: tuple[str | None, ...]
    """Per die: the rolled face this round (token kind or ``raja``)."""
    taken: tuple[Seat | None, ...]
    """Per die: who took it this round."""
    picks: int
    spaces: tuple[tuple[Space, ...], ...]
    """Per leader in play, per space."""
    screens: tuple[tuple[int, ...], ...]
    """Per seat, per token kind: how many are behind the screen."""
    supply: tuple[tuple[int, ...], ...]
    """Per seat, per token kind: how many are left to place."""
    pending: frozenset[Seat]
    """Announce phase: seats with a complete Pati that have not decided."""
    announced: tuple[bool, ...]
    reason: str
    """Why the game ended (phase ``over``)."""
    last_pick: LastPick | None = None
    """The latest pick; kept across rounds, ``None`` before the first."""

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to a search worker) as its fields only, without the
        caches (:data:`_LEGAL`, :data:`_OPEN`)."""
        d = self.__dict__
        return {name: d[name] for name in _FIELD_ORDER}


_new_state: Final = object.__new__
_set_field: Final = object.__setattr__
_FIELD_ORDER: Final = tuple(f.name for f in fields(MahabharataState))
_FIELD_NAMES: Final = frozenset(_FIELD_ORDER)
_LEGAL: Final = "_legal"
"""The key under which a draft state keeps its picker's legal picks (see
:meth:`MahabharataEngine._legal`) in its ``__dict__``: not a field, so
equality, hashing, ``repr``, JSON and pickles never see it."""
_OPEN: Final = "_open"
"""The key under which a state keeps which leader spaces each seat may use
(R8; see :meth:`MahabharataEngine._open_masks`) in its ``__dict__``, like
:data:`_LEGAL`.  It follows from ``leaders`` and ``spaces`` alone, so a
state built from another keeps it unless those change: :func:`_replace`
drops it then, and a leader placement (``_listed_pick``) updates it."""


def _fields_of(state: MahabharataState) -> dict[str, Any]:
    """The state's fields as a fresh dict, with the open-space masks but
    without the legal-pick cache (which would be wrong for any state built
    from it)."""
    d = state.__dict__.copy()
    d.pop(_LEGAL, None)
    return d


def _build(d: dict[str, Any]) -> MahabharataState:
    """A state from a complete dict of its fields (from :func:`_fields_of`):
    ``dataclasses.replace`` runs ``__init__`` and its frozen ``__setattr__``
    per field, several times slower on the playout path."""
    after: MahabharataState = _new_state(MahabharataState)
    _set_field(after, "__dict__", d)
    return after


def _replace(state: MahabharataState, **changes: Any) -> MahabharataState:
    """``dataclasses.replace`` for states, without the legal-pick cache."""
    if not changes.keys() <= _FIELD_NAMES:
        raise TypeError(f"MahabharataState has no field {sorted(changes.keys() - _FIELD_NAMES)}")
    d = _fields_of(state)
    if "spaces" in changes or "leaders" in changes:
        d.pop(_OPEN, None)
    d.update(changes)
    return _build(d)


@dataclass(frozen=True, slots=True)
class DrawLeader:
    leader: str


@dataclass(frozen=True, slots=True)
class ChooseFirst:
    seat: Seat


@dataclass(frozen=True, slots=True)
class Roll:
    die: int
    face: str


@dataclass(frozen=True, slots=True)
class PlaceScreen:
    die: int


@dataclass(frozen=True, slots=True)
class PlaceLeader:
    die: int
    leader: str
    space: int
    """1-based."""
    token: str | None
    """The token kind; ``None`` only when parsed for a Raja die without one."""


@dataclass(frozen=True, slots=True)
class TakeNothing:
    die: int


@dataclass(frozen=True, slots=True)
class Announce:
    pass


@dataclass(frozen=True, slots=True)
class Pass:
    pass


MahabharataAction = (
    DrawLeader | ChooseFirst | Roll | PlaceScreen | PlaceLeader | TakeNothing | Announce | Pass
)
_PICKS: Final = (PlaceScreen, PlaceLeader, TakeNothing)
_NOBODY: Final[frozenset[Seat]] = frozenset()
_CHANCE_ONLY: Final = frozenset((CHANCE,))
# What a listed pick is (see MahabharataEngine._pick_info).
_TO_SCREEN: Final = 0
_TO_LEADER: Final = 1
_TO_NOTHING: Final = 2
_PickInfo = tuple[int, int, int, int, int, int, dict[int, "LastPick"]]
"""(what, die index, token kind, leader index, space index, table-wide space
number, LastPick by seat and face) of a pick ``legal_actions`` may list."""
_Getter = Callable[[tuple["PlaceLeader", ...]], tuple["PlaceLeader", ...]]
"""Picks some placements out of a row of them (see ``_getter``)."""
_FACE_KEYS: Final = NUM_TOKEN_KINDS + 1
"""Faces per seat in a LastPick key: a token kind index, or -1 (Raja) + 1."""
_ANNOUNCE: Final = Announce()
_PASS: Final = Pass()

# ASCII digits only (``\d`` would take ``٣``); the numbers are read by
# core.whole_number, which refuses absurd lengths.
_DIE_RE: Final = re.compile(r"d([0-9]+)")
_DIE_SPACE_RE: Final = re.compile(r"d([0-9]+) (\S+)\.([0-9]+)")
_SPACE_RE: Final = re.compile(r"([a-z0-9]+)\.([0-9]+)")
_HELP: Final = (
    "Try 'd3 screen', 'd3 drona.2', 'd3 drona.2 cav2' (Raja die), 'd3 none', 'announce' or 'pass'."
)


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


def _one_fewer(
    supplies: tuple[tuple[int, ...], ...], seat: Seat, kind: int
) -> tuple[tuple[int, ...], ...]:
    """``supplies`` with one token of ``kind`` gone from ``seat``'s supply
    (to a leader space or behind the screen)."""
    supply = list(supplies[seat])
    supply[kind] -= 1
    changed = list(supplies)
    changed[seat] = tuple(supply)
    return tuple(changed)


class MahabharataEngine:
    name: str = "mahabharata"
    title: str = "Mahabharata"
    revision: int = 1
    min_players: int = 2
    max_players: int = 4

    def __init__(self, components: Components | None = None) -> None:
        self.options: Mapping[str, Option] = {}
        c = components if components is not None else default_components()
        self.components = c
        self._n_dice = len(c.dice)
        self._roll_outcomes: tuple[tuple[tuple[Roll, Fraction], ...], ...] = tuple(
            tuple(
                (Roll(d + 1, face), Fraction(die.faces.count(face), len(die.faces)))
                for face in dict.fromkeys(die.faces)
            )
            for d, die in enumerate(c.dice)
        )
        self._screen_actions = tuple(PlaceScreen(d + 1) for d in range(self._n_dice))
        self._nothing_actions = tuple(TakeNothing(d + 1) for d in range(self._n_dice))
        self._face_index: dict[str, int] = dict(c.token_index)
        self._face_index[RAJA] = -1
        self._pati_cache: dict[tuple[int, ...], tuple[str, ...]] = {}
        self._class_deal_cache: dict[tuple[str, tuple[int, ...], tuple[int, ...]], _Groups] = {}
        # Every leader space of the table numbered 0..44 (leader by leader),
        # and every possible leader placement built once: legal_actions only
        # picks from these (speed).
        self._first_space: tuple[int, ...] = tuple(
            itertools.accumulate((len(ld.icons) for ld in c.leaders), initial=0)
        )[:-1]
        spaces = [(ld.key, j + 1, icon) for ld in c.leaders for j, icon in enumerate(ld.icons)]
        self._space_class: tuple[str, ...] = tuple(icon for _, _, icon in spaces)
        self._leader_actions: tuple[tuple[tuple[PlaceLeader, ...], ...], ...] = tuple(
            tuple(
                tuple(PlaceLeader(d + 1, key, sp, t.kind) for key, sp, _ in spaces)
                for t in c.tokens
            )
            for d in range(self._n_dice)
        )
        self._token_counts: tuple[int, ...] = tuple(t.count for t in c.tokens)
        # The playout path works on small integers (speed): a face as its
        # token kind index (-1 for Raja, -2 for not rolled), a class as its
        # index in CLASSES, each leader's spaces as (table-wide number, class).
        self._face_kind: dict[str | None, int] = {None: -2}
        self._face_kind.update(self._face_index)
        self._kinds: tuple[str, ...] = tuple(t.kind for t in c.tokens)
        self._kind_class: tuple[int, ...] = tuple(CLASSES.index(t.cls) for t in c.tokens)
        self._leader_spaces: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(
                (self._first_space[li] + j, CLASSES.index(icon)) for j, icon in enumerate(ld.icons)
            )
            for li, ld in enumerate(c.leaders)
        )
        self._roll_info: dict[int, tuple[int, str]] = {
            id(roll): (roll.die - 1, roll.face) for odds in self._roll_outcomes for roll, _ in odds
        }
        # Every pick legal_actions can list, by identity (the objects live as
        # long as the engine, so no other object shares their id): what it
        # is, its die index, token kind, leader index and space index.  A
        # leader placement whose token does not fit the space's class (R8)
        # is never listed, so it is left out and goes the long way.
        # The last slot keeps the pick's LastPick per seat and face (see
        # _listed_pick), at most _FACE_KEYS per seat.
        self._pick_info: dict[int, _PickInfo] = {}
        for d in range(self._n_dice):
            self._pick_info[id(self._screen_actions[d])] = (_TO_SCREEN, d, -1, -1, -1, -1, {})
            self._pick_info[id(self._nothing_actions[d])] = (_TO_NOTHING, d, -1, -1, -1, -1, {})
            for k in range(len(c.tokens)):
                for li, numbered in enumerate(self._leader_spaces):
                    for j, (sid, cls) in enumerate(numbered):
                        if cls == self._kind_class[k]:
                            action = self._leader_actions[d][k][sid]
                            self._pick_info[id(action)] = (_TO_LEADER, d, k, li, j, sid, {})
        # Per class index: the bit mask of its table-wide space numbers.
        self._class_masks: tuple[int, ...] = tuple(
            sum(1 << sid for sid, cls in itertools.chain(*self._leader_spaces) if cls == ci)
            for ci in range(len(CLASSES))
        )
        self._getters: dict[int, _Getter] = {}
        self._unrolled: tuple[None, ...] = (None,) * self._n_dice
        self._draws: tuple[DrawLeader, ...] = tuple(DrawLeader(ld.key) for ld in c.leaders)
        self._draw_index: dict[int, int] = {id(a): i for i, a in enumerate(self._draws)}
        self._vps: tuple[int, ...] = tuple(ld.vp for ld in c.leaders)
        self._setups: dict[int, dict[str, Any]] = {}

    # ----- names --------------------------------------------------------

    def _token_name(self, kind: str) -> str:
        i = self.components.token_index.get(kind)
        return self.components.tokens[i].name if i is not None else kind

    def _face_name(self, face: str | None) -> str:
        if face is None:
            return "not rolled"
        return "Raja" if face == RAJA else self._token_name(face)

    def _leader_spec(self, key: str) -> LeaderSpec | None:
        i = self.components.leader_index.get(key)
        return self.components.leaders[i] if i is not None else None

    def _leader_name(self, key: str) -> str:
        spec = self._leader_spec(key)
        return spec.name if spec is not None else key

    # ----- setup ----------------------------------------------------------

    def setup(self, num_players: int, options: Mapping[str, Any]) -> MahabharataState:
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(
                f"Mahabharata takes {self.min_players} to {self.max_players} players."
            )
        for key in options:
            raise InvalidOptions(f"Mahabharata has no option {excerpt(key)}.")
        # Built once per player count, then copied (a playout starts often).
        template = self._setups.get(num_players)
        if template is None:
            template = self._setups[num_players] = self._new_setup(num_players).__dict__
        return _build(template.copy())

    def _new_setup(self, num_players: int) -> MahabharataState:
        supply = tuple(t.count for t in self.components.tokens)
        zeros = (0,) * len(self.components.tokens)
        return MahabharataState(
            num_players=num_players,
            phase=SETUP,
            drawn=(),
            leaders=(),
            round=0,
            elephant=None,
            faces=(None,) * self._n_dice,
            taken=(None,) * self._n_dice,
            picks=0,
            spaces=(),
            screens=(zeros,) * num_players,
            supply=(supply,) * num_players,
            pending=frozenset(),
            announced=(False,) * num_players,
            reason="",
        )

    # ----- whose turn -----------------------------------------------------

    def to_move(self, state: MahabharataState) -> frozenset[Seat]:
        phase = state.phase
        if phase == DRAFT:
            assert state.elephant is not None
            return _pickers(state.num_players, state.elephant)[state.picks]
        if phase == ANNOUNCE:
            return state.pending
        if phase == OVER:
            return _NOBODY
        return _CHANCE_ONLY

    def waiting_on(self, state: MahabharataState) -> frozenset[Seat]:
        phase = state.phase
        if phase == DRAFT:
            assert state.elephant is not None
            return _pickers(state.num_players, state.elephant)[state.picks]
        # R14 (announce): who is asked would reveal who holds a complete
        # Pati.  Otherwise chance is to move, or nobody.
        return _NOBODY

    def deciding_privately(self, state: MahabharataState) -> frozenset[Seat]:
        # R14: the players asked to announce or pass owe a decision (with a
        # clock and reminders), but the channel may not learn who they are.
        return state.pending if state.phase == ANNOUNCE else frozenset()

    def _current_picker(self, state: MahabharataState) -> Seat:
        assert state.elephant is not None
        return _snake(state.num_players, state.elephant)[state.picks]

    # ----- legal actions ---------------------------------------------------

    def chance_outcomes(self, state: MahabharataState) -> list[tuple[MahabharataAction, Fraction]]:
        phase = state.phase
        if phase == ROLL:
            return list(self._roll_outcomes[state.faces.index(None)])
        if phase == SETUP:
            # R4: uniform over the cards left in the deck.  The same action
            # and Fraction objects each time, so sample_chance finds its
            # table of odds for them.
            drawn = state.drawn
            left = [a for i, a in enumerate(self._draws) if i not in drawn]
            p = _one_in(len(left))
            return [(a, p) for a in left]
        if phase == FIRST:
            # R5: the elephant goes to a seat chosen by chance.
            return list(_first_outcomes(state.num_players))
        return []

    def legal_actions(self, state: MahabharataState, seat: Seat) -> list[MahabharataAction]:
        phase = state.phase
        if phase == DRAFT:
            assert state.elephant is not None
            if seat != _snake(state.num_players, state.elephant)[state.picks]:
                return []
            # A copy: the state keeps its list (see _legal).
            legal = state.__dict__.get(_LEGAL)
            if legal is None:
                legal = state.__dict__[_LEGAL] = self._picks(state, seat)
            return legal.copy()
        if phase == ANNOUNCE:
            return [_ANNOUNCE, _PASS] if seat in state.pending else []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes(state)]
        return []

    def choices_are_public(self, state: MahabharataState, seat: Seat) -> bool:
        """Which dice a picker is offered, and what under each, depends on
        their supply, which R14 keeps private (the public sees only how many
        tokens are left): a die whose token kind has run out is not offered
        (R9), and a Raja die lists only kinds still in supply.  So the choices
        are public only when the public view settles every such question.
        Chance's leader draws and rolls are public; so are the (empty)
        choices of seats not to move.  In the announce phase who is asked
        reveals a complete Pati (R14), so nothing there is public.
        """
        if state.phase == ANNOUNCE:
            return False
        if state.phase != DRAFT or seat != self._current_picker(state):
            return True
        return self._supply_settled(state, seat)

    def _supply_settled(self, state: MahabharataState, seat: Seat) -> bool:
        """Whether the public view alone tells, for every token kind a
        remaining die could place for ``seat``, if any is left in supply.

        Public: the tokens the seat put on leaders and how many are behind its
        screen (R14), so supply of kind k lies between ``count - on leaders -
        screen`` and ``count - on leaders``; it is known to be non-zero when
        the lower bound is above 0 and known to be zero when the upper is 0.
        Computed from public facts only, never from ``state.supply``.
        """
        c = self.components
        on_leaders = [0] * len(c.tokens)
        for spaces in state.spaces:
            for owner, stack in spaces:
                if owner == seat:
                    for k in stack:
                        on_leaders[k] += 1
        behind = sum(state.screens[seat])
        open_ = self._open_spaces(state, seat)
        for d in range(self._n_dice):
            if state.taken[d] is not None:
                continue
            face = state.faces[d]
            if face == RAJA:
                kinds = [k for k, cls in enumerate(c.token_class) if open_[cls]]
            elif face is not None:
                kinds = [c.token_index[face]]
            else:
                kinds = []
            for k in kinds:
                most = c.tokens[k].count - on_leaders[k]
                if most > 0 and most - behind <= 0:
                    return False
        return True

    def _open_spaces(self, state: MahabharataState, seat: Seat) -> dict[str, list[int]]:
        """Per icon class, the table-wide space numbers the seat may use (R8)."""
        first = self._first_space
        classes = self._space_class
        open_: dict[str, list[int]] = {c: [] for c in CLASSES}
        for li, spaces in zip(state.leaders, state.spaces, strict=True):
            base = first[li]
            for j, (owner, _) in enumerate(spaces):
                # R8: another player's token closes the space; our own stacks.
                if owner is None or owner == seat:
                    open_[classes[base + j]].append(base + j)
        return open_

    def _legal(self, state: MahabharataState, picker: Seat) -> list[MahabharataAction]:
        """The picks of ``picker``, the seat to pick in a draft state, in
        the order ``legal_actions`` lists them.

        Computed once per state and kept in its ``__dict__`` under
        :data:`_LEGAL` (states are immutable, so it never goes stale; every
        state built from another drops it, see :func:`_fields_of`): a
        playout or a search lists the picks and then ``apply`` asks whether
        a forced empty pick (R9) is legal, from the same list.  Callers get
        copies (``legal_actions``) or only read it.
        """
        legal: list[MahabharataAction] | None = state.__dict__.get(_LEGAL)
        if legal is None:
            legal = state.__dict__[_LEGAL] = self._picks(state, picker)
        return legal

    def _picks(self, state: MahabharataState, seat: Seat) -> list[MahabharataAction]:
        """Dice ascending; per die the screen, then the open spaces of its
        token's class (leaders in table order, spaces ascending), for a
        Raja die kind by kind in table order.  One function on small
        integers and prebuilt actions: it runs for every pick of a playout.
        :meth:`_picks_in_state_order` is the plain version (and the
        reference the tests compare this one with)."""
        masks = state.__dict__.get(_OPEN) or self._open_masks(state)
        if masks is None:
            return self._picks_in_state_order(state, seat)
        # Per class index: what picks a die's placements (a row of
        # _leader_actions) onto the spaces of that class the seat may use
        # (R8), ascending; None when there is none.
        usable = masks[0] | masks[1][seat]
        cached = self._getters.get
        new = self._getter
        # Unrolled over the four classes (CLASSES): getters are truthy.
        chariot, elephant, cavalry, infantry = self._class_masks
        chariot &= usable
        elephant &= usable
        cavalry &= usable
        infantry &= usable
        getters = (
            (cached(chariot) or new(chariot)) if chariot else None,
            (cached(elephant) or new(elephant)) if elephant else None,
            (cached(cavalry) or new(cavalry)) if cavalry else None,
            (cached(infantry) or new(infantry)) if infantry else None,
        )
        supply = state.supply[seat]
        kind_class = self._kind_class
        taken = state.taken
        faces = state.faces
        face_kind = self._face_kind
        screens = self._screen_actions
        table = self._leader_actions
        out: list[MahabharataAction] = []
        raja: list[tuple[int, _Getter]] | None = None
        for d in range(self._n_dice):
            if taken[d] is not None:
                continue
            k = face_kind[faces[d]]
            assert k != -2  # every die is rolled before the draft (R6)
            rows = table[d]
            if k >= 0:
                if supply[k]:
                    out.append(screens[d])
                    getter = getters[kind_class[k]]
                    if getter is not None:
                        out += getter(rows[k])
            else:
                # R8: a Raja: any token from supply onto a matching leader
                # space.  The kinds that have one are the same for every
                # Raja die.
                if raja is None:
                    raja = []
                    for k, left in enumerate(supply):
                        getter = getters[kind_class[k]]
                        if left and getter is not None:
                            raja.append((k, getter))
                for k, getter in raja:
                    out += getter(rows[k])
        if out:
            return out
        # R9: nothing can be placed: take any remaining die, place nothing.
        return [self._nothing_actions[d] for d in range(self._n_dice) if taken[d] is None]

    def _getter(self, bits: int) -> _Getter:
        """What picks the items of a mask's space numbers, ascending, out of
        a row of :attr:`_leader_actions`, always as a tuple (kept: few
        masks recur)."""
        sids: list[int] = []
        rest = bits
        while rest:
            low = rest & -rest  # the lowest bit set
            sids.append(low.bit_length() - 1)
            rest ^= low
        # itemgetter of one index gives the item itself; of a slice, a tuple.
        getter = itemgetter(*sids) if len(sids) > 1 else itemgetter(slice(sids[0], sids[0] + 1))
        if len(self._getters) >= _PATI_CACHE_SIZE:
            self._getters.clear()  # bounded memory in a long-running bot
        self._getters[bits] = getter
        return getter

    def _picks_in_state_order(self, state: MahabharataState, seat: Seat) -> list[MahabharataAction]:
        """:meth:`_picks` the plain way, spaces in the state's leader order."""
        c = self.components
        supply = state.supply[seat]
        open_ = self._open_spaces(state, seat)
        table = self._leader_actions
        out: list[MahabharataAction] = []
        untaken: list[int] = []
        for d in range(self._n_dice):
            if state.taken[d] is not None:
                continue
            untaken.append(d)
            face = state.faces[d]
            assert face is not None
            if face == RAJA:
                # R8: any token from supply onto a matching leader space.
                for k, cls in enumerate(c.token_class):
                    if supply[k]:
                        row = table[d][k]
                        out.extend([row[sid] for sid in open_[cls]])
            else:
                k = c.token_index[face]
                if supply[k]:
                    out.append(self._screen_actions[d])
                    row = table[d][k]
                    out.extend([row[sid] for sid in open_[c.token_class[k]]])
        if out:
            return out
        # R9: nothing can be placed: take any remaining die, place nothing.
        return [self._nothing_actions[d] for d in untaken]

    def _open_masks(self, state: MahabharataState) -> tuple[int, tuple[int, ...]] | None:
        """R8: the leader spaces nobody holds and those each seat holds, as
        bit masks over the table-wide space numbers (bit order is the order
        ``legal_actions`` lists spaces in): a seat may use the free ones and
        its own.  Kept in the state (:data:`_OPEN`).  ``None`` when the
        leaders are not in table order (only a state edited by hand), where
        bit order would not be list order."""
        masks: tuple[int, tuple[int, ...]] | None = state.__dict__.get(_OPEN)
        if masks is not None:
            return masks
        leaders = state.leaders
        if any(a >= b for a, b in itertools.pairwise(leaders)):
            return None
        n = state.num_players
        free = 0
        own = [0] * n
        for li, row in zip(leaders, state.spaces, strict=True):
            for (sid, _), (owner, _) in zip(self._leader_spaces[li], row, strict=True):
                if owner is None:
                    free |= 1 << sid
                elif 0 <= owner < n:
                    own[owner] |= 1 << sid
        masks = state.__dict__[_OPEN] = (free, tuple(own))
        return masks

    def _can_place(self, state: MahabharataState, seat: Seat, die: int) -> bool:
        c = self.components
        supply = state.supply[seat]
        face = state.faces[die]
        if face is None:
            return False
        if face != RAJA:
            # The screen always takes a non-Raja token that is in supply.
            return supply[c.token_index[face]] > 0
        classes = {c.token_class[k] for k, n in enumerate(supply) if n}
        for li, spaces in zip(state.leaders, state.spaces, strict=True):
            icons = c.leaders[li].icons
            for j, (owner, _) in enumerate(spaces):
                if icons[j] in classes and (owner is None or owner == seat):
                    return True
        return False

    # ----- apply ----------------------------------------------------------

    def apply(
        self, state: MahabharataState, seat: Seat, action: MahabharataAction
    ) -> MahabharataState:
        phase = state.phase
        if phase == ROLL and seat == CHANCE:
            # The engine's own outcome for the die to roll next (as from
            # chance_outcomes), found by identity; anything else is checked
            # the long way.
            info = self._roll_info.get(id(action))
            faces = state.faces
            if info is not None and faces.index(None) == info[0]:
                d = info[0]
                # _fields_of, inline (speed); a rolling state lists no picks.
                fields = state.__dict__.copy()
                new_faces = list(faces)
                new_faces[d] = info[1]
                fields["faces"] = tuple(new_faces)
                if d + 1 == self._n_dice:
                    fields["phase"] = DRAFT  # R6: all eight dice are rolled
                after: MahabharataState = _new_state(MahabharataState)
                _set_field(after, "__dict__", fields)
                return after
            return self._apply_roll(state, action)
        if phase == OVER:
            raise IllegalAction("The game is over.")
        if phase == DRAFT:
            assert state.elephant is not None
            if seat != _snake(state.num_players, state.elephant)[state.picks]:
                raise NotYourTurn("It is not your turn: another player is choosing a die.")
            fast = self._listed_pick(state, seat, action)
            if fast is not None:
                return fast
            if not isinstance(action, _PICKS):
                raise IllegalAction(f"It is time to take a die. {_HELP}")
            return self._apply_pick(state, seat, action)
        if phase == ANNOUNCE:
            if seat not in state.pending:
                if 0 <= seat < state.num_players and state.announced[seat]:
                    raise NotYourTurn("You have already announced.")
                raise NotYourTurn(
                    "It is not your turn: the round is over and players are being asked "
                    "in private whether to announce a Pati."
                )
            if isinstance(action, Announce):
                announced = list(state.announced)
                announced[seat] = True
                state = _replace(state, announced=tuple(announced))
            elif not isinstance(action, Pass):
                raise IllegalAction("The round is over: answer 'announce' or 'pass'.")
            state = _replace(state, pending=state.pending - {seat})
            if state.pending:
                # R10: everybody asked decides before the round is settled.
                return state
            return self._end_of_round(state)
        # SETUP, FIRST, ROLL: chance acts.
        if seat != CHANCE:
            what = "the dice are being rolled" if phase == ROLL else "the game is being set up"
            raise NotYourTurn(f"It is not your turn: {what}.")
        if phase == SETUP:
            return self._apply_draw(state, action)
        return self._apply_first(state, action)

    def _apply_draw(self, state: MahabharataState, action: MahabharataAction) -> MahabharataState:
        c = self.components
        # The engine's own draws (as from chance_outcomes) by identity.
        i = self._draw_index.get(id(action))
        if i is None:
            if not isinstance(action, DrawLeader):
                raise IllegalAction("A leader card is to be drawn now.")
            i = c.leader_index.get(action.leader)
            if i is None:
                raise IllegalAction(f"There is no leader called {excerpt(action.leader)}.")
        if i in state.drawn:
            raise IllegalAction(f"{c.leaders[i].name} has already been drawn.")
        drawn = (*state.drawn, i)
        vps = tuple(map(self._vps.__getitem__, drawn))
        # R4: after four cards, keep drawing while below 18; at or above 18
        # keep the best subset making exactly 18, or draw on if none does.
        if len(drawn) >= SETUP_DRAW and sum(vps) >= TARGET_VP:
            keep = keep_for_eighteen(vps)
            if keep is not None:
                leaders = tuple(sorted(drawn[k] for k in keep))
                return _replace(
                    state,
                    phase=FIRST,
                    drawn=drawn,
                    leaders=leaders,
                    spaces=tuple((_EMPTY_SPACE,) * len(c.leaders[li].icons) for li in leaders),
                )
        if len(drawn) == len(c.leaders):
            # R4: the deck is empty: start over.  A validated table always has
            # an 18 subset among all cards, so this cannot happen with one.
            drawn = ()
        return _replace(state, drawn=drawn)

    def _apply_first(self, state: MahabharataState, action: MahabharataAction) -> MahabharataState:
        if not isinstance(action, ChooseFirst):
            raise IllegalAction("The first player is to be chosen now.")
        if not 0 <= action.seat < state.num_players:
            raise IllegalAction("There is no such seat.")
        return _replace(state, phase=ROLL, round=1, elephant=action.seat)

    def _apply_roll(self, state: MahabharataState, action: MahabharataAction) -> MahabharataState:
        if not isinstance(action, Roll):
            raise IllegalAction("The dice are to be rolled now.")
        d = state.faces.index(None)
        if action.die != d + 1:
            raise IllegalAction(f"Die {d + 1} is to be rolled next.")
        if action.face not in self.components.dice[d].faces:
            raise IllegalAction(f"Die {d + 1} has no {self._face_name(action.face)} face.")
        faces = _set(state.faces, d, action.face)
        # R6: all eight dice are rolled, then the draft begins.
        return _replace(state, faces=faces, phase=DRAFT if d + 1 == self._n_dice else ROLL)

    def _listed_pick(
        self, state: MahabharataState, seat: Seat, action: MahabharataAction
    ) -> MahabharataState | None:
        """``apply`` of a pick for the picker ``seat`` when ``action`` is one
        of the engine's own pick objects (as ``legal_actions`` lists them)
        and legal here, found by identity and checked on small integers;
        ``None`` for anything else, which :meth:`_apply_pick` checks the
        long way and refuses in words.  The same rules: the die is not
        taken; a screen takes a non-Raja die's token from supply (R7); a
        leader space takes a token of its class from supply, the die's own
        or any for a Raja, unless another player holds it (R8); nothing is
        placed only when nothing can be (R9)."""
        info = self._pick_info.get(id(action))
        if info is None:
            return None
        what, d, k, li, j, sid, lasts = info
        taken = state.taken
        if taken[d] is not None:
            return None
        face = state.faces[d]
        if face is None:
            return None  # not rolled: only a state edited by hand
        fk = self._face_kind[face]
        supplies = state.supply
        supply = supplies[seat]
        fields = state.__dict__.copy()  # _fields_of, inline (speed)
        fields.pop(_LEGAL, None)
        # Tuples are rebuilt inline below as list copies (no helper calls,
        # no slices): this runs for every pick of a playout.
        if what == _TO_LEADER:
            if (fk != k and fk != -1) or not supply[k]:
                return None
            try:
                pos = state.leaders.index(li)
            except ValueError:
                return None  # not in play
            spaces = state.spaces
            row = spaces[pos]
            owner, stack = row[j]
            if owner is not None and owner != seat:
                return None
            new_row = list(row)
            new_row[j] = (seat, (*stack, k))
            new_spaces = list(spaces)
            new_spaces[pos] = tuple(new_row)
            fields["spaces"] = tuple(new_spaces)
            fields["supply"] = _one_fewer(supplies, seat, k)
            if owner is None:
                # The space closes to everybody else (R8): keep the masks
                # (carried over by _fields_of) right.
                masks = fields.get(_OPEN)
                if masks is not None:
                    own = list(masks[1])
                    bit = 1 << sid
                    own[seat] |= bit
                    fields[_OPEN] = (masks[0] & ~bit, tuple(own))
        elif what == _TO_SCREEN:
            if fk < 0 or not supply[fk]:
                return None
            new_screen = list(state.screens[seat])
            new_screen[fk] += 1
            new_screens = list(state.screens)
            new_screens[seat] = tuple(new_screen)
            fields["screens"] = tuple(new_screens)
            fields["supply"] = _one_fewer(supplies, seat, fk)
        elif not isinstance(self._legal(state, seat)[0], TakeNothing):
            return None
        new_taken = list(taken)
        new_taken[d] = seat
        fields["taken"] = tuple(new_taken)
        picks = fields["picks"] = state.picks + 1
        # The same LastPick object for the same pick by the same seat of the
        # same face (immutable, so states share it).
        last = lasts.get(seat * _FACE_KEYS + fk + 1)
        if last is None:
            last = lasts[seat * _FACE_KEYS + fk + 1] = self._new_last_pick(
                seat, what, d, face, li, j, k
            )
        fields["last_pick"] = last
        after: MahabharataState = _new_state(MahabharataState)
        _set_field(after, "__dict__", fields)
        if picks < 2 * state.num_players:
            return after
        return self._round_over(after)

    def _new_last_pick(
        self, seat: Seat, what: int, d: int, face: str, li: int, j: int, k: int
    ) -> LastPick:
        if what == _TO_LEADER:
            return LastPick(seat, d + 1, face, PLACED_LEADER, li, j + 1, self._kinds[k])
        # R14: a screen's token is not recorded.
        return LastPick(seat, d + 1, face, PLACED_SCREEN if what == _TO_SCREEN else PLACED_NOTHING)

    def _apply_pick(
        self,
        state: MahabharataState,
        seat: Seat,
        action: PlaceScreen | PlaceLeader | TakeNothing,
    ) -> MahabharataState:
        c = self.components
        d = action.die - 1
        if not 0 <= d < self._n_dice:
            raise IllegalAction(
                f"There is no die {action.die}; the dice are d1 to d{self._n_dice}."
            )
        if state.taken[d] is not None:
            raise IllegalAction(f"Die {action.die} has already been taken this round.")
        face = state.faces[d]
        assert face is not None
        supply = state.supply[seat]
        if isinstance(action, TakeNothing):
            # R9: forced choice.
            for other in range(self._n_dice):
                if state.taken[other] is None and self._can_place(state, seat, other):
                    raise IllegalAction(
                        f"You must take a die you can place (die {other + 1} can be placed); "
                        f"'d{action.die} none' is only allowed when no remaining die can be."
                    )
            last = LastPick(seat, action.die, face, PLACED_NOTHING)
            return self._after_pick(state, seat, d, state.supply, state.screens, state.spaces, last)
        if isinstance(action, PlaceScreen):
            if face == RAJA:
                raise IllegalAction(
                    "A Raja die cannot be used for your Pati: place it on a leader."
                )
            k = c.token_index[face]
            if not supply[k]:
                raise IllegalAction(f"You have no {self._token_name(face)} tokens left.")
            screen = state.screens[seat]
            screens = _set(state.screens, seat, _set(screen, k, screen[k] + 1))
            supplies = _set(state.supply, seat, _set(supply, k, supply[k] - 1))
            # R14: the die is public, but the token is not recorded.
            last = LastPick(seat, action.die, face, PLACED_SCREEN)
            return self._after_pick(state, seat, d, supplies, screens, state.spaces, last)
        # PlaceLeader
        token = action.token
        if face == RAJA:
            if token is None:
                raise IllegalAction(
                    f"Die {action.die} is a Raja: name the token to place, "
                    f"e.g. 'd{action.die} {action.leader}.{action.space} cav2'."
                )
        elif token is None:
            token = face
        elif token != face:
            raise IllegalAction(
                f"Die {action.die} shows {self._face_name(face)}, so it places a "
                f"{self._face_name(face)} token; only a Raja die lets you choose."
            )
        k_or_none = c.token_index.get(token)
        if k_or_none is None:
            raise IllegalAction(f"There is no token kind {excerpt(token)}.")
        k = k_or_none
        if not supply[k]:
            raise IllegalAction(f"You have no {self._token_name(token)} tokens left.")
        li = c.leader_index.get(action.leader)
        if li is None or li not in state.leaders:
            raise IllegalAction(f"{self._leader_name(action.leader)} is not in play.")
        pos = state.leaders.index(li)
        spec = c.leaders[li]
        if not 1 <= action.space <= len(spec.icons):
            raise IllegalAction(f"{spec.name} has only {plural(len(spec.icons), 'space')}.")
        j = action.space - 1
        icon = spec.icons[j]
        if icon != c.token_class[k]:
            raise IllegalAction(
                f"Space {action.space} of {spec.name} takes {CLASS_WORD[icon]}, "
                f"not {CLASS_WORD[c.token_class[k]]}."
            )
        owner, stack = state.spaces[pos][j]
        if owner is not None and owner != seat:
            raise IllegalAction(
                f"Space {action.space} of {spec.name} holds another player's token."
            )
        spaces = _set(state.spaces, pos, _set(state.spaces[pos], j, (seat, (*stack, k))))
        supplies = _set(state.supply, seat, _set(supply, k, supply[k] - 1))
        last = LastPick(seat, action.die, face, PLACED_LEADER, li, action.space, token)
        return self._after_pick(state, seat, d, supplies, state.screens, spaces, last)

    def _after_pick(
        self,
        state: MahabharataState,
        seat: Seat,
        d: int,
        supply: tuple[tuple[int, ...], ...],
        screens: tuple[tuple[int, ...], ...],
        spaces: tuple[tuple[Space, ...], ...],
        last: LastPick,
    ) -> MahabharataState:
        picks = state.picks + 1
        state = _replace(
            state,
            taken=_set(state.taken, d, seat),
            picks=picks,
            supply=supply,
            screens=screens,
            spaces=spaces,
            last_pick=last,
        )
        if picks < 2 * state.num_players:
            return state
        return self._round_over(state)

    def _round_over(self, state: MahabharataState) -> MahabharataState:
        # R10: the round is over; those with a complete Pati are asked.
        cache = self._pati_cache
        holders: list[Seat] = []
        for s, screen in enumerate(state.screens):
            missing = cache.get(screen)
            if missing is None:
                missing = self.pati_missing(screen)
            if not missing:
                holders.append(s)
        if holders:
            return _replace(state, phase=ANNOUNCE, pending=frozenset(holders))
        return self._end_of_round(state)

    def _end_of_round(self, state: MahabharataState) -> MahabharataState:
        reasons: list[str] = []
        if any(state.announced):
            reasons.append("A Pati was announced.")
        masks = self._open_masks(state)
        # No free space left (R8 masks) is every space holding a token.
        if masks[0] == 0 if masks is not None else self._all_spaces_filled(state):
            total = sum(len(sp) for sp in state.spaces)
            reasons.append(f"All {total} leader spaces hold a token.")
        if not any(map(any, state.supply)):
            # Added to R10: nothing can change any more (see module docstring).
            reasons.append("No player has a token left to place.")
        if reasons:
            return _replace(state, phase=OVER, pending=frozenset(), reason=" ".join(reasons))
        assert state.elephant is not None
        # R5: the elephant passes to the left; R6: a new roll.
        fields = _fields_of(state)
        fields["phase"] = ROLL
        fields["round"] = state.round + 1
        fields["elephant"] = (state.elephant + 1) % state.num_players
        fields["faces"] = fields["taken"] = self._unrolled
        fields["picks"] = 0
        fields["pending"] = _NOBODY
        return _build(fields)

    @staticmethod
    def _all_spaces_filled(state: MahabharataState) -> bool:
        return all(owner is not None for spaces in state.spaces for owner, _ in spaces)

    # ----- scoring --------------------------------------------------------

    def pati_missing(self, screen: tuple[int, ...]) -> tuple[str, ...]:
        """R11: what the screen lacks for a Pati (empty when complete).

        Per class, some subset of the tokens must show exactly the target
        number of icons; extra tokens do not spoil it.
        """
        cached = self._pati_cache.get(screen)
        if cached is not None:
            return cached
        c = self.components
        missing: list[str] = []
        for cls, target, text in PATI:
            reachable = 1  # bit i set: a subset shows exactly i icons
            mask = (1 << (target + 1)) - 1
            for k in c.kinds_by_class[cls]:
                for _ in range(screen[k]):
                    reachable = (reachable | (reachable << c.tokens[k].icons)) & mask
            if not reachable >> target & 1:
                missing.append(text)
        result = tuple(missing)
        if len(self._pati_cache) >= _PATI_CACHE_SIZE:
            self._pati_cache.clear()  # bounded memory in a long-running bot
        self._pati_cache[screen] = result
        return result

    def _influence(self, state: MahabharataState, pos: int) -> tuple[int, ...]:
        counts = [0] * state.num_players
        for owner, stack in state.spaces[pos]:
            if owner is not None:
                counts[owner] += len(stack)
        return tuple(counts)

    def _score(
        self, state: MahabharataState
    ) -> tuple[tuple[int, ...], tuple[bool, ...], tuple[Seat | None, ...]]:
        pati = tuple(not self.pati_missing(s) for s in state.screens)
        scores = [PATI_VP if p else 0 for p in pati]
        winners: list[Seat | None] = []
        for pos, li in enumerate(state.leaders):
            w = leader_winner(self._influence(state, pos))
            winners.append(w)
            if w is not None:
                scores[w] += self.components.leaders[li].vp
        return tuple(scores), pati, tuple(winners)

    def outcome(self, state: MahabharataState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores, _, _ = self._score(state)
        return Outcome(ranking=rank_scores(scores), scores=scores, reason=state.reason)

    # ----- view -----------------------------------------------------------

    def view(self, state: MahabharataState, seat: Seat | None) -> MahabharataView:
        c = self.components
        n = state.num_players
        kinds = [t.kind for t in c.tokens]
        leaders: list[LeaderView] = []
        if state.leaders:
            for pos, li in enumerate(state.leaders):
                spec = c.leaders[li]
                spaces = tuple(
                    SpaceView(spec.icons[j], owner, tuple(kinds[k] for k in stack))
                    for j, (owner, stack) in enumerate(state.spaces[pos])
                )
                leaders.append(
                    LeaderView(spec.number, spec.name, spec.vp, spaces, self._influence(state, pos))
                )
        else:
            # Setup: the cards drawn so far, in draw order, all empty.
            for li in state.drawn:
                spec = c.leaders[li]
                spaces = tuple(SpaceView(icon, None, ()) for icon in spec.icons)
                leaders.append(LeaderView(spec.number, spec.name, spec.vp, spaces, (0,) * n))
        dice = tuple(
            DieView(d + 1, c.dice[d].kind, state.faces[d], state.taken[d])
            for d in range(self._n_dice)
        )
        players = tuple(
            PlayerView(
                seat=s,
                screen_count=sum(state.screens[s]),
                supply_count=sum(state.supply[s]),
                dice_taken=sum(1 for t in state.taken if t == s),
                announced=state.announced[s],
            )
            for s in range(n)
        )
        if state.phase == ANNOUNCE:
            # R14: only the viewer may learn that they are being asked.
            waiting: tuple[Seat, ...] = (seat,) if seat in state.pending else ()
        else:
            waiting = tuple(sorted(self.waiting_on(state)))
        final: FinalView | None = None
        if state.phase == OVER:
            scores, pati, winners = self._score(state)
            final = FinalView(
                scores=scores,
                pati=pati,
                screens=tuple(self._screen_kinds(s) for s in state.screens),
                leader_winners=winners,
                ranking=tuple(tuple(sorted(g)) for g in rank_scores(scores)),
                reason=state.reason,
            )
        me: ScreenView | None = None
        if seat is not None and 0 <= seat < n:
            screen = state.screens[seat]
            missing = self.pati_missing(screen)
            me = ScreenView(
                seat=seat,
                screen=self._screen_kinds(screen),
                supply=tuple(zip(kinds, state.supply[seat], strict=True)),
                pati_complete=not missing,
                pati_missing=missing,
            )
        last_pick: LastPickView | None = None
        lp = state.last_pick
        if lp is not None:
            last_pick = LastPickView(
                seat=lp.seat,
                die=lp.die,
                face=lp.face,
                placed=lp.placed,
                leader_index=state.leaders.index(lp.leader) if lp.leader is not None else None,
                space=lp.space,
                # R14: never the token behind a screen (the state holds none).
                token=lp.token if lp.placed == PLACED_LEADER else None,
            )
        return MahabharataView(
            num_players=n,
            phase=SETUP if state.phase in (SETUP, FIRST) else state.phase,
            round=state.round,
            elephant=state.elephant,
            waiting_on=waiting,
            leaders=tuple(leaders),
            dice=dice,
            players=players,
            draft_order=_snake(n, state.elephant) if state.elephant is not None else (),
            picks_made=state.picks,
            final=final,
            me=me,
            last_pick=last_pick,
        )

    # ----- search (issue 19) ---------------------------------------------

    def determinize(
        self, state: MahabharataState, seat: Seat, draw: Callable[[], float]
    ) -> MahabharataState:
        """A state ``seat`` cannot tell from ``state``: every other seat's
        screen dealt afresh (:class:`bot.engines.core.Determinizes`).

        R14: of another seat the public sees how many tokens are behind its
        screen and the tokens it put on leaders, nothing else.  Each kind
        starts with ``count`` tokens (R1), so per kind ``count - on leaders``
        tokens lie behind the screen or in supply; the screen's tokens are
        drawn from those without replacement and the rest is its supply.
        The latest pick, when it went behind a screen, shows its die's face
        (R14: the die is public), so that screen keeps one such token.  Read
        from ``state``: the board, the screen sizes, the latest pick and this
        seat's own screen and supply; never another screen or supply.

        In the announce phase who else is asked is hidden too (R10, R14: it
        tells who holds a complete Pati), so it is derived from the dealt
        screens by the rule that opens the phase: another seat is asked when
        its dealt screen holds a complete Pati and it has not announced (an
        announcement is public and ends its decision).  The deal fits what is
        public there (see :meth:`_deal_for_announce`).  ``seat``'s own
        decision stays as it is.  Nothing else is hidden: the leader deck is
        drawn by chance (R4) and dice are rolled by chance (R6), both at
        their turn.  A finished game shows every screen, so it is returned
        as it is.
        """
        n = state.num_players
        others = [s for s in range(n) if s != seat and any(state.screens[s])]
        if state.phase == OVER or not others:
            # An empty screen hides nothing: its supply is the public
            # ``count - on leaders`` of each kind (and it holds no Pati, so
            # in the announce phase its seat is not asked).
            return state
        k_count = len(self._token_counts)
        on_leaders = [[0] * k_count for _ in range(n)]
        for spaces in state.spaces:
            for owner, stack in spaces:
                if owner is not None:
                    row = on_leaders[owner]
                    for k in stack:
                        row[k] += 1
        last = state.last_pick
        shown = -1  # the seat whose latest pick went behind its screen
        shown_kind = 0
        if last is not None and last.placed == PLACED_SCREEN:
            shown = last.seat
            shown_kind = self.components.token_index[last.face]
        # Per other seat: the hidden tokens left to deal (R1, R14: behind the
        # screen or in supply), the tokens known to be behind the screen, and
        # how many more the screen holds (public, R14).
        deals: dict[Seat, tuple[list[int], list[int], int]] = {}
        for s in others:
            pool = [c - m for c, m in zip(self._token_counts, on_leaders[s], strict=True)]
            known = [0] * k_count
            size = sum(state.screens[s])
            if s == shown:
                known[shown_kind] = 1
                pool[shown_kind] -= 1
                size -= 1
            deals[s] = (pool, known, size)
        if state.phase == ANNOUNCE:
            dealt = self._deal_for_announce(state, seat, deals, draw)
        else:
            dealt = {s: self._deal_screen(*deals[s], draw) for s in others}
        screens = list(state.screens)
        supply = list(state.supply)
        for s, screen in dealt.items():
            pool, known, _ = deals[s]
            screens[s] = screen
            supply[s] = tuple(p + k - b for p, k, b in zip(pool, known, screen, strict=True))
        state = _replace(state, screens=tuple(screens), supply=tuple(supply))
        if state.phase != ANNOUNCE:
            return state
        # R10: the rule that opens the phase, on the dealt screens.
        asked = {
            s for s in others if not state.announced[s] and not self.pati_missing(state.screens[s])
        }
        return _replace(state, pending=frozenset(asked | (state.pending & {seat})))

    @staticmethod
    def _deal_screen(
        pool: list[int], known: list[int], size: int, draw: Callable[[], float]
    ) -> tuple[int, ...]:
        """``size`` tokens drawn from ``pool`` without replacement, plus the
        ``known`` ones."""
        tokens = [k for k, count in enumerate(pool) for _ in range(count)]
        screen = list(known)
        # Partial Fisher-Yates: ``size`` distinct tokens of the pool.
        m = len(tokens)
        for i in range(size):
            j = i + min(int(draw() * (m - i)), m - i - 1)
            tokens[i], tokens[j] = tokens[j], tokens[i]
            screen[tokens[i]] += 1
        return tuple(screen)

    def _deal_for_announce(
        self,
        state: MahabharataState,
        seat: Seat,
        deals: Mapping[Seat, tuple[list[int], list[int], int]],
        draw: Callable[[], float],
    ) -> dict[Seat, tuple[int, ...]]:
        """The other screens in the announce phase, dealt to fit what is
        public there: a seat that announced holds a complete Pati (R10), and
        while the phase lasts somebody is still asked, so when ``seat`` is
        not (any more), at least one other seat that has not announced holds
        one.  The deals that fit keep the odds they have among all deals
        (:meth:`_deal_screen`): whether a seat gets a Pati is drawn first,
        from its share of the deals that fit, then its screen as a whole
        from the weights of :class:`_PatiDeals`.
        """
        tables = {s: _PatiDeals(self, *deals[s]) for s in deals}
        free = [s for s in deals if not state.announced[s]]
        # Public: the phase is not over, so somebody still owes a decision.
        need_one = seat not in state.pending
        dealt: dict[Seat, tuple[int, ...]] = {}
        for s, table in tables.items():
            want: bool | None = None
            if state.announced[s]:
                want = True
            elif need_one:
                later = free[free.index(s) + 1 :]
                any_later = math.prod(tables[t].weight(None) for t in later)
                none_later = math.prod(tables[t].weight(False) for t in later)
                with_pati = table.weight(True) * any_later
                without = table.weight(False) * (any_later - none_later)
                if with_pati + without:
                    want = draw() * (with_pati + without) < with_pati
                    need_one = not want
            if want is not None and not table.weight(want):
                want = None  # only a state edited by hand gets here
            dealt[s] = table.sample(want, draw)
        return dealt

    def _class_deals(
        self, cls: str, target: int, pool: tuple[int, ...], known: tuple[int, ...]
    ) -> _Groups:
        """The draws of one icon class for a screen (R11), grouped by
        (tokens drawn, whether the class is complete): each as per-kind
        counts (the class's kinds in table order) with its number of ways,
        ``comb(pool, drawn)`` per kind, and the group's total."""
        key = (cls, pool, known)
        cached = self._class_deal_cache.get(key)
        if cached is not None:
            return cached
        c = self.components
        kinds = c.kinds_by_class[cls]
        mask = (1 << (target + 1)) - 1
        found: dict[tuple[int, bool], list[tuple[tuple[int, ...], int]]] = {}
        for drawn in itertools.product(*(range(p + 1) for p in pool)):
            ways = 1
            reachable = 1  # bit i set: a subset shows exactly i icons (R11)
            for k, p, b, x in zip(kinds, pool, known, drawn, strict=True):
                ways *= math.comb(p, x)
                for _ in range(b + x):
                    reachable = (reachable | (reachable << c.tokens[k].icons)) & mask
            found.setdefault((sum(drawn), bool(reachable >> target & 1)), []).append((drawn, ways))
        groups: _Groups = {
            key2: (tuple(x for x, _ in rows), tuple(w for _, w in rows), sum(w for _, w in rows))
            for key2, rows in found.items()
        }
        if len(self._class_deal_cache) >= _PATI_CACHE_SIZE:
            self._class_deal_cache.clear()  # bounded memory in a long-running bot
        self._class_deal_cache[key] = groups
        return groups

    def _screen_kinds(self, screen: tuple[int, ...]) -> tuple[str, ...]:
        """Token kinds behind a screen, in table order."""
        return tuple(
            t.kind for t, n in zip(self.components.tokens, screen, strict=True) for _ in range(n)
        )

    # ----- text -----------------------------------------------------------

    def parse(self, state: MahabharataState, seat: Seat, text: str) -> MahabharataAction:
        words = text.strip().lower().split()
        c = self.components
        if words == ["announce"]:
            return _ANNOUNCE
        if words == ["pass"]:
            return _PASS
        if len(words) == 2 and words[0] == "leader":
            if words[1] not in c.leader_index:
                raise InvalidAction(f"There is no leader called {excerpt(words[1])}.")
            return DrawLeader(words[1])
        if len(words) == 2 and words[0] == "first":
            first = whole_number(words[1])
            if first is None:
                raise InvalidAction(f"{excerpt(words[1])} is not a seat number.")
            return ChooseFirst(first)
        if len(words) == 3 and words[0] == "roll":
            die = self._parse_die(words[1], text)
            if words[2] not in self._face_index:
                raise InvalidAction(f"{excerpt(words[2])} is not a die face.")
            return Roll(die, words[2])
        if len(words) in (2, 3) and _DIE_RE.fullmatch(words[0]):
            die = self._parse_die(words[0], text)
            if len(words) == 2 and words[1] == "screen":
                return PlaceScreen(die)
            if len(words) == 2 and words[1] == "none":
                return TakeNothing(die)
            m = _SPACE_RE.fullmatch(words[1])
            if m is not None:
                key = m.group(1)
                if key not in c.leader_index:
                    raise InvalidAction(f"There is no leader called {excerpt(key)}.")
                space = whole_number(m.group(2))
                if space is None:
                    raise InvalidAction(
                        f"{excerpt(words[1])} is not a leader space: try '{key}.2'."
                    )
                token: str | None
                if len(words) == 3:
                    token = words[2]
                    if token not in c.token_index:
                        kinds = ", ".join(t.kind for t in c.tokens)
                        raise InvalidAction(f"{excerpt(token)} is not a token; tokens are {kinds}.")
                else:
                    # The die implies the token unless it is a Raja (R8).
                    face = state.faces[die - 1] if die <= len(state.faces) else None
                    token = face if face is not None and face != RAJA else None
                return PlaceLeader(die, key, space, token)
        raise InvalidAction(f"I don't understand {excerpt(text)}. {_HELP}")

    def _parse_die(self, word: str, text: str) -> int:
        m = _DIE_RE.fullmatch(word)
        if m is None:
            raise InvalidAction(f"I don't understand {excerpt(text)}. {_HELP}")
        die = whole_number(m.group(1))
        if die is None or not 1 <= die <= self._n_dice:
            raise InvalidAction(
                f"There is no die {excerpt(m.group(1))}; the dice are d1 to d{self._n_dice}."
            )
        return die

    def describe(self, state: MahabharataState, seat: Seat, action: MahabharataAction) -> str:
        match action:
            case PlaceScreen(die):
                return f"d{die} screen"
            case PlaceLeader(die, leader, space, token):
                face = state.faces[die - 1] if 0 < die <= len(state.faces) else None
                if token is None or token == face:
                    return f"d{die} {leader}.{space}"
                return f"d{die} {leader}.{space} {token}"
            case TakeNothing(die):
                return f"d{die} none"
            case Announce():
                return "announce"
            case Pass():
                return "pass"
            case DrawLeader(leader):
                return f"leader {leader}"
            case ChooseFirst(s):
                return f"first {s}"
            case Roll(die, face):
                return f"roll d{die} {face}"
        raise InvalidAction(f"Not a Mahabharata action: {action!r}")

    def _die_label(self, state: MahabharataState, die: int) -> str:
        face = state.faces[die - 1] if 0 < die <= len(state.faces) else None
        return f"Die {die} ({self._face_name(face)})"

    def choice_label(self, state: MahabharataState, seat: Seat, prefix: str) -> str:
        """Menu text for a group of actions sharing ``prefix`` (``d3``)."""
        match = _DIE_RE.fullmatch(prefix)
        if match is not None:
            return self._die_label(state, int(match.group(1)))
        # A Raja die's placements on one space, before the token is chosen
        # (``d4 jayadratha.2``): the notation is not a player's words.
        match = _DIE_SPACE_RE.fullmatch(prefix)
        if match is not None:
            die, leader, space = int(match.group(1)), match.group(2), int(match.group(3))
            where = f"{self._leader_name(leader)}, space {space}"
            spec = self._leader_spec(leader)
            if spec is not None and 1 <= space <= len(spec.icons):
                where += f" ({CLASS_WORD[spec.icons[space - 1]]})"
            return f"{self._die_label(state, die)} on {where}"
        return prefix

    def label(self, state: MahabharataState, seat: Seat, action: MahabharataAction) -> str:
        match action:
            case PlaceScreen(die):
                return f"{self._die_label(state, die)} behind your screen"
            case PlaceLeader(die, leader, space, token):
                where = f"{self._leader_name(leader)}, space {space}"
                face = state.faces[die - 1] if 0 < die <= len(state.faces) else None
                if face is not None and face != RAJA and token in (None, face):
                    return f"{self._die_label(state, die)} on {where}"
                # A Raja die: the token is the player's choice, so name it and
                # the space's class.
                spec = self._leader_spec(leader)
                if spec is not None and 1 <= space <= len(spec.icons):
                    where += f" ({CLASS_WORD[spec.icons[space - 1]]})"
                what = self._token_name(token) if token is not None else "a token"
                return f"{self._die_label(state, die)}: {what} on {where}"
            case TakeNothing(die):
                return f"{self._die_label(state, die)}: take it, place nothing"
            case Announce():
                return "Announce your Pati (the game ends)"
            case Pass():
                return "Do not announce"
            case DrawLeader(leader):
                spec = self._leader_spec(leader)
                vp = f" ({spec.vp} victory points)" if spec is not None else ""
                return f"Draw {self._leader_name(leader)}{vp}"
            case ChooseFirst(s):
                return f"{seat_tag(s)} takes the Elephant token"
            case Roll(die, face):
                return f"Die {die} rolls {self._face_name(face)}"
        return self.describe(state, seat, action)

    def narrate(
        self,
        before: MahabharataState,
        seat: Seat,
        action: MahabharataAction,
        after: MahabharataState,
    ) -> str:
        c = self.components
        who = seat_tag(seat)
        text = ""
        match action:
            # The opening draws and every round's eight rolls are said in one
            # line each, when they are complete: one line per card or die
            # buried the board's news under them (the log keeps each step).
            case DrawLeader():
                if after.phase == FIRST:
                    names = ", ".join(
                        f"{c.leaders[li].name} ({c.leaders[li].vp})" for li in after.leaders
                    )
                    text = f"Leaders in play, {TARGET_VP} victory points in all: {names}."
                    aside = [c.leaders[li].name for li in after.drawn if li not in after.leaders]
                    if aside:
                        text += f" Set aside: {', '.join(aside)}."
                elif not after.drawn:
                    text = (
                        f"No set of the leaders drawn makes exactly {TARGET_VP} victory "
                        "points: the draw starts over."
                    )
            case ChooseFirst(s):
                text = f"{seat_tag(s)} takes the Elephant token and picks first."
            case Roll():
                if after.phase != ROLL:
                    faces = ", ".join(self._face_name(f) for f in after.faces)
                    text = f"The dice were rolled: {faces}."
                    if after.phase == DRAFT and after.elephant is not None:
                        text += f" Round {after.round}: {seat_tag(after.elephant)} picks first."
            case PlaceScreen(die):
                # R14: never the token kind.
                text = f"{who} took die {die} and placed a token behind their screen."
            case PlaceLeader(die, leader, space, token):
                raja = " (Raja)" if before.faces[die - 1] == RAJA else ""
                placed = self._token_name(token or before.faces[die - 1] or "")
                text = (
                    f"{who} took die {die}{raja} and placed {placed} on "
                    f"{self._leader_name(leader)}, space {space}."
                )
            case TakeNothing(die):
                text = f"{who} took die {die} but could place nothing."
            case Announce():
                text = f"{who} announced a complete Pati: the game ends."
            case Pass():
                # R14: a pass shows that this seat holds a complete Pati.
                text = ""
        if before.phase == DRAFT and after.phase == ANNOUNCE:
            text += " The round is over; waiting for private decisions."
        if after.phase == OVER and before.phase != OVER:
            text = (text + f" Game over: {after.reason}").strip()
        return text

    def private_to(
        self, before: MahabharataState, seat: Seat, action: MahabharataAction
    ) -> Seat | None:
        # R14: screen placements come from public dice and their text names no
        # token, so they are public.  A pass is only possible with a complete
        # Pati, so its text is kept to the passer.
        if isinstance(action, Pass):
            return seat
        return None

    # ----- serialisation ----------------------------------------------------

    def to_json(self, state: MahabharataState) -> JSON:
        c = self.components
        kinds = [t.kind for t in c.tokens]
        return {
            "players": state.num_players,
            "phase": state.phase,
            "drawn": [c.leaders[i].key for i in state.drawn],
            "leaders": [c.leaders[i].key for i in state.leaders],
            "round": state.round,
            "elephant": state.elephant,
            "faces": list(state.faces),
            "taken": list(state.taken),
            "picks": state.picks,
            "spaces": [
                [{"owner": owner, "tokens": [kinds[k] for k in stack]} for owner, stack in spaces]
                for spaces in state.spaces
            ],
            "screens": [list(self._screen_kinds(s)) for s in state.screens],
            "supply": [dict(zip(kinds, s, strict=True)) for s in state.supply],
            "pending": sorted(state.pending),
            "announced": list(state.announced),
            "reason": state.reason,
            "last_pick": self._last_pick_json(state.last_pick),
        }

    def _last_pick_json(self, last: LastPick | None) -> JSON:
        if last is None:
            return None
        return {
            "seat": last.seat,
            "die": last.die,
            "face": last.face,
            "placed": last.placed,
            "leader": None if last.leader is None else self.components.leaders[last.leader].key,
            "space": last.space,
            "token": last.token,
        }

    def _last_pick_from_json(self, obj: Any, leaders: tuple[int, ...]) -> LastPick | None:
        """Saved states from before ``last_pick`` existed have no key: None."""
        if obj is None:
            return None
        c = self.components
        placed = str(obj["placed"])
        if placed not in _PLACED:
            raise ValueError(f"unknown placement {placed!r}")
        leader: int | None = None
        space: int | None = None
        token: str | None = None
        if placed == PLACED_LEADER:
            leader = c.leader_index[obj["leader"]]
            if leader not in leaders:
                raise ValueError(f"{c.leaders[leader].name} is not in play")
            space = int(obj["space"])
            token = str(obj["token"])
            if token not in c.token_index:
                raise ValueError(f"unknown token {token!r}")
        die = int(obj["die"])
        if not 1 <= die <= self._n_dice:
            raise ValueError(f"no die {die}")
        return LastPick(
            seat=int(obj["seat"]),
            die=die,
            face=self._check_face(str(obj["face"])),
            placed=placed,
            leader=leader,
            space=space,
            token=token,
        )

    def from_json(self, obj: JSON) -> MahabharataState:
        c = self.components
        try:
            n = int(obj["players"])
            phase = str(obj["phase"])
            if phase not in _PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            leaders = tuple(c.leader_index[k] for k in obj["leaders"])
            spaces: list[tuple[Space, ...]] = []
            for li, raw in zip(leaders, obj["spaces"], strict=True):
                row: list[Space] = []
                for sp in raw:
                    owner = sp["owner"]
                    row.append(
                        (
                            None if owner is None else int(owner),
                            tuple(c.token_index[k] for k in sp["tokens"]),
                        )
                    )
                if len(row) != len(c.leaders[li].icons):
                    raise ValueError(f"{c.leaders[li].name} has {len(row)} spaces")
                spaces.append(tuple(row))
            screens: list[tuple[int, ...]] = []
            for raw_screen in obj["screens"]:
                counts = [0] * len(c.tokens)
                for k in raw_screen:
                    counts[c.token_index[k]] += 1
                screens.append(tuple(counts))
            state = MahabharataState(
                num_players=n,
                phase=phase,
                drawn=tuple(c.leader_index[k] for k in obj["drawn"]),
                leaders=leaders,
                round=int(obj["round"]),
                elephant=None if obj["elephant"] is None else int(obj["elephant"]),
                faces=tuple(None if f is None else self._check_face(str(f)) for f in obj["faces"]),
                taken=tuple(None if t is None else int(t) for t in obj["taken"]),
                picks=int(obj["picks"]),
                spaces=tuple(spaces),
                screens=tuple(screens),
                supply=tuple(tuple(int(s[t.kind]) for t in c.tokens) for s in obj["supply"]),
                pending=frozenset(int(s) for s in obj["pending"]),
                announced=tuple(bool(a) for a in obj["announced"]),
                reason=str(obj["reason"]),
                last_pick=self._last_pick_from_json(obj.get("last_pick"), leaders),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"Not a Mahabharata state: {exc}") from None
        if not (
            len(state.faces) == len(state.taken) == self._n_dice
            and len(state.screens) == len(state.supply) == len(state.announced) == n
        ):
            raise ValueError("Not a Mahabharata state: wrong number of dice or seats")
        return state

    def _check_face(self, face: str) -> str:
        if face not in self._face_index:
            raise ValueError(f"unknown face {face!r}")
        return face


class _PatiDeals:
    """Every screen one seat may be dealt (``size`` tokens from ``pool``
    plus the ``known`` ones), weighted by its number of ways to be drawn, as
    :meth:`MahabharataEngine._deal_screen` draws them, and split by whether
    it holds a complete Pati (R11).  The four icon classes are judged apart
    (R11), so the deals are counted class by class."""

    def __init__(
        self, engine: MahabharataEngine, pool: list[int], known: list[int], size: int
    ) -> None:
        by_class = engine.components.kinds_by_class
        self._size = size
        self._known = known
        self._classes: list[tuple[tuple[int, ...], _Groups]] = []
        for cls, target, _ in PATI:
            kinds = by_class[cls]
            groups = engine._class_deals(
                cls, target, tuple(pool[k] for k in kinds), tuple(known[k] for k in kinds)
            )
            self._classes.append((kinds, groups))
        # _reach[i][(n, complete)]: ways to draw n tokens of the first i
        # classes, all of them complete or not.
        self._reach: list[dict[tuple[int, bool], int]] = [{(0, True): 1}]
        for _, groups in self._classes:
            step: dict[tuple[int, bool], int] = {}
            for (n, whole), ways in self._reach[-1].items():
                for (drawn, complete), (_, _, total) in groups.items():
                    if n + drawn <= size:
                        key = (n + drawn, whole and complete)
                        step[key] = step.get(key, 0) + ways * total
            self._reach.append(step)

    def weight(self, pati: bool | None) -> int:
        """Ways to deal the screen with a complete Pati (``True``), without
        (``False``) or either (``None``)."""
        final = self._reach[-1]
        return sum(final.get((self._size, p), 0) for p in (True, False) if pati in (None, p))

    def sample(self, pati: bool | None, draw: Callable[[], float]) -> tuple[int, ...]:
        """A screen drawn among those that fit ``pati`` (see :meth:`weight`),
        each with its number of ways; the classes are drawn last first."""
        final = self._reach[-1]
        wanted = [p for p in (True, False) if pati in (None, p)]
        whole = wanted[_choose([final.get((self._size, p), 0) for p in wanted], draw)]
        n = self._size
        screen = list(self._known)
        for i in range(len(self._classes) - 1, -1, -1):
            kinds, groups = self._classes[i]
            before = self._reach[i]
            steps: list[tuple[int, bool, bool]] = []
            weights: list[int] = []
            for (drawn, complete), (_, _, total) in groups.items():
                for earlier in (True, False):
                    ways = before.get((n - drawn, earlier), 0)
                    if ways and (earlier and complete) == whole:
                        steps.append((drawn, complete, earlier))
                        weights.append(ways * total)
            drawn, complete, whole = steps[_choose(weights, draw)]
            counts, ways_each, _ = groups[(drawn, complete)]
            for k, x in zip(kinds, counts[_choose(ways_each, draw)], strict=True):
                screen[k] += x
            n -= drawn
        return tuple(screen)


def _choose(weights: Sequence[int], draw: Callable[[], float]) -> int:
    """An index drawn with probability proportional to its weight."""
    r = draw() * sum(weights)
    last = 0
    for i, w in enumerate(weights):
        if w:
            if r < w:
                return i
            r -= w
            last = i
    return last  # only float rounding gets here


def _set(seq: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    """A copy of ``seq`` with item ``i`` replaced."""
    return (*seq[:i], value, *seq[i + 1 :])
