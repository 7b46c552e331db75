"""The engine contract every game implements.

An engine is a pure, deterministic rules machine: no Discord, Pillow, SQLite,
asyncio, clocks or module-level randomness.  Dice rolls, shell throws and card
draws are *chance actions* taken by the :data:`CHANCE` seat, so a game is fully
described by its options plus its action log (OpenSpiel's model), and replay
never rolls again.

States, actions and views are immutable values.  Each engine serialises its
state with ``to_json``/``from_json`` and its actions with ``describe``/``parse``
(the short text form players type, autocomplete lists and the log stores).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import isfinite, lcm
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

from bot.engines.messages import Msg, decode, encode

Seat = int
"""A player's place at the table, ``0 .. num_players - 1``."""

CHANCE: Final[Seat] = -1
"""The chance player: rolls dice, throws shells, draws cards."""

JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None."""


class GameError(ValueError):
    """Anything a player did that the rules refuse.

    The message is a sentence shown to the player as it is, so it must never
    contain hidden information.
    """


class InvalidAction(GameError):
    """The text is not an action of this game at all (cannot be parsed)."""


class IllegalAction(GameError):
    """A well-formed action that the rules do not allow now."""


class NotYourTurn(IllegalAction):
    """The seat asked to act while others are to move."""


class InvalidOptions(GameError):
    """Lobby options the engine does not accept."""


class ComponentError(ValueError):
    """A component table (``bot/engines/data/*.toml``) is broken."""


@dataclass(frozen=True)
class Option:
    """A variant option an engine accepts in the lobby."""

    default: bool | int | str
    help: str
    choices: tuple[bool | int | str, ...] = ()
    low: int | None = None
    """Whole-number options: the smallest value accepted (None: no bound)."""
    high: int | None = None
    """Whole-number options: the largest value accepted (None: no bound)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``ranking`` lists places best first; seats sharing a place are grouped
    (a draw between everybody is a single group).  ``scores`` is indexed by
    seat.  ``reason`` is a public sentence; it names seats as ``{p0}`` ...
    like :meth:`Engine.narrate`, filled in with names by the caller.
    """

    ranking: tuple[frozenset[Seat], ...]
    scores: tuple[int, ...]
    reason: str

    @property
    def winners(self) -> frozenset[Seat]:
        return self.ranking[0] if self.ranking else frozenset()

    @property
    def is_draw(self) -> bool:
        return len(self.ranking) == 1 and len(self.ranking[0]) > 1

    def to_json(self, *, stored: bool = False) -> JSON:
        """The outcome as JSON.  ``stored=True`` (what the service writes):
        a reason given as a message keeps its id and arguments (issue 33).
        Otherwise the reason is the message itself, which ``json.dumps``
        writes as its English, byte for byte what it wrote before issue 33
        (the seeded playout logs hash it)."""
        return {
            "ranking": [sorted(place) for place in self.ranking],
            "scores": list(self.scores),
            "reason": encode(self.reason) if stored else self.reason,
        }

    @classmethod
    def from_json(cls, obj: JSON) -> Outcome:
        reason = obj["reason"]
        return cls(
            ranking=tuple(frozenset(place) for place in obj["ranking"]),
            scores=tuple(obj["scores"]),
            reason=reason if isinstance(reason, Msg) else decode(str(reason)),
        )


S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V", covariant=True)


@runtime_checkable
class Engine(Protocol[S, A, V]):
    """One game's rules.  See ARCHITECTURE.md, "The engine contract"."""

    name: str
    title: str
    revision: int
    """Bumped whenever a rules change would replay an old log differently."""
    min_players: int
    max_players: int
    options: Mapping[str, Option]

    def setup(self, num_players: int, options: Mapping[str, Any]) -> S: ...

    def to_move(self, state: S) -> frozenset[Seat]: ...

    def waiting_on(self, state: S) -> frozenset[Seat]:
        """The seats the channel may be told are to act (and be mentioned).

        Usually ``to_move`` without :data:`CHANCE`; smaller when knowing who
        must decide would reveal a secret (a Mahabharata player asked whether
        to announce a complete Pati).  Seats in ``to_move`` but not here are
        prompted privately only.
        """
        ...

    def legal_actions(self, state: S, seat: Seat) -> list[A]: ...

    def choices_are_public(self, state: S, seat: Seat) -> bool:
        """True when ``seat``'s legal actions here, their texts and labels
        (and so the menus built from them, with their sizes), follow from the
        public view alone, so the public board may show them as buttons (dice
        on the table, squares of a revealed position).  False when they depend
        on anything hidden (a hand, a screen's contents, a secret set-up):
        the board then shows only **Choose…** and the seat chooses privately.
        The conformance tests check it on states that differ only in hidden
        information.
        """
        ...

    def chance_outcomes(self, state: S) -> list[tuple[A, Fraction]]: ...

    def apply(self, state: S, seat: Seat, action: A) -> S: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def view(self, state: S, seat: Seat | None) -> V:
        """What ``seat`` may see; ``None`` is the public view.

        Every view has a ``me`` attribute holding the seat's own secrets (a
        hand, a screen, a hidden set-up) and ``None`` in the public view.
        Delivery DMs a seat when its ``me`` changes, not on every public
        change.
        """
        ...

    def parse(self, state: S, seat: Seat, text: str) -> A: ...

    def describe(self, state: S, seat: Seat, action: A) -> str: ...

    def label(self, state: S, seat: Seat, action: A) -> str:
        """A friendlier wording of the action for menus (at most 100
        characters once seats are filled in), e.g. ``d3 Raja: Cavalry-2 on
        Drona space 2``.  Like :meth:`narrate`, it names seats as ``{p0}``,
        ``{p1}`` ... (never "player 2"), which the caller fills with names,
        so literal braces must be doubled."""
        ...

    def narrate(self, before: S, seat: Seat, action: A, after: S) -> str:
        """A public one-line account of the action, safe for the channel.

        Seats are written as ``{p0}``, ``{p1}`` ... and filled in with names by
        the caller (``str.format``), so literal braces must be doubled.
        """
        ...

    def private_to(self, before: S, seat: Seat, action: A) -> Seat | None:
        """Who may read the action's text in the log.

        ``None``: everybody (the usual case).  A seat: only that player (a card
        committed face down, a card drawn into their hand).  :data:`CHANCE`:
        nobody.  The log keeps the text for replay either way; public displays
        use :meth:`narrate`.
        """
        ...

    def to_json(self, state: S) -> JSON: ...

    def from_json(self, obj: JSON) -> S: ...


@runtime_checkable
class LabelsChoices(Protocol):
    """Optional: an engine that names groups of actions in menus and on board
    buttons (``d3`` -> ``Die 3 (Cavalry-2)``).  Without it the shared first
    word is shown."""

    def choice_label(self, state: Any, seat: Seat, prefix: str) -> str: ...


@runtime_checkable
class SplitsMenus(Protocol):
    """Optional: how an action's text splits into menu levels, so a player
    picks a die and then its move even when the notation is one word
    (Artaban's ``c2^`` -> ``("c2", "c2^")``).  Without it, text is split on
    spaces."""

    def menu_words(self, state: Any, seat: Seat, text: str) -> tuple[str, ...]: ...


@runtime_checkable
class NamesSeats(Protocol):
    """Optional: what each seat plays, for the lobby (``Blue + Green`` when
    one player commands a whole partnership)."""

    def seat_roles(self, num_players: int, options: Mapping[str, Any]) -> tuple[str, ...]: ...


@runtime_checkable
class DecidesPrivately(Protocol):
    """A game whose players may owe a decision the channel must not be told
    about (Mahabharata's announce-or-pass, asked only of players holding a
    complete Pati).  Such seats are in ``to_move`` but not in ``waiting_on``;
    they still run a clock and get reminders, privately."""

    def deciding_privately(self, state: Any) -> frozenset[Seat]: ...


@runtime_checkable
class Determinizes(Protocol):
    """A game that hides things, for search (issue 19): a full state that
    ``seat`` cannot tell apart from ``state``.

    ``determinize(state, seat, draw)`` keeps everything ``seat`` may see (its
    view, and so its own secrets and the public view, and its legal actions)
    and deals everything else afresh from ``draw`` (a float in [0, 1), like
    :func:`resolve_chance`): the other hands, the deck's order, the tokens
    behind other screens, an opponent's secret set-up.  The result must
    depend only on what ``seat`` may see and on ``draw``: the conformance
    tests compare it on twins that differ only in the hidden part.  Each
    engine knows its own secrets best, so each deals its own; a game of full
    information does not implement it (search uses the state as it is).
    """

    def determinize(self, state: Any, seat: Seat, draw: Callable[[], float]) -> Any: ...


def owed_decisions(
    engine: Engine[Any, Any, Any], state: Any
) -> tuple[frozenset[Seat], frozenset[Seat]]:
    """The seats that owe the game a decision now: ``(public, private)``.

    Public ones are ``waiting_on`` (the channel may name them); private
    ones are asked without the channel knowing (``DecidesPrivately``).  A
    seat that already committed in a simultaneous phase owes nothing.
    """
    public = engine.waiting_on(state) - _CHANCE_ONLY
    if isinstance(engine, DecidesPrivately):
        return public, engine.deciding_privately(state) - public - _CHANCE_ONLY
    return public, frozenset()


_CHANCE_ONLY: Final = frozenset({CHANCE})


def progress_seat(engine: Engine[Any, Any, Any], state: Any) -> Seat:
    """A seat whose action the game is waiting for, for automatic players
    (the demo, benchmarks, tests).

    In a simultaneous phase a seat that has already committed may stay in
    ``to_move`` (it may change its pick), so prefer the seats still awaited
    (``waiting_on``); fall back to ``to_move`` when those are private.
    """
    movers = engine.to_move(state)
    if len(movers) == 1:
        # One seat to move (nearly every step of a playout or a search):
        # it is the answer whether or not its wait is public.
        for seat in movers:
            if seat != CHANCE:
                return seat
    awaited = engine.waiting_on(state)
    movers = movers - _CHANCE_ONLY
    if not movers:
        raise IllegalAction(Msg("Nobody is to move."))
    return min(awaited & movers or movers)


EXCERPT_LIMIT: Final = 32
"""How many characters of a player's own text a reply may quote."""

_MARKDOWN = re.compile(r"([\\*_~`|<>@#\[\]])")


def excerpt(text: object, limit: int = EXCERPT_LIMIT) -> str:
    """A short, quoted, harmless excerpt of text a player typed, for replies.

    Discord refuses messages over 2,000 characters and a text option may carry
    6,000, so a refusal quotes at most ``limit`` characters.  Control and
    format characters are dropped and whitespace is collapsed (never Python
    escapes such as ``\\xa0``), and Markdown and mention syntax is escaped so
    the excerpt cannot ping anyone or restyle the reply.
    """
    cleaned = "".join(
        " " if ch.isspace() else ch
        for ch in str(text)
        if ch.isspace() or unicodedata.category(ch)[0] not in "CZ"
    )
    cleaned = " ".join(cleaned.split())
    cut = cleaned if len(cleaned) <= limit else cleaned[: limit - 1].rstrip() + "…"
    return "“" + _MARKDOWN.sub(r"\\\1", cut) + "”"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 token``, ``2 tokens``, ``0 tokens`` (``many`` for irregular words)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {many if many is not None else word + 's'}"


def joined(parts: Sequence[str], how: str = "; ") -> str:
    """Clauses (messages or plain text) joined as ``"; ".join(parts)``,
    ``", ".join(parts)``, ``" and ".join(parts)``, ``" + ".join(parts)`` or
    ``" ".join(parts)`` (sentences) would (``how``), as
    one message, so each language places its own separator."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    rest = joined(parts[1:], how)
    if how == "; ":
        return Msg("{first}; {rest}", first=parts[0], rest=rest)
    if how == ", ":
        return Msg("{first}, {rest}", first=parts[0], rest=rest)
    if how == " and ":
        return Msg("{first} and {rest}", first=parts[0], rest=rest)
    if how == " + ":
        return Msg("{first} + {rest}", first=parts[0], rest=rest)
    if how == " ":
        return Msg("{first} {rest}", first=parts[0], rest=rest)
    raise ValueError(f"no message joins with {how!r}")


def shortened(text: str, limit: int) -> str:
    """``text[:limit]``, keeping a message a message: its English cut, its
    id and arguments whole (so another language shows all of it; whoever
    shows it cuts again to fit)."""
    if len(text) <= limit:
        return text
    if not isinstance(text, Msg):
        return text[:limit]
    cut = str.__new__(Msg, str.__str__(text)[:limit])
    cut.id = text.id
    cut.args = text.args
    return cut


def sentence(clause: str) -> str:
    """A clause as a sentence (``clause + "."``), as one message; its
    clause is ``clause_of`` it again (a reason quoted in a longer line)."""
    return Msg("{clause}.", clause=clause)


def clause_of(text: str) -> str:
    """``text`` without its full stop: the clause of a :func:`sentence`,
    else ``text.rstrip(".")``."""
    if isinstance(text, Msg) and text.id == "{clause}." and "clause" in text.args:
        clause = text.args["clause"]
        return clause if isinstance(clause, str) else str(clause)
    return text.rstrip(".")


_FRACTIONS: Final = {25: "\u00bc", 50: "\u00bd", 75: "\u00be"}
"""Quarters and halves as people write points: ``¼``, ``½``, ``¾``."""


def format_points(value: float) -> str:
    """Points, and every number made of them (Buchholz, Sonneborn-Berger, an
    average place), the one way (issue 31): whole numbers plain (``2``),
    halves and quarters as fractions (``1½``, ``½``, ``7¼``), anything else
    (a third) with at most two decimals (``1.33``); ``-`` for none (an
    infinite tie-break)."""
    if not isfinite(value):
        return "-"
    hundredths = round(value * 100)
    sign = "-" if hundredths < 0 else ""
    whole, rest = divmod(abs(hundredths), 100)
    if rest == 0:
        return f"{sign}{whole}"
    if rest in _FRACTIONS:
        return f"{sign}{whole or ''}{_FRACTIONS[rest]}"
    return f"{sign}{whole}.{rest:02d}".rstrip("0")


def seat_tag(seat: Seat) -> str:
    """The placeholder :meth:`Engine.narrate` uses for a seat."""
    return f"{{p{seat}}}"


MAX_DIGITS: Final = 6
"""The longest whole number a parser reads.  No move or option needs more,
and ``int()`` of thousands of digits is slow and then refused by Python's
integer-string limit."""


def whole_number(text: object, max_digits: int = MAX_DIGITS) -> int | None:
    """``text`` as a whole number when it is 1 to ``max_digits`` ASCII digits
    (``"007"`` is 7), else ``None``, for the caller to refuse in its own words.

    Every parser reads numbers through here: ``str.isdigit`` is true for
    ``²`` and ``①`` (which ``int()`` then refuses), ``int()`` itself accepts
    ``٣``, ``1_000``, signs and blanks, and very long digit strings hit the
    integer-string limit.
    """
    if not isinstance(text, str) or not 0 < len(text) <= max_digits:
        return None
    if not (text.isascii() and text.isdigit()):
        return None
    return int(text)


_YES: Final = frozenset(("true", "yes", "on", "1"))
_NO: Final = frozenset(("false", "no", "off", "0"))


class HasOptions(Protocol):
    """What :func:`resolve_options` reads of an engine (an engine's rules
    layer has them before its text layer completes the :class:`Engine`)."""

    @property
    def title(self) -> str: ...

    @property
    def options(self) -> Mapping[str, Option]: ...


def resolve_options(engine: HasOptions, given: Mapping[str, Any]) -> dict[str, Any]:
    """Fill in defaults and refuse unknown or out-of-range lobby options.

    Values may come typed (stored options) or as the text a player gave;
    anything else is refused with :class:`InvalidOptions`, quoting the
    player's text only through :func:`excerpt`.
    """
    resolved: dict[str, Any] = {name: opt.default for name, opt in engine.options.items()}
    for name, value in given.items():
        if not isinstance(name, str) or name not in engine.options:
            known = ", ".join(sorted(engine.options)) or Msg("none")
            raise InvalidOptions(
                Msg(
                    "{game} has no option {name} (options: {known}).",
                    # The title as the catalog has it (the edge lists the
                    # games' titles for translation).
                    game=Msg(engine.title),
                    name=excerpt(name),
                    known=known,
                )
            )
        opt = engine.options[name]
        if isinstance(opt.default, bool):
            if isinstance(value, str):
                lowered = value.strip().lower()
                if lowered not in _YES | _NO:
                    raise InvalidOptions(
                        Msg(
                            "Option {name} takes yes or no, not {text}.",
                            name=name,
                            text=excerpt(value),
                        )
                    )
                value = lowered in _YES
            elif not isinstance(value, bool):
                raise InvalidOptions(Msg("Option {name} takes yes or no.", name=name))
        elif isinstance(opt.default, int):
            if isinstance(value, str):
                number = whole_number(value.strip())
                if number is None:
                    raise InvalidOptions(
                        Msg(
                            "Option {name} takes a whole number, not {text}.",
                            name=name,
                            text=excerpt(value),
                        )
                    )
                value = number
            elif isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(Msg("Option {name} takes a whole number.", name=name))
            if (opt.low is not None and value < opt.low) or (
                opt.high is not None and value > opt.high
            ):
                raise InvalidOptions(_range(name, opt))
        elif not isinstance(value, str):
            raise InvalidOptions(Msg("Option {name} takes a word.", name=name))
        if opt.choices and value not in opt.choices:
            allowed = ", ".join(str(c) for c in opt.choices)
            raise InvalidOptions(
                Msg("Option {name} must be one of: {allowed}.", name=name, allowed=allowed)
            )
        resolved[name] = value
    return resolved


def _range(name: str, opt: Option) -> str:
    """``Option x takes 0 to 500.`` for a bounded whole-number option."""
    if opt.low is not None and opt.high is not None:
        return Msg("Option {name} takes {low} to {high}.", name=name, low=opt.low, high=opt.high)
    if opt.low is not None:
        return Msg("Option {name} takes {low} or more.", name=name, low=opt.low)
    return Msg("Option {name} takes at most {high}.", name=name, high=opt.high)


_Odds = tuple[int, tuple[int, ...]] | None
"""How a list of chance probabilities is sampled: None when uniform, else
(common denominator, running totals over it)."""
_ODDS_CACHE: dict[tuple[int, ...], tuple[tuple[Fraction, ...], _Odds]] = {}
_ODDS_CACHE_LIMIT: Final = 256


def _odds(probabilities: Sequence[Fraction]) -> _Odds:
    """The sampling table of ``probabilities``, kept for the very objects an
    engine hands out again and again (a module's constant table of odds).

    The key is the objects' ids; the entry holds the objects themselves, so
    none can be freed and its id reused while the entry lives.
    """
    key = tuple(map(id, probabilities))
    hit = _ODDS_CACHE.get(key)
    if hit is not None:
        return hit[1]
    first = probabilities[0]
    odds: _Odds = None
    if not all(p == first for p in probabilities):
        common = lcm(*(p.denominator for p in probabilities))
        totals: list[int] = []
        acc = 0
        for p in probabilities:
            acc += p.numerator * (common // p.denominator)
            totals.append(acc)
        odds = (common, tuple(totals))
    if len(_ODDS_CACHE) >= _ODDS_CACHE_LIMIT:
        _ODDS_CACHE.clear()
    _ODDS_CACHE[key] = (tuple(probabilities), odds)
    return odds


def sample_chance(outcomes: Sequence[tuple[A, Fraction]], u: float) -> A:
    """Pick the chance outcome that ``u`` in [0, 1) falls on.

    The caller supplies ``u`` (from ``random.SystemRandom`` in production,
    a seeded ``random.Random`` in tests), which keeps engines free of
    randomness.
    """
    if not outcomes:
        raise IllegalAction(Msg("No chance outcome is possible here."))
    # Exact, in whole numbers: u = num/den exactly (a float product can
    # round up across a boundary).
    num, den = float(u).as_integer_ratio()
    first = outcomes[0][1]
    for _, p in outcomes:
        if p is not first:
            break
    else:
        # The very same odds object for every outcome (a card of the deck, a
        # face of a die): uniform, without building the table's key (the
        # playouts' hot path).  u < 1, so the index is below the count.
        index = num * len(outcomes) // den
        return outcomes[index if index < len(outcomes) else -1][0]
    odds = _odds([p for _, p in outcomes])
    if odds is None:
        # Uniform (a card from the deck, a face of a die): index directly.
        return outcomes[min(num * len(outcomes) // den, len(outcomes) - 1)][0]
    # u falls on the first outcome whose running total (over the common
    # denominator) exceeds u * common; totals are whole, so comparing them
    # with floor(u * common) is exact.
    common, totals = odds
    index = bisect_right(totals, num * common // den)
    return outcomes[min(index, len(outcomes) - 1)][0]


@dataclass(frozen=True)
class Step:
    """One applied action, as the log stores it."""

    seat: Seat
    text: str
    narration: str
    private_to: Seat | None = None


def apply_step(engine: Engine[S, A, V], state: S, seat: Seat, action: A) -> tuple[S, Step]:
    """Apply one action and describe it for the log."""
    text = engine.describe(state, seat, action)
    after = engine.apply(state, seat, action)
    step = Step(
        seat=seat,
        text=text,
        narration=engine.narrate(state, seat, action, after),
        private_to=engine.private_to(state, seat, action),
    )
    return after, step


def resolve_chance(
    engine: Engine[S, A, V], state: S, draw: Callable[[], float], limit: int = 10_000
) -> tuple[S, list[Step]]:
    """Take chance actions while the chance player is to move.

    ``draw`` returns a float in [0, 1): ``random.SystemRandom().random`` in
    production, a seeded ``random.Random(...).random`` in tests and the demo.
    """
    steps: list[Step] = []
    for _ in range(limit):
        if engine.to_move(state) != frozenset({CHANCE}):
            return state, steps
        action = sample_chance(engine.chance_outcomes(state), draw())
        state, step = apply_step(engine, state, CHANCE, action)
        steps.append(step)
    raise RuntimeError(f"{engine.name}: chance did not settle after {limit} draws")
