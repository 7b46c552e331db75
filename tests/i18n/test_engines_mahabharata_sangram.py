"""Mahabharata's and Sangram's engines keep no language (issue 33).

Everything they say that a player reads (narration, menu labels, the
outcome's reason, every refusal, the option's help, the texts their views
hold) is a message (:class:`~bot.engines.messages.Msg`): its English is the
text as before (the seeded playout hashes in ``tests/engines`` prove it
byte for byte), and through the catalog it comes out in Hindi and marked in
the pseudo-locale.  Seeded random games gather what the engines say.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

import pytest

from bot.engines.core import (
    CHANCE,
    GameError,
    Outcome,
    progress_seat,
    sample_chance,
)
from bot.engines.mahabharata import MahabharataEngine
from bot.engines.mahabharata_components import DATA_NAMES as MAHABHARATA_NAMES
from bot.engines.messages import Msg, decode, encode
from bot.engines.sangram import SangramEngine
from bot.engines.sangram_cards import DATA_NAMES as SANGRAM_NAMES
from bot.i18n import catalog, localize

DEVANAGARI = re.compile("[\u0900-\u097f]")
SEAT = re.compile(r"\{p[0-9]\}")


class Said:
    """What a game said, by kind (narration, label, reason, refusal ...)."""

    def __init__(self) -> None:
        self.texts: dict[str, list[str]] = {}

    def add(self, kind: str, text: str) -> None:
        self.texts.setdefault(kind, []).append(text)

    def refusal(self, kind: str, attempt: Callable[..., Any], *args: Any) -> None:
        try:
            attempt(*args)
        except GameError as exc:
            self.add(kind, exc.args[0])
        else:  # pragma: no cover - the attempts below are all refused
            raise AssertionError(f"{kind}: not refused")

    def all(self) -> Iterator[tuple[str, str]]:
        for kind, texts in self.texts.items():
            for text in texts:
                yield kind, text


def _play(engine: Any, n: int, seed: int, options: dict[str, Any], said: Said) -> Outcome:
    """One seeded random game, keeping every text the engine says and a
    few refusals at each decision."""
    rng = random.Random(seed)
    state = engine.setup(n, options)
    while (outcome := engine.outcome(state)) is None:
        movers = engine.to_move(state)
        if movers == {CHANCE}:
            seat = CHANCE
            action = sample_chance(engine.chance_outcomes(state), rng.random())
        else:
            seat = progress_seat(engine, state)
            legal = engine.legal_actions(state, seat)
            action = rng.choice(legal)
            for a in legal:
                said.add("label", engine.label(state, seat, a))
            text = engine.describe(state, seat, action)
            said.add("choice label", engine.choice_label(state, seat, text.split()[0]))
            said.refusal("unknown words", engine.parse, state, seat, "xyzzy 7")
            others = [s for s in range(n) if s not in movers]
            if others:
                said.refusal("not your turn", engine.apply, state, others[0], action)
            for view_seat in (None, seat):
                for kind, text in _view_texts(engine.view(state, view_seat)):
                    said.add(kind, text)
        after = engine.apply(state, seat, action)
        narration = engine.narrate(state, seat, action, after)
        if narration:
            said.add("narration", narration)
        state = after
    said.add("reason", outcome.reason)
    for kind, text in _view_texts(engine.view(state, None)):
        said.add(kind, text)
    said.refusal("game over", lambda: engine.apply(state, 0, engine.parse(state, 0, "pass")))
    return outcome


def _view_texts(view: Any) -> Iterator[tuple[str, str]]:
    """The texts a view holds for a reader (not its data: names, codes)."""
    final = getattr(view, "final", None)
    if final is not None:
        yield "view: reason", final.reason
    me = getattr(view, "me", None)
    for missing in getattr(me, "pati_missing", ()):
        yield "view: Pati missing", missing
    for event in getattr(view, "events", ()):
        yield "view: event", event
    choice = getattr(view, "choice", None)
    if choice is not None:
        yield "view: prompt", choice.prompt


def _mahabharata() -> Said:
    said = Said()
    engine = MahabharataEngine()
    for n, seed in ((2, 1), (3, 2), (4, 3), (2, 4)):
        _play(engine, n, seed, {}, said)
    state = engine.setup(2, {})
    for text in ("leader nobody", "first x", "roll d3 nothing", "d9 screen", "d1 drona.x"):
        said.refusal("parse", engine.parse, state, 0, text)
    said.refusal("options", lambda: engine.setup(9, {}))
    said.refusal("options", lambda: engine.setup(2, {"speed": 1}))
    return said


def _sangram() -> Said:
    said = Said()
    engine = SangramEngine()
    for n, seed, options in ((2, 1, {"round_limit": 3}), (3, 2, {}), (4, 3, {"round_limit": 5})):
        _play(engine, n, seed, options, said)
    state = engine.setup(2, {"round_limit": 0})
    for text in ("commit nobody-99", "target 9", "discard 40", "give 5 to 1", "give 1"):
        said.refusal("parse", engine.parse, state, 0, text)
    said.refusal("options", lambda: engine.setup(9, {"round_limit": 0}))
    said.refusal("options", lambda: engine.setup(2, {"speed": 1}))
    said.refusal("options", lambda: engine.setup(2, {"round_limit": -1}))
    said.add("option help", engine.options["round_limit"].help)
    return said


GAMES: dict[str, Callable[[], Said]] = {"mahabharata": _mahabharata, "sangram": _sangram}
_SAID: dict[str, Said] = {}


def said_by(game: str) -> Said:
    if game not in _SAID:
        _SAID[game] = GAMES[game]()
    return _SAID[game]


def _ids(text: Msg) -> Iterator[Msg]:
    yield text
    for value in text.args.values():
        if isinstance(value, Msg):
            yield from _ids(value)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_text_said_is_a_message(game: str) -> None:
    said = said_by(game)
    kinds = {kind for kind, _ in said.all()}
    assert {"narration", "label", "reason", "not your turn", "unknown words", "parse"} <= kinds
    plain = [(kind, text) for kind, text in said.all() if not isinstance(text, Msg)]
    assert not plain, plain[:5]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_text_comes_out_in_hindi(game: str) -> None:
    for kind, text in said_by(game).all():
        english = localize(text, "en")
        hindi = localize(text, "hi")
        assert english == str.__str__(text)
        assert DEVANAGARI.search(hindi), (kind, english, hindi)
        assert hindi != english, (kind, english)
        # Seat tags stay for the caller to fill with names.
        assert sorted(SEAT.findall(hindi)) == sorted(SEAT.findall(english)), (kind, hindi)
        assert hindi.format(**{f"p{i}": "Asha" for i in range(5)})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_text_is_marked_in_the_pseudo_locale(game: str) -> None:
    for kind, text in said_by(game).all():
        pseudo = localize(text, "qps")
        assert pseudo.startswith("⟦") and pseudo.endswith("⟧"), (kind, pseudo)
        assert sorted(SEAT.findall(pseudo)) == sorted(SEAT.findall(text)), (kind, pseudo)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_message_id_is_in_the_hindi_catalog(game: str) -> None:
    hindi = catalog().languages["hi"]
    seen: set[str] = set()
    for _, text in said_by(game).all():
        assert isinstance(text, Msg)
        for part in _ids(text):
            if part.plural is not None:
                assert part.id in hindi.plurals, part.id
            else:
                assert part.id in hindi.messages, part.id
            seen.add(part.id)
    assert len(seen) > 40


@pytest.mark.parametrize("game", sorted(GAMES))
def test_messages_survive_the_stored_form(game: str) -> None:
    """The service stores narration and reasons encoded: read back, they
    are the same message (and the same English)."""
    for _, text in said_by(game).all():
        again = decode(encode(text))
        assert again == text and isinstance(again, Msg)
        assert localize(again, "hi") == localize(text, "hi")


def test_the_data_names_are_all_in_the_catalog() -> None:
    """Names from the component tables (leaders, tokens, warriors and their
    activity lines) are data: the engines list them (``DATA_NAMES``) so
    the catalog has them, and renderers translate them with ``t(lang, name)``."""
    hindi = catalog().languages["hi"]
    data = resources.files("bot.engines").joinpath("data")
    mahabharata = tomllib.loads(data.joinpath("mahabharata.toml").read_text(encoding="utf-8"))
    names = [t["name"] for t in mahabharata["tokens"]] + [
        leader["name"] for leader in mahabharata["leaders"]
    ]
    assert set(names) <= set(MAHABHARATA_NAMES)
    sangram = tomllib.loads(data.joinpath("sangram.toml").read_text(encoding="utf-8"))
    texts = [w["name"] for w in sangram["warriors"]] + [w["activity"] for w in sangram["warriors"]]
    assert set(texts) <= set(SANGRAM_NAMES)
    for name in (*MAHABHARATA_NAMES, *SANGRAM_NAMES):
        assert DEVANAGARI.search(hindi.messages[name]), name


def test_a_restored_game_still_says_its_ending_as_a_message() -> None:
    """A state read back from JSON (a snapshot) has its reason as English;
    the engines make it a message again, the same words."""
    for engine, n, options in (
        (MahabharataEngine(), 3, {}),
        (SangramEngine(), 2, {"round_limit": 2}),
    ):
        said = Said()
        _play(engine, n, 5, options, said)
        reason = said.texts["reason"][-1]
        rng = random.Random(5)
        state = engine.setup(n, options)
        while engine.outcome(state) is None:
            movers = engine.to_move(state)
            if movers == {CHANCE}:
                seat = CHANCE
                action = sample_chance(engine.chance_outcomes(state), rng.random())
            else:
                seat = progress_seat(engine, state)
                action = rng.choice(engine.legal_actions(state, seat))
            state = engine.apply(state, seat, action)
        restored = engine.from_json(engine.to_json(state))
        again = engine.outcome(restored).reason
        assert isinstance(again, Msg) and again == reason
        assert localize(again, "hi") == localize(reason, "hi")


def test_doubled_braces_and_seat_tags_fill_as_before() -> None:
    """Narration is formatted twice (the message's arguments, then the seat
    names): a seat tag given as an argument stays a tag for the second."""
    engine = MahabharataEngine()
    said = said_by("mahabharata")
    tagged = [t for t in said.texts["narration"] if "{p1}" in t]
    assert tagged
    for text in tagged:
        assert "{p1}" in localize(text, "hi")
        assert "Bhima" in localize(text, "hi").format(p0="Asha", p1="Bhima", p2="C", p3="D", p4="E")
    assert engine.title == "Mahabharata"


def test_a_state_read_back_in_this_process_still_says_its_events_as_messages() -> None:
    """Sangram's JSON keeps its lines as English (the seeded hashes), and a
    state read back from it in the same process (a snapshot, a search's
    copy, the conformance twins) says them as messages again."""
    engine = SangramEngine()
    rng = random.Random(8)
    state = engine.setup(3, {"round_limit": 2})
    for _ in range(40):
        movers = engine.to_move(state)
        if movers == {CHANCE}:
            seat = CHANCE
            action = sample_chance(engine.chance_outcomes(state), rng.random())
        else:
            seat = progress_seat(engine, state)
            action = rng.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
    import json

    again = engine.from_json(json.loads(json.dumps(engine.to_json(state))))
    events = engine.view(again, None).events
    assert events and all(isinstance(e, Msg) for e in events)
    assert [localize(e, "hi") for e in events] == [
        localize(e, "hi") for e in engine.view(state, None).events
    ]
