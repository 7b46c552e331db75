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
from bot.i18n import N_, t
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
    column_heading,
    crown,
    display_name,
    edge_labels,
    fill_names,
    legend,
    min_text_size,
    pips,
    private_band,
    private_title,
    seat_panel,
    side_bar,
    text_width,
    title_band,
    turned_square,
    wrap_text,
)

WIDTH: Final = 1320
"""Landscape, so the image fits the box Discord shows it in (height at most
1.25 times the width; issue 17)."""
MARGIN: Final = 24
GAP: Final = 16
SECTION_GAP: Final = 22
TITLE_H: Final = 108
SQUARE: Final = 92
BOARD_PX: Final = 8 * SQUARE
COORD: Final = 42
"""The coordinate gutter on each edge (letters or numbers)."""
EDGE: Final = 8
"""The army-coloured bar between the gutter and the squares."""
BOARD_BLOCK: Final = BOARD_PX + 2 * (COORD + EDGE)
"""The board with its gutters, square."""
BOARD_LEFT: Final = MARGIN + COORD + EDGE
"""The left edge of the squares."""
COLUMN_X0: Final = MARGIN + BOARD_BLOCK + MARGIN
"""The column of dice, armies and moves, right of the board."""
COLUMN_X1: Final = WIDTH - MARGIN
FILES: Final = "abcdefgh"

SMALL: Final = min_text_size(WIDTH)
"""Labels, coordinates, badges: the smallest text readable on a phone."""
BODY: Final = SMALL + 2
BIG: Final = SMALL + 5
BADGE: Final = SMALL * 2 // 3
"""The radius of an army's letter disc (its letter is :data:`SMALL`)."""

LIGHT_SQUARE: Final[RGB] = (64, 68, 84)
DARK_SQUARE: Final[RGB] = (48, 51, 64)

ARMY_ORDER: Final = ("blue", "red", "green", "yellow")
ARMY_LETTERS: Final = {"blue": "B", "red": "R", "green": "G", "yellow": "Y"}
OKABE_ITO_YELLOW: Final[RGB] = (240, 228, 66)
KIND_ORDER: Final = ("monarch", "paladin", "raven", "squire")
KIND_TITLES: Final = {
    "monarch": N_("Monarch"),
    "paladin": N_("Paladin"),
    "raven": N_("Raven"),
    "squire": N_("Squire"),
}
"""The kinds' names in English; drawn in the image's language (:func:`kind_title`)."""
ARMY_TITLES: Final = {
    "blue": N_("Blue"),
    "red": N_("Red"),
    "green": N_("Green"),
    "yellow": N_("Yellow"),
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


def army_title(army: str, lang: str = "en") -> str:
    """The army's name (``Blue``), in ``lang``."""
    title = ARMY_TITLES.get(army)
    return t(lang, title) if title is not None else army.capitalize()


def kind_title(kind: str, lang: str = "en") -> str:
    """The kind's name (``Paladin``), in ``lang``."""
    title = KIND_TITLES.get(kind)
    return t(lang, title) if title is not None else kind


def _armies_title(armies: Sequence[str], lang: str) -> str:
    """Armies together: ``Blue + Green``."""
    return " + ".join(army_title(a, lang) for a in armies)


def _army(view: ChaturajiView, army: str) -> ArmyView | None:
    for a in view.armies:
        if a.army == army:
            return a
    return None


def _commander_name(view: ChaturajiView, army: str, names: Sequence[str], lang: str = "en") -> str:
    a = _army(view, army)
    return display_name(names, a.commander, lang=lang) if a is not None else army_title(army, lang)


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


def _letter_badge(c: Canvas, centre: tuple[float, float], army: str, radius: int = BADGE) -> None:
    th = c.theme
    cx, cy = centre
    c.draw.ellipse(
        (cx - radius, cy - radius, cx + radius, cy + radius),
        fill=th.background,
        outline=army_colour(th, army),
        width=2,
    )
    c.text(
        (cx, cy + 1),
        ARMY_LETTERS.get(army, "?"),
        size=SMALL,
        fill=army_colour(th, army),
        anchor="mm",
        bold=True,
    )


def army_mark(c: Canvas, centre: tuple[float, float], army: str, radius: int = BADGE) -> None:
    """The army's letter on a disc in its colour (panels, headings, legend)."""
    th = c.theme
    cx, cy = centre
    c.draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=army_colour(th, army))
    c.text(
        (cx, cy + 1),
        ARMY_LETTERS.get(army, "?"),
        size=SMALL,
        fill=th.on_colour,
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


def first_army_choosers(view: ChaturajiView) -> tuple[int, ...]:
    """R14: the seats that may pick the winning partnership's first army
    (both partners in a four-player game, one seat at two players)."""
    if view.phase != "choose" or view.to_play is None:
        return ()
    partnership = next(a.partnership for a in view.armies if a.commander == view.to_play)
    return tuple(sorted({a.commander for a in view.armies if a.partnership == partnership}))


def lost_words(army: ArmyView, lang: str = "en") -> str | None:
    """What the "Lost" line says when it draws no piece: ``nothing``, or,
    while the army's monarch is captured (shown above it), that the monarch
    is all it lost; None when pieces are drawn."""
    if any(k != "monarch" for k in army.lost):
        return None
    return t(lang, "only the monarch") if army.monarch is None else t(lang, "nothing")


def _status(view: ChaturajiView, names: Sequence[str], lang: str = "en") -> str:
    final = view.final
    if view.phase == "over" or final is not None:
        if final is not None and final.winners:
            pair = _armies_title(final.winners.split("-"), lang)
            return t(lang, "Game over · {armies} win", armies=pair)
        return t(lang, "Game over · a draw")
    if view.phase == "start":
        return t(lang, "Rolling to see who starts")
    who = display_name(names, view.to_play, lang=lang) if view.to_play is not None else None
    if view.phase == "choose":
        # R14: either player of the winning partnership may pick: name both,
        # as the board's text names everyone it waits for.
        choosers = first_army_choosers(view)
        if not choosers:
            return t(lang, "Choosing the first army")
        if len(choosers) == 1:
            return t(
                lang,
                "{name} picks the first army",
                name=display_name(names, choosers[0], lang=lang),
            )
        return t(
            lang,
            "{name} or {other} picks the first army",
            name=display_name(names, choosers[0], lang=lang),
            other=" or ".join(display_name(names, s, lang=lang) for s in choosers[1:]),
        )
    if view.phase == "reenter":
        return t(lang, "{name}: bring the monarchs back?", name=who) if who else t(lang, "Re-entry")
    if view.phase == "place":
        if not view.placing:
            return (
                t(lang, "{name} places a monarch", name=who)
                if who
                else t(lang, "Placing a monarch")
            )
        army = army_title(view.placing, lang)
        if who:
            return t(lang, "{name} places {army}'s monarch", name=who, army=army)
        return t(lang, "Placing {army}'s monarch", army=army)
    if view.turn is not None:
        armies = _armies_title(view.commanding, lang) or army_title(view.turn, lang)
        if view.phase == "roll" or view.to_play is None:
            return t(lang, "{armies} rolls the dice", armies=armies)
        return t(lang, "{name} to move · {armies}", name=who, armies=armies)
    return t(lang, "Martian Chaturaji")


def _move_text(m: MoveView, lang: str = "en") -> str:
    kind = kind_title(m.kind, lang)
    if m.frm is None:
        text = t(lang, "{piece} placed on {square}", piece=kind, square=m.to)
    else:
        sep = "x" if m.to in m.captured else "-"
        text = f"{kind} {m.frm}{sep}{m.to}"
    others = [s for s in m.captured if s != m.to]
    if others:
        text = t(lang, "{move} takes {squares}", move=text, squares=", ".join(others))
    if m.promoted:
        text += f" = {kind_title(m.promoted, lang)}"
    return text


def _shown_moves(view: ChaturajiView) -> tuple[tuple[MoveView, ...], str]:
    """The moves shown and the English of their heading (translated where drawn)."""
    if view.turn_moves:
        return view.turn_moves, N_("This turn")
    if view.last_moves:
        return view.last_moves, N_("Last turn")
    return (), ""


# ----------------------------------------------------------------- sections
#
# The image is landscape, to fit the box Discord shows an attachment in
# without a tap (issue 17): the title band across the top, the board and its
# legend on the left, and a column on the right with the dice, the armies
# and the last turn.  Text is held to the minimum of this wider image.


def _title(c: Canvas, view: ChaturajiView, names: Sequence[str]) -> int:
    title_band(c, TITLE_H)
    board_title(
        c,
        kicker=t(c.lang, "MARTIAN CHATURAJI · BOARD"),
        status=_status(view, names, c.lang),
        y=52,
        size=BIG,
        margin=MARGIN,
        counter=t(c.lang, "Turn {n}", n=view.turns) if view.turns else None,
    )
    return TITLE_H + GAP


_PROMPTS: Final = {
    "choose": N_("PICK THE FIRST ARMY"),
    "reenter": N_("RE-ENTRY?"),
    "place": N_("PLACE A MONARCH"),
}
"""The private image's prompt in each phase that asks for a choice."""
_YOUR_TURN: Final = N_("YOUR TURN")


def _private_header(c: Canvas, view: ChaturajiView, names: Sequence[str], seat: int) -> int:
    lang = c.lang
    mine = view.me or (view.seats[seat] if 0 <= seat < len(view.seats) else ())
    first = mine[0] if mine else "blue"
    side = _armies_title(mine, lang) or "?"
    private_band(
        c,
        colour=army_colour(c.theme, first),
        kicker=t(lang, "CHATURAJI · YOUR SIDE: {armies}", armies=side.upper()),
        margin=MARGIN,
        height=TITLE_H,
    )
    army_mark(c, (MARGIN + 22, TITLE_H * 2 // 3), first)
    prompt = None
    if view.to_play == seat and view.phase != "over":
        prompt = t(lang, _PROMPTS.get(view.phase, _YOUR_TURN))
    if view.phase == "over":
        where = t(lang, "Game over")
    elif view.turns:
        where = t(lang, "Turn {n}", n=view.turns)
    else:
        where = t(lang, "Starting")
    private_title(
        c,
        name=display_name(names, seat, lang=lang),
        where=where,
        prompt=prompt,
        margin=MARGIN,
        band=TITLE_H,
        mark=BADGE,
    )
    return TITLE_H + GAP


DIE: Final = 60
DIE_CARD_H: Final = 124


def _die_face(c: Canvas, box: Box, face: int, edge: RGB, *, faded: bool) -> None:
    th = c.theme
    fill = th.die_taken if faded else th.die
    c.draw.rounded_rectangle(box, radius=12, fill=fill, outline=edge, width=4)
    inset = 6
    pips(
        c,
        (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset),
        face,
        th.on_colour if not faded else th.muted,
    )


def _die_card(c: Canvas, die: DieView, x: int, y: int, w: int) -> None:
    th = c.theme
    colour = army_colour(th, die.army)
    done = die.used or die.void
    c.panel(
        (x, y, x + w, y + DIE_CARD_H),
        fill=th.slot,
        outline=colour if not done else th.grid,
        radius=12,
    )
    dy = y + 10
    box = (x + 12, dy, x + 12 + DIE, dy + DIE)
    _die_face(c, box, die.rolled, colour, faded=done)
    # the kind it moves: arrow, then the glyph in the army's colour
    ax = box[2] + 10
    cy = dy + DIE // 2
    if die.void:
        c.cross((ax + 8, cy - 18, ax + 44, cy + 18), th.bad, width=6)
    else:
        c.draw.polygon([(ax, cy - 10), (ax + 14, cy), (ax, cy + 10)], fill=th.muted)
        gsize = 56
        gx = ax + 22
        fill = colour if not die.used else th.dim(colour, 0.55)
        glyph(
            c.draw,
            die.kind or "squire",
            (gx, cy - gsize // 2, gx + gsize, cy + gsize // 2),
            fill,
            th.slot,
        )
        if die.used:
            c.check((gx + 18, cy - 4, gx + 58, cy + 30), th.good, width=6)
    if die.void:
        label, ink = t(c.lang, "void"), th.bad
    elif die.used:
        label, ink = t(c.lang, "used"), th.muted
    elif die.counted_up:
        label, ink = t(c.lang, "counted up"), th.highlight
    else:
        label, ink = kind_title(die.kind, c.lang) if die.kind else "?", th.ink
    c.text(
        (x + 12, y + DIE_CARD_H - 26),
        label,
        size=SMALL,
        fill=ink,
        anchor="lm",
        bold=True,
        max_width=w - 20,
    )


def _dice(c: Canvas, view: ChaturajiView, x0: int, x1: int, y: int) -> int:
    """The dice of the turn (two to a row), and the armies they move."""
    th = c.theme
    if view.phase == "start" or (view.phase == "choose" and not view.dice):
        return _start_rolls(c, view, x0, x1, y)
    if view.phase == "over" or view.turn is None or not view.dice:
        return y
    armies = view.commanding or (view.turn,)
    heading = t(c.lang, "Dice · {armies}", armies=_armies_title(armies, c.lang))
    y = column_heading(c, x0, y, heading, right=x1)
    if view.controlled:
        via = t(
            c.lang,
            "{army} moves via the {throne} throne",
            army=army_title(view.turn, c.lang),
            throne=army_title(view.controlled, c.lang),
        )
        for line in wrap_text(via, SMALL, x1 - x0):
            c.text((x0, y + SMALL // 2), line, size=SMALL, fill=th.highlight, anchor="lm")
            y += SMALL + 8
        y += 6
    gap = 12
    w = (x1 - x0 - gap) // 2
    for i, die in enumerate(view.dice):
        row, col = divmod(i, 2)
        _die_card(c, die, x0 + col * (w + gap), y + row * (DIE_CARD_H + gap), w)
    rows = (len(view.dice) + 1) // 2
    return y + rows * (DIE_CARD_H + gap) + SECTION_GAP - gap


def _start_rolls(c: Canvas, view: ChaturajiView, x0: int, x1: int, y: int) -> int:
    """R14: the starting rolls so far (Blue, Red, Green, Yellow), two to a row."""
    th = c.theme
    y = column_heading(c, x0, y, t(c.lang, "Who starts"), right=x1)
    rule = t(c.lang, "One die per army; the higher pair total starts.")
    for line in wrap_text(rule, SMALL, x1 - x0):
        c.text((x0, y + SMALL // 2), line, size=SMALL, fill=th.muted, anchor="lm")
        y += SMALL + 10
    y += 6
    slot = (x1 - x0) // 2
    for i, army in enumerate(ARMY_ORDER):
        row, col = divmod(i, 2)
        x, top = x0 + col * slot, y + row * (DIE + 16)
        army_mark(c, (x + 22, top + DIE // 2), army, radius=BADGE)
        box = (x + 54, top, x + 54 + DIE, top + DIE)
        if i < len(view.start_rolls):
            _die_face(c, box, view.start_rolls[i], army_colour(th, army), faded=False)
        else:
            c.draw.rounded_rectangle(box, radius=12, fill=th.slot, outline=th.grid, width=3)
            c.text(
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                "?",
                size=BODY,
                fill=th.muted,
                anchor="mm",
                bold=True,
            )
    return y + 2 * (DIE + 16) + SECTION_GAP - 16


def _board(c: Canvas, view: ChaturajiView, y: int, turns: int) -> int:
    th = c.theme
    left = BOARD_LEFT
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
                colour = blend(colour, army_colour(th, thrones[name]), 0.28)
            if name in froms or name in tos:
                colour = blend(colour, th.ink, 0.3)
            c.draw.rectangle((x0, y0, x0 + SQUARE - 1, y0 + SQUARE - 1), fill=colour)
            if name in thrones:
                tc = army_colour(th, thrones[name])
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
                    (x0 + 2, y0 + 2, x0 + SQUARE - 3, y0 + SQUARE - 3), outline=th.ink, width=5
                )
    c.draw.rectangle((left - 1, top - 1, left + BOARD_PX, top + BOARD_PX), outline=th.grid, width=1)
    # army edges and coordinates
    for army in view.armies:
        edge = _edge_of(army.home_row, turns)
        side_bar(c, left, top, BOARD_PX, edge, army_colour(th, army.army), thickness=EDGE)
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
        trail = blend(th.ink, th.background, 0.3)
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
    return top + BOARD_PX + EDGE + COORD + GAP


PANEL_H: Final = 140


def _army_panel(
    c: Canvas, view: ChaturajiView, a: ArmyView, names: Sequence[str], box: Box
) -> None:
    """An army in three lines: its name and commander; its monarch (where,
    or captured) and its status badge; the pieces it has lost."""
    th = c.theme
    x0, y0, x1, _ = box
    colour = army_colour(th, a.army)
    acting = view.phase not in ("over", "start") and a.army in view.commanding
    seat_panel(c, box, colour, acting=acting)
    inner = x0 + 36
    cy = y0 + 30
    army_mark(c, (inner + 10, cy), a.army, radius=BADGE)
    name = display_name(names, a.commander, lang=c.lang)
    title = army_title(a.army, c.lang)
    room = x1 - 16 - (inner + 40)
    # The army's word goes where the commander's name needs its room: the
    # mark (its letter and colour) still says which army it is.
    if text_width(title, BODY, True) + 12 + text_width(name, SMALL) > room:
        title = ""
    nb = c.text((inner + 40, cy), title, size=BODY, fill=th.ink, anchor="lm", bold=True)
    # Alone, the name takes the title's place and weight when it fits so.
    bold = not title and text_width(name, BODY, True) <= room
    c.text(
        (nb[2] + 12 if title else inner + 40, cy),
        name,
        size=BODY if bold else SMALL,
        fill=th.ink if bold else th.muted,
        anchor="lm",
        bold=bold,
        max_width=x1 - 16 - (nb[2] + 12 if title else inner + 40),
    )
    # monarch state, and the badge
    my = y0 + 72
    badges: list[tuple[str, RGB, RGB]] = []
    if view.turn == a.army and view.phase != "over":
        badges.append((t(c.lang, "TO MOVE"), th.highlight, th.on_colour))
    elif a.controlled_by is not None:
        by = army_title(a.controlled_by, c.lang).upper()
        badges.append((t(c.lang, "BY {army}", army=by), th.highlight, th.on_colour))
    elif view.final is not None and view.final.winners and a.army in view.final.winners.split("-"):
        badges.append((t(c.lang, "WON"), th.good, th.on_colour))
    right = badge_row(c, x1 - 12, my, badges)
    if a.monarch is None:
        crown(c.draw, (inner, my - 15, inner + 36, my + 13), th.bad)
        c.cross((inner, my - 16, inner + 36, my + 16), th.bad, width=4)
        where, ink = t(c.lang, "captured"), th.bad
    else:
        crown(c.draw, (inner, my - 15, inner + 36, my + 13), colour)
        if a.monarch == a.throne:
            where = t(c.lang, "on {square} (throne)", square=a.monarch)
        else:
            where = t(c.lang, "on {square}", square=a.monarch)
        ink = th.ink
    c.text(
        (inner + 48, my),
        where,
        size=SMALL,
        fill=ink,
        anchor="lm",
        bold=a.monarch is None,
        max_width=right - inner - 56,
    )
    # lost pieces
    ly = y0 + 112
    lost = [k for k in a.lost if k != "monarch"]
    lost_label = t(c.lang, "Lost")
    c.text((inner, ly), lost_label, size=SMALL, fill=th.muted, anchor="lm", bold=True)
    gx = inner + text_width(lost_label, SMALL, True) + 14
    words = lost_words(a, c.lang)
    if words is not None:
        c.text((gx, ly), words, size=SMALL, fill=th.muted, anchor="lm")
    for i, k in enumerate(lost):
        if gx + 2 * 38 > x1 - 10 and i < len(lost) - 1:
            c.text((gx + 4, ly), f"+{len(lost) - i}", size=SMALL, fill=th.muted, anchor="lm")
            break
        c.draw.rounded_rectangle((gx, ly - 18, gx + 34, ly + 18), radius=8, fill=th.slot)
        glyph(c.draw, k, (gx + 4, ly - 14, gx + 30, ly + 14), th.dim(colour, 0.25), th.slot)
        gx += 38


def _armies(c: Canvas, view: ChaturajiView, names: Sequence[str], x0: int, x1: int, y: int) -> int:
    """The two teams (R3), each under its heading, an army to a panel."""
    th = c.theme
    for pair in (("blue", "green"), ("red", "yellow")):
        label = _armies_title(pair, c.lang)
        final = view.final
        won = final is not None and final.winners == "-".join(pair)
        right = x1
        if won:
            box = c.pill(
                (x1, y + SMALL // 2 + 2),
                t(c.lang, "WINNERS"),
                size=SMALL,
                fill=th.good,
                ink=th.on_colour,
                anchor="r",
                height=SMALL + 8,
            )
            right = box[0] - 12
        y = column_heading(c, x0, y, label, right=right)
        for army in pair:
            a = _army(view, army)
            if a is None:
                continue
            _army_panel(c, view, a, names, (x0, y, x1, y + PANEL_H))
            y += PANEL_H + 10
        y += SECTION_GAP - 10
    return y


Row = tuple[str, RGB | None, bool]
"""A line of the info section: its text, the colour of its army dot (if
any), and whether it is a move's (indented past the dot) or a note's."""


def _info_rows(
    view: ChaturajiView, names: Sequence[str], width: int, theme: Theme, lang: str = "en"
) -> tuple[str, list[Row], list[str]]:
    """What the info section says, wrapped to ``width``: its heading, its
    lines and the result's reason."""
    moves, what = _shown_moves(view)
    rows: list[Row] = []
    for m in moves:
        for k, part in enumerate(wrap_text(_move_text(m, lang), SMALL, width - DOT)):
            rows.append((part, army_colour(theme, m.army) if k == 0 else None, True))
    notes: list[str] = []
    if view.skipped:
        skipped = ", ".join(army_title(a, lang) for a in view.skipped)
        notes.append(t(lang, "Skipped: {armies} (monarch captured)", armies=skipped))
    if view.quiet_round_limit and view.final is None:
        # The lobby option counts rounds (quiet_rounds=25), so the board does too.
        notes.append(
            t(
                lang,
                "Quiet rounds: {n} of {limit} (a draw at {limit})",
                n=view.quiet_rounds,
                limit=view.quiet_round_limit,
            )
        )
    for note in notes:
        rows += [(part, None, False) for part in wrap_text(note, SMALL, width)]
    final = view.final
    reason = (
        wrap_text(fill_names(final.reason, names, lang), SMALL, width) if final is not None else []
    )
    return t(lang, what or N_("The game")), rows, reason


LINE: Final = SMALL + 12
DOT: Final = 28


def _info_height(view: ChaturajiView, names: Sequence[str], width: int, lang: str = "en") -> int:
    _, rows, reason = _info_rows(view, names, width, DEFAULT_THEME, lang)
    if not rows and not reason:
        return 0
    return SMALL + 14 + LINE * (len(rows) + len(reason)) + SECTION_GAP


def _info(c: Canvas, view: ChaturajiView, names: Sequence[str], x0: int, x1: int, y: int) -> int:
    """The result's reason, the moves of this (or the last) turn, the armies
    skipped and the quiet turns counted towards a draw."""
    th = c.theme
    what, rows, reason = _info_rows(view, names, x1 - x0, th, c.lang)
    if not rows and not reason:
        return y
    y = column_heading(c, x0, y, what, right=x1)
    for line in reason:
        c.text((x0, y + LINE // 2), line, size=SMALL, fill=th.ink, anchor="lm", bold=True)
        y += LINE
    for text, colour, indent in rows:
        cy = y + LINE // 2
        if colour is not None:
            c.draw.ellipse((x0, cy - 8, x0 + 16, cy + 8), fill=colour)
        x = x0 + DOT if indent else x0
        c.text((x, cy), text, size=SMALL, fill=th.ink if indent else th.muted, anchor="lm")
        y += LINE
    return y + SECTION_GAP


def _legend(c: Canvas, x0: int, x1: int, y: int) -> int:
    th = c.theme

    def kind_icon(kind: str) -> Callable[[Canvas, int, int], None]:
        def icon(c: Canvas, x: int, cy: int) -> None:
            glyph(c.draw, kind, (x, cy - 20, x + 40, cy + 20), th.ink, th.background)

        return icon

    def last(c: Canvas, x: int, cy: int) -> None:
        c.draw.rectangle(
            (x, cy - 18, x + 36, cy + 18),
            fill=blend(DARK_SQUARE, th.ink, 0.3),
            outline=th.ink,
            width=4,
        )

    def throne(c: Canvas, x: int, cy: int) -> None:
        c.draw.rectangle((x, cy - 18, x + 36, cy + 18), outline=th.ink, width=3)
        c.draw.rectangle((x + 8, cy - 10, x + 12, cy + 10), fill=th.ink)
        c.draw.rectangle((x + 8, cy + 1, x + 24, cy + 5), fill=th.ink)
        c.draw.rectangle((x + 20, cy + 1, x + 24, cy + 10), fill=th.ink)

    def taken(c: Canvas, x: int, cy: int) -> None:
        capture_badge(c, (x, cy - 15, x + 30, cy + 15), inset=9)

    lang = c.lang
    items = [
        LegendItem(f"{i + 1} {kind_title(k, lang)}", kind_icon(k), 40)
        for i, k in enumerate(KIND_ORDER)
    ]
    items += [
        LegendItem(t(lang, "last move"), last, 36),
        LegendItem(t(lang, "captured"), taken, 30),
        LegendItem(t(lang, "throne"), throne, 36),
    ]
    return legend(c, items, x0=x0, x1=x1, y=y, size=SMALL, row_height=SMALL + 20, gap=26)


def _height(view: ChaturajiView) -> int:
    """Room enough for the taller of the two stacks (cropped after drawing)."""
    left = BOARD_BLOCK + GAP + 4 * (SMALL + 20)
    column = 4 * (SMALL + 14) + 2 * (DIE_CARD_H + 12) + 3 * SMALL + 2 * (DIE + 16)
    column += 2 * (SMALL + 14 + 2 * (PANEL_H + 10) + SECTION_GAP)
    column += (SMALL + 14) + LINE * (3 * len(view.turn_moves or view.last_moves) + 12)
    return TITLE_H + GAP + max(left, column) + 2 * GAP


def _draw(c: Canvas, view: ChaturajiView, names: Sequence[str], y: int, turns: int) -> int:
    """The board and its legend on the left, the dice and the armies on the
    right, and the moves under whichever of the two ends higher (so the
    image stays as short as it can)."""
    board_bottom = _board(c, view, y, turns)
    left_x1 = COLUMN_X0 - MARGIN
    left = _legend(c, MARGIN, left_x1, board_bottom) + SECTION_GAP
    x0, x1 = COLUMN_X0, COLUMN_X1
    column = _dice(c, view, x0, x1, y)
    column = _armies(c, view, names, x0, x1, column)
    in_column = column + _info_height(view, names, x1 - x0, c.lang)
    under_legend = left + _info_height(view, names, left_x1 - MARGIN, c.lang)
    if max(left, in_column) <= max(column, under_legend):
        column = _info(c, view, names, x0, x1, column)
    else:
        left = _info(c, view, names, MARGIN, left_x1, left)
    return max(left, column) - SECTION_GAP + MARGIN


def render_board(
    view: ChaturajiView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The public board from Blue's side (rank 1 at the bottom), its words in ``lang``."""
    c = Canvas(WIDTH, _height(view), theme, lang=lang)
    y = _title(c, view, names)
    y = _draw(c, view, names, y, 0)
    return c.crop(y)


def render_private(
    view: ChaturajiView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The board turned so the viewer's first army is at the bottom, under a
    heading with the viewer's name and, when they must act, a prompt."""
    seat = view.viewer
    if seat is None:
        return render_board(view, names=names, theme=theme, lang=lang)
    mine = view.me or (view.seats[seat] if 0 <= seat < len(view.seats) else ())
    turns = _QUARTER_TURNS.get(mine[0], 0) if mine else 0
    c = Canvas(WIDTH, _height(view), theme, lang=lang)
    y = _private_header(c, view, names, seat)
    y = _draw(c, view, names, y, turns)
    return c.crop(y)


class ChaturajiRenderer(ViewRenderer, name="chaturaji", board=render_board, private=render_private):
    """The registry entry (see :mod:`renderers`)."""


__all__ = [
    "BOARD_LEFT",
    "BOARD_PX",
    "SQUARE",
    "WIDTH",
    "ChaturajiRenderer",
    "army_colour",
    "draw_piece",
    "render_board",
    "render_private",
]
