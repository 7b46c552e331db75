"""Kauda Baji: the public board and a seat's own view, drawn with Pillow.

Pure functions of a :class:`~bot.engines.kauda_baji_views.KaudaBajiView`
(``docs/rules/kauda_baji.md``, R1-R18).  The public board is drawn from the
Bottom seat's side (rank 1 at the bottom, as the rules print it); the private
image is the same board turned so that the viewer's start square is at the
bottom middle, so every player reads their own route the same way.

What the board shows, and how:

- the three rings (outer, middle, inner) in three shades, joined by a thin
  track with chevrons: every piece goes round the outer ring anticlockwise
  and round the middle and inner rings clockwise (R1);
- each seat's three arrows (R1, R2) in the seat's colour, short and outlined,
  straddling the border (or corner) they cross; up to four tokens on a square
  sit in its quarters, off the lines the arrows run along, so pieces rarely
  hide them; arrow 1 is faded and barred while markut keeps it shut (R15);
- the thirteen safe squares crossed corner to corner, as on a cloth board
  (R3), the start squares tinted in their seat's colour, the centre starred;
- every tuple as its own token: the seat's shape (circle, square, triangle,
  diamond) in its colour with the number of pieces on it, a tuple drawn as a
  little stack (R9);
- the last move: the squares it crossed (a trail of dots), its start and
  landing squares outlined, a red cross badge where tuples were killed;
- the bank of unspent throws as cowrie shells with their values (R5, R6),
  the run of 6s and 12s and the kill-bonus throws to come (R16), or, before
  play, the throws for who starts (R7);
- a panel per player: name, seat, pieces at the start, on the way and home,
  whether arrow 1 is open, the place once finished (R18).

The channel's news line is posted as text by the bot and not drawn here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Final

from PIL import Image, ImageDraw

from bot.engines.kauda_baji_views import KaudaBajiView, MoveView, PlayerView, StackView
from bot.i18n import N_, t, tn
from renderers.common import (
    BOARD_SIDES,
    DEFAULT_THEME,
    RGB,
    Box,
    Canvas,
    LegendItem,
    Theme,
    ViewRenderer,
    badge_row,
    badges_width,
    blend,
    board_coordinates,
    board_title,
    capture_badge,
    column_heading,
    display_name,
    edge_labels,
    fit_text,
    last_move_section,
    legend,
    min_text_size,
    ordinal,
    private_band,
    private_title,
    seat_panel,
    shape_marker,
    side_bar,
    text_width,
    title_band,
    turned_square,
    wrap_text,
)

WIDTH: Final = 1400
"""Landscape, so the image fits the box Discord shows it in (height at most
1.25 times the width; issue 17)."""
MARGIN: Final = 24
GAP: Final = 16
SECTION_GAP: Final = 22
SQUARE: Final = 104
BOARD_PX: Final = 7 * SQUARE
COORD: Final = 42
"""The coordinate gutter on each edge (letters or numbers)."""
EDGE: Final = 8
"""The seat-coloured bar between the gutter and the squares."""
BOARD_LEFT: Final = MARGIN + COORD + EDGE + 2
"""The left edge of the squares."""
BOARD_BLOCK: Final = 2 * (COORD + EDGE + 2) + BOARD_PX
"""The board with its gutters, square."""
LAYER_W: Final = MARGIN + BOARD_BLOCK
"""The width of the cached board layer (the board is on the image's left)."""
COLUMN_X0: Final = LAYER_W + MARGIN
"""The column of throws, players and the last move, right of the board."""
COLUMN_X1: Final = WIDTH - MARGIN
FILES: Final = "abcdefg"

SMALL: Final = min_text_size(WIDTH)
"""Labels, coordinates, token numbers: the smallest text readable on a phone."""
BODY: Final = SMALL + 2
BIG: Final = SMALL + 5

SEATS: Final = ("bottom", "right", "top", "left")
SEAT_TITLES: Final = {
    "bottom": N_("Bottom"),
    "right": N_("Right"),
    "top": N_("Top"),
    "left": N_("Left"),
}
SIZE_NAMES: Final = (
    N_("piece"),
    N_("single"),
    N_("twin"),
    N_("triple"),
    N_("quadruple"),
    N_("quintuple"),
    N_("sextuple"),
)
"""A tuple's name by its number of pieces, in English (drawn in the image's
language: :func:`size_name`)."""
CENTRE: Final = "d4"

OUTER: Final[RGB] = (64, 68, 84)
MIDDLE: Final[RGB] = (53, 57, 71)
INNER: Final[RGB] = (44, 47, 60)
TRACK: Final[RGB] = (104, 110, 130)
"""The rings' loop line: a quiet path under the pieces."""
CHEVRON: Final[RGB] = (196, 202, 218)
"""The rings' direction marks: 3:1 or more against every ring's squares
(WCAG's contrast for shapes), so they stay on a board shown 390 px wide."""
TRACK_W: Final = 5
"""The loop line's width: more than a pixel and a half on a phone."""
CROSS: Final[RGB] = (118, 124, 142)
SHELL: Final[RGB] = (241, 232, 208)
SHELL_SHADE: Final[RGB] = (196, 178, 140)
SHELL_SLIT: Final[RGB] = (78, 58, 40)

_BOTTOM_ROUTE: Final = tuple(
    " ".join(
        (
            "d1 e1 f1 g1 g2 g3 g4 g5 g6 g7 f7 e7 d7 c7 b7 a7 a6 a5 a4 a3 a2 a1 b1 c1",
            "b2 b3 b4 b5 b6 c6 d6 e6 f6 f5 f4 f3 f2 e2 d2 c2",
            "c3 c4 c5 d5 e5 e4 e3 d3 d4",
        )
    ).split()
)
"""R1: the Bottom seat's route; the rings' direction is the same for every seat."""
RINGS: Final = (_BOTTOM_ROUTE[0:24], _BOTTOM_ROUTE[24:40], _BOTTOM_ROUTE[40:48])
"""The outer, middle and inner rings, each in its direction of travel."""


# ----------------------------------------------------------------- geometry


def _parse(name: str) -> tuple[int, int] | None:
    """(file 0-6, rank 1-7) of a square name, or None."""
    if len(name) != 2 or name[0] not in FILES or not "1" <= name[1] <= "7":
        return None
    return FILES.index(name[0]), int(name[1])


_display = partial(turned_square, 7)
"""(column, row from the top) of a square (file, rank, turns) with the board
turned ``turns`` quarter turns anticlockwise about d4."""


def _ring(file: int, rank: int) -> int:
    """0 outer, 1 middle, 2 inner, 3 the centre."""
    return min(file, rank - 1, 6 - file, 7 - rank)


def seat_turns(seat: str) -> int:
    """Quarter turns (anticlockwise) that bring ``seat``'s start square to the
    bottom middle (R1: each route is Bottom's turned)."""
    return (4 - SEATS.index(seat)) % 4 if seat in SEATS else 0


def _centre(name: str, turns: int, top: int) -> tuple[float, float] | None:
    sq = _parse(name)
    if sq is None:
        return None
    col, row = _display(sq[0], sq[1], turns)
    return (BOARD_LEFT + col * SQUARE + SQUARE / 2, top + row * SQUARE + SQUARE / 2)


def _square_box(name: str, turns: int, top: int) -> Box | None:
    sq = _parse(name)
    if sq is None:
        return None
    col, row = _display(sq[0], sq[1], turns)
    x0, y0 = BOARD_LEFT + col * SQUARE, top + row * SQUARE
    return (x0, y0, x0 + SQUARE, y0 + SQUARE)


def _arrow_polygon(
    a: tuple[float, float], b: tuple[float, float], shaft: float, head_w: float, head_l: float
) -> list[tuple[float, float]]:
    """An arrow from ``a`` with its tip at ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    bx, by = b[0] - ux * head_l, b[1] - uy * head_l
    return [
        (a[0] + nx * shaft, a[1] + ny * shaft),
        (bx + nx * shaft, by + ny * shaft),
        (bx + nx * head_w, by + ny * head_w),
        b,
        (bx - nx * head_w, by - ny * head_w),
        (bx - nx * shaft, by - ny * shaft),
        (a[0] - nx * shaft, a[1] - ny * shaft),
    ]


# ----------------------------------------------------------------- colours and names


def player_colour(theme: Theme, player: int) -> RGB:
    return theme.player_colour(player)


def seat_title(seat: str, lang: str = "en") -> str:
    title = SEAT_TITLES.get(seat)
    return t(lang, title) if title is not None else seat.capitalize()


def size_name(size: int, lang: str = "en") -> str:
    if 0 <= size < len(SIZE_NAMES):
        return t(lang, SIZE_NAMES[size])
    return t(lang, "{n}-tuple", n=size)


def _player(view: KaudaBajiView, player: int) -> PlayerView | None:
    for p in view.players:
        if p.player == player:
            return p
    return None


# ----------------------------------------------------------------- pieces


@lru_cache(maxsize=128)
def _token_tile(player: int, stacked: bool, radius: int, theme: Theme) -> Image.Image:
    """A token as an RGBA tile, ``2 * radius + 12`` pixels square, its shape
    centred: the seat's shape in its colour, outlined in the background; a
    tuple gets a darker copy behind it so it reads as a stack (cached)."""
    scale = 3
    side = 2 * radius + 12
    big = side * scale
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = player_colour(theme, player)
    shape = theme.seat_shape(player)
    r = radius * scale
    c = big / 2
    if stacked:
        off = 4 * scale
        shape_marker(d, (c + off, c + off), r, shape, theme.background)
        shape_marker(
            d, (c + off, c + off), r - 2 * scale, shape, blend(colour, theme.background, 0.5)
        )
    shape_marker(d, (c, c), r, shape, theme.background)
    shape_marker(d, (c, c), r - 2.5 * scale, shape, colour)
    return img.resize((side, side), Image.Resampling.LANCZOS)


def _digit_offset(shape: str, radius: int) -> float:
    """How far below the shape's centre its number sits (a triangle's is low)."""
    return radius * 0.24 if shape == "triangle" else 0.0


NUMBERED_RADIUS: Final = 20
"""The smallest token that holds its tuple's number (a phone-sized digit)."""


def draw_token(c: Canvas, centre: tuple[float, float], radius: int, player: int, size: int) -> None:
    """A piece or a tuple: the seat's shape in its colour; a tuple is drawn
    as a stack, with the number of its pieces where the token holds a
    phone-sized digit.  A single has no number: its plain shape says it."""
    th = c.theme
    tile = _token_tile(player, size > 1, radius, th)
    half = tile.width // 2
    cx, cy = centre
    c.image.paste(tile, (round(cx) - half, round(cy) - half), tile)
    if size > 1 and radius >= NUMBERED_RADIUS:
        c.text(
            (cx, cy + _digit_offset(th.seat_shape(player), radius)),
            str(size),
            size=SMALL,
            fill=th.on_colour,
            anchor="mm",
            bold=True,
        )


TOKEN_INSET: Final = 6
"""Every token's ink stays this far inside its square's edge, so nobody
takes a piece for its neighbour's (issue 31)."""
TOKEN_REACH: Final = 1.15
"""How far a token's shape reaches, as a share of its radius (the diamond's
points), beyond which its stack adds :data:`STACK_SHIFT`."""
STACK_SHIFT: Final = 4
"""How far a tuple's stack sticks out right and below its token."""
_QUAD: Final = ((-1.0, -1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, 1.0))
"""Up to four tokens sit in the quarters of a square, off the lines through its
centre, where the arrows cross the borders (two sit on a diagonal)."""


def token_layout(count: int) -> tuple[int, list[tuple[float, float]]]:
    """Token radius and offsets from a square's centre for ``count`` tokens
    (at most 16: a 4 by 4 grid), every token's shape and stack inside the
    square, :data:`TOKEN_INSET` from its edge."""
    if count <= 0:
        return 0, []
    half = SQUARE / 2 - TOKEN_INSET - STACK_SHIFT
    if count == 1:
        return 24, [(0.0, 0.0)]
    if count <= 4:
        radius = NUMBERED_RADIUS
        step = math.floor(half - TOKEN_REACH * radius)
        cells = [_QUAD[0], _QUAD[2], _QUAD[3], _QUAD[1]] if count > 2 else list(_QUAD[:2])
        return radius, [(x * step, y * step) for x, y in cells[:count]]
    cols = 3 if count <= 9 else 4
    shown = min(count, cols * cols)
    rows = math.ceil(shown / cols)
    # Pitch and radius: the outer tokens reach the inset, neighbours just apart.
    radius = math.floor(2 * half / (2 * cols * TOKEN_REACH + (cols - 1) * 0.2))
    pitch = (2 * half - 2 * TOKEN_REACH * radius) / (cols - 1)
    out: list[tuple[float, float]] = []
    for i in range(shown):
        row, col = divmod(i, cols)
        in_row = min(cols, shown - row * cols)
        x = (col - (in_row - 1) / 2) * pitch
        y = (row - (rows - 1) / 2) * pitch
        out.append((x, y))
    return radius, out


def _square_tokens(stacks: Sequence[StackView]) -> list[StackView]:
    """The tuples on one square in drawing order: by player, largest first."""
    return sorted(stacks, key=lambda s: (s.player, -s.size))


# ----------------------------------------------------------------- cowries


@lru_cache(maxsize=16)
def _cowrie_tile(width: int, height: int, theme: Theme, faded: bool) -> Image.Image:
    """A cowrie shell lying mouth up: an ivory oval with a darker rim, the
    long toothed slit down its middle (cached RGBA)."""
    scale = 3
    w, h = width * scale, height * scale
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    shell = blend(SHELL, theme.panel, 0.55) if faded else SHELL
    shade = blend(SHELL_SHADE, theme.panel, 0.55) if faded else SHELL_SHADE
    slit = blend(SHELL_SLIT, theme.panel, 0.45) if faded else SHELL_SLIT
    d.ellipse((0, 0, w - 1, h - 1), fill=theme.background)
    pad = 2 * scale
    d.ellipse((pad, pad, w - 1 - pad, h - 1 - pad), fill=shade)
    inner = 5 * scale
    d.ellipse((inner, inner + scale, w - 1 - inner, h - 1 - inner), fill=shell)
    # the aperture: a slightly curved slit, narrow at the ends
    cy = h / 2
    x0, x1 = w * 0.12, w * 0.88
    pts_top: list[tuple[float, float]] = []
    pts_bottom: list[tuple[float, float]] = []
    steps = 16
    for i in range(steps + 1):
        f = i / steps
        x = x0 + (x1 - x0) * f
        bend = math.sin(f * math.pi * 2) * h * 0.03
        half = h * 0.075 * math.sin(f * math.pi) ** 0.6 + scale * 0.6
        pts_top.append((x, cy + bend - half))
        pts_bottom.append((x, cy + bend + half))
    d.polygon(pts_top + pts_bottom[::-1], fill=slit)
    # the teeth on both lips
    tooth = max(scale, round(h * 0.035))
    for i in range(2, steps - 1):
        f = i / steps
        x = x0 + (x1 - x0) * f
        bend = math.sin(f * math.pi * 2) * h * 0.03
        half = h * 0.075 * math.sin(f * math.pi) ** 0.6 + scale * 0.6
        reach = h * (0.13 if 4 <= i <= steps - 4 else 0.09)
        d.line([(x, cy + bend - half), (x, cy + bend - half - reach)], fill=slit, width=tooth)
        d.line([(x, cy + bend + half), (x, cy + bend + half + reach)], fill=slit, width=tooth)
    return img.resize((width, height), Image.Resampling.LANCZOS)


COWRIE_W: Final = 64
COWRIE_H: Final = 42
THROW_W: Final = 132
THROW_H: Final = 76


def draw_cowrie(c: Canvas, xy: tuple[int, int], *, faded: bool = False) -> None:
    """A cowrie shell with its top left corner at ``xy``."""
    tile = _cowrie_tile(COWRIE_W, COWRIE_H, c.theme, faded)
    c.image.paste(tile, xy, tile)


def throw_tile(c: Canvas, x: int, y: int, value: int | None, *, edge: RGB | None = None) -> Box:
    """One banked throw: a cowrie and its value (``None``: still to throw)."""
    th = c.theme
    box = (x, y, x + THROW_W, y + THROW_H)
    again = value in (6, 12)
    outline = edge if edge is not None else th.highlight if again else th.grid
    c.panel(box, fill=th.slot, outline=outline, radius=14, width=3)
    draw_cowrie(c, (x + 10, y + (THROW_H - COWRIE_H) // 2), faded=value is None)
    c.text(
        (x + 10 + COWRIE_W + (THROW_W - COWRIE_W - 10) / 2, y + THROW_H / 2),
        "?" if value is None else str(value),
        size=40,
        fill=th.muted if value is None else th.ink,
        anchor="mm",
        bold=True,
    )
    return box


# ----------------------------------------------------------------- the static board


def _route_pairs() -> list[tuple[str, str]]:
    """Consecutive squares of each ring, wrapping round (R1, R2)."""
    pairs: list[tuple[str, str]] = []
    for squares in RINGS:
        pairs += [(squares[i], squares[(i + 1) % len(squares)]) for i in range(len(squares))]
    return pairs


Seating = tuple[tuple[int, str, str, tuple[tuple[str, str], ...], bool], ...]
"""Per player: (player, seat, start square, arrows, arrow 1 open)."""


def _seating(view: KaudaBajiView) -> Seating:
    return tuple((p.player, p.seat, p.start, tuple(p.arrows), p.has_killed) for p in view.players)


@lru_cache(maxsize=64)
def _board_layer(seating: Seating, safe: tuple[str, ...], turns: int, theme: Theme) -> Image.Image:
    """The board without pieces (cached): squares shaded by ring, the track
    with its direction, safe crosses, start squares, the centre, the seat
    bars, the seats' arrows and the coordinates."""
    th = theme
    c = Canvas(LAYER_W, BOARD_BLOCK, theme, display_width=WIDTH)
    top = COORD + EDGE + 2
    start_of = {sq: player for player, _, sq, _, _ in seating}
    safe_set = set(safe)
    for rank in range(1, 8):
        for file in range(7):
            name = f"{FILES[file]}{rank}"
            col, row = _display(file, rank, turns)
            x0, y0 = BOARD_LEFT + col * SQUARE, top + row * SQUARE
            ring = _ring(file, rank)
            colour = (OUTER, MIDDLE, INNER, INNER)[ring]
            if name == CENTRE:
                colour = blend(INNER, th.highlight, 0.18)
            if name in start_of:
                colour = blend(colour, player_colour(th, start_of[name]), 0.38)
            c.draw.rectangle((x0 + 1, y0 + 1, x0 + SQUARE - 2, y0 + SQUARE - 2), fill=colour)
            if name in start_of:
                c.draw.rectangle(
                    (x0 + 4, y0 + 4, x0 + SQUARE - 5, y0 + SQUARE - 5),
                    outline=player_colour(th, start_of[name]),
                    width=5,
                )
            if name in safe_set:
                inset = 10
                cross = blend(CROSS, colour, 0.2)
                c.draw.line(
                    [(x0 + inset, y0 + inset), (x0 + SQUARE - inset, y0 + SQUARE - inset)],
                    fill=cross,
                    width=4,
                )
                c.draw.line(
                    [(x0 + inset, y0 + SQUARE - inset), (x0 + SQUARE - inset, y0 + inset)],
                    fill=cross,
                    width=4,
                )
    # the track: each ring's loop through the square centres, with chevrons
    for squares in RINGS:
        pts = [_centre(name, turns, top) for name in squares]
        loop = [p for p in pts if p is not None]
        c.draw.line([*loop, loop[0]], fill=TRACK, width=TRACK_W, joint="curve")
    for sa, sb in _route_pairs():
        pa, pb = _centre(sa, turns, top), _centre(sb, turns, top)
        if pa is None or pb is None:
            continue
        c.draw.polygon(chevron(pa, pb), fill=CHEVRON)
    # the centre: where pieces go to sleep (R17)
    cc = _centre(CENTRE, turns, top)
    if cc is not None:
        star: list[tuple[float, float]] = []
        for i in range(16):
            reach = 36 if i % 2 == 0 else 15
            angle = math.pi * i / 8 - math.pi / 2
            star.append((cc[0] + reach * math.cos(angle), cc[1] + reach * math.sin(angle)))
        c.draw.polygon(star, fill=blend(th.highlight, INNER, 0.35))
        c.draw.ellipse((cc[0] - 9, cc[1] - 9, cc[0] + 9, cc[1] + 9), fill=INNER)
    c.draw.rectangle(
        (BOARD_LEFT - 1, top - 1, BOARD_LEFT + BOARD_PX, top + BOARD_PX), outline=th.grid, width=1
    )
    # seat bars along each playing seat's edge
    for player, seat, _, _, _ in seating:
        side = BOARD_SIDES[(SEATS.index(seat) + turns) % 4 if seat in SEATS else 0]
        colour = player_colour(th, player)
        side_bar(c, BOARD_LEFT, top, BOARD_PX, side, colour, thickness=EDGE)
    # coordinates, as the turned board shows them
    columns, rows = edge_labels(7, FILES, lambda f, r: _display(f, r, turns))
    board_coordinates(
        c,
        BOARD_LEFT,
        top,
        SQUARE,
        columns,
        rows,
        above=EDGE + COORD // 2 + 3,
        beside=EDGE + COORD // 2 + 6,
        size=SMALL,
    )
    # the arrows (R1, R2), arrow 1 barred while markut keeps it shut (R15)
    for player, _, _, arrows, open1 in seating:
        for k, (frm, to) in enumerate(arrows):
            _arrow(c, frm, to, turns, top, player_colour(th, player), shut=k == 0 and not open1)
    return c.image


# ----------------------------------------------------------------- the live board


def chevron(pa: tuple[float, float], pb: tuple[float, float]) -> list[tuple[float, float]]:
    """The direction mark of the track from square centre ``pa`` to ``pb``:
    a wedge on the border between them, big enough (28 px across) to stay a
    wedge at a phone's width."""
    mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
    ux, uy = (pb[0] - pa[0]) / SQUARE, (pb[1] - pa[1]) / SQUARE
    nx, ny = -uy, ux
    return [
        (mx + ux * 14, my + uy * 14),
        (mx - ux * 11 + nx * 14, my - uy * 11 + ny * 14),
        (mx - ux * 4, my - uy * 4),
        (mx - ux * 11 - nx * 14, my - uy * 11 - ny * 14),
    ]


def _arrow_middle(frm: str, to: str, turns: int, top: int) -> tuple[float, float] | None:
    """Where an arrow crosses the border (or corner) between its squares."""
    pa, pb = _centre(frm, turns, top), _centre(to, turns, top)
    if pa is None or pb is None:
        return None
    return ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)


def _arrow(c: Canvas, frm: str, to: str, turns: int, top: int, colour: RGB, shut: bool) -> None:
    """A seat's arrow straddling the border (or corner) it turns in across."""
    th = c.theme
    pa, pb = _centre(frm, turns, top), _centre(to, turns, top)
    if pa is None or pb is None:
        return
    mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    back, ahead = 30, 28
    a = (mx - ux * back, my - uy * back)
    b = (mx + ux * ahead, my + uy * ahead)
    fill = blend(colour, th.background, 0.55) if shut else colour
    c.draw.polygon(_arrow_polygon(a, b, 6.5, 17, 22), fill=fill, outline=th.background, width=3)
    if shut:
        # R15: a bar across the shaft
        nx, ny = -uy, ux
        px, py = mx - ux * 12, my - uy * 12
        c.draw.line(
            [(px + nx * 15, py + ny * 15), (px - nx * 15, py - ny * 15)],
            fill=th.background,
            width=9,
        )
        c.draw.line(
            [(px + nx * 13, py + ny * 13), (px - nx * 13, py - ny * 13)], fill=th.bad, width=5
        )


def _kill_badge(c: Canvas, box: Box, avoid: Sequence[tuple[float, float]]) -> None:
    """A red cross badge in a corner of the square, in the first corner no
    arrow crosses (arrow 1 runs through a square's corner)."""
    x0, y0, x1, y1 = box
    corners = ((x1 - 20, y0 + 20), (x0 + 20, y0 + 20), (x1 - 20, y1 - 20), (x0 + 20, y1 - 20))
    cx, cy = corners[0]
    for px, py in corners:
        if all(math.hypot(px - ax, py - ay) > 34 for ax, ay in avoid):
            cx, cy = px, py
            break
    capture_badge(c, (cx - 17, cy - 17, cx + 17, cy + 17), inset=10, ring=3)


def _board(c: Canvas, view: KaudaBajiView, y: int, turns: int) -> int:
    th = c.theme
    layer = _board_layer(_seating(view), tuple(view.safe), turns, th)
    c.image.paste(layer, (0, y))
    top = y + COORD + EDGE + 2
    move = view.last_move
    # the last move: a trail under the pieces, outlines on the squares
    if move is not None:
        trail = blend(th.ink, th.background, 0.35)
        pts = [_centre(s, turns, top) for s in (move.frm, *move.path)]
        line = [p for p in pts if p is not None]
        if len(line) >= 2:
            c.draw.line(line, fill=trail, width=6, joint="curve")
        for dx, dy in line[1:-1]:
            c.draw.ellipse((dx - 8, dy - 8, dx + 8, dy + 8), fill=trail)
        fbox = _square_box(move.frm, turns, top)
        if fbox is not None:
            c.draw.rectangle(
                (fbox[0] + 2, fbox[1] + 2, fbox[2] - 3, fbox[3] - 3), outline=trail, width=3
            )
        tbox = _square_box(move.to, turns, top)
        if tbox is not None:
            c.draw.rectangle(
                (tbox[0] + 1, tbox[1] + 1, tbox[2] - 2, tbox[3] - 2), outline=th.ink, width=6
            )
    # the tuples, square by square
    by_square: dict[str, list[StackView]] = {}
    for s in view.stacks:
        by_square.setdefault(s.square, []).append(s)
    for square, stacks in by_square.items():
        centre = _centre(square, turns, top)
        if centre is None:
            continue
        tokens = _square_tokens(stacks)
        radius, offsets = token_layout(len(tokens))
        shown = tokens if len(offsets) >= len(tokens) else tokens[: len(offsets) - 1]
        for s, (ox, oy) in zip(shown, offsets, strict=False):
            draw_token(c, (centre[0] + ox, centre[1] + oy), radius, s.player, s.size)
        if len(shown) < len(tokens):
            ox, oy = offsets[-1]
            hidden = sum(s.size for s in tokens[len(shown) :])
            c.text(
                (centre[0] + ox, centre[1] + oy),
                f"+{hidden}",
                size=SMALL,
                fill=th.ink,
                anchor="mm",
                bold=True,
            )
    mids = [
        mid
        for p in view.players
        for frm, to in p.arrows
        if (mid := _arrow_middle(frm, to, turns, top)) is not None
    ]
    if move is not None:
        for square in move.killed:
            box = _square_box(square, turns, top)
            if box is not None:
                _kill_badge(c, box, mids)
    return y + BOARD_BLOCK + GAP


# ----------------------------------------------------------------- text


def _status(view: KaudaBajiView, names: Sequence[str], width: int, lang: str = "en") -> str:
    """Where the game stands, in one line ``width`` pixels wide at :data:`BIG`
    (a long name is cut, never the words after it)."""

    def named(player: int, sentence: Callable[[str], str]) -> str:
        # ``sentence(name)``: the catalog's sentence with the name in it.
        room = width - text_width(sentence(""), BIG, True)
        return sentence(fit_text(display_name(names, player, lang=lang), BIG, room, True))

    if view.phase == "over":
        if view.places:
            return named(view.places[0], lambda n: t(lang, "Game over · {name} wins", name=n))
        return t(lang, "Game over")
    if view.phase == "first":
        return t(lang, "Throwing the shells to see who starts")
    if view.turn < 0:
        return t(lang, "Kauda Baji")
    if view.phase == "throw":
        return named(view.turn, lambda n: t(lang, "{name} throws the shells", name=n))
    return named(view.turn, lambda n: t(lang, "{name} to move", name=n))


def move_text(m: MoveView, lang: str = "en") -> str:
    """The last move in words: ``Twin c7 to f6 with 3+3, killed on f6``."""
    values = "+".join(str(v) for v in m.values)
    piece = size_name(m.size, lang).capitalize()
    if m.to == CENTRE:
        text = t(
            lang,
            "{piece} {frm} into the centre with {values}",
            piece=piece,
            frm=m.frm,
            values=values,
        )
    else:
        text = t(
            lang,
            "{piece} {frm} to {to} with {values}",
            piece=piece,
            frm=m.frm,
            to=m.to,
            values=values,
        )
    if m.killed:
        text = t(lang, "{move}, killed on {squares}", move=text, squares=", ".join(m.killed))
    return text


# ----------------------------------------------------------------- sections
#
# The image is landscape, to fit the box Discord shows an attachment in
# without a tap (issue 17): the title band across the top, the board with its
# key on the left, and a column on the right with the throws, the players and
# the last move.  Text is held to the minimum of this wider image.


TITLE_H: Final = 108


def _title(c: Canvas, view: KaudaBajiView, names: Sequence[str]) -> int:
    title_band(c, TITLE_H)
    x = MARGIN
    if view.phase in ("throw", "move") and view.turn >= 0:
        c.seat_mark((MARGIN + 20, 72), 20, view.turn)
        x += 52
    board_title(
        c,
        kicker=t(c.lang, "KAUDA BAJI · BOARD"),
        status=_status(view, names, c.width - MARGIN - x, c.lang),
        y=52,
        size=BIG,
        margin=MARGIN,
        x=x,
    )
    return TITLE_H + GAP


def _private_header(c: Canvas, view: KaudaBajiView, names: Sequence[str], seat: int) -> int:
    lang = c.lang
    me = _player(view, seat)
    side = seat_title(me.seat, lang).upper() if me is not None else "?"
    private_band(
        c,
        colour=player_colour(c.theme, seat),
        kicker=t(lang, "KAUDA BAJI · YOUR SEAT: {seat}", seat=side),
        margin=MARGIN,
        height=TITLE_H,
    )
    c.seat_mark((MARGIN + 22, TITLE_H * 2 // 3), 20, seat)
    prompt = None
    if view.phase == "move" and view.turn == seat:
        prompt = t(lang, "YOUR MOVE")
    if view.phase == "over":
        where = t(lang, "Game over")
    elif view.phase == "first":
        where = t(lang, "Who starts?")
    elif view.turn == seat:
        where = t(lang, "Your turn")
    else:
        where = t(lang, "{name}'s turn", name=display_name(names, view.turn, lang=lang))
        other = _player(view, view.turn)
        if text_width(where, SMALL + 2, True) > 420 and other is not None:
            where = t(lang, "{name}'s turn", name=seat_title(other.seat, lang))
    private_title(
        c,
        name=display_name(names, seat, lang=lang),
        where=where,
        prompt=prompt,
        margin=MARGIN,
        band=TITLE_H,
        mark=20,
    )
    return TITLE_H + GAP


def _tiles(c: Canvas, values: Sequence[int | None], x0: int, x1: int, y: int) -> int:
    """Throw tiles left to right, wrapping; returns the bottom of the last row."""
    x = x0
    for value in values:
        if x + THROW_W > x1:
            x, y = x0, y + THROW_H + 12
        throw_tile(c, x, y, value)
        x += THROW_W + 12
    return y + THROW_H


def _bank(c: Canvas, view: KaudaBajiView, x0: int, x1: int, y: int) -> int:
    """R6, R16: the bank of unspent throws, the run and the bonus."""
    th = c.theme
    throwing = view.phase == "throw"
    values: list[int | None] = list(view.bank)
    if throwing:
        values.append(None)
    label = t(c.lang, "Throwing: bank so far") if throwing else t(c.lang, "Bank: throws to spend")
    if throwing and not view.bank:
        label = t(c.lang, "Throwing the shells")
    if not values:
        label = t(c.lang, "The bank is empty")
    y = column_heading(c, x0, y, label, right=x1)
    if values:
        y = _tiles(c, values, x0, x1, y) + 14
    notes: list[tuple[str, RGB]] = []
    if view.run:
        notes.append((t(c.lang, "6/12 run: {n} (a 3rd ends the turn)", n=view.run), th.highlight))
    if view.bonus_throws:
        bonus = tn(
            c.lang,
            "Kill bonus: {n} throw to come",
            "Kill bonus: {n} throws to come",
            view.bonus_throws,
        )
        notes.append((bonus, th.good))
    for text, ink in notes:
        for k, line in enumerate(wrap_text(text, SMALL, x1 - x0 - DOT)):
            cy = y + LINE // 2
            if k == 0:
                c.draw.ellipse((x0, cy - 8, x0 + 16, cy + 8), fill=ink)
            c.text((x0 + DOT, cy), line, size=SMALL, fill=th.ink, anchor="lm")
            y += LINE
    return y + SECTION_GAP


def _first(c: Canvas, view: KaudaBajiView, names: Sequence[str], x0: int, x1: int, y: int) -> int:
    """R7: the throws so far for who starts, one thrower to a row."""
    th = c.theme
    y = column_heading(c, x0, y, t(c.lang, "Who starts"), right=x1)
    hint = t(c.lang, "Everyone throws, the highest starts (12 beats 6); ties throw again.")
    for line in wrap_text(hint, SMALL, x1 - x0):
        c.text((x0, y + LINE // 2), line, size=SMALL, fill=th.muted, anchor="lm")
        y += LINE
    y += 8
    throws = view.first_throws
    if not throws:
        none = t(c.lang, "No throws yet this round")
        c.text((x0, y + LINE // 2), none, size=SMALL, fill=th.ink, anchor="lm")
        return y + LINE + SECTION_GAP
    for player, value in throws:
        c.seat_mark((x0 + 20, y + THROW_H // 2), 18, player)
        throw_tile(c, x0 + 46, y, value, edge=player_colour(th, player))
        c.text(
            (x0 + 46 + THROW_W + 16, y + THROW_H // 2),
            display_name(names, player, lang=c.lang),
            size=SMALL,
            fill=th.ink,
            anchor="lm",
            max_width=x1 - x0 - 46 - THROW_W - 16,
        )
        y += THROW_H + 12
    return y - 12 + SECTION_GAP


def _places(c: Canvas, view: KaudaBajiView, names: Sequence[str], x0: int, x1: int, y: int) -> int:
    """R18: the final places."""
    th = c.theme
    y = column_heading(c, x0, y, t(c.lang, "Final places"), right=x1)
    for k, player in enumerate(view.places):
        cy = y + 24
        fill = th.good if k == 0 else th.grid
        ink = th.on_colour if k == 0 else th.ink
        place = ordinal(k + 1, c.lang)
        box = c.pill((x0, cy), place, size=SMALL, fill=fill, ink=ink, height=SMALL + 8)
        c.seat_mark((box[2] + 30, cy), 17, player)
        c.text(
            (box[2] + 58, cy),
            display_name(names, player, lang=c.lang),
            size=BODY,
            fill=th.ink,
            anchor="lm",
            bold=True,
            max_width=x1 - box[2] - 58,
        )
        y += 54
    return y + SECTION_GAP


PANEL_H: Final = 176


def _player_panel(
    c: Canvas, view: KaudaBajiView, p: PlayerView, names: Sequence[str], box: Box, pieces: int
) -> None:
    """A player in four lines: name and badge; seat and start square; arrow 1
    open or shut (R15); pieces at the start, on the way and home (R4, R17)."""
    th = c.theme
    x0, y0, x1, _ = box
    inner = x0 + 36
    colour = player_colour(th, p.player)
    acting = view.phase in ("throw", "move") and view.turn == p.player
    seat_panel(c, box, colour, acting=acting)
    cy = y0 + 30
    c.seat_mark((inner + 10, cy), 17, p.player)
    badge: tuple[str, RGB] | None = None
    if p.place:
        place = t(c.lang, "{place} PLACE", place=ordinal(p.place, c.lang).upper())
        badge = (place, th.good if p.place == 1 else th.grid)
    elif acting:
        doing = t(c.lang, "THROWING") if view.phase == "throw" else t(c.lang, "TO MOVE")
        badge = (doing, th.highlight)
    elif view.viewer == p.player:
        badge = (t(c.lang, "YOU"), th.grid)
    badges = [] if badge is None else [(*badge, th.ink if badge[1] == th.grid else th.on_colour)]
    name = display_name(names, p.player, lang=c.lang)
    sy = y0 + 72
    seat_line = t(
        c.lang, "{seat} · starts {square}", seat=seat_title(p.seat, c.lang), square=p.start
    )
    # The badge stands beside the name where both fit, else on the shorter
    # seat line below, so a long name keeps the panel's whole width.
    badge_w = badges_width(c, (label for label, _, _ in badges), gap=10)
    beside = text_width(name, BODY, True) <= x1 - 12 - badge_w - inner - 46
    right = badge_row(c, x1 - 12, cy if beside else sy, badges, gap=10)
    c.text(
        (inner + 38, cy),
        name,
        size=BODY,
        fill=th.ink,
        anchor="lm",
        bold=True,
        max_width=(right if beside else x1 - 12) - inner - 46,
    )
    c.text(
        (inner, sy),
        seat_line,
        size=SMALL,
        fill=th.muted,
        anchor="lm",
        max_width=(x1 - 12 if beside else right - 8) - inner,
    )
    ay = y0 + 110
    shut = not p.has_killed
    c.draw.polygon(
        _arrow_polygon((inner, ay), (inner + 34, ay), 4, 11, 13),
        fill=blend(colour, th.panel, 0.5) if shut else colour,
    )
    if shut:
        c.draw.line([(inner + 12, ay - 11), (inner + 12, ay + 11)], fill=th.bad, width=5)
    label, ink = (
        (t(c.lang, "arrow 1 shut"), th.bad) if shut else (t(c.lang, "arrow 1 open"), th.good)
    )
    c.text((inner + 48, ay), label, size=SMALL, fill=ink, anchor="lm", bold=True)
    py = y0 + 148
    on_way = p.on_board - p.at_start
    x = inner
    counts = (
        (N_("start"), p.at_start),
        (N_("on way"), on_way),
        (N_("home"), p.finished),
    )
    cells = [(t(c.lang, what), f"{n}/{pieces}" if what == "home" else str(n)) for what, n in counts]
    # Longer words (another language) are cut, each to a share of the room,
    # so the numbers stay inside the panel; the English ones fit whole.
    room = x1 - 12 - inner
    wanted = sum(text_width(w, SMALL) + 8 + text_width(v, BODY, True) + 20 for w, v in cells)
    spare = room - sum(8 + text_width(v, BODY, True) + 20 for _, v in cells)
    share = None if wanted - 20 <= room else max(0, spare // len(cells))
    for word, text in cells:
        box_w = c.text((x, py), word, size=SMALL, fill=th.muted, anchor="lm", max_width=share)
        nb = c.text((box_w[2] + 8, py), text, size=BODY, fill=th.ink, anchor="lm", bold=True)
        x = nb[2] + 20


def _players(c: Canvas, view: KaudaBajiView, names: Sequence[str], x0: int, x1: int, y: int) -> int:
    pieces = max((p.on_board + p.finished for p in view.players), default=0)
    for p in view.players:
        _player_panel(c, view, p, names, (x0, y, x1, y + PANEL_H), pieces)
        y += PANEL_H + 10
    return y - 10 + SECTION_GAP


LINE: Final = SMALL + 12
DOT: Final = 28


def _last_move_lines(
    view: KaudaBajiView, names: Sequence[str], width: int, lang: str = "en"
) -> list[str]:
    m = view.last_move
    if m is None:
        return []
    return wrap_text(move_text(m, lang), SMALL, width)


def _last_move_height(
    view: KaudaBajiView, names: Sequence[str], width: int, lang: str = "en"
) -> int:
    if view.last_move is None:
        return 0
    lines = _last_move_lines(view, names, width, lang)
    return SMALL + 14 + LINE * (1 + len(lines)) + SECTION_GAP


def _last_move(
    c: Canvas, view: KaudaBajiView, names: Sequence[str], x0: int, x1: int, y: int
) -> int:
    """Who moved last, and the move in words."""
    m = view.last_move
    if m is None:
        return y
    y = last_move_section(
        c,
        x0,
        x1,
        y,
        seat=m.player,
        name=display_name(names, m.player, lang=c.lang),
        lines=_last_move_lines(view, names, x1 - x0, c.lang),
        size=SMALL,
        line_height=LINE,
    )
    return y + SECTION_GAP


ROUTE_TEXT: Final = N_(
    "The way home: round the outer ring anticlockwise, in at your arrow 1 "
    "(after your first kill), round the middle ring, in at arrow 2, round the "
    "inner ring, in at arrow 3 to the centre by exact count."
)


def _legend(c: Canvas, view: KaudaBajiView, x0: int, x1: int, y: int) -> int:
    th = c.theme

    def single(c: Canvas, x: int, cy: int) -> None:
        draw_token(c, (x + 22, cy), 20, 0, 1)

    def twin(c: Canvas, x: int, cy: int) -> None:
        draw_token(c, (x + 20, cy - 2), 20, 1, 2)

    def safe(c: Canvas, x: int, cy: int) -> None:
        c.draw.rectangle((x, cy - 18, x + 36, cy + 18), fill=OUTER)
        c.draw.line([(x + 5, cy - 13), (x + 31, cy + 13)], fill=CROSS, width=4)
        c.draw.line([(x + 5, cy + 13), (x + 31, cy - 13)], fill=CROSS, width=4)

    def start(c: Canvas, x: int, cy: int) -> None:
        colour = player_colour(th, 0)
        c.draw.rectangle((x, cy - 18, x + 36, cy + 18), fill=blend(OUTER, colour, 0.38))
        c.draw.rectangle((x + 2, cy - 16, x + 34, cy + 16), outline=colour, width=4)

    def arrow(c: Canvas, x: int, cy: int) -> None:
        c.draw.polygon(
            _arrow_polygon((x, cy), (x + 40, cy), 5, 14, 17),
            fill=th.ink,
            outline=th.background,
            width=2,
        )

    def shut(c: Canvas, x: int, cy: int) -> None:
        c.draw.polygon(
            _arrow_polygon((x, cy), (x + 40, cy), 5, 14, 17),
            fill=th.muted,
            outline=th.background,
            width=2,
        )
        c.draw.line([(x + 14, cy - 13), (x + 14, cy + 13)], fill=th.bad, width=5)

    def last(c: Canvas, x: int, cy: int) -> None:
        c.draw.rectangle((x, cy - 18, x + 36, cy + 18), fill=OUTER, outline=th.ink, width=5)

    def killed(c: Canvas, x: int, cy: int) -> None:
        capture_badge(c, (x, cy - 16, x + 32, cy + 16), inset=10)

    lang = c.lang
    items = [
        LegendItem(t(lang, "single"), single, 46),
        LegendItem(t(lang, "twin (pieces in the tuple)"), twin, 46),
        LegendItem(t(lang, "safe"), safe, 36),
        LegendItem(t(lang, "start"), start, 36),
        LegendItem(t(lang, "arrow: turn in"), arrow, 40),
    ]
    if any(not p.has_killed for p in view.players):
        items.append(LegendItem(t(lang, "shut until a kill"), shut, 40))
    items += [
        LegendItem(t(lang, "last move"), last, 36),
        LegendItem(t(lang, "killed"), killed, 32),
    ]
    y = legend(c, items, x0=x0, x1=x1, y=y, size=SMALL, row_height=SMALL + 20, gap=26) + 12
    for line in wrap_text(t(lang, ROUTE_TEXT), SMALL, x1 - x0):
        c.text((x0, y + LINE // 2), line, size=SMALL, fill=th.muted, anchor="lm")
        y += LINE
    return y


def _height(view: KaudaBajiView) -> int:
    """Room enough for the taller of the two stacks (cropped after drawing)."""
    left = BOARD_BLOCK + 4 * (SMALL + 20) + 12 + 6 * LINE + 8 * LINE
    column = (SMALL + 14 + SECTION_GAP) * 3 + 4 * LINE
    column += 4 * (THROW_H + 12) + 60 * len(view.places) + 3 * LINE
    column += len(view.players) * (PANEL_H + 10) + 5 * LINE
    return TITLE_H + GAP + max(left, column) + 2 * MARGIN


def _draw(c: Canvas, view: KaudaBajiView, names: Sequence[str], y: int, turns: int) -> int:
    """The board and its key on the left, the throws and the players on the
    right, and the last move under whichever of the two ends higher (so the
    image stays as short as it can)."""
    left = _board(c, view, y, turns)
    left = _legend(c, view, MARGIN, COLUMN_X0 - MARGIN, left) + SECTION_GAP
    x0, x1 = COLUMN_X0, COLUMN_X1
    if view.phase == "first":
        column = _first(c, view, names, x0, x1, y)
    elif view.phase == "over":
        column = _places(c, view, names, x0, x1, y)
    else:
        column = _bank(c, view, x0, x1, y)
    column = _players(c, view, names, x0, x1, column)
    in_column = column + _last_move_height(view, names, x1 - x0, c.lang)
    under_key = left + _last_move_height(view, names, COLUMN_X0 - 2 * MARGIN, c.lang)
    if max(left, in_column) <= max(column, under_key):
        column = _last_move(c, view, names, x0, x1, column)
    else:
        left = _last_move(c, view, names, MARGIN, COLUMN_X0 - MARGIN, left)
    return max(left, column) - SECTION_GAP + MARGIN


def render_board(
    view: KaudaBajiView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The public board from the Bottom seat's side (rank 1 at the bottom),
    its words in ``lang``."""
    c = Canvas(WIDTH, _height(view), theme, lang=lang)
    y = _title(c, view, names)
    y = _draw(c, view, names, y, 0)
    return c.crop(y)


def render_private(
    view: KaudaBajiView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The board turned so the viewer's start square is at the bottom, under
    a heading with the viewer's name and, when they must move, a prompt.
    Nothing in the game is hidden, so it shows what the board shows."""
    seat = view.viewer
    me = _player(view, seat) if seat is not None else None
    if seat is None or me is None:
        return render_board(view, names=names, theme=theme, lang=lang)
    c = Canvas(WIDTH, _height(view), theme, lang=lang)
    y = _private_header(c, view, names, seat)
    y = _draw(c, view, names, y, seat_turns(me.seat))
    return c.crop(y)


class KaudaBajiRenderer(
    ViewRenderer, name="kauda_baji", board=render_board, private=render_private
):
    """The registry entry (see :mod:`renderers`)."""


__all__ = [
    "BOARD_LEFT",
    "BOARD_PX",
    "COLUMN_X0",
    "SQUARE",
    "WIDTH",
    "KaudaBajiRenderer",
    "chevron",
    "draw_cowrie",
    "draw_token",
    "move_text",
    "render_board",
    "render_private",
    "seat_turns",
    "token_layout",
]
