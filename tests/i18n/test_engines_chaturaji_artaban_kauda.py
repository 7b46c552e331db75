"""Issue 33: the Martian Chaturaji, Artaban and Kauda Baji engines, and the
engine core's shared texts, keep no language.

Everything a player reads (narration, menu labels, how a game ended, every
refusal, the lobby options' help) is a message: its English is what it was
(the seeded playout hashes in ``tests/engines`` hold that byte for byte),
Hindi comes from the catalog, and the pseudo-locale marks it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from bot.engines.artaban import ArtabanEngine
from bot.engines.chaturaji import ChaturajiEngine
from bot.engines.core import (
    CHANCE,
    Engine,
    GameError,
    Option,
    Outcome,
    clause_of,
    joined,
    resolve_options,
    sample_chance,
    sentence,
    shortened,
)
from bot.engines.kauda_baji import KaudaBajiEngine
from bot.engines.messages import Msg, Plural, decode, encode
from bot.i18n import PSEUDO, catalog, localize

DEVANAGARI = re.compile("[\u0900-\u097f]")
HINDI = "hi"

ENGINES: dict[str, Engine[Any, Any, Any]] = {
    "chaturaji": ChaturajiEngine(),
    "artaban": ArtabanEngine(),
    "kauda_baji": KaudaBajiEngine(),
}
PLAYERS = {"chaturaji": (2, 3, 4), "artaban": (2,), "kauda_baji": (2, 3, 4)}


def ids_of(text: str) -> Iterator[str]:
    """Every message id in ``text``, nested ones too."""
    if isinstance(text, Msg):
        yield text.id
        for value in text.args.values():
            if isinstance(value, str):
                yield from ids_of(value)


def assert_translated(text: str, what: str, data: tuple[str, ...] = ()) -> None:
    """``text`` is a message the catalog has in Hindi, whose Hindi is not
    the English, whose pseudo-locale is marked, whose English is itself.
    ``data``: names it may quote as they are (a game's title, option names)."""
    assert isinstance(text, Msg), f"{what}: not a message: {text!r}"
    english = str.__str__(text)
    assert localize(text, "en") == english
    hindi = localize(text, HINDI)
    assert DEVANAGARI.search(hindi), f"{what}: no Hindi in {hindi!r} ({text!r})"
    assert hindi != english, f"{what}: Hindi is the English: {text!r}"
    marked = localize(text, PSEUDO)
    assert "⟦" in marked, f"{what}: pseudo-locale unmarked: {text!r}"
    # Every word comes from the catalog: what is left unaccented in the
    # pseudo-locale is data (squares, notation, numbers, seat tags, the
    # player's own words quoted “…”, `code`), never an English word glued in.
    left = re.sub(r"“[^”]*”|`[^`]*`|<[^<>]*>|\{p\d\}", "", marked)
    for name in data:
        left = left.replace(name, "")
    assert not re.search("[A-Za-z]{3,}", left), f"{what}: English left in {marked!r}"
    hi = catalog().languages[HINDI]
    for msgid in ids_of(text):
        if msgid in data:
            continue  # a game's title: the edge's id (it lists the titles)
        assert msgid in hi.messages or msgid in hi.plurals, f"{what}: {msgid!r} not in hi.po"
    # Seat tags stay for the caller, in every language.
    for tag in re.findall(r"\{p\d\}", english):
        assert tag in hindi and tag in localize(text, PSEUDO)


def play(name: str, players: int, seed: int, options: dict[str, Any] | None = None) -> int:
    """A seeded random game, every narration, some labels and the outcome
    checked; returns how many texts were checked."""
    engine = ENGINES[name]
    rng = random.Random(seed)
    state = engine.setup(players, options or {})
    checked = 0
    while (outcome := engine.outcome(state)) is None:
        movers = engine.to_move(state)
        if movers == {CHANCE}:
            seat = CHANCE
            action = sample_chance(engine.chance_outcomes(state), rng.random())
        else:
            awaited = engine.waiting_on(state) & movers
            seat = min(awaited) if awaited else min(movers)
            legal = engine.legal_actions(state, seat)
            action = rng.choice(legal)
            for each in [*legal[:3], action]:
                assert_translated(engine.label(state, seat, each), f"{name} label")
                checked += 1
        after = engine.apply(state, seat, action)
        said = engine.narrate(state, seat, action, after)
        if said:  # an Artaban deal step is narrated as nothing (R7)
            assert_translated(said, f"{name} narration")
            # As the log stores it and reads it back.
            back = decode(encode(said))
            assert back == said and localize(back, HINDI) == localize(said, HINDI)
            checked += 1
        state = after
    assert_translated(outcome.reason, f"{name} outcome")
    return checked + 1


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [
        ("chaturaji", 4, 1),
        ("chaturaji", 2, 2),
        ("chaturaji", 3, 3),
        ("artaban", 2, 4),
        ("artaban", 2, 5),
        ("kauda_baji", 2, 6),
        ("kauda_baji", 3, 7),
        ("kauda_baji", 4, 8),
    ],
)
def test_seeded_playouts_narrate_label_and_end_in_every_language(
    name: str, players: int, seed: int
) -> None:
    assert play(name, players, seed) > 20


def test_artaban_with_diagonal_captures_and_a_short_chaturaji_draw() -> None:
    assert play("artaban", 2, 9, {"diagonal_captures": True}) > 20
    # R15 with one quiet round: the drawn game's reason is a message too.
    engine = ENGINES["chaturaji"]
    for seed in range(30):
        rng = random.Random(seed)
        state = engine.setup(4, {"quiet_rounds": 1})
        while engine.outcome(state) is None:
            movers = engine.to_move(state)
            seat = CHANCE if movers == {CHANCE} else min(movers)
            if seat == CHANCE:
                action = sample_chance(engine.chance_outcomes(state), rng.random())
            else:
                action = rng.choice(engine.legal_actions(state, seat))
            after = engine.apply(state, seat, action)
            assert_translated(engine.narrate(state, seat, action, after), "chaturaji")
            state = after
        outcome = engine.outcome(state)
        assert outcome is not None
        if outcome.reason.startswith("Drawn: "):
            assert_translated(outcome.reason, "chaturaji draw")
            assert outcome.reason == (
                "Drawn: 1 quiet rounds passed without a capture, a promotion or a squire move."
            )
            return
    pytest.fail("no quiet draw in 30 seeded games")


def refusals(name: str) -> Iterator[GameError]:
    """Refusals of each kind the engine gives: unreadable text, a move out
    of turn, an illegal move, bad lobby options."""
    engine = ENGINES[name]
    state = engine.setup(PLAYERS[name][0], {})
    for text in ("", "zzz", "e9-e9", "roll 9", "place z9", "first purple", "throw 7", "a1 x9"):
        try:
            engine.parse(state, 0, text)
        except GameError as exc:
            yield exc
    for bad in ({"no_such_option": 1}, {next(iter(engine.options)): "many"}):
        try:
            engine.setup(PLAYERS[name][0], bad)
        except GameError as exc:
            yield exc
    try:
        engine.setup(9, {})
    except GameError as exc:
        yield exc
    # Play on a little, and try every seat's every action of another seat.
    rng = random.Random(11)
    for _ in range(40):
        if engine.outcome(state) is not None:
            break
        movers = engine.to_move(state)
        if movers == {CHANCE}:
            chance = sample_chance(engine.chance_outcomes(state), rng.random())
            for seat in range(PLAYERS[name][0]):
                try:
                    engine.apply(state, seat, chance)
                except GameError as exc:
                    yield exc
            state = engine.apply(state, CHANCE, chance)
            continue
        seat = min(movers)
        legal = engine.legal_actions(state, seat)
        others = [s for s in range(PLAYERS[name][0]) if s not in movers]
        for other in others[:1]:
            try:
                engine.apply(state, other, legal[0])
            except GameError as exc:
                yield exc
        for text in ("a1-a2", "h8-h1", "a1x8", "c2xc3", "c2!c3", "c2^", "d4 6", "a1 x1 12"):
            try:
                action = engine.parse(state, seat, text)
                engine.apply(state, seat, action)
            except GameError as exc:
                yield exc
        state = engine.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_refusal_is_a_message(name: str) -> None:
    seen = 0
    engine = ENGINES[name]
    for exc in refusals(name):
        (text,) = exc.args
        assert_translated(text, f"{name} refusal", (engine.title, *engine.options))
        assert str(exc) == str.__str__(text)
        seen += 1
    assert seen >= 8


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_lobby_options_help_and_seat_roles(name: str) -> None:
    engine = ENGINES[name]
    for option in engine.options.values():
        assert isinstance(option, Option)
        assert_translated(option.help, f"{name} option help")
    roles = getattr(engine, "seat_roles", None)
    if roles is not None:
        for n in PLAYERS[name]:
            for role in roles(n, {}):
                assert_translated(role, f"{name} seat role")


def test_chaturaji_seat_roles_in_english_as_before() -> None:
    engine = ChaturajiEngine()
    assert engine.seat_roles(2, {}) == ("Blue + Green", "Red + Yellow")
    assert localize(engine.seat_roles(3, {})[0], HINDI) == "नीला + हरा"


def test_choice_labels_are_messages() -> None:
    chaturaji = ChaturajiEngine()
    state = chaturaji.setup(4, {})
    assert chaturaji.choice_label(state, 0, "f1") == "f1: Blue monarch"
    assert localize(chaturaji.choice_label(state, 0, "f1"), HINDI) == "f1: नीला राजा"
    kauda = KaudaBajiEngine()
    state = kauda.setup(2, {})
    for prefix, english in (
        ("6", "Spend 6"),
        ("4+2", "Spend 4+2 together"),
        ("6…", "Spend 6, alone or with smaller values"),
        ("6 c7 x2", "Twin on c7"),
        ("6 c7 x2+1", "Twin and a single (a triple) on c7"),
        ("6 c7 x1of3", "1 piece split off a triple on c7"),
        ("6 c7 x2of3", "2 pieces split off a triple on c7"),
    ):
        label = kauda.choice_label(state, 0, prefix)
        assert label == english
        assert_translated(label, "kauda choice label")


def test_core_option_refusals_are_messages() -> None:
    class Game:
        title = "Demo"
        options: ClassVar[dict[str, Option]] = {
            "flag": Option(True, Msg("a flag")),
            "count": Option(3, Msg("a count"), low=1, high=5),
            "low": Option(3, Msg("a count"), low=1),
            "high": Option(3, Msg("a count"), high=5),
            "word": Option("a", Msg("a word"), choices=("a", "b")),
        }

    cases = [
        ({"nope": 1}, "Demo has no option “nope” (options: count, flag, high, low, word)."),
        ({"flag": "maybe"}, "Option flag takes yes or no, not “maybe”."),
        ({"flag": 3}, "Option flag takes yes or no."),
        ({"count": "x"}, "Option count takes a whole number, not “x”."),
        ({"count": 2.5}, "Option count takes a whole number."),
        ({"count": 9}, "Option count takes 1 to 5."),
        ({"low": 0}, "Option low takes 1 or more."),
        ({"high": 6}, "Option high takes at most 5."),
        ({"word": 1}, "Option word takes a word."),
        ({"word": "c"}, "Option word must be one of: a, b."),
    ]
    for given, english in cases:
        with pytest.raises(GameError) as caught:
            resolve_options(Game(), given)
        (text,) = caught.value.args
        assert text == english
        assert_translated(text, "core option refusal", ("Demo", *Game.options))


def test_joined_sentence_and_shortened_keep_the_english() -> None:
    parts = [Msg("Blue"), Msg("Red"), "a1"]
    assert joined(parts, "; ") == "Blue; Red; a1"
    assert joined(parts, ", ") == "Blue, Red, a1"
    assert joined(parts, " and ") == "Blue and Red and a1"
    assert joined(parts, " + ") == "Blue + Red + a1"
    assert joined(parts, " ") == "Blue Red a1"
    assert joined([], "; ") == "" and joined(["x"], "; ") == "x"
    assert localize(joined(parts, " and "), HINDI) == "नीला और लाल और a1"
    said = sentence(Msg("{player} passes", player="{p0}"))
    assert said == "{p0} passes." and clause_of(said) == "{p0} passes"
    assert localize(said, HINDI).endswith("।")
    assert clause_of("Plain text.") == "Plain text"
    long = Msg("Spend {values}", values="6" * 120)
    cut = shortened(long, 100)
    assert cut == str.__str__(long)[:100] and isinstance(cut, Msg)
    assert len(localize(cut, HINDI)) > 100  # the edge cuts again after translating
    assert shortened("x" * 120, 100) == "x" * 100
    assert shortened(long, 200) is long


def test_an_outcome_keeps_its_message_when_stored_and_its_english_when_logged() -> None:
    reason = Msg("{player} brought every piece to the centre first.", player="{p1}")
    outcome = Outcome((frozenset({1}), frozenset({0})), (0, 6), reason)
    # Logs and the seeded playout hashes: the English, as before issue 33.
    plain = json.dumps(outcome.to_json(), sort_keys=True)
    assert '"reason": "{p1} brought every piece to the centre first."' in plain
    # What the service stores: the message, read back as a message.
    stored = json.loads(json.dumps(outcome.to_json(stored=True)))
    back = Outcome.from_json(stored)
    assert isinstance(back.reason, Msg) and back.reason.id == reason.id
    assert "{p1}" in localize(back.reason, HINDI)
    # In memory, the message passes through as it is.
    assert isinstance(Outcome.from_json(outcome.to_json()).reason, Msg)
    # A plain English reason stored before issue 33 reads as it was.
    old = Outcome.from_json({"ranking": [[0]], "scores": [1], "reason": "Old."})
    assert old.reason == "Old." and not isinstance(decode(old.reason), Msg)


def test_kauda_baji_kill_news_is_a_plural() -> None:
    engine = KaudaBajiEngine()
    one = engine._move_news(0, 2, 0, 5, 10, (6,), 1)
    two = engine._move_news(0, 2, 0, 5, 10, (6,), 2)
    assert isinstance(one, Plural) and isinstance(two, Plural)
    assert one.endswith("killing 1 tuple.") and two.endswith("killing 2 tuples.")
    assert localize(one, HINDI).endswith("1 जत्था मारा।")
    assert localize(two, HINDI).endswith("2 जत्थे मारे।")
