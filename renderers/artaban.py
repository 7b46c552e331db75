"""Artaban: the public board and a player's private set-up, drawn with Pillow.

Pure functions of an :class:`~bot.engines.artaban_views.ArtabanView`: the
board never reads ``view.me`` (it goes to the channel) and is always drawn
from Player 1's side (rank 8 at the top); the private image is the player's
own hidden set-up while it lasts, and afterwards the board from their side.
See ``docs/rules/artaban.md``.

Each die is drawn in its owner's colour with its top value in pips.  A dark
tab on the die's front edge (the way its owner advances) shows the front
face, which decides its next forward tip; the Leader has a gold ring and a
crown tab on its back edge.

Boards that fit the chat (issue 17): the board and the private view after
the reveal are landscape, the board and its key on the left and a column on
the right with the result, the players, the last move and the quiet-moves
meter, so Discord shows them in the chat without a tap.  Who is to move, the
narration and the clocks are in the message above the image.  The set-up
image is a short landscape strip already.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image

from bot.engines.artaban_views import ArtabanView, DieView, PlayerView, SetupView
from bot.i18n import N_, t, tn
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
    column_heading,
    crown,
    display_name,
    fill_names,
    fit_text,
    last_move_section,
    legend,
    min_text_size,
    pips,
    private_band,
    private_title,
    seat_panel,
    shape_marker,
    text_width,
    title_band,
    wrap_text,
)

SEAT_ORDER: Final = (N_("Moves first"), N_("Moves second"))
WIDTH: Final = 1320
"""The board, and the private view after the reveal (landscape)."""
BOARD_WIDTH: Final = WIDTH
PRIVATE_WIDTH: Final = 1000
"""The private set-up image (a short strip: eight dice and the next step)."""
MARGIN: Final = 24
GAP: Final = 16
SECTION_GAP: Final = 22
TITLE_H: Final = 108
SQUARE: Final = 92
COORD: Final = 36
BOARD_PX: Final = 8 * SQUARE
BOARD_LEFT: Final = MARGIN + COORD
"""The left edge of the squares."""
BOARD_BLOCK: Final = BOARD_PX + 2 * COORD
"""The board with its coordinates, top to bottom."""
COLUMN_X0: Final = BOARD_LEFT + BOARD_PX + COORD + MARGIN
COLUMN_X1: Final = WIDTH - MARGIN
DIE: Final = 58
"""A die on a square; with its tabs (which stick out :data:`TAB_OUT`) it
stays inside it."""
TAB_OUT: Final = 16
FILES: Final = "abcdefgh"
START_RANK: Final = (2, 7)
HOME_RANK: Final = (8, 1)

LIGHT_SQUARE: Final[RGB] = (62, 66, 81)
DARK_SQUARE: Final[RGB] = (47, 50, 62)
GOLD: Final[RGB] = (255, 214, 102)

SMALL: Final = min_text_size(WIDTH)
"""Labels, notes and the die tabs on the board: the smallest text readable on a phone."""
BODY: Final = SMALL + 2
BIG: Final = SMALL + 5
LINE: Final = SMALL + 12
STATUS_W: Final = WIDTH - 2 * MARGIN - 52 - 220
"""Room for the title's status line, beside the seat's mark and the move pill."""
SETUP_SMALL: Final = min_text_size(PRIVATE_WIDTH)
"""The same on the narrower set-up image."""
SETUP_BODY: Final = SETUP_SMALL + 1


# ----------------------------------------------------------------- text


def _status(view: ArtabanView, names: Sequence[str], lang: str = "en") -> str:
    if view.phase == "setup":
        if view.waiting_on:
            who = " & ".join(display_name(names, s, lang=lang) for s in view.waiting_on)
            return t(lang, "Set-up · waiting for {names}", names=who)
        return t(lang, "Set-up · dealing a random arrangement")
    if view.phase == "over":
        final = view.final
        if final is not None and final.ranking and len(final.ranking[0]) == 1:
            room = STATUS_W - text_width(t(lang, "Game over · {name} wins", name=""), BIG, True)
            name = display_name(names, final.ranking[0][0], lang=lang)
            name = fit_text(name, BIG, room, bold=True)
            return t(lang, "Game over · {name} wins", name=name)
        return t(lang, "Game over · a draw")
    if view.to_play is not None:
        # A long name is cut so that "to move" still shows.
        room = STATUS_W - text_width(t(lang, "{name} to move", name=""), BIG, True)
        name = fit_text(display_name(names, view.to_play, lang=lang), BIG, room, bold=True)
        return t(lang, "{name} to move", name=name)
    return t(lang, "Artaban")


def move_text(view: ArtabanView, lang: str = "en") -> str:
    """The last move in words, without who made it (the line above says)."""
    move = view.last_move
    if move is None:
        return ""
    if move.kind == "tip":
        if move.forward:
            return t(lang, "Tipped {frm} forward to {to}", frm=move.frm, to=move.to)
        return t(lang, "Tipped {frm} sideways to {to}", frm=move.frm, to=move.to)
    if move.kind == "turn":
        return t(lang, "Turned the die on {frm}", frm=move.frm)
    if move.kind == "capture":
        return t(lang, "Captured on {to} from {frm}", frm=move.frm, to=move.to)
    if move.kind == "sacrifice":
        return t(lang, "Sacrificed {frm} against {to}", frm=move.frm, to=move.to)
    return t(lang, "{frm} to {to}", frm=move.frm, to=move.to)


# ----------------------------------------------------------------- pieces


def _tab(c: Canvas, cx: float, edge: float, up: bool, fill: RGB, width: int, height: int) -> Box:
    """A small rounded tab centred on a die's edge, sticking out by
    :data:`TAB_OUT` (so it stays on the die's square)."""
    out = min(TAB_OUT, height * 2 // 3)
    if up:
        box = (
            round(cx - width / 2),
            round(edge - out),
            round(cx + width / 2),
            round(edge - out + height),
        )
    else:
        box = (
            round(cx - width / 2),
            round(edge + out - height),
            round(cx + width / 2),
            round(edge + out),
        )
    c.draw.rounded_rectangle(box, radius=8, fill=fill, outline=c.theme.background, width=2)
    return box


def draw_die(
    c: Canvas,
    centre: tuple[float, float],
    size: int,
    *,
    owner: int,
    top: int | None,
    front: int | None,
    leader: bool,
    front_up: bool,
    dimmed: bool = False,
) -> None:
    """One die seen from above: ``top`` in pips (``None``: a hidden "?"), the
    ``front`` value on a tab towards its owner's front, a gold ring and crown
    tab for the Leader.  The tab holds its digit at the canvas's minimum
    text size, so it is as tall as that needs."""
    th = c.theme
    cx, cy = centre
    half = size / 2
    box = (round(cx - half), round(cy - half), round(cx + half), round(cy + half))
    colour = th.player_colour(owner)
    fill = th.dim(colour, 0.55) if dimmed else colour
    ink = th.on_colour
    if leader:
        ring = (box[0] - 7, box[1] - 7, box[2] + 7, box[3] + 7)
        c.draw.rounded_rectangle(ring, radius=size // 5 + 6, outline=GOLD, width=5)
    c.draw.rounded_rectangle(box, radius=size // 6, fill=fill, outline=th.background, width=2)
    if top is None:
        c.text(
            (cx, cy), "?", size=max(c.min_text, int(size * 0.55)), fill=ink, anchor="mm", bold=True
        )
    else:
        inset = round(size * 0.04)
        pips(c, (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), top, ink)
    if front is not None:
        digit = c.min_text
        edge = box[1] if front_up else box[3]
        tab = _tab(
            c,
            cx,
            edge,
            front_up,
            blend(colour, th.background, 0.72),
            width=max(36, text_width(str(front), digit, True) + 16),
            height=max(28, digit - 5),
        )
        c.text(
            ((tab[0] + tab[2]) / 2, (tab[1] + tab[3]) / 2),
            str(front),
            size=digit,
            fill=th.ink,
            anchor="mm",
            bold=True,
        )
    if leader:
        edge = box[3] if front_up else box[1]
        tab = _tab(c, cx, edge, not front_up, GOLD, width=40, height=28)
        crown(c.draw, (tab[0] + 9, tab[1] + 5, tab[2] - 9, tab[3] - 4), th.on_colour)


# ----------------------------------------------------------------- headers


def _subtitle(view: ArtabanView, what: str, lang: str = "en") -> str:
    """The kicker: ``Artaban · {what}`` (``what`` already in ``lang``)."""
    if view.diagonal_captures:
        return t(lang, "Artaban · {what} · diagonal captures", what=what)
    return t(lang, "Artaban · {what}", what=what)


def _title(c: Canvas, view: ArtabanView, names: Sequence[str]) -> int:
    title_band(c, TITLE_H)
    x = MARGIN
    if view.phase == "play" and view.to_play is not None:
        c.seat_mark((MARGIN + 20, 72), 20, view.to_play)
        x += 52
    board_title(
        c,
        kicker=_subtitle(view, t(c.lang, "board"), c.lang).upper(),
        status=_status(view, names, c.lang),
        y=52,
        size=BIG,
        margin=MARGIN,
        x=x,
        # A ply is one player's move: "Move" is the word a newcomer knows.
        counter=t(c.lang, "Move {n}", n=view.ply) if view.phase == "play" else None,
    )
    return TITLE_H + GAP


def _private_header(c: Canvas, view: ArtabanView, names: Sequence[str], seat: int) -> int:
    private_band(
        c,
        colour=c.theme.player_colour(seat),
        kicker=_subtitle(
            view, t(c.lang, "your view from rank {rank}", rank=START_RANK[seat]), c.lang
        ).upper(),
        margin=MARGIN,
        height=TITLE_H,
    )
    c.seat_mark((MARGIN + 22, TITLE_H * 2 // 3), 18, seat)
    if view.phase == "over":
        where = t(c.lang, "Game over")
    elif view.phase == "play":
        where = t(c.lang, "Move {n}", n=view.ply)
    else:
        where = t(c.lang, "Set-up")
    prompt = t(c.lang, "YOUR MOVE") if view.phase == "play" and view.to_play == seat else None
    private_title(
        c,
        name=display_name(names, seat, lang=c.lang),
        where=where,
        prompt=prompt,
        margin=MARGIN,
        band=TITLE_H,
        mark=18,
    )
    return TITLE_H + GAP


# ----------------------------------------------------------------- the board


def _square_xy(file: int, rank: int, flip: bool) -> tuple[int, int]:
    col = 7 - file if flip else file
    row = rank - 1 if flip else 8 - rank
    return col, row


def square_centre(name: str, top: int, *, flip: bool = False) -> tuple[float, float]:
    """The centre on the image of square ``name`` ("c4") of a board whose
    coordinates start at ``top`` (the y :func:`render_board` draws it at)."""
    col, row = _square_xy(FILES.index(name[0]), int(name[1:]), flip)
    return BOARD_LEFT + col * SQUARE + SQUARE / 2, top + COORD + row * SQUARE + SQUARE / 2


def _board(c: Canvas, view: ArtabanView, y: int, *, flip: bool) -> int:
    th = c.theme
    left = BOARD_LEFT
    top = y + COORD
    files = FILES[::-1] if flip else FILES
    ranks = [str(i + 1 if flip else 8 - i) for i in range(8)]
    board_coordinates(
        c, left, top, SQUARE, files, ranks, above=COORD // 2, beside=COORD // 2, size=BODY
    )
    last = view.last_move
    frm = to = ""
    if last is not None:
        frm, to = last.frm, last.to
    for rank in range(1, 9):
        for file in range(8):
            col, row = _square_xy(file, rank, flip)
            x0, y0 = left + col * SQUARE, top + row * SQUARE
            colour = DARK_SQUARE if (file + rank) % 2 == 1 else LIGHT_SQUARE  # a1 is dark
            for seat in (0, 1):
                if rank == HOME_RANK[seat]:
                    # Each side's goal rank is tinted in its colour.
                    colour = blend(colour, th.player_colour(seat), 0.16)
            name = f"{FILES[file]}{rank}"
            if name == frm and frm != to:
                colour = blend(colour, th.highlight, 0.42)
            c.draw.rectangle((x0, y0, x0 + SQUARE - 1, y0 + SQUARE - 1), fill=colour)
            if name == to:
                c.draw.rectangle(
                    (x0 + 3, y0 + 3, x0 + SQUARE - 4, y0 + SQUARE - 4),
                    outline=th.highlight,
                    width=5,
                )
    c.draw.rectangle(
        (left - 2, top - 2, left + BOARD_PX + 1, top + BOARD_PX + 1), outline=th.grid, width=2
    )
    if view.phase == "setup":
        for seat in (0, 1):
            p = view.players[seat] if seat < len(view.players) else None
            for file in range(8):
                col, row = _square_xy(file, START_RANK[seat], flip)
                draw_die(
                    c,
                    (left + col * SQUARE + SQUARE / 2, top + row * SQUARE + SQUARE / 2),
                    DIE,
                    owner=seat,
                    top=None,
                    front=None,
                    leader=False,
                    front_up=True,
                    dimmed=p is None or not p.committed,
                )
    for die in view.dice:
        _board_die(c, die, left, top, flip)
    return y + BOARD_BLOCK + GAP


def _board_die(c: Canvas, die: DieView, left: int, top: int, flip: bool) -> None:
    col, row = _square_xy(die.file, die.rank, flip)
    front_up = (die.owner == 0) != flip
    draw_die(
        c,
        (left + col * SQUARE + SQUARE / 2, top + row * SQUARE + SQUARE / 2),
        DIE,
        owner=die.owner,
        top=die.top,
        front=die.front,
        leader=die.leader,
        front_up=front_up,
    )


SETUP_NOTE: Final = N_("Both set-ups are revealed together once both players have committed.")


def _legend(c: Canvas, view: ArtabanView, x0: int, x1: int, y: int) -> int:
    """The key under the board (during the set-up, what happens next)."""
    th = c.theme
    if view.phase == "setup":
        for line in wrap_text(t(c.lang, SETUP_NOTE), SMALL, x1 - x0):
            c.text((x0, y + LINE // 2), line, size=SMALL, fill=th.muted, anchor="lm")
            y += LINE
        return y + SECTION_GAP

    def front(c: Canvas, x: int, cy: int) -> None:
        draw_die(c, (x + 24, cy + 8), 44, owner=0, top=3, front=2, leader=False, front_up=True)

    def leader(c: Canvas, x: int, cy: int) -> None:
        draw_die(c, (x + 24, cy - 4), 44, owner=1, top=5, front=None, leader=True, front_up=True)

    def last(c: Canvas, x: int, cy: int) -> None:
        c.draw.rectangle((x, cy - 18, x + 36, cy + 18), outline=th.highlight, width=4)

    items = (
        LegendItem(t(c.lang, "front face (tip forward: 7 minus it comes up)"), front, 48),
        LegendItem(t(c.lang, "Leader"), leader, 48),
        LegendItem(t(c.lang, "last move"), last, 36),
    )
    return legend(c, items, x0=x0, x1=x1, y=y, size=SMALL, row_height=SMALL + 36) + SECTION_GAP


# ----------------------------------------------------------------- the column


def _badges(
    view: ArtabanView, p: PlayerView, th: Theme, lang: str = "en"
) -> list[tuple[str, RGB, RGB]]:
    """(label, fill, ink) of the seat's badges: only the result, so a long
    name keeps its room (the seat to move is ringed, and named in the title
    and in the message above the image)."""
    badges: list[tuple[str, RGB, RGB]] = []
    final = view.final
    if final is not None and final.ranking:
        top = final.ranking[0]
        if len(top) > 1:
            badges.append((t(lang, "DRAW"), th.ink, th.on_colour))
        elif p.seat in top:
            badges.append((t(lang, "WINNER"), th.good, th.on_colour))
    return badges


PANEL_H: Final = 190
SETUP_PANEL_H: Final = 162


def _panel_height(view: ArtabanView) -> int:
    return SETUP_PANEL_H if view.phase == "setup" else PANEL_H


def _player_panel(
    c: Canvas, view: ArtabanView, p: PlayerView, names: Sequence[str], box: Box
) -> None:
    """A player in four lines: name and badge; which way they go; then their
    score, dice home and dice on the board (or, in the set-up, whether they
    have committed)."""
    th = c.theme
    x0, y0, x1, _ = box
    inner = x0 + 36
    colour = th.player_colour(p.seat)
    acting = p.seat == view.to_play or p.seat in view.waiting_on
    seat_panel(c, box, colour, acting=acting)
    cy = y0 + 32
    right = badge_row(c, x1 - 12, cy, _badges(view, p, th, c.lang), gap=10)
    shape_marker(c.draw, (inner + 10, cy), 13, th.seat_shape(p.seat), colour)
    c.text(
        (inner + 34, cy),
        display_name(names, p.seat, lang=c.lang),
        size=BODY,
        fill=th.ink,
        anchor="lm",
        bold=True,
        max_width=right - inner - 42,
    )
    c.text(
        (inner, y0 + 74),
        # "Player 1" beside a name reads as a second name: say what it means.
        t(
            c.lang,
            "{order} · rank {start} to {home}",
            order=t(c.lang, SEAT_ORDER[p.seat]),
            start=START_RANK[p.seat],
            home=HOME_RANK[p.seat],
        ),
        size=SMALL,
        fill=th.muted,
        anchor="lm",
        max_width=x1 - inner - 12,
    )
    if view.phase == "setup":
        label = t(c.lang, "COMMITTED") if p.committed else t(c.lang, "ARRANGING")
        fill = th.good if p.committed else th.grid
        ink = th.on_colour if p.committed else th.ink
        c.pill((inner, y0 + 120), label, size=SMALL, fill=fill, ink=ink, height=SMALL + 12)
        return
    cols = (
        (t(c.lang, "score"), str(p.score)),
        (t(c.lang, "home"), str(p.home)),
        (t(c.lang, "on board"), str(p.on_board)),
    )
    room = x1 - 16 - inner
    gap = 12
    # Longer words (another language) are cut to an equal share of the
    # room; the English ones fit whole.
    cap = (room - gap * (len(cols) - 1)) // len(cols)
    fits = sum(max(text_width(w, SMALL), text_width(v, BIG, True)) for w, v in cols) <= room
    widths = [
        max(min(text_width(label, SMALL), room if fits else cap), text_width(value, BIG, True))
        for label, value in cols
    ]
    spare = max(0, room - sum(widths)) // (len(cols) - 1)
    x = inner
    for (label, value), w in zip(cols, widths, strict=True):
        c.text(
            (x, y0 + 112),
            label,
            size=SMALL,
            fill=th.muted,
            anchor="lm",
            max_width=w if not fits else None,
        )
        c.text((x, y0 + 154), value, size=BIG, fill=th.ink, anchor="lm", bold=True)
        x += w + spare


def _players(c: Canvas, view: ArtabanView, names: Sequence[str], x0: int, x1: int, y: int) -> int:
    h = _panel_height(view)
    for p in view.players[:2]:
        _player_panel(c, view, p, names, (x0, y, x1, y + h))
        y += h + 10
    return y - 10 + SECTION_GAP


def _reason_lines(
    view: ArtabanView, names: Sequence[str], width: int, lang: str = "en"
) -> list[str]:
    final = view.final
    if final is None:
        return []
    # The reason names the players with {pN} tags (the rules' White and
    # Black are not the colours of the seats drawn here).
    return wrap_text(fill_names(final.reason, names, lang), SMALL, width)


def _final(c: Canvas, view: ArtabanView, names: Sequence[str], x0: int, x1: int, y: int) -> int:
    """The result: who won (a crown) or the draw, the score, and why."""
    th = c.theme
    final = view.final
    if final is None:
        return y
    pad = 20
    reason = _reason_lines(view, names, x1 - x0 - 2 * pad, c.lang)
    h = 2 * pad + (BIG + 14) + LINE * (1 + len(reason))
    c.panel((x0, y, x1, y + h), outline=th.highlight, width=3)
    top = final.ranking[0] if final.ranking else ()
    if len(top) == 1:
        headline = t(c.lang, "{name} wins!", name=display_name(names, top[0], lang=c.lang))
    else:
        headline = t(c.lang, "Agreed draw") if final.agreed else t(c.lang, "Draw")
    cy = y + pad + (BIG + 14) // 2
    box = c.text(
        (x0 + pad, cy),
        headline,
        size=BIG,
        fill=th.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - x0 - 2 * pad - (60 if len(top) == 1 else 0),
    )
    if len(top) == 1:
        crown(c.draw, (box[2] + 12, cy - 16, box[2] + 56, cy + 14), GOLD)
    ly = y + pad + BIG + 14 + LINE // 2
    scores = " - ".join(str(s) for s in final.scores)
    score = t(c.lang, "Score {scores}", scores=scores)
    c.text((x0 + pad, ly), score, size=BODY, fill=th.ink, anchor="lm", bold=True)
    for line in reason:
        ly += LINE
        c.text((x0 + pad, ly), line, size=SMALL, fill=th.muted, anchor="lm")
    return y + h + SECTION_GAP


def _last_move_lines(view: ArtabanView, width: int, lang: str = "en") -> list[str]:
    return wrap_text(move_text(view, lang), SMALL, width) if view.last_move is not None else []


def _last_move_height(view: ArtabanView, width: int, lang: str = "en") -> int:
    if view.last_move is None:
        return 0
    return SMALL + 14 + LINE * (1 + len(_last_move_lines(view, width, lang))) + SECTION_GAP


def _last_move(c: Canvas, view: ArtabanView, names: Sequence[str], x0: int, x1: int, y: int) -> int:
    """Who moved last, and the move in words."""
    move = view.last_move
    if move is None:
        return y
    y = last_move_section(
        c,
        x0,
        x1,
        y,
        seat=move.seat,
        name=display_name(names, move.seat, lang=c.lang),
        lines=_last_move_lines(view, x1 - x0, c.lang),
        size=SMALL,
        line_height=LINE,
    )
    return y + SECTION_GAP


QUIET_HINT: Final = N_("Moves with no forward tip, capture or sacrifice; the game ends at {limit}.")


def _draw_offer(
    c: Canvas, view: ArtabanView, names: Sequence[str], x0: int, x1: int, y: int
) -> int:
    th = c.theme
    seat = view.draw_offer
    if seat is None:
        return y
    y = column_heading(c, x0, y, t(c.lang, "Draw offered by"), right=x1)
    cy = y + LINE // 2
    c.seat_mark((x0 + 14, cy), 14, seat)
    c.text(
        (x0 + 38, cy),
        display_name(names, seat, lang=c.lang),
        size=SMALL,
        fill=th.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - x0 - 38,
    )
    return y + LINE + SECTION_GAP


def _quiet(c: Canvas, view: ArtabanView, x0: int, x1: int, y: int) -> int:
    """The no-progress count (R9) as a bar, and what it means."""
    th = c.theme
    y = column_heading(c, x0, y, t(c.lang, "No progress"), right=x1)
    c.text(
        (x0, y + LINE // 2),
        t(c.lang, "{n} of {limit} quiet moves", n=view.quiet_plies, limit=view.quiet_limit),
        size=BODY,
        fill=th.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - x0,
    )
    y += LINE + 4
    c.panel((x0, y, x1, y + 18), fill=th.slot, radius=9)
    share = min(1.0, view.quiet_plies / max(1, view.quiet_limit))
    if share > 0:
        fill = th.bad if share >= 0.75 else th.highlight
        c.panel((x0, y, x0 + max(18, round(share * (x1 - x0))), y + 18), fill=fill, radius=9)
    y += 18 + 8
    for line in wrap_text(t(c.lang, QUIET_HINT, limit=view.quiet_limit), SMALL, x1 - x0):
        c.text((x0, y + LINE // 2), line, size=SMALL, fill=th.muted, anchor="lm")
        y += LINE
    return y + SECTION_GAP


def _height(view: ArtabanView, names: Sequence[str], lang: str = "en") -> int:
    """Room enough for the taller of the two stacks (cropped after drawing)."""
    width = COLUMN_X1 - COLUMN_X0
    left = BOARD_BLOCK + GAP + 2 * (SMALL + 36) + 2 * SECTION_GAP
    column = 2 * (PANEL_H + 10) + 6 * (SMALL + 14 + SECTION_GAP) + 12 * LINE
    column += LINE * (len(_reason_lines(view, names, width, lang)) + 4)
    column += _last_move_height(view, COLUMN_X0 - 2 * MARGIN, lang)
    return TITLE_H + GAP + max(left, column) + 2 * MARGIN


def _draw(c: Canvas, view: ArtabanView, names: Sequence[str], y: int, *, flip: bool) -> int:
    """The board and its key on the left; the result, the players, a draw
    offer and the quiet-moves meter on the right; and the last move under
    whichever of the two ends higher (so the image stays as short as it can)."""
    left = _board(c, view, y, flip=flip)
    left_x1 = COLUMN_X0 - MARGIN
    left = _legend(c, view, MARGIN, left_x1, left)
    x0, x1 = COLUMN_X0, COLUMN_X1
    column = _final(c, view, names, x0, x1, y)
    column = _players(c, view, names, x0, x1, column)
    column = _draw_offer(c, view, names, x0, x1, column)
    if view.phase == "play":
        column = _quiet(c, view, x0, x1, column)
    in_column = column + _last_move_height(view, x1 - x0, c.lang)
    under_key = left + _last_move_height(view, left_x1 - MARGIN, c.lang)
    if max(left, in_column) <= max(column, under_key):
        column = _last_move(c, view, names, x0, x1, column)
    else:
        left = _last_move(c, view, names, MARGIN, left_x1, left)
    return max(left, column) - SECTION_GAP + MARGIN


def render_board(
    view: ArtabanView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The public board, from Player 1's side, its words in ``lang``; never
    shows ``view.me``."""
    c = Canvas(WIDTH, _height(view, names, lang), theme, lang=lang)
    y = _title(c, view, names)
    y = _draw(c, view, names, y, flip=False)
    return c.crop(y)


# ----------------------------------------------------------------- private set-up


def _setup_header(c: Canvas, me_seat: int, names: Sequence[str], what: str, right: str) -> int:
    th = c.theme
    colour = th.player_colour(me_seat)
    h = private_band(c, colour=colour, kicker=what.upper(), margin=MARGIN)
    shape_marker(c.draw, (MARGIN + 22, 70), 14, th.seat_shape(me_seat), colour)
    box = c.text((c.width - MARGIN, 70), right, size=28, fill=th.ink, anchor="rm", bold=True)
    c.text(
        (MARGIN + 46, 70),
        display_name(names, me_seat, lang=c.lang),
        size=34,
        fill=th.ink,
        anchor="lm",
        bold=True,
        max_width=box[0] - MARGIN - 70,
    )
    return h + 20


def _next_step(me: SetupView, lang: str = "en") -> tuple[str, str]:
    """(headline, hint) for the set-up step the player is on."""
    n = len(me.values)
    if me.committed:
        return (
            t(lang, "Committed."),
            t(lang, "Waiting for your opponent; both set-ups are revealed together."),
        )
    if n < 8:
        left = 8 - n
        need = 28 - me.total
        low, high = max(1, need - 6 * (left - 1)), min(6, need - (left - 1))
        can = t(lang, "{low} to {high}", low=low, high=high) if low < high else str(low)
        return (
            t(lang, "Next: the top value for file {file} ({values})", file=FILES[n], values=can),
            tn(
                lang,
                "{n} file left to fill with {total}. Pick 'File {file}: top value …' in the "
                "menu, or 'Random arrangement' for one committed at once.",
                "{n} files left to fill with {total}. Pick 'File {file}: top value …' in the "
                "menu, or 'Random arrangement' for one committed at once.",
                left,
                total=need,
                file=FILES[n],
            ),
        )
    if me.leader is None:
        return t(lang, "Next: the Leader's file"), t(lang, "Pick 'Leader on file …' in the menu.")
    return t(lang, "Ready to commit"), t(
        lang, "Pick 'Commit' in the menu, or 'Start the set-up again'."
    )


def _setup_row(c: Canvas, me: SetupView, y: int) -> int:
    th = c.theme
    colour = th.player_colour(me.seat)
    x0, x1 = MARGIN, c.width - MARGIN
    slot = (x1 - x0) // 8
    size = 84
    h = 190
    c.panel((x0, y, x1, y + h))
    cy = y + 78
    current = len(me.values) if not me.committed and len(me.values) < 8 else -1
    for f in range(8):
        cx = x0 + f * slot + slot / 2
        if f < len(me.values):
            value = me.values[f]
            draw_die(
                c,
                (cx, cy),
                size,
                owner=me.seat,
                top=value,
                front=None,
                leader=me.leader == FILES[f],
                front_up=me.seat == 0,
            )
        else:
            half = size // 2
            box = (round(cx - half), cy - half, round(cx + half), cy + half)
            outline = th.highlight if f == current else th.grid
            c.draw.rounded_rectangle(
                box, radius=size // 6, fill=th.slot, outline=outline, width=4 if f == current else 2
            )
            if f == current:
                c.text((cx, cy), "?", size=44, fill=th.highlight, anchor="mm", bold=True)
        c.text(
            (cx, y + 150),
            f"{FILES[f]}{START_RANK[me.seat]}",
            size=26,
            fill=th.ink if f < len(me.values) else th.muted,
            anchor="mm",
            bold=True,
        )
    del colour
    return y + h + 18


def _progress(c: Canvas, me: SetupView, y: int) -> int:
    th = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    headline, hint = _next_step(me, c.lang)
    hint_lines = wrap_text(hint, SETUP_SMALL, x1 - x0 - 40)
    h = 150 + 32 * len(hint_lines)
    c.panel((x0, y, x1, y + h))
    total_label = t(c.lang, "Total {n} of 28", n=me.total)
    c.text((x0 + 20, y + 36), total_label, size=34, fill=th.ink, anchor="lm", bold=True)
    if me.leader is not None:
        leader = t(c.lang, "Leader: file {file}", file=me.leader)
    else:
        leader = t(c.lang, "Leader: not chosen")
    c.text((x1 - 20, y + 36), leader, size=SETUP_BODY, fill=th.ink, anchor="rm", bold=True)
    bar = (x0 + 20, y + 66, x1 - 20, y + 84)
    c.panel(bar, fill=th.slot, radius=9)
    share = min(1.0, me.total / 28)
    if share > 0:
        fill = th.good if me.total == 28 else th.player_colour(me.seat)
        c.panel(
            (bar[0], bar[1], bar[0] + max(18, round(share * (bar[2] - bar[0]))), bar[3]),
            fill=fill,
            radius=9,
        )
    colour = th.good if me.committed else th.highlight
    c.text((x0 + 20, y + 114), headline, size=28, fill=colour, anchor="lm", bold=True)
    ly = y + 148
    for line in hint_lines:
        c.text((x0 + 20, ly), line, size=SETUP_SMALL, fill=th.muted, anchor="lm")
        ly += 32
    return y + h + 18


def _setup_notes(c: Canvas, me: SetupView, y: int) -> int:
    th = c.theme
    notes = [
        t(
            c.lang,
            "Your dice will stand on rank {start} and head for rank {home}.",
            start=START_RANK[me.seat],
            home=HOME_RANK[me.seat],
        ),
        t(c.lang, "Each die starts with its lowest face next to the top towards the front."),
        t(c.lang, "Nobody else sees this until both players have committed."),
    ]
    for note in notes:
        for line in wrap_text(note, SETUP_SMALL, c.width - 2 * MARGIN):
            c.text((MARGIN, y), line, size=SETUP_SMALL, fill=th.muted, anchor="lt")
            y += 32
    return y + 10


def render_private(
    view: ArtabanView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The viewer's own image: their hidden set-up while it lasts (``view.me``),
    afterwards the board seen from their side."""
    me = view.me
    if me is not None:
        c = Canvas(PRIVATE_WIDTH, 1000, theme, lang=lang)
        right = t(lang, "Committed") if me.committed else t(lang, "Setting up")
        what = t(lang, "Artaban · your set-up (only you see this)")
        y = _setup_header(c, me.seat, names, what, right)
        y = _setup_row(c, me, y)
        y = _progress(c, me, y)
        y = _setup_notes(c, me, y)
        return c.crop(y)
    seat = view.viewer
    if seat is None:
        return render_board(view, names=names, theme=theme, lang=lang)
    c = Canvas(WIDTH, _height(view, names, lang), theme, lang=lang)
    y = _private_header(c, view, names, seat)
    y = _draw(c, view, names, y, flip=seat == 1)
    return c.crop(y)


class ArtabanRenderer(ViewRenderer, name="artaban", board=render_board, private=render_private):
    """The registry entry (see :mod:`renderers`)."""


__all__ = [
    "BOARD_LEFT",
    "BOARD_PX",
    "BOARD_WIDTH",
    "COLUMN_X0",
    "PRIVATE_WIDTH",
    "SQUARE",
    "WIDTH",
    "ArtabanRenderer",
    "draw_die",
    "move_text",
    "render_board",
    "render_private",
    "square_centre",
]
