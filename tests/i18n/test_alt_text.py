"""Alt text (issue 33): every image's description, from :mod:`bot.alt`.

Each game's boards and private views are described, in the reader's
language, in at most 1,024 characters cut at a whole sentence; a public
description is built from the public view alone (its ``me`` is never read),
so twin states that differ only in secrets read the same in every language.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.alt import (
    LIMIT,
    Parts,
    describe_board,
    describe_leaderboard,
    describe_private,
    describe_replay,
    describe_review_shot,
    describe_standings,
    fit,
)
from bot.engines import ENGINES
from bot.engines.core import Engine
from tests.engines.test_conformance import TWINS, _playout, _twin_pairs

AnyEngine = Engine[Any, Any, Any]
DEVANAGARI = re.compile("[\u0900-\u097f]")
NAMES = ["Asha", "Bhima", "Chitra", "Dev", "Esha"]
STRIDE = 7
"""Every so many states of a playout are described (all would be slow)."""

engines = pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))


def sampled(engine: AnyEngine) -> Iterator[tuple[int, Any]]:
    """States of two seeded playouts at each table size, and their ends."""
    for players in (engine.min_players, engine.max_players):
        playout = _playout(engine.name, players, 0)
        for move in playout.moves[::STRIDE]:
            yield players, move.before
        yield players, playout.final


def assert_in(lang: str, text: str) -> None:
    assert text and len(text) <= LIMIT, (len(text), text)
    if lang == "hi":
        assert DEVANAGARI.search(text), text
    elif lang == "qps":
        assert "⟦" in text and "⟧" in text, text
    else:
        assert "⟦" not in text and not DEVANAGARI.search(text), text


@engines
@pytest.mark.parametrize("lang", ["en", "hi", "qps"])
def test_every_board_and_private_view_is_described_in_the_readers_language(
    engine: AnyEngine, lang: str
) -> None:
    described = 0
    for players, state in sampled(engine):
        board = describe_board(engine.name, engine.view(state, None), names=NAMES, lang=lang)
        assert_in(lang, board)
        for seat in range(players):
            mine = describe_private(engine.name, engine.view(state, seat), names=NAMES, lang=lang)
            assert_in(lang, mine)
        described += 1
    assert described > 10


@engines
def test_a_board_names_the_game_and_who_is_to_act_first(engine: AnyEngine) -> None:
    """The order a reader hears: the game and whose turn, then the position,
    then the last move."""
    title = {
        "mahabharata": "Mahabharata",
        "chaturaji": "Martian Chaturaji",
        "sangram": "Sangram",
        "artaban": "Artaban",
        "kauda_baji": "Kauda Baji",
    }[engine.name]
    last_seen = False
    for _, state in sampled(engine):
        text = describe_board(engine.name, engine.view(state, None), names=NAMES, lang="en")
        assert text.startswith(title), text
        last = "Last turn:" if engine.name == "chaturaji" else "Last move:"
        if last in text:
            last_seen = True
            assert text.index(last) > len(title)
    assert last_seen


def test_a_sangram_board_says_the_public_counts_and_the_private_view_the_hand() -> None:
    engine = ENGINES["sangram"]
    playout = _playout("sangram", 3, 1)
    state = playout.moves[len(playout.moves) // 2].before
    public = engine.view(state, None)
    board = describe_board("sangram", public, names=NAMES, lang="en")
    for p in public.players:
        assert f"{NAMES[p.seat]}: crown at {p.level}" in board, board
        assert f"{p.hand_size} cards in hand" in board, board
    mine = engine.view(state, 0)
    own = describe_private("sangram", mine, names=NAMES, lang="en")
    assert own.startswith("Your hand in Sangram:"), own
    for card in mine.me.hand:
        assert f"{card.name} {card.motivation}" in own, own
    hindi = describe_private("sangram", mine, names=NAMES, lang="hi")
    assert hindi.startswith("संग्राम में आपके हाथ के कार्ड"), hindi


class Unreadable:
    """A stand-in for a view's secrets: reading anything of it fails."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a public description read view.me.{name}")

    def __bool__(self) -> bool:
        raise AssertionError("a public description read view.me")


@engines
def test_a_public_description_never_reads_the_viewers_own(engine: AnyEngine) -> None:
    for _, state in sampled(engine):
        public = engine.view(state, None)
        for lang in ("en", "hi"):
            blind = dataclasses.replace(public, me=Unreadable())
            assert describe_board(engine.name, blind, names=NAMES, lang=lang) == describe_board(
                engine.name, public, names=NAMES, lang=lang
            )


hiding = pytest.mark.parametrize(
    "engine",
    [e for e in ENGINES.values() if TWINS.get(e.name) is not None],
    ids=[name for name in ENGINES if TWINS.get(name) is not None],
)


@hiding
def test_twins_read_the_same_in_public_and_differently_in_private(engine: AnyEngine) -> None:
    """Twin states differ only in secrets: their public descriptions are the
    same in en, hi and qps; some seat's own description tells them apart
    (so the descriptions do say what the private images show)."""
    differ = 0
    for i, (playout, state, twin) in enumerate(_twin_pairs(engine)):
        if i % 97:
            continue
        for lang in ("en", "hi", "qps"):
            a = describe_board(engine.name, engine.view(state, None), names=NAMES, lang=lang)
            b = describe_board(engine.name, engine.view(twin, None), names=NAMES, lang=lang)
            assert a == b, (lang, a, b)
        for seat in range(playout.num_players):
            mine = describe_private(engine.name, engine.view(state, seat), names=NAMES, lang="en")
            theirs = describe_private(engine.name, engine.view(twin, seat), names=NAMES, lang="en")
            differ += mine != theirs
    assert differ > 0


def test_a_long_description_is_cut_at_a_whole_sentence_keeping_the_turn_and_the_last_move() -> None:
    parts = Parts(
        head=["Sangram, round 3."],
        body=[f"Sentence number {i} about the position." for i in range(100)],
        tail=["Last move: Asha drew a card."],
    )
    text = fit(parts)
    assert len(text) <= LIMIT
    assert text.startswith("Sangram, round 3. Sentence number 0")
    assert text.endswith("about the position. Last move: Asha drew a card.")
    one = fit(Parts(head=["word " * 400]))
    assert len(one) <= LIMIT and one.endswith("word…")


@pytest.mark.parametrize("lang", ["en", "hi", "qps"])
def test_leaderboards_standings_replays_and_reviews_are_described(lang: str) -> None:
    @dataclasses.dataclass
    class Row:
        rank: int
        name: str
        rating: float = 1500.0
        games: int = 12
        wins: int = 7
        points: float = 2.5

    rows = [Row(1, "Asha"), Row(2, "Bhima")]
    texts = [
        describe_leaderboard("Artaban", rows, lang=lang),
        describe_standings("Artaban — Spring cup", rows, round=2, rounds=5, final=False, lang=lang),
        describe_standings("Artaban — Spring cup", rows, round=5, rounds=5, final=True, lang=lang),
        describe_replay(
            "artaban", 12, NAMES[:2], moves=40, frames=41, ranking=[[1], [0]], lang=lang
        ),
        describe_replay("sangram", 12, NAMES[:2], moves=3, frames=4, ranking=None, lang=lang),
        describe_review_shot(
            "mahabharata", 3, NAMES[:3], move=4, last_move=9, lines=("{p0} took d3.",), lang=lang
        ),
    ]
    for text in texts:
        assert_in(lang, text)
        assert "Asha" in text or "Bhima" in text or "#" in text, text
    if lang == "en":
        assert texts[0] == (
            "Leaderboard: Artaban. 1. Asha: rating 1500, 12 games, 7 wins. "
            "2. Bhima: rating 1500, 12 games, 7 wins."
        )
        assert "It shows 40 moves in 41 pictures." in texts[3]
        assert "Place 1: Bhima." in texts[3]
        assert texts[5].endswith("Last move: Asha took d3.")


def test_every_game_has_its_alt_text_module() -> None:
    """Found by the game's name, as the registries find its classes."""
    import importlib

    from bot.engines.games import GAMES

    for game in GAMES:
        module = importlib.import_module(f"bot.alt.{game}")
        assert callable(module.board) and callable(module.private), game
        assert "{id}" in module.TITLE, game
