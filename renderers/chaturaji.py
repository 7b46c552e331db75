"""Martian Chaturaji: the public board and a seat's own view, drawn with Pillow.

Pure functions of a :class:`~bot.engines.chaturaji_views.ChaturajiView`.  The
public board is drawn from Blue's side (rank 1 at the bottom, as the rules
print it); the private image is the same board turned so that the viewer's
first army sits at the bottom (``docs/rules/chaturaji.md``, R1-R2).

Armies are told apart by colour (Okabe-Ito blue, vermillion, bluish green and
yellow, which stay apart for the common kinds of colour blindness) *and* by
a letter badge (B, R, G, Y) on every piece, on the board's edges and in the
panels.  The four kinds are Pillow shapes, not font glyphs: a crown (monarch),
a horse's head (paladin), a bird (raven) and a pawn (squire).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Final

from PIL import Image, ImageDraw

from bot.engines.chaturaji_views import ArmyView, ChaturajiView, DieView, MoveView
from renderers.common import (
    DEFAULT_THEME,
    RGB,
    Box,
    Canvas,
    LegendItem,
    Theme,
    ViewRenderer,
    badge_row,
    blend,
    board_coordinates,
    board_title,
    capture_badge,
    crown,
    display_name,
    edge_labels,
    fill_names,
    legend,
    min_text_size,
    pips,
    private_band,
    private_heading,
    seat_panel,
    side_bar,
    text_width,
    title_band,
    turned_square,
    wrap_text,
)

WIDTH: Final = 1000
MARGIN: Final = 24
SQUARE: Final = 104
BOARD_PX: Final = 8 * SQUARE
COORD: Final = 36
"""The coordinate gutter on each edge (letters or numbers)."""
EDGE: Final = 8
"""The army-coloured bar between the gutter and the squares."""
FILES: Final = "abcdefgh"

SMALL: Final = min_text_size(WIDTH)
"""Labels, coordinates, badges: the smallest text readable on a phone."""
BODY: Final = SMALL + 2

LIGHT_SQUARE: Final[RGB] = (64, 68, 84)
DARK_SQUARE: Final[RGB] = (48, 51, 64)

ARMY_ORDER: Final = ("blue", "red", "green", "yellow")
ARMY_LETTERS: Final = {"blue": "B", "red": "R", "green": "G", "yellow": "Y"}
OKABE_ITO_YELLOW: Final[RGB] = (240, 228, 66)
KIND_ORDER: Final = ("monarch", "paladin", "raven", "squire")
KIND_TITLES: Final = {
    "monarch": "Monarch",
    "paladin": "Paladin",
    "raven": "Raven",
    "squire": "Squire",
}
_QUARTER_TURNS: Final = {"blue": 0, "red": 1, "green": 2, "yellow": 3}
"""How many quarter turns (anticlockwise) put each army's edge at the bottom."""


def army_colour(theme: Theme, army: str) -> RGB:
    """Blue and green are the theme's sky blue and bluish green, red its
    vermillion; yellow is Okabe-Ito's yellow (the theme has no yellow seat)."""
    if army == "blue":
        return theme.players[1]
    if army == "green":
        return theme.players[2]
    if army == "red":
        return theme.extra_players[0] if theme.extra_players else theme.bad
    return OKABE_ITO_YELLOW


def army_title(army: str) -> str:
    return army.capitalize()


def _army(view: ChaturajiView, army: str) -> ArmyView | None:
    for a in view.armies:
        if a.army == army:
            return a
    return None


def _commander_name(view: ChaturajiView, army: str, names: Sequence[str]) -> str:
    a = _army(view, army)
    return display_name(names, a.commander) if a is not None else army_title(army)


# ----------------------------------------------------------------- glyphs


def _pt(box: Box, fx: float, fy: float) -> tuple[float, float]:
    x0, y0, x1, y1 = box
    return (x0 + fx * (x1 - x0), y0 + fy * (y1 - y0))


def _poly(
    draw: ImageDraw.ImageDraw, box: Box, pts: Sequence[tuple[float, float]], fill: RGB
) -> None:
    draw.polygon([_pt(box, fx, fy) for fx, fy in pts], fill=fill)


def _ellipse(
    draw: ImageDraw.ImageDraw, box: Box, fx0: float, fy0: float, fx1: float, fy1: float, fill: RGB
) -> None:
    a, b = _pt(box, fx0, fy0), _pt(box, fx1, fy1)
    draw.ellipse((a[0], a[1], b[0], b[1]), fill=fill)


def draw_monarch(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, cut: RGB) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    crown(
        draw,
        (round(x0 + 0.04 * w), round(y0 + 0.14 * h), round(x1 - 0.04 * w), round(y1 - 0.12 * h)),
        fill,
        jewel=cut,
    )


def draw_paladin(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, cut: RGB) -> None:
    """A chess knight's horse head, facing left."""
    _poly(
        draw,
        box,
        [
            (0.22, 0.96),
            (0.84, 0.96),
            (0.84, 0.84),
            (0.74, 0.78),
            (0.76, 0.52),
            (0.84, 0.32),
            (0.72, 0.12),
            (0.56, 0.06),
            (0.50, 0.0),
            (0.42, 0.10),
            (0.28, 0.24),
            (0.12, 0.50),
            (0.10, 0.62),
            (0.20, 0.70),
            (0.32, 0.62),
            (0.48, 0.52),
            (0.34, 0.76),
            (0.24, 0.84),
        ],
        fill,
    )
    _ellipse(draw, box, 0.40, 0.24, 0.50, 0.34, cut)


def draw_raven(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, cut: RGB) -> None:
    """A perched bird, facing left: head and beak, body, a long tail and legs."""
    # legs
    for fx in (0.44, 0.56):
        _poly(draw, box, [(fx, 0.7), (fx + 0.05, 0.7), (fx + 0.05, 0.95), (fx, 0.95)], fill)
    _poly(draw, box, [(0.34, 0.93), (0.70, 0.93), (0.70, 0.99), (0.34, 0.99)], fill)
    # body and tail
    _poly(
        draw,
        box,
        [
            (0.22, 0.38),
            (0.46, 0.34),
            (0.70, 0.44),
            (1.0, 0.60),
            (0.96, 0.70),
            (0.70, 0.68),
            (0.50, 0.78),
            (0.30, 0.72),
            (0.20, 0.56),
        ],
        fill,
    )
    _ellipse(draw, box, 0.14, 0.14, 0.44, 0.44, fill)
    # beak
    _poly(draw, box, [(0.18, 0.22), (0.0, 0.32), (0.2, 0.36)], fill)
    _ellipse(draw, box, 0.24, 0.22, 0.32, 0.30, cut)
    # wing line
    draw.line([_pt(box, 0.36, 0.50), _pt(box, 0.64, 0.52), _pt(box, 0.84, 0.62)], fill=cut, width=2)


def draw_squire(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, cut: RGB) -> None:
    """A pawn."""
    _ellipse(draw, box, 0.33, 0.04, 0.67, 0.38, fill)
    _ellipse(draw, box, 0.26, 0.36, 0.74, 0.50, fill)
    _poly(draw, box, [(0.38, 0.44), (0.62, 0.44), (0.76, 0.84), (0.24, 0.84)], fill)
    _poly(draw, box, [(0.14, 0.82), (0.86, 0.82), (0.86, 0.96), (0.14, 0.96)], fill)
    del cut


GLYPHS: Final[dict[str, Callable[[ImageDraw.ImageDraw, Box, RGB, RGB], None]]] = {
    "monarch": draw_monarch,
    "paladin": draw_paladin,
    "raven": draw_raven,
    "squire": draw_squire,
}


def glyph(draw: ImageDraw.ImageDraw, kind: str, box: Box, fill: RGB, cut: RGB) -> None:
    GLYPHS.get(kind, draw_squire)(draw, box, fill, cut)


@lru_cache(maxsize=64)
def _piece_tile(army: str, kind: str, size: int, theme: Theme) -> Image.Image:
    """A piece as an RGBA tile (cached: boards repeat the same 24 pieces)."""
    colour = army_colour(theme, army)
    scale = 3
    big = size * scale
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = big * 0.43
    cx = cy = big / 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.background)
    r2 = r - 3 * scale
    d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=colour)
    g = big * 0.26
    gx, gy = cx - big * 0.035, cy - big * 0.02
    glyph(
        d,
        kind,
        (round(gx - g), round(gy - g), round(gx + g), round(gy + g)),
        theme.on_colour,
        colour,
    )
    return img.resize((size, size), Image.Resampling.LANCZOS)


def draw_piece(c: Canvas, centre: tuple[float, float], size: int, army: str, kind: str) -> None:
    """A piece: a disc in its army's colour with its kind's glyph, and a dark
    badge with the army's letter on its lower right."""
    tile = _piece_tile(army, kind, size, c.theme)
    cx, cy = centre
    c.image.paste(tile, (round(cx - size / 2), round(cy - size / 2)), tile)
    _letter_badge(c, (cx + size * 0.31, cy + size * 0.31), army)


def _letter_badge(c: Canvas, centre: tuple[float, float], army: str, radius: int = 17) -> None:
    t = c.theme
    cx, cy = centre
    c.draw.ellipse(
        (cx - radius, cy - radius, cx + radius, cy + radius),
        fill=t.background,
        outline=army_colour(t, army),
        width=2,
    )
    c.text(
        (cx, cy + 1),
        ARMY_LETTERS.get(army, "?"),
        size=SMALL,
        fill=army_colour(t, army),
        anchor="mm",
        bold=True,
    )


def army_mark(c: Canvas, centre: tuple[float, float], army: str, radius: int = 18) -> None:
    """The army's letter on a disc in its colour (panels, headings, legend)."""
    t = c.theme
    cx, cy = centre
    c.draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=army_colour(t, army))
    c.text(
        (cx, cy + 1),
        ARMY_LETTERS.get(army, "?"),
        size=SMALL,
        fill=t.on_colour,
        anchor="mm",
        bold=True,
    )


# ----------------------------------------------------------------- geometry


_display = partial(turned_square, 8)
"""(column, row from the top) of a square (file, rank, turns) with the board
turned ``turns`` quarter turns anticlockwise."""


def _square_name(file: int, rank: int) -> str:
    return f"{FILES[file]}{rank}"


def _parse_square(name: str | None) -> tuple[int, int] | None:
    if name is None or len(name) != 2 or name[0] not in FILES or not name[1].isdigit():
        return None
    return FILES.index(name[0]), int(name[1])


def _edge_of(home_row: str, turns: int) -> str:
    """Which edge (``top``, ``bottom``, ``left``, ``right``) an army's home row
    is drawn on."""
    what, _, value = home_row.partition(" ")
    if what == "rank":
        sq = (0, int(value)) if value.isdigit() else (0, 1)
    else:
        sq = (FILES.index(value) if value in FILES else 0, 1)
    # two squares of the row: the row is drawn along one edge
    other = (7, sq[1]) if what == "rank" else (sq[0], 8)
    a = _display(*sq, turns)
    b = _display(*other, turns)
    if a[1] == b[1]:
        return "top" if a[1] == 0 else "bottom"
    return "left" if a[0] == 0 else "right"


# ----------------------------------------------------------------- text


def _status(view: ChaturajiView, names: Sequence[str]) -> str:
    final = view.final
    if view.phase == "over" or final is not None:
        if final is not None and final.winners:
            pair = " + ".join(army_title(a) for a in final.winners.split("-"))
            return f"Game over · {pair} win"
        return "Game over · a draw"
    if view.phase == "start":
        return "Rolling to see who starts"
    who = display_name(names, view.to_play) if view.to_play is not None else None
    if view.phase == "choose":
        return f"{who} picks the first army" if who else "Choosing the first army"
    if view.phase == "reenter":
        return f"{who}: bring the monarchs back?" if who else "Re-entry"
    if view.phase == "place":
        army = army_title(view.placing) if view.placing else "a"
        return f"{who} places {army}'s monarch" if who else f"Placing {army}'s monarch"
    if view.turn is not None:
        armies = " + ".join(army_title(a) for a in view.commanding) or army_title(view.turn)
        if view.phase == "roll" or view.to_play is None:
            return f"{armies} rolls the dice"
        return f"{who} to move · {armies}"
    return "Martian Chaturaji"


def _move_text(m: MoveView) -> str:
    kind = KIND_TITLES.get(m.kind, m.kind)
    if m.frm is None:
        text = f"{kind} placed on {m.to}"
    else:
        sep = "x" if m.to in m.captured else "-"
        text = f"{kind} {m.frm}{sep}{m.to}"
    others = [s for s in m.captured if s != m.to]
    if others:
        text += " takes " + ", ".join(others)
    if m.promoted:
        text += f" = {KIND_TITLES.get(m.promoted, m.promoted)}"
    return text


def _shown_moves(view: ChaturajiView) -> tuple[tuple[MoveView, ...], str]:
    if view.turn_moves:
        return view.turn_moves, "This turn"
    if view.last_moves:
        return view.last_moves, "Last turn"
    return (), ""


# ----------------------------------------------------------------- sections


def _title(c: Canvas, view: ChaturajiView, names: Sequence[str]) -> int:
    height = 108
    title_band(c, height)
    board_title(
        c,
        kicker="MARTIAN CHATURAJI · BOARD",
        status=_status(view, names),
        y=54,
        size=34,
        margin=MARGIN,
        counter=f"Turn {view.turns}" if view.turns else None,
    )
    return height + 16


def _private_header(c: Canvas, view: ChaturajiView, names: Sequence[str], seat: int) -> int:
    t = c.theme
    mine = view.me or (view.seats[seat] if 0 <= seat < len(view.seats) else ())
    first = mine[0] if mine else "blue"
    side = " + ".join(army_title(a) for a in mine) or "?"
    h = private_band(
        c,
        colour=army_colour(t, first),
        kicker=f"CHATURAJI · YOUR SIDE: {side.upper()}",
        margin=MARGIN,
    )
    army_mark(c, (MARGIN + 22, 70), first)
    prompt = None
    if view.to_play == seat and view.phase != "over":
        prompt = {
            "choose": "PICK THE FIRST ARMY",
            "reenter": "RE-ENTRY?",
            "place": "PLACE A MONARCH",
        }.get(view.phase, "YOUR TURN")
    if view.phase == "over":
        where = "Game over"
    elif view.turns:
        where = f"Turn {view.turns}"
    else:
        where = "Starting"
    private_heading(
        c, name=display_name(names, seat), where=where, prompt=prompt, margin=MARGIN, small=SMALL
    )
    return h + 16


DIE: Final = 64
DIE_CARD_H: Final = 118


def _die_face(c: Canvas, box: Box, face: int, edge: RGB, *, faded: bool) -> None:
    t = c.theme
    fill = t.die_taken if faded else t.die
    c.draw.rounded_rectangle(box, radius=12, fill=fill, outline=edge, width=4)
    inset = 6
    pips(
        c,
        (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset),
        face,
        t.on_colour if not faded else t.muted,
    )


def _die_card(c: Canvas, die: DieView, x: int, y: int, w: int) -> None:
    t = c.theme
    colour = army_colour(t, die.army)
    done = die.used or die.void
    c.panel(
        (x, y, x + w, y + DIE_CARD_H),
        fill=t.slot,
        outline=colour if not done else t.grid,
        radius=12,
    )
    dy = y + 12
    box = (x + 14, dy, x + 14 + DIE, dy + DIE)
    _die_face(c, box, die.rolled, colour, faded=done)
    # the kind it moves: arrow, then the glyph in the army's colour
    ax = box[2] + 10
    cy = dy + DIE // 2
    if die.void:
        c.cross((ax + 8, cy - 18, ax + 44, cy + 18), t.bad, width=6)
    else:
        c.draw.polygon([(ax, cy - 10), (ax + 14, cy), (ax, cy + 10)], fill=t.muted)
        gsize = 58
        gx = ax + 22
        fill = colour if not die.used else t.dim(colour, 0.55)
        glyph(
            c.draw,
            die.kind or "squire",
            (gx, cy - gsize // 2, gx + gsize, cy + gsize // 2),
            fill,
            t.slot,
        )
        if die.used:
            c.check((gx + 20, cy - 4, gx + 60, cy + 30), t.good, width=6)
    if die.void:
        label, ink = "void", t.bad
    elif die.used:
        label, ink = "used", t.muted
    elif die.counted_up:
        label, ink = "counted up", t.highlight
    else:
        label, ink = KIND_TITLES.get(die.kind or "", "?"), t.ink
    c.text(
        (x + 14, y + DIE_CARD_H - 22),
        label,
        size=SMALL,
        fill=ink,
        anchor="lm",
        bold=True,
        max_width=w - 24,
    )


def _turn_strip(c: Canvas, view: ChaturajiView, names: Sequence[str], y: int) -> int:
    """Whose turn, which armies they command, and the dice."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    if view.phase == "start" or (view.phase == "choose" and not view.dice):
        return _start_strip(c, view, names, y)
    if view.phase == "over" or view.turn is None:
        return y
    h = 64 + (DIE_CARD_H + 14 if view.dice else 0)
    c.panel((x0, y, x1, y + h))
    cy = y + 32
    x = x0 + 20
    armies = view.commanding or (view.turn,)
    for a in armies:
        army_mark(c, (x + 18, cy), a)
        x += 44
    who = _commander_name(view, view.turn, names)
    text = " + ".join(army_title(a) for a in armies)
    if view.controlled:
        text += f" (via the {army_title(view.controlled)} throne)"
    box = c.text((x + 4, cy), who, size=BODY, fill=t.ink, anchor="lm", bold=True, max_width=300)
    c.text(
        (box[2] + 14, cy), text, size=SMALL, fill=t.muted, anchor="lm", max_width=x1 - box[2] - 34
    )
    if view.dice:
        n = len(view.dice)
        gap = 12
        w = min(230, (x1 - x0 - 40 - gap * (n - 1)) // n)
        for i, die in enumerate(view.dice):
            _die_card(c, die, x0 + 20 + i * (w + gap), y + 60, w)
    return y + h + 16


def _start_strip(c: Canvas, view: ChaturajiView, names: Sequence[str], y: int) -> int:
    """R14: the starting rolls so far (Blue, Red, Green, Yellow)."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    h = 150
    c.panel((x0, y, x1, y + h))
    c.text(
        (x0 + 20, y + 30),
        "Who starts: one die per army, higher pair total",
        size=SMALL,
        fill=t.muted,
        anchor="lm",
        max_width=x1 - x0 - 40,
    )
    slot = (x1 - x0 - 40) // 4
    for i, army in enumerate(ARMY_ORDER):
        x = x0 + 20 + i * slot
        army_mark(c, (x + 18, y + 96), army)
        box = (x + 46, y + 64, x + 46 + DIE, y + 64 + DIE)
        if i < len(view.start_rolls):
            _die_face(c, box, view.start_rolls[i], army_colour(t, army), faded=False)
        else:
            c.draw.rounded_rectangle(box, radius=12, fill=t.slot, outline=t.grid, width=3)
            c.text(
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                "?",
                size=BODY,
                fill=t.muted,
                anchor="mm",
                bold=True,
            )
    del names
    return y + h + 16


def _board(c: Canvas, view: ChaturajiView, y: int, turns: int) -> int:
    t = c.theme
    left = (c.width - BOARD_PX) // 2
    top = y + COORD + EDGE
    # squares, with thrones and the last moves
    moves, _ = _shown_moves(view)
    froms: set[str] = set()
    tos: set[str] = set()
    captured: set[str] = set()
    for m in moves:
        if m.frm is not None:
            froms.add(m.frm)
        tos.add(m.to)
        captured.update(m.captured)
    thrones = {a.throne: a.army for a in view.armies}
    for rank in range(1, 9):
        for file in range(8):
            col, row = _display(file, rank, turns)
            x0, y0 = left + col * SQUARE, top + row * SQUARE
            name = _square_name(file, rank)
            colour = DARK_SQUARE if (file + rank) % 2 == 0 else LIGHT_SQUARE  # a1 dark
            if name in thrones:
                colour = blend(colour, army_colour(t, thrones[name]), 0.28)
            if name in froms or name in tos:
                colour = blend(colour, t.ink, 0.3)
            c.draw.rectangle((x0, y0, x0 + SQUARE - 1, y0 + SQUARE - 1), fill=colour)
            if name in thrones:
                tc = army_colour(t, thrones[name])
                c.draw.rectangle(
                    (x0 + 4, y0 + 4, x0 + SQUARE - 5, y0 + SQUARE - 5), outline=tc, width=4
                )
                # a small throne (chair) in the upper-left corner
                cx0, cy0 = x0 + 10, y0 + 10
                c.draw.rectangle((cx0, cy0, cx0 + 6, cy0 + 24), fill=tc)
                c.draw.rectangle((cx0, cy0 + 14, cx0 + 20, cy0 + 19), fill=tc)
                c.draw.rectangle((cx0 + 15, cy0 + 14, cx0 + 20, cy0 + 24), fill=tc)
            if name in tos:
                c.draw.rectangle(
                    (x0 + 2, y0 + 2, x0 + SQUARE - 3, y0 + SQUARE - 3), outline=t.ink, width=5
                )
    c.draw.rectangle((left - 1, top - 1, left + BOARD_PX, top + BOARD_PX), outline=t.grid, width=1)
    # army edges and coordinates
    for army in view.armies:
        edge = _edge_of(army.home_row, turns)
        side_bar(c, left, top, BOARD_PX, edge, army_colour(t, army.army), thickness=EDGE)
    columns, rows = edge_labels(8, FILES, lambda f, r: _display(f, r, turns))
    board_coordinates(
        c,
        left,
        top,
        SQUARE,
        columns,
        rows,
        above=EDGE + COORD // 2 + 2,
        beside=EDGE + COORD // 2 + 4,
        size=SMALL,
    )
    # move lines under the pieces
    for m in moves:
        sa, sb = _parse_square(m.frm), _parse_square(m.to)
        if sa is None or sb is None:
            continue
        ca, cb = _display(*sa, turns), _display(*sb, turns)
        pa = (left + ca[0] * SQUARE + SQUARE / 2, top + ca[1] * SQUARE + SQUARE / 2)
        pb = (left + cb[0] * SQUARE + SQUARE / 2, top + cb[1] * SQUARE + SQUARE / 2)
        trail = blend(t.ink, t.background, 0.3)
        c.draw.line([pa, pb], fill=trail, width=7)
        r = 9
        c.draw.ellipse((pa[0] - r, pa[1] - r, pa[0] + r, pa[1] + r), fill=trail)
    size = round(SQUARE * 0.9)
    for p in view.pieces:
        col, row = _display(p.file, p.rank, turns)
        draw_piece(
            c,
            (left + col * SQUARE + SQUARE / 2, top + row * SQUARE + SQUARE / 2),
            size,
            p.army,
            p.kind,
        )
    # captures: a red X badge on the square's upper-right corner
    for name in captured:
        sq = _parse_square(name)
        if sq is None:
            continue
        col, row = _display(*sq, turns)
        x1, y0 = left + (col + 1) * SQUARE, top + row * SQUARE
        capture_badge(c, (x1 - 34, y0 + 4, x1 - 4, y0 + 34), inset=9, ring=2)
    return top + BOARD_PX + EDGE + COORD + 14


PANEL_H: Final = 176


def _army_panel(
    c: Canvas, view: ChaturajiView, a: ArmyView, names: Sequence[str], box: Box
) -> None:
    t = c.theme
    x0, y0, x1, _ = box
    colour = army_colour(t, a.army)
    acting = view.phase not in ("over", "start") and a.army in view.commanding
    seat_panel(c, box, colour, acting=acting)
    cy = y0 + 30
    army_mark(c, (x0 + 44, cy), a.army)
    badges: list[tuple[str, RGB, RGB]] = []
    if view.turn == a.army and view.phase != "over":
        badges.append(("TO MOVE", t.highlight, t.on_colour))
    elif a.controlled_by is not None:
        badges.append((f"BY {a.controlled_by.upper()}", t.highlight, t.on_colour))
    elif view.final is not None and view.final.winners and a.army in view.final.winners.split("-"):
        badges.append(("WON", t.good, t.on_colour))
    right = badge_row(c, x1 - 14, cy, badges)
    nb = c.text((x0 + 72, cy), army_title(a.army), size=BODY, fill=t.ink, anchor="lm", bold=True)
    c.text(
        (nb[2] + 12, cy),
        display_name(names, a.commander),
        size=SMALL,
        fill=t.muted,
        anchor="lm",
        max_width=right - nb[2] - 16,
    )
    # monarch state
    my = y0 + 76
    if a.monarch is None:
        crown(c.draw, (x0 + 30, my - 15, x0 + 66, my + 13), t.bad)
        c.cross((x0 + 30, my - 16, x0 + 66, my + 16), t.bad, width=4)
        c.text((x0 + 78, my), "Monarch captured", size=SMALL, fill=t.bad, anchor="lm", bold=True)
    else:
        crown(c.draw, (x0 + 30, my - 15, x0 + 66, my + 13), colour)
        where = f"Monarch on {a.monarch}"
        if a.monarch == a.throne:
            where += " (throne)"
        c.text((x0 + 78, my), where, size=SMALL, fill=t.ink, anchor="lm", max_width=x1 - x0 - 92)
    # lost pieces
    ly = y0 + 132
    lost = [k for k in a.lost if k != "monarch"]
    c.text((x0 + 30, ly), "Lost", size=SMALL, fill=t.muted, anchor="lm", bold=True)
    gx = x0 + 30 + text_width("Lost", SMALL, True) + 14
    if not lost:
        c.text((gx, ly), "nothing", size=SMALL, fill=t.muted, anchor="lm")
    for k in lost:
        if gx + 40 > x1 - 10:
            break
        c.draw.rounded_rectangle((gx, ly - 21, gx + 40, ly + 21), radius=8, fill=t.slot)
        glyph(c.draw, k, (gx + 5, ly - 16, gx + 35, ly + 16), t.dim(colour, 0.25), t.slot)
        gx += 46


def _armies(c: Canvas, view: ChaturajiView, names: Sequence[str], y: int) -> int:
    t = c.theme
    gap = 14
    x0, x1 = MARGIN, c.width - MARGIN
    w = (x1 - x0 - gap) // 2
    for pair in (("blue", "green"), ("red", "yellow")):
        label = f"{army_title(pair[0])} + {army_title(pair[1])}"
        box = c.text((x0, y + 18), label.upper(), size=SMALL, fill=t.muted, anchor="lm", bold=True)
        final = view.final
        if final is not None and final.winners == "-".join(pair):
            c.pill(
                (box[2] + 14, y + 18),
                "WINNERS",
                size=SMALL,
                fill=t.good,
                ink=t.on_colour,
                height=34,
            )
        y += 40
        for i, army in enumerate(pair):
            a = _army(view, army)
            if a is None:
                continue
            x = x0 + i * (w + gap)
            _army_panel(c, view, a, names, (x, y, x + w, y + PANEL_H))
        y += PANEL_H + 12
    return y + 6


def _info(c: Canvas, view: ChaturajiView, names: Sequence[str], y: int) -> int:
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    label_w = 200
    lines: list[tuple[str, str, RGB | None]] = []
    moves, what = _shown_moves(view)
    for m in moves:
        lines.append((what, _move_text(m), army_colour(t, m.army)))
        what = ""
    if view.skipped:
        lines.append(
            (
                "Skipped",
                ", ".join(army_title(a) for a in view.skipped) + " (monarch captured)",
                None,
            )
        )
    if view.quiet_limit:
        lines.append(
            ("Quiet turns", f"{view.quiet_turns} of {view.quiet_limit} (draw at the limit)", None)
        )
    final = view.final
    reason: list[str] = []
    if final is not None:
        reason = wrap_text(fill_names(final.reason, names), SMALL, x1 - x0 - 40)
    if not lines and not reason:
        return y
    h = 24 + 42 * len(lines) + 34 * len(reason) + 10
    c.panel((x0, y, x1, y + h))
    ly = y + 32
    for line in reason:
        c.text((x0 + 20, ly), line, size=SMALL, fill=t.ink, anchor="lm", bold=True)
        ly += 34
    for label, text, colour in lines:
        if label:
            c.text((x0 + 20, ly), label, size=SMALL, fill=t.muted, anchor="lm", bold=True)
        tx = x0 + label_w
        if colour is not None:
            c.draw.ellipse((tx, ly - 8, tx + 16, ly + 8), fill=colour)
            tx += 26
        c.text((tx, ly), text, size=SMALL, fill=t.ink, anchor="lm", max_width=x1 - tx - 20)
        ly += 42
    return y + h + 16


def _legend(c: Canvas, y: int) -> int:
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN

    def kind_icon(kind: str) -> Callable[[Canvas, int, int], None]:
        def icon(c: Canvas, x: int, cy: int) -> None:
            glyph(c.draw, kind, (x, cy - 20, x + 40, cy + 20), t.ink, t.background)

        return icon

    def last(c: Canvas, x: int, cy: int) -> None:
        c.draw.rectangle(
            (x, cy - 18, x + 36, cy + 18),
            fill=blend(DARK_SQUARE, t.ink, 0.3),
            outline=t.ink,
            width=4,
        )

    def throne(c: Canvas, x: int, cy: int) -> None:
        c.draw.rectangle((x, cy - 18, x + 36, cy + 18), outline=t.ink, width=3)
        c.draw.rectangle((x + 8, cy - 10, x + 12, cy + 10), fill=t.ink)
        c.draw.rectangle((x + 8, cy + 1, x + 24, cy + 5), fill=t.ink)
        c.draw.rectangle((x + 20, cy + 1, x + 24, cy + 10), fill=t.ink)

    def taken(c: Canvas, x: int, cy: int) -> None:
        capture_badge(c, (x, cy - 15, x + 30, cy + 15), inset=9)

    items = [
        LegendItem(f"{i + 1} {KIND_TITLES[k]}", kind_icon(k), 40) for i, k in enumerate(KIND_ORDER)
    ]
    items += [
        LegendItem("last move", last, 36),
        LegendItem("captured", taken, 30),
        LegendItem("throne", throne, 36),
    ]
    return legend(c, items, x0=x0, x1=x1, y=y, size=SMALL, row_height=52) + 12


def _height(view: ChaturajiView) -> int:
    h = 140 + 64 + DIE_CARD_H + 30 + 150
    h += BOARD_PX + 2 * (COORD + EDGE) + 14
    h += 2 * (40 + PANEL_H + 12) + 6
    h += 24 + 42 * (len(view.turn_moves or view.last_moves) + 2) + 34 * 5 + 30
    h += 180
    return h


def _draw(c: Canvas, view: ChaturajiView, names: Sequence[str], y: int, turns: int) -> int:
    y = _turn_strip(c, view, names, y)
    y = _board(c, view, y, turns)
    y = _armies(c, view, names, y)
    y = _info(c, view, names, y)
    return _legend(c, y)


def render_board(
    view: ChaturajiView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The public board from Blue's side (rank 1 at the bottom)."""
    c = Canvas(WIDTH, _height(view), theme)
    y = _title(c, view, names)
    y = _draw(c, view, names, y, 0)
    return c.crop(y)


def render_private(
    view: ChaturajiView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The board turned so the viewer's first army is at the bottom, under a
    heading with the viewer's name and, when they must act, a prompt."""
    seat = view.viewer
    if seat is None:
        return render_board(view, names=names, theme=theme)
    mine = view.me or (view.seats[seat] if 0 <= seat < len(view.seats) else ())
    turns = _QUARTER_TURNS.get(mine[0], 0) if mine else 0
    c = Canvas(WIDTH, _height(view), theme)
    y = _private_header(c, view, names, seat)
    y = _draw(c, view, names, y, turns)
    return c.crop(y)


class ChaturajiRenderer(ViewRenderer, name="chaturaji", board=render_board, private=render_private):
    """The registry entry (see :mod:`renderers`)."""


__all__ = [
    "WIDTH",
    "ChaturajiRenderer",
    "army_colour",
    "draw_piece",
    "render_board",
    "render_private",
]
