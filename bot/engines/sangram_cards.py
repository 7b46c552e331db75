"""Sangram's components (R1-R2): the eleven warriors, the 55 cards and the
numbers the rules count with.

The cards live in ``bot/engines/data/sangram.toml`` and are checked when
loaded (:func:`load_components_text`).  Cards are identified by their
motivation (unique, 1..55).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final, NoReturn

from bot.engines.core import (
    ComponentError,
)
from bot.engines.messages import Msg

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


def N_(text: str) -> str:
    """Marks a text of ``sangram.toml`` (a warrior's name, its activity line)
    for the catalog (issue 33): the engine says a name as ``Msg(name)``, and
    renderers translate :class:`~bot.engines.sangram_views.CardView`'s
    ``name`` and ``activity`` through the catalog."""
    return text


DATA_NAMES: Final = (
    # The warriors' names and activity lines of sangram.toml, for the catalog;
    # tests/i18n/test_engines_mahabharata_sangram.py checks they are all here.
    N_("Acharya"),
    N_("Maharaja"),
    N_("Shoorveer"),
    N_("Senapati"),
    N_("Mantri"),
    N_("Maharani"),
    N_("Guptchar"),
    N_("Yuvaraj"),
    N_("Vyapari"),
    N_("Sarthi"),
    N_("Vaidik"),
    N_(
        "Retreat one opponent: their card goes back unused; "
        "they skip Activate and Recruit this round."
    ),
    N_("Discard up to 4 of your Britishers."),
    N_("Take no Britishers when you recruit this round."),
    N_("Discard up to 6 of your Britishers."),
    N_("Give up to 2 of your Britishers to one opponent."),
    N_("Move your crown up 1 level now, whatever your Britishers."),
    N_("Move one opponent's crown down 1 level."),
    N_("Copy the activity of the card one opponent played this round."),
    N_("Take a random card from one opponent's hand, then give them a card of your choice."),
    N_("Draw the top card of the deck and activate it at once."),
    N_("Take 1 of the 5 newest discards and its Britishers; then skip Recruit."),
)


def card_name(name: str, motivation: int) -> str:
    """``Acharya-53``: a card as the narration names it (a message, the
    warrior's name translated)."""
    return Msg("{warrior}-{motivation}", warrior=Msg(name), motivation=motivation)


def joined(parts: Sequence[str]) -> str:
    """Sentences said one after the other, with a space between (issue 33:
    as one message, each sentence translated by itself); empty for none."""
    said = parts[0] if parts else ""
    for part in parts[1:]:
        said = Msg("{first} {then}", first=said, then=part)
    return said


def listed(items: Sequence[str]) -> str:
    """Items named one after the other, with commas (``a, b, c``)."""
    said = items[0] if items else ""
    for item in items[1:]:
        said = Msg("{first}, {then}", first=said, then=item)
    return said


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
