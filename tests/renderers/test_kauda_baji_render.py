"""Renderer tests for Kauda Baji: states from seeded random playouts (2, 3 and
4 players, 1 to 6 pieces) and views built by hand for the corners random play
rarely reaches (a crowded square of several players' tuples, finished
players, the end, the throws for who starts, a big bank of 12s)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.engines.core import resolve_options
from bot.engines.kauda_baji import KaudaBajiEngine
from bot.engines.kauda_baji_board import STEP_OF, square_of
from bot.engines.kauda_baji_views import KaudaBajiView, MoveView, StackView
from renderers import RENDERERS, get_renderer, kauda_baji
from renderers.common import DEFAULT_THEME, TextRecord, contrast, display_name, to_png
from renderers.kauda_baji import (
    BOARD_LEFT,
    COLUMN_X0,
    COORD,
    EDGE,
    FILES,
    NUMBERED_RADIUS,
    SHELL,
    SQUARE,
    TITLE_H,
    WIDTH,
    KaudaBajiRenderer,
    move_text,
    render_board,
    render_private,
    seat_turns,
    token_layout,
)
from tests.renderers import images
from tests.renderers.images import (
    MAX_ASPECT,
    check_every_view,
    check_fits_chat,
    check_playout_fits_chat,
    render,
    same,
)

ENGINE = KaudaBajiEngine()
NAMES = ("Asha", "Bhima the Magnificent of Hastinapura", "Chitra", "Dev")
MAX_PNG = 150 * 1024
SEATS = ("bottom", "right", "top", "left")
SEATING = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


def playout(players: int, seed: int, **options: Any) -> list[Any]:
    """Every state of a seeded random game, chance included."""
    return images.playout(ENGINE, players, seed, resolve_options(ENGINE, options))


def sample(players: int, seed: int, count: int = 8, **options: Any) -> list[Any]:
    """``count`` states spread over a game (alternately just after a throw and
    just after a move), and the end."""
    states = playout(players, seed, **options)
    stride = max(2, len(states) // count)
    at = [i * stride - (i * stride) % 2 + i % 2 for i in range(count)]
    picked = [states[min(len(states) - 1, k)] for k in at]
    return [*picked, states[-1]]


def _check(image: Image.Image, records: list[TextRecord], what: str) -> None:
    check_fits_chat(image, records, what, width=WIDTH, max_png=MAX_PNG)


def _texts(view: KaudaBajiView, draw: Callable[..., Image.Image] = render_board) -> list[str]:
    _, records = render(lambda: draw(view, names=NAMES[: len(view.players)]))
    return [r.text for r in records]


def _said(view: KaudaBajiView) -> str:
    """Every text the board draws, joined: a line the column wraps reads whole."""
    return " ".join(_texts(view))


# ----------------------------------------------------------------- hand-built views


def stack(square: str, player: int, size: int, players: int = 4) -> StackView:
    seat = SEATING[players][player]
    return StackView(
        square=square,
        file=FILES.index(square[0]),
        rank=int(square[1]),
        player=player,
        seat=SEATS[seat],
        size=size,
        step=STEP_OF[seat][square_of(square)],
    )


def _base(players: int = 4) -> KaudaBajiView:
    """A fresh game's view after the first player is found."""
    view = ENGINE.view(ENGINE.setup(players, resolve_options(ENGINE, {})), None)
    return replace(view, phase="move", turn=0, bank=(4,))


def _with_players(view: KaudaBajiView, **changes: Any) -> KaudaBajiView:
    """Every player's counts recomputed from the stacks (6 pieces each)."""
    players = []
    for p in view.players:
        mine = [s for s in view.stacks if s.player == p.player]
        on_board = sum(s.size for s in mine)
        at_start = sum(s.size for s in mine if s.square == p.start)
        players.append(
            replace(
                p, on_board=on_board, at_start=at_start, finished=max(0, 6 - on_board), **changes
            )
        )
    return replace(view, players=tuple(players))


def crowded_view() -> KaudaBajiView:
    """Six pieces each, crowded: on f1 Bottom's twin and single share with
    Top's triple (R13: a smaller lander shares); six tuples of three players
    on b7; seven tuples of all four on e7; Right's twin on Bottom's start."""
    stacks = (
        stack("f1", 0, 2),
        stack("f1", 0, 1),
        stack("f1", 2, 3),
        stack("b7", 0, 1),
        stack("b7", 1, 2),
        stack("b7", 1, 1),
        stack("b7", 3, 1),
        stack("b7", 3, 1),
        stack("b7", 1, 1),
        stack("e7", 0, 1),
        stack("e7", 1, 1),
        stack("e7", 2, 1),
        stack("e7", 2, 1),
        stack("e7", 3, 1),
        stack("e7", 3, 1),
        stack("e7", 3, 1),
        stack("d1", 0, 1),
        stack("d1", 1, 1),
        stack("a4", 2, 1),
        stack("a4", 3, 1),
    )
    move = MoveView(
        player=2,
        frm="d7",
        to="a4",
        size=1,
        values=(6,),
        path=("c7", "b7", "a7", "a6", "a5", "a4"),
        killed=(),
    )
    view = replace(_base(4), stacks=stacks, last_move=move, turn=2, bank=(3, 1))
    return _with_players(view, has_killed=True)


def packed_view() -> KaudaBajiView:
    """More than a game allows, to stress the layout: Bottom's six singles and
    two passers-by on d1, twelve singles of four players on e7, a sextuple."""
    stacks = (
        *[stack("d1", 0, 1) for _ in range(6)],
        stack("d1", 1, 1),
        stack("d1", 3, 2),
        *[stack("e7", p, 1) for p in (2, 2, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0)],
        stack("c5", 1, 6),
        stack("g4", 1, 4),
        stack("g4", 1, 1),
        stack("f2", 2, 5),
        stack("f2", 0, 3),
        stack("f2", 1, 2),
        stack("f2", 3, 1),
    )
    return _with_players(replace(crowded_view(), stacks=stacks))


def _finished_view() -> KaudaBajiView:
    """R18: Right finished first, Left second; Bottom's twin went home."""
    stacks = (stack("c5", 0, 1), stack("d1", 0, 1), stack("e3", 2, 3))
    move = MoveView(player=0, frm="e3", to="d4", size=2, values=(4,), path=("d3", "d4"), killed=())
    view = _with_players(replace(_base(4), stacks=stacks, last_move=move), has_killed=True)
    players = tuple(
        replace(p, place=1) if p.player == 1 else replace(p, place=2) if p.player == 3 else p
        for p in view.players
    )
    return replace(view, players=players, places=(1, 3), turn=2, phase="throw", bank=())


def _over_view(players: int = 4) -> KaudaBajiView:
    order = (2, 0, 3, 1)[:players] if players == 4 else tuple(range(players))[::-1]
    view = _with_players(replace(_base(players), stacks=()), has_killed=True)
    ps = tuple(replace(p, place=order.index(p.player) + 1) for p in view.players)
    move = MoveView(
        player=order[-2], frm="e4", to="d4", size=1, values=(1,), path=("d4",), killed=()
    )
    return replace(view, players=ps, places=order, phase="over", bank=(), last_move=move)


def _first_view(throws: tuple[tuple[int, int], ...] = ((0, 4), (1, 12), (2, 4))) -> KaudaBajiView:
    view = ENGINE.view(ENGINE.setup(4, resolve_options(ENGINE, {})), None)
    return replace(view, first_throws=throws)


def _big_bank_view() -> KaudaBajiView:
    """R6, R16: two 12s and two 6s banked, a run of two, bonus throws to come."""
    return replace(
        crowded_view(),
        phase="throw",
        turn=1,
        bank=(12, 12, 6, 6, 5, 4, 3, 2),
        run=2,
        bonus_throws=2,
    )


def _kill_view() -> KaudaBajiView:
    """Bottom's twin leaves f3, killing the Right single it leaves behind
    (R13), and lands on e2, killing Top's single; nobody else has killed."""
    stacks = (
        stack("e2", 0, 2),
        stack("d1", 0, 4),
        *[stack("g4", 1, 1) for _ in range(6)],
        *[stack("d7", 2, 1) for _ in range(6)],
        *[stack("a4", 3, 1) for _ in range(6)],
    )
    move = MoveView(
        player=0, frm="f3", to="e2", size=2, values=(4,), path=("f2", "e2"), killed=("f3", "e2")
    )
    view = _with_players(replace(_base(4), stacks=stacks, last_move=move), has_killed=False)
    players = tuple(replace(p, has_killed=p.player == 0) for p in view.players)
    return replace(view, players=players)


BUILT: dict[str, Callable[[], KaudaBajiView]] = {
    "crowded": crowded_view,
    "packed": packed_view,
    "finished": _finished_view,
    "over-4": _over_view,
    "over-2": lambda: _over_view(2),
    "first": _first_view,
    "first-none": lambda: _first_view(()),
    "big-bank": _big_bank_view,
    "kill": _kill_view,
}


# ----------------------------------------------------------------- playouts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playout_states_render_readably(players: int) -> None:
    states = sample(players, 100 + players)
    names = list(NAMES[:players])
    phases = check_every_view(ENGINE, states, names, render_board, render_private, _check)
    assert {"first", "move", "over"} <= phases


@pytest.mark.parametrize("pieces", [1, 2, 3, 4, 5, 6])
def test_every_piece_count_renders(pieces: int) -> None:
    players = 2 + pieces % 3
    states = sample(players, 40 + pieces, count=4, pieces=pieces)
    for k, state in enumerate(states):
        view = ENGINE.view(state, None)
        assert sum(p.on_board + p.finished for p in view.players) == pieces * players
        image, records = render(lambda v=view: render_board(v, names=NAMES[:players]))
        _check(image, records, f"{pieces} pieces, state {k}")
        texts = [r.text for r in records]
        assert f"{view.players[0].finished}/{pieces}" in texts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_image_of_a_game_fits_the_chat(players: int) -> None:
    """Issue 17: Discord shows an attachment in a box of capped height, so
    every board and private image along a whole seeded game (states spread
    over it, throws and moves, and the end) is at most 1.25 times as tall as
    it is wide."""
    states = sample(players, 300 + players, count=60)
    checked = check_playout_fits_chat(
        ENGINE, states, list(NAMES[:players]), render_board, render_private
    )
    assert checked >= 60 * (players + 1)


def test_the_tallest_built_views_fit_the_chat() -> None:
    """A bank of eight throws with a run and a bonus, four players and a
    long last move: the column beside the board is at its longest."""
    view = _big_bank_view()
    move = view.last_move
    assert move is not None
    view = replace(view, last_move=replace(move, killed=("a4", "b7", "e7", "f1", "d1")))
    for seat in (None, 0, 3):
        seen = replace(view, viewer=seat)
        for draw in (render_board, render_private):
            image, records = render(lambda d=draw, v=seen: d(v, names=NAMES))
            _check(image, records, f"tallest {seat}")
            assert image.height <= MAX_ASPECT * image.width


def test_views_are_not_changed() -> None:
    state = playout(4, 7)[300]
    view = ENGINE.view(state, 2)
    snapshot = replace(view)
    render_board(view, names=NAMES)
    render_private(view, names=NAMES)
    assert view == snapshot


# ----------------------------------------------------------------- built corners


@pytest.mark.parametrize("case", sorted(BUILT))
def test_built_views_render_readably(case: str) -> None:
    view = BUILT[case]()
    names = NAMES[: len(view.players)]
    image, records = render(lambda: render_board(view, names=names))
    _check(image, records, f"{case} board")
    for seat in range(len(view.players)):
        seen = replace(view, viewer=seat)
        image, records = render(lambda v=seen: render_private(v, names=names))
        _check(image, records, f"{case} private {seat}")


def _token_numbers(view: KaudaBajiView) -> Counter[str]:
    """The numbers the board draws for ``view``'s tuples: what it draws minus
    what it draws for the same view with an empty board."""
    full = Counter(_texts(view))
    empty = Counter(_texts(replace(view, stacks=())))
    return full - empty


def _tokens(view: KaudaBajiView, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """(player, size, radius) of every token the board draws for ``view``."""
    drawn: list[tuple[int, int, int]] = []
    original = kauda_baji.draw_token

    def spy(c: Any, centre: Any, radius: int, player: int, size: int) -> None:
        drawn.append((player, size, radius))
        original(c, centre, radius, player, size)

    monkeypatch.setattr(kauda_baji, "draw_token", spy)
    render_board(view, names=NAMES[: len(view.players)])
    monkeypatch.undo()
    return drawn


@pytest.mark.parametrize("build", [crowded_view, packed_view])
def test_every_tuple_is_a_token_with_its_size(
    build: Callable[[], KaudaBajiView], monkeypatch: pytest.MonkeyPatch
) -> None:
    """R9: each tuple is drawn on its own, a stack with the number of its
    pieces where its token holds a phone-sized digit, a single as its plain
    shape; twelve tuples on one square still each get a token."""
    view = build()
    # The key draws a single and a twin too.
    tokens = Counter(_tokens(view, monkeypatch)) - Counter(
        _tokens(replace(view, stacks=()), monkeypatch)
    )
    drawn = list(tokens.elements())
    assert Counter((p, s) for p, s, _ in drawn) == Counter((s.player, s.size) for s in view.stacks)
    numbered = Counter(str(s) for _, s, r in drawn if s > 1 and r >= NUMBERED_RADIUS)
    assert _token_numbers(view) == numbered
    assert numbered, "a crowded square's tuples keep their numbers"


def test_an_overfull_square_says_how_many_more() -> None:
    stacks = tuple(stack("b1", p % 4, 1) for p in range(20))
    view = replace(_base(4), stacks=stacks, last_move=None)
    drawn = _token_numbers(view)
    assert drawn == Counter({"+5": 1})


def _token_ink(radius: int, player: int, stacked: bool, theme: Any = DEFAULT_THEME) -> Any:
    """The box of a token's ink around its centre: (left, top, right, bottom)."""
    tile = kauda_baji._token_tile(player, stacked, radius, theme)
    box = tile.getchannel("A").point(lambda a: 255 if a > 24 else 0).getbbox()
    assert box is not None
    half = tile.width // 2
    return (box[0] - half, box[1] - half, box[2] - half, box[3] - half)


@pytest.mark.parametrize("count", range(1, 17))
def test_tokens_stay_inside_their_square(count: int) -> None:
    """Issue 31: pieces sharing a square are drawn inside it, every shape
    (the diamond's points, a tuple's stack) clear of its edge, so nobody
    takes a piece for its neighbour's; none hides another."""
    radius, offsets = token_layout(count)
    assert len(offsets) == count
    half = SQUARE / 2
    for player in range(4):
        for stacked in (False, True):
            left, top, right, bottom = _token_ink(radius, player, stacked)
            for x, y in offsets:
                assert x + left >= -half + 4 and x + right <= half - 4, (count, player, x)
                assert y + top >= -half + 4 and y + bottom <= half - 4, (count, player, y)
    for i, (x, y) in enumerate(offsets):
        for x2, y2 in offsets[i + 1 :]:
            assert (x - x2) ** 2 + (y - y2) ** 2 >= (1.8 * radius) ** 2, count


def test_the_track_direction_shows_at_phone_width() -> None:
    """Issue 31: the rings' direction marks stay visible on a board shown
    390 px wide: each mark's middle, on the shrunk image, still stands 3:1
    from its squares (WCAG's contrast for shapes), and the loop line keeps
    more than a pixel."""
    view = replace(_base(4), stacks=(), last_move=None)
    image = render_board(view, names=NAMES).convert("RGB")
    scale = 390 / image.width
    small = image.resize((390, round(image.height * scale)), Image.Resampling.LANCZOS)
    top = TITLE_H + kauda_baji.GAP + COORD + EDGE + 2
    turns = 0  # the public board is not turned
    weakest = 21.0
    for frm, to in kauda_baji._route_pairs():
        pa = kauda_baji._centre(frm, turns, top)
        pb = kauda_baji._centre(to, turns, top)
        assert pa is not None and pb is not None
        ring = (kauda_baji.OUTER, kauda_baji.MIDDLE, kauda_baji.INNER)[
            min(2, kauda_baji._ring(FILES.index(frm[0]), int(frm[1])))
        ]
        # Halfway from the wedge's notch to its tip: its body.
        tip, _, notch, _ = kauda_baji.chevron(pa, pb)
        cx, cy = (tip[0] + notch[0]) / 2, (tip[1] + notch[1]) / 2
        pixel = small.getpixel((round(cx * scale), round(cy * scale)))
        assert isinstance(pixel, tuple)
        weakest = min(weakest, contrast((pixel[0], pixel[1], pixel[2]), ring))
    assert weakest >= 3.0, weakest
    assert kauda_baji.TRACK_W * 390 / WIDTH > 1.2


def test_bank_shows_every_throw_run_and_bonus() -> None:
    texts = _texts(_big_bank_view())
    bank = Counter(t for t in texts if t in {"12", "6", "5", "4", "3", "2", "?"})
    # coordinates draw 2-6 four times each; the bank once more per throw
    assert bank["12"] == 2 and bank["?"] == 1
    said = " ".join(texts)
    assert "6/12 run: 2 (a 3rd ends the turn)" in said
    assert "Kill bonus: 2 throws to come" in said
    assert "THROWING: BANK SO FAR" in texts


def _shells_in_a_row(image: Image.Image) -> int:
    """The most cowrie shells (runs of ivory at least 24 pixels long, which a
    shell's toothed slit does not break) on one pixel row of the column
    beside the board (where the bank is)."""
    rgb = image.convert("RGB")
    best = 0
    for y in range(TITLE_H, _board_top(image) + 7 * SQUARE):
        runs, length = 0, 0
        for x in range(COLUMN_X0, WIDTH + 2, 2):
            if x < WIDTH and _close(_pixel(rgb, (x, y)), SHELL, 12):
                length += 2
                continue
            runs += length >= 24
            length = 0
        best = max(best, runs)
    return best


def test_bank_throws_are_cowrie_shells() -> None:
    """R5: one shell per banked throw; the throw still to come is a faded one."""
    view = replace(crowded_view(), bank=(5, 3, 3))
    assert _shells_in_a_row(render_board(view, names=NAMES)) == 3
    view = replace(view, phase="throw", bank=(6,))
    assert _shells_in_a_row(render_board(view, names=NAMES)) == 1
    assert _shells_in_a_row(render_board(replace(view, bank=()), names=NAMES)) == 0


def test_bank_changes_the_image() -> None:
    view = crowded_view()
    a = render_board(view, names=NAMES)
    assert not same(a, render_board(replace(view, bank=(3, 2)), names=NAMES))
    assert not same(a, render_board(replace(view, bank=(12, 1)), names=NAMES))
    assert not same(a, render_board(replace(view, run=1), names=NAMES))
    assert same(a, render_board(replace(view), names=NAMES))


def test_first_throws_are_shown_with_the_throwers() -> None:
    """R7: each throw so far, with its thrower's name."""
    texts = _texts(_first_view())
    assert "Throwing the shells to see who starts" in texts
    none = _texts(_first_view(()))
    assert "No throws yet this round" in none
    extra = Counter(texts) - Counter(none)
    assert extra["Asha"] == extra["Chitra"] == extra["12"] == 1 and extra["4"] == 2
    assert extra["Dev"] == 0


def test_finished_players_show_their_places() -> None:
    texts = _texts(_finished_view())
    assert "1ST PLACE" in texts and "2ND PLACE" in texts
    assert "6/6" in texts
    assert "Twin e3 into the centre with 4" in " ".join(texts)
    assert "Chitra throws the shells" in texts
    assert "THROWING" in texts


def test_game_over_lists_the_places() -> None:
    texts = _texts(_over_view())
    assert "Game over · Chitra wins" in texts
    assert "FINAL PLACES" in texts
    places = [t for t in texts if t in {"1st", "2nd", "3rd", "4th"}]
    assert places == ["1st", "2nd", "3rd", "4th"]
    assert "TO MOVE" not in texts


def test_turn_is_shown() -> None:
    view = crowded_view()
    texts = _texts(view)
    assert "Chitra to move" in texts and "TO MOVE" in texts
    a = render_board(view, names=NAMES)
    assert not same(a, render_board(replace(view, turn=3), names=NAMES))
    assert not same(a, render_board(replace(view, phase="throw"), names=NAMES))


def test_markut_shut_arrow_is_drawn_and_explained() -> None:
    """R15: arrow 1 is barred while a player has not killed."""
    view = _kill_view()
    texts = _texts(view)
    assert texts.count("arrow 1 shut") == 3 and texts.count("arrow 1 open") == 1
    assert "shut until a kill" in texts
    opened = _with_players(view, has_killed=True)
    assert "shut until a kill" not in _texts(opened)
    image = render_board(view, names=NAMES)
    assert not same(image, render_board(opened, names=NAMES))
    # on the board: a red bar across each shut arrow 1, none on an open one
    rgb = image.convert("RGB")
    top = _board_top(image)
    for p in view.players:
        (ax, ay), (bx, by) = (_square_centre(top, sq) for sq in p.arrows[0])
        mx, my = round((ax + bx) / 2), round((ay + by) / 2)
        red = sum(
            _close(_pixel(rgb, (x, y)), DEFAULT_THEME.bad, 10)
            for x in range(mx - 24, mx + 25, 2)
            for y in range(my - 24, my + 25, 2)
        )
        assert (red > 10) == (not p.has_killed), (p.seat, red)


def _pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    pixel = rgb.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


def _close(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 16) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def _board_top(image: Image.Image, seat: int = 0) -> int:
    """The top of the squares, found from the seat bar under the board: the
    first row of the bottom seat's colour across all seven files."""
    rgb = image.convert("RGB")
    colour = DEFAULT_THEME.player_colour(seat)
    xs = (BOARD_LEFT + 10, BOARD_LEFT + 7 * SQUARE // 2, BOARD_LEFT + 7 * SQUARE - 10)
    for y in range(TITLE_H, image.height):
        if all(rgb.getpixel((x, y)) == colour for x in xs):
            return y - 2 - 7 * SQUARE
    raise AssertionError("no seat bar under the board")


def _square_centre(top: int, name: str, turns: int = 0) -> tuple[float, float]:
    file, rank = FILES.index(name[0]), int(name[1])
    c, r = file, rank - 1
    for _ in range(turns):
        c, r = 6 - r, c
    return (BOARD_LEFT + c * SQUARE + SQUARE / 2, top + (6 - r) * SQUARE + SQUARE / 2)


def test_tokens_sit_on_their_squares_in_their_colour() -> None:
    stacks = (stack("e2", 1, 1), stack("b6", 3, 2))
    view = replace(_base(4), stacks=stacks, last_move=None)
    image = render_board(view, names=NAMES)
    top = _board_top(image)
    # a lone token is centred; its colour shows beside its number
    for s in stacks:
        cx, cy = _square_centre(top, s.square)
        colour = DEFAULT_THEME.player_colour(s.player)
        assert _close(_pixel(image, (cx - 12, cy - 12)), colour), s
    empty = _pixel(image, _square_centre(top, "c6"))
    assert not _close(empty, DEFAULT_THEME.player_colour(3))


def test_start_squares_and_private_orientation() -> None:
    """R1: each start square is tinted in its seat's colour; the private board
    is turned so the viewer's start square is at the bottom middle."""
    view = replace(_base(4), stacks=(), last_move=None)
    for seat in range(4):
        image = render_private(replace(view, viewer=seat), names=NAMES)
        top = _board_top(image, seat)
        start = view.players[seat].start
        turns = seat_turns(view.players[seat].seat)
        x, y = _square_centre(top, start, turns)
        assert (x, y) == (BOARD_LEFT + 3.5 * SQUARE, top + 6.5 * SQUARE)
        # the start square's coloured frame, just inside the square's edge
        frame = _pixel(image, (x, y + SQUARE / 2 - 6))
        assert _close(frame, DEFAULT_THEME.player_colour(seat), 4), (seat, frame)
    assert seat_turns("bottom") == 0 and seat_turns("right") == 3


def test_public_board_is_drawn_from_bottoms_side() -> None:
    view = replace(_base(4), stacks=(), last_move=None)
    image = render_board(view, names=NAMES)
    top = _board_top(image)
    x, y = _square_centre(top, "d1")
    assert _close(_pixel(image, (x, y + SQUARE / 2 - 6)), DEFAULT_THEME.player_colour(0), 4)
    # the private view of a viewer-less view is the board
    assert same(image, render_private(view, names=NAMES))
    assert not same(image, render_private(replace(view, viewer=2), names=NAMES))
    assert BOARD_LEFT > COORD + EDGE


def test_last_move_is_highlighted_and_told() -> None:
    view = _kill_view()
    texts = _texts(view)
    assert "Twin f3 to e2 with 4, killed on f3, e2" in " ".join(texts)
    assert "LAST MOVE" in texts
    move = view.last_move
    assert move is not None
    a = render_board(view, names=NAMES)
    b = render_board(replace(view, last_move=None), names=NAMES)
    c = render_board(replace(view, last_move=replace(move, killed=())), names=NAMES)
    assert not same(a, b) and not same(a, c) and not same(b, c)
    # the landing square is outlined in ink
    top = _board_top(a)
    x, y = _square_centre(top, "e2")
    assert _close(_pixel(a, (x, y + SQUARE / 2 - 4)), DEFAULT_THEME.ink, 4)
    # a red badge in a corner of each kill square (sampled off its white cross)
    for square in ("f3", "e2"):
        x, y = _square_centre(top, square)
        off = SQUARE / 2 - 20  # a badge's centre, from the square's
        corners = [(x + dx, y + dy - 12) for dx in (-off, off) for dy in (-off, off)]
        assert any(_close(_pixel(a, p), DEFAULT_THEME.bad, 24) for p in corners), square


def test_stack_differences_change_the_image() -> None:
    view = crowded_view()
    a = render_board(view, names=NAMES)
    first, *rest = view.stacks
    for changed in (
        replace(first, size=3),
        replace(first, player=1),
        replace(first, square="e1", file=4),
    ):
        other = replace(view, stacks=(changed, *rest))
        assert not same(a, render_board(other, names=NAMES)), changed


def test_move_text() -> None:
    m = MoveView(player=0, frm="a2", to="b4", size=2, values=(4, 2), path=("a1",), killed=())
    assert move_text(m) == "Twin a2 to b4 with 4+2"
    m = replace(m, to="d4", size=1, values=(6,), killed=("b4",))
    assert move_text(m) == "Single a2 into the centre with 6, killed on b4"


def test_odd_names_are_made_drawable() -> None:
    view = crowded_view()
    odd = ("\U0001f418\U0001f418", "Ñandú " + "x" * 80, "", "{p0} **bold** @everyone")
    for draw in (render_board, render_private):
        image, records = render(lambda d=draw: d(replace(view, viewer=1), names=odd))
        assert image.width == WIDTH
        texts = {r.text for r in records}
        # The elephants where an emoji font is installed, else "Player 1".
        assert display_name(odd, 0) in texts and "Player 3" in texts
        # drawn as written where the font has the letters, else made drawable
        assert any(t.startswith(("Ñandú x", "Nandu x")) for t in texts)
        assert "{p0} **bold** @everyone" in texts
    # too few names: fallbacks, not an error
    image, records = render(lambda: render_board(view, names=()))
    assert "Player 4" in {r.text for r in records}


def test_png_size_of_the_busiest_boards() -> None:
    for view in (crowded_view(), _big_bank_view(), replace(crowded_view(), viewer=3)):
        for draw in (render_board, render_private):
            assert len(to_png(draw(view, names=NAMES))) < MAX_PNG


def test_registry() -> None:
    renderer = get_renderer("kauda_baji")
    assert RENDERERS["kauda_baji"] is renderer
    assert isinstance(renderer, KaudaBajiRenderer)
    view = replace(crowded_view(), viewer=1)
    assert same(renderer.board(view, names=NAMES), render_board(view, names=NAMES))
    assert same(renderer.private(view, names=NAMES), render_private(view, names=NAMES))


def _panel_counts(texts: list[str]) -> list[tuple[str, str, str]]:
    """(at start, on the way, home) as each player panel writes them."""
    return [
        (texts[i + 1], texts[i + 3], texts[i + 5])
        for i in range(len(texts) - 5)
        if texts[i] == "start" and texts[i + 2] == "on way" and texts[i + 4] == "home"
    ]


def test_panels_count_pieces_at_start_on_the_way_and_home() -> None:
    """R4, R17: each panel splits the player's pieces three ways."""
    view = crowded_view()
    expected = [
        (str(p.at_start), str(p.on_board - p.at_start), f"{p.finished}/6") for p in view.players
    ]
    assert _panel_counts(_texts(view)) == expected
    assert expected[0] == ("1", "5", "0/6")
    players = (replace(view.players[0], at_start=0, on_board=2, finished=4), *view.players[1:])
    assert _panel_counts(_texts(replace(view, players=players)))[0] == ("0", "2", "4/6")


def test_private_view_names_the_viewer() -> None:
    """Nothing is hidden: the private image is the board, turned, under the
    viewer's own heading, with their panel marked and a prompt on their move."""
    view = crowded_view()  # Chitra (seat 2) to move
    board = _texts(view)
    assert "YOU" not in board and "YOUR MOVE" not in board
    mine = _texts(replace(view, viewer=1), render_private)
    assert "KAUDA BAJI · YOUR SEAT: RIGHT" in mine and "YOU" in mine
    assert "Chitra's turn" in mine and "YOUR MOVE" not in mine
    theirs = _texts(replace(view, viewer=2), render_private)
    assert "YOUR MOVE" in theirs and "Your turn" in theirs and "YOU" not in theirs
