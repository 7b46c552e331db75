"""Mahabharata's components (R1-R3): the token kinds, the eight dice and
the ten leaders, loaded from ``bot/engines/data/mahabharata.toml`` and
checked when loaded (:func:`load_components_text`), and the Pati targets
and numbers the rules count with.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final, NoReturn

from bot.engines.core import (
    ComponentError,
)
from bot.engines.messages import Msg

# --------------------------------------------------------------------------
# Components (R1-R3)
# --------------------------------------------------------------------------

CLASSES: Final = ("C", "E", "H", "I")
CLASS_WORD: Final[dict[str, str]] = {
    "C": Msg("chariot"),
    "E": Msg("elephant"),
    "H": Msg("cavalry"),
    "I": Msg("infantry"),
}
"""An icon class's word, as a message (issue 33: translated inside the
sentence that names it)."""
RAJA: Final = "raja"
TARGET_VP: Final = 18
"""R4: the leaders in play are worth exactly 18 VP (= 18 spaces, R3)."""
PATI_VP: Final = 7
"""R11: a complete Pati scores 7."""
PATI: Final = (
    # R11: per class, the icon sum a subset of the screen must hit exactly,
    # and how the screen view names what is missing.
    ("C", 1, Msg("Chariot")),
    ("E", 1, Msg("Elephant")),
    ("H", 3, Msg("Cavalry summing to 3")),
    ("I", 5, Msg("Infantry summing to 5")),
)


def joined(parts: Sequence[str]) -> str:
    """Sentences said one after the other, with a space between (issue 33:
    as one message, each sentence translated by itself)."""
    said = parts[0]
    for part in parts[1:]:
        said = Msg("{first} {then}", first=said, then=part)
    return said


def listed(items: Sequence[str]) -> str:
    """Items named one after the other, with commas (``a, b, c``)."""
    said = items[0] if items else ""
    for item in items[1:]:
        said = Msg("{first}, {then}", first=said, then=item)
    return said


_REASON_RE: Final = re.compile(
    r"(A Pati was announced\.)?(?: ?All ([0-9]+) leader spaces hold a token\.)?"
    r"( ?No player has a token left to place\.)?"
)


def reason_message(text: str) -> str:
    """A game's end as :meth:`MahabharataRound._end_of_round` says it, read
    back from a saved state's English (issue 33): the message again, so a
    restored game's ending is translated too; any other text as it is."""
    m = _REASON_RE.fullmatch(text)
    if m is None or not text:
        return text
    parts: list[str] = []
    if m.group(1):
        parts.append(Msg("A Pati was announced."))
    if m.group(2):
        parts.append(Msg("All {total} leader spaces hold a token.", total=int(m.group(2))))
    if m.group(3):
        parts.append(Msg("No player has a token left to place."))
    said = joined(parts)
    return said if said == text else text


def N_(text: str) -> str:
    """Marks a name from ``mahabharata.toml`` for the catalog (issue 33):
    the engine says it as ``Msg(name)``, which the catalog translates."""
    return text


DATA_NAMES: Final = (
    # The token names and leader names of mahabharata.toml, for the catalog;
    # tests/i18n/test_engines_mahabharata_sangram.py checks the table's names
    # are all here.
    *(N_("Chariot"), N_("Elephant"), N_("Cavalry-1"), N_("Cavalry-2"), N_("Cavalry-3")),
    *(N_("Infantry-1"), N_("Infantry-2"), N_("Infantry-3"), N_("Infantry-4"), N_("Infantry-5")),
    *(N_("Virata"), N_("Satyaki"), N_("Dhrishtaketu"), N_("Drupada"), N_("Shalya")),
    *(N_("Bhagadatta"), N_("Jayadratha"), N_("Kritavarma"), N_("Drona"), N_("Bhishma")),
)
NUM_TOKEN_KINDS: Final = 10
TOKENS_PER_KIND: Final = 3
NUM_DICE: Final = 8
FACES_PER_DIE: Final = 6
NUM_LEADERS: Final = 10
SETUP_DRAW: Final = 4
"""R4: four cards are drawn before the sum is looked at."""

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
