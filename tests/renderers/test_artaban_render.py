"""Renderer tests for Artaban: views built by hand, and seeded games for the
checks every image of a whole game must pass."""

from __future__ import annotations

import copy
import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from bot.engines import get_engine
from bot.engines.artaban_views import (
    ArtabanView,
    DieView,
    FinalView,
    LastMoveView,
    PlayerView,
    SetupView,
)
from renderers import RENDERERS, get_renderer
from renderers.artaban import (
    BOARD_WIDTH,
    COLUMN_X0,
    DIE,
    LINE,
    MARGIN,
    PRIVATE_WIDTH,
    render_board,
    render_private,
    square_centre,
)
from renderers.common import DEFAULT_THEME, TextRecord, to_png
from tests.renderers.images import (
    MAX_ASPECT,
    check_fits_chat,
    check_playout_fits_chat,
    playout,
    render,
    same,
)

NAMES = ("Asha", "Bhima the Magnificent of Hastinapura")
FILES = "abcdefgh"
# (top, front, right) of real dice: right = front x top with 1 x 2 = 3.
FACES = ((1, 2, 4), (2, 1, 3), (3, 1, 5), (4, 1, 2), (5, 1, 4), (6, 2, 3), (6, 5, 4))


def dice_for(seed: int, per_side: int) -> tuple[DieView, ...]:
    rng = random.Random(seed)
    squares = rng.sample(range(8, 56), 2 * per_side)
    out = []
    for i, sq in enumerate(squares):
        owner = i % 2
        top, front, right = rng.choice(FACES)
        rank = sq // 8 + 1
        out.append(
            DieView(
                square=f"{FILES[sq % 8]}{rank}",
                file=sq % 8,
                rank=rank,
                owner=owner,
                top=top,
                front=front,
                left=7 - right,
                right=right,
                leader=i < 2,
                home=False,
            )
        )
    for owner, rank in ((0, 8), (1, 1)):
        out.append(
            DieView(
                square=f"d{rank}",
                file=3,
                rank=rank,
                owner=owner,
                top=5,
                front=1,
                left=3,
                right=4,
                leader=False,
                home=True,
            )
        )
    return tuple(out)


def build_view(
    phase: str = "play",
    *,
    seed: int = 1,
    me_seat: int | None = None,
    values: tuple[int, ...] = (3, 4, 6),
    leader: str | None = None,
    committed: tuple[bool, bool] = (False, False),
    draw_offer: int | None = None,
    diagonal: bool = False,
    agreed: bool = False,
) -> ArtabanView:
    dice = dice_for(seed, 6) if phase != "setup" else ()
    players = tuple(
        PlayerView(
            seat=s,
            committed=committed[s] if phase == "setup" else True,
            score=5 if phase != "setup" else 0,
            home=1 if phase != "setup" else 0,
            on_board=sum(1 for d in dice if d.owner == s) if phase != "setup" else 8,
            leader=next((d.square for d in dice if d.owner == s and d.leader), None),
        )
        for s in (0, 1)
    )
    last = None
    if phase != "setup":
        last = LastMoveView(seat=1, kind="tip", frm="c5", to="c4", forward=True)
    final = None
    if phase == "over":
        final = FinalView(
            ranking=((0, 1),) if agreed else ((0,), (1,)),
            scores=(5, 5),
            reason="The players agreed to a draw."
            if agreed
            else "{p1}, to move, could not tip, capture or sacrifice. {p0} scores 5 "
            "and {p1} scores 5; with the scores tied, more dice on the last rank wins "
            "(2 to 1).",
            agreed=agreed,
        )
    me = None
    if me_seat is not None and phase == "setup":
        me = SetupView(
            seat=me_seat,
            values=values,
            leader=leader,
            committed=committed[me_seat],
            total=sum(values),
        )
    waiting: tuple[int, ...] = ()
    if phase == "setup":
        waiting = tuple(s for s in (0, 1) if not committed[s])
    return ArtabanView(
        phase=phase,
        diagonal_captures=diagonal,
        to_play=0 if phase == "play" else None,
        waiting_on=waiting,
        players=players,
        dice=dice,
        last_move=last,
        draw_offer=draw_offer,
        quiet_plies=12 if phase != "setup" else 0,
        quiet_limit=40,
        ply=37 if phase != "setup" else 0,
        final=final,
        viewer=me_seat,
        me=me,
    )


PHASES = ("setup", "play", "over")


@pytest.mark.parametrize("phase", PHASES)
def test_board_renders_every_phase(phase: str) -> None:
    image = render_board(build_view(phase, seed=len(phase)), names=NAMES)
    assert image.width == BOARD_WIDTH
    assert 900 < image.height <= MAX_ASPECT * image.width
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20) or []}
    for seat in (0, 1):
        assert DEFAULT_THEME.player_colour(seat) in colours


@pytest.mark.parametrize(
    "view",
    [
        build_view("play", draw_offer=1, diagonal=True),
        build_view("over", agreed=True),
        build_view("setup", committed=(True, False)),
    ],
)
def test_board_renders_variants(view: ArtabanView) -> None:
    assert render_board(view, names=NAMES).width == BOARD_WIDTH


def test_png_is_valid_and_small() -> None:
    data = to_png(render_board(build_view("over", seed=7), names=NAMES))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < 150_000
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.format == "PNG" and decoded.width == BOARD_WIDTH and decoded.mode == "P"


def test_private_set_up_shows_the_arrangement() -> None:
    a = render_private(build_view("setup", me_seat=0, values=(3, 4, 6)), names=NAMES)
    b = render_private(build_view("setup", me_seat=0, values=(3, 4, 5)), names=NAMES)
    assert a.width == PRIVATE_WIDTH == b.width
    assert not same(a, b)
    full = (3, 4, 5, 2, 6, 1, 4, 3)
    ready = build_view("setup", me_seat=1, values=full, leader="c")
    done = build_view("setup", me_seat=1, values=full, leader="c", committed=(False, True))
    moved = build_view("setup", me_seat=1, values=full, leader="d")
    images = [render_private(v, names=NAMES) for v in (ready, done, moved)]
    assert not same(images[0], images[1]) and not same(images[0], images[2])
    data = to_png(images[0])
    assert len(data) < 150_000
    Image.open(io.BytesIO(data)).load()


def test_private_differs_from_the_public_board() -> None:
    setup = build_view("setup", me_seat=0)
    assert not same(render_private(setup, names=NAMES), render_board(setup, names=NAMES))
    # After the reveal a player gets the board from their own side.
    play = build_view("play", seed=4)
    for seat in (0, 1):
        mine = replace(play, viewer=seat)
        assert not same(render_private(mine, names=NAMES), render_board(play, names=NAMES))
    assert not same(
        render_private(replace(play, viewer=0), names=NAMES),
        render_private(replace(play, viewer=1), names=NAMES),
    )
    # A view for nobody in particular is just the board.
    assert same(render_private(play, names=NAMES), render_board(play, names=NAMES))


@pytest.mark.parametrize("phase", PHASES)
def test_board_never_draws_me(phase: str) -> None:
    public = build_view(phase, seed=3)
    private = build_view(phase, seed=3, me_seat=1, values=(6, 6, 6, 6, 1, 1), leader=None)
    assert replace(private, me=None, viewer=None) == public
    assert same(render_board(public, names=NAMES), render_board(private, names=NAMES))


def test_board_shows_changes() -> None:
    view = build_view("play", seed=5)
    capture = LastMoveView(seat=0, kind="capture", frm="e3", to="e4", forward=False)
    moved = replace(view, last_move=capture)
    offered = replace(view, draw_offer=0)
    quiet = replace(view, quiet_plies=33)
    base = render_board(view, names=NAMES)
    for other in (moved, offered, quiet):
        assert not same(base, render_board(other, names=NAMES))
    assert not same(base, render_board(view, names=("Zed", NAMES[1])))
    leaderless = replace(view, dice=tuple(replace(d, leader=False) for d in view.dice))
    assert not same(base, render_board(leaderless, names=NAMES))
    first = view.dice[0]
    turned = replace(view, dice=(replace(first, front=7 - first.front), *view.dice[1:]))
    assert not same(base, render_board(turned, names=NAMES))


@pytest.mark.parametrize("phase", PHASES)
def test_rendering_does_not_mutate_the_view(phase: str) -> None:
    view = build_view(phase, me_seat=0, seed=11)
    snapshot = copy.deepcopy(view)
    render_board(view, names=NAMES)
    render_private(view, names=NAMES)
    assert view == snapshot


def test_the_result_names_the_players() -> None:
    """The reason under the result says who could not move and who scored what
    by name, not as the rules' White and Black or as tags."""
    _, records = render(lambda: render_board(build_view("over", seed=2), names=NAMES))
    drawn = " ".join(r.text for r in records)
    assert "Asha scores 5" in drawn and "Bhima" in drawn and "{p" not in drawn
    assert "White" not in drawn and "Black" not in drawn
    assert "Moves first" in drawn and "Moves second" in drawn and "Player 1" not in drawn


def test_the_board_counts_moves_not_plies() -> None:
    _, records = render(lambda: render_board(build_view("play", seed=2), names=NAMES))
    drawn = [r.text for r in records]
    assert "Move 37" in drawn and "12 of 40 quiet moves" in drawn
    assert not any("plies" in text.lower() for text in drawn)
    assert not any(text.startswith("Ply") for text in drawn)


def test_odd_names() -> None:
    view = build_view("over", seed=2)
    odd = ("\U0001f418\U0001f418", "Ñandú " + "x" * 80)
    assert render_board(view, names=odd).width == BOARD_WIDTH
    assert render_board(view, names=()).width == BOARD_WIDTH


def test_registry() -> None:
    renderer = get_renderer("artaban")
    assert RENDERERS["artaban"] is renderer
    view = build_view("setup", me_seat=0)
    assert same(renderer.board(view, names=NAMES), render_board(view, names=NAMES))
    assert same(renderer.private(view, names=NAMES), render_private(view, names=NAMES))


# ----------------------------------------------------------------- fits the chat

ENGINE = get_engine("artaban")
LONG_NAMES = ("Ñandú " + "x" * 80, "Bhima the Magnificent of Hastinapura and Indraprastha")
TITLE_Y = 52
"""Where the status line of the board's title band starts."""


def _check(image: Image.Image, records: list[TextRecord], what: str) -> None:
    width = PRIVATE_WIDTH if image.width == PRIVATE_WIDTH else BOARD_WIDTH
    check_fits_chat(image, records, what, width=width, max_png=200_000)


@pytest.mark.parametrize(("seed", "diagonal"), [(401, False), (402, True)])
def test_every_image_of_a_game_fits_the_chat(seed: int, diagonal: bool) -> None:
    """Issue 17: Discord shows an attachment in a box of capped height, so
    every board and each seat's private image along a seeded game (every
    set-up step, then every eighth state of play, and the end) is at most
    1.25 times as tall as it is wide."""
    states = playout(ENGINE, 2, seed, {"diagonal_captures": diagonal})
    setup = [s for s in states if ENGINE.view(s, None).phase == "setup"]
    play = [s for s in states if ENGINE.view(s, None).phase != "setup"]
    picked = [*setup, *play[::8], states[-1]]
    assert any(ENGINE.view(s, 0).me is not None for s in picked)
    assert ENGINE.view(picked[-1], None).phase == "over"
    checked = check_playout_fits_chat(
        ENGINE, picked, ["Asha", "Bhima"], render_board, render_private
    )
    assert checked == 3 * len(picked) >= 3 * 60


def tallest_view() -> ArtabanView:
    """A finished game with a standing draw offer, a sacrifice for the last
    move and a long reason naming two long names: the column beside the
    board at its longest."""
    view = build_view("over", seed=2, draw_offer=1, diagonal=True)
    sacrifice = LastMoveView(seat=1, kind="sacrifice", frm="c5", to="c4", forward=False)
    return replace(view, last_move=sacrifice)


def test_the_tallest_built_views_fit_the_chat() -> None:
    view = tallest_view()
    for seat in (None, 0, 1):
        seen = replace(view, viewer=seat)
        for draw in (render_board, render_private):
            image, records = render(lambda d=draw, v=seen: d(v, names=LONG_NAMES))
            _check(image, records, f"tallest {draw.__name__} {seat}")
    full = (6, 6, 6, 5, 2, 1, 1, 1)
    for committed in ((False, False), (True, True)):
        setup = build_view("setup", me_seat=1, values=full, leader="h", committed=committed)
        for draw in (render_board, render_private):
            image, records = render(lambda d=draw, v=setup: d(v, names=LONG_NAMES))
            _check(image, records, f"set-up {draw.__name__} {committed}")


def _die_pixel(image: Image.Image, square: str, top: int, *, flip: bool) -> tuple[int, ...]:
    """A pixel inside the die on ``square``, left of its pips."""
    cx, cy = square_centre(square, top, flip=flip)
    pixel = image.convert("RGB").getpixel((round(cx - DIE * 0.42), round(cy)))
    assert isinstance(pixel, tuple)
    return pixel


def test_dice_stand_on_their_squares_on_the_left() -> None:
    """The board is on the left of the landscape image, from Player 1's side
    on the channel's board and turned for the second player's own view."""
    view = build_view("play", seed=6)
    colours = [DEFAULT_THEME.player_colour(s) for s in (0, 1)]
    board = render_board(view, names=NAMES)
    mine = render_private(replace(view, viewer=1), names=NAMES)
    top = 108 + 16  # under the title band
    for die in view.dice:
        for image, flip in ((board, False), (mine, True)):
            assert _die_pixel(image, die.square, top, flip=flip) == colours[die.owner], die
            cx, _ = square_centre(die.square, top, flip=flip)
            assert cx < COLUMN_X0 - MARGIN


def _last_inked_row(image: Image.Image, x0: int, x1: int) -> int:
    """The lowest row with anything but the background between ``x0`` and ``x1``."""
    rgb = image.convert("RGB")
    for y in range(image.height - 1, -1, -1):
        if any(rgb.getpixel((x, y)) != DEFAULT_THEME.background for x in range(x0, x1, 2)):
            return y
    return -1


def test_the_last_move_goes_where_the_image_stays_shortest() -> None:
    """In the column while the board and its key are the taller stack; under
    the key when the result makes the column the taller one."""
    left = (MARGIN, COLUMN_X0 - MARGIN)
    play = render_board(build_view("play", seed=6), names=NAMES)
    key_bottom = _last_inked_row(play, *left)
    assert _last_inked_row(play, COLUMN_X0, BOARD_WIDTH - MARGIN) < key_bottom
    over = render_board(tallest_view(), names=LONG_NAMES)
    assert _last_inked_row(over, *left) > key_bottom + 2 * LINE


def test_a_long_name_still_says_to_move_or_wins() -> None:
    """The status line cuts a long name, not what it says of the player."""
    for phase, end in (("play", " to move"), ("over", " wins")):
        view = build_view(phase, seed=6)
        _, records = render(lambda v=view: render_board(v, names=LONG_NAMES))
        status = [r.text for r in records if r.text.endswith(end)]
        assert status and "Ñandú x" in status[0] and "\u2026" in status[0], phase


def test_a_draw_offer_names_who_offered() -> None:
    view = build_view("play", seed=6, draw_offer=1)
    _, records = render(lambda: render_board(view, names=NAMES))
    drawn = [r.text for r in records]
    assert "DRAW OFFERED BY" in drawn and NAMES[1] in drawn
    _, records = render(lambda: render_board(replace(view, draw_offer=None), names=NAMES))
    assert "DRAW OFFERED BY" not in [r.text for r in records]


def test_the_quiet_moves_meter_says_what_it_counts() -> None:
    _, records = render(lambda: render_board(build_view("play", seed=6), names=NAMES))
    drawn = " ".join(r.text for r in records)
    assert "no forward tip" in drawn and "ends at 40" in drawn
