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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image

from bot.engines.artaban_views import ArtabanView, DieView, PlayerView, SetupView
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
    crown,
    display_name,
    legend,
    min_text_size,
    pips,
    private_band,
    seat_panel,
    shape_marker,
    text_width,
    title_band,
    wrap_text,
)

BOARD_WIDTH: Final = 1000
PRIVATE_WIDTH: Final = 1000
MARGIN: Final = 24
SQUARE: Final = 108
COORD: Final = 34
BOARD_PX: Final = 8 * SQUARE
BOARD_LEFT: Final = (BOARD_WIDTH - BOARD_PX) // 2
DIE: Final = 70
"""A die on a square; with its tabs (which stick out 18 px) it stays inside it."""
FILES: Final = "abcdefgh"
START_RANK: Final = (2, 7)
HOME_RANK: Final = (8, 1)

LIGHT_SQUARE: Final[RGB] = (62, 66, 81)
DARK_SQUARE: Final[RGB] = (47, 50, 62)
GOLD: Final[RGB] = (255, 214, 102)

SMALL: Final = min_text_size(max(BOARD_WIDTH, PRIVATE_WIDTH))
"""Labels, notes and the die tabs: the smallest text readable on a phone."""
BODY: Final = SMALL + 1


# ----------------------------------------------------------------- text


def _status(view: ArtabanView, names: Sequence[str]) -> str:
    if view.phase == "setup":
        if view.waiting_on:
            who = " & ".join(display_name(names, s) for s in view.waiting_on)
            return f"Set-up · waiting for {who}"
        return "Set-up · dealing a random arrangement"
    if view.phase == "over":
        final = view.final
        if final is not None and final.ranking and len(final.ranking[0]) == 1:
            return f"Game over · {display_name(names, final.ranking[0][0])} wins"
        return "Game over · a draw"
    if view.to_play is not None:
        return f"{display_name(names, view.to_play)} to move"
    return "Artaban"


def _last_move_text(view: ArtabanView, names: Sequence[str]) -> str:
    move = view.last_move
    if move is None:
        return ""
    who = display_name(names, move.seat)
    if move.kind == "tip":
        way = "forward" if move.forward else "sideways"
        return f"{who} tipped {move.frm} {way} to {move.to}"
    if move.kind == "turn":
        return f"{who} turned the die on {move.frm}"
    if move.kind == "capture":
        return f"{who} captured on {move.to} from {move.frm}"
    if move.kind == "sacrifice":
        return f"{who} sacrificed {move.frm} against {move.to}"
    return f"{who}: {move.frm} to {move.to}"


# ----------------------------------------------------------------- pieces


def _tab(
    c: Canvas, cx: float, edge: float, up: bool, fill: RGB, width: int = 36, height: int = 28
) -> Box:
    """A small rounded tab centred on a die's edge, sticking out by 2/3."""
    out = height * 2 // 3
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
    tab for the Leader."""
    t = c.theme
    cx, cy = centre
    half = size / 2
    box = (round(cx - half), round(cy - half), round(cx + half), round(cy + half))
    colour = t.player_colour(owner)
    fill = t.dim(colour, 0.55) if dimmed else colour
    ink = t.on_colour
    if leader:
        ring = (box[0] - 7, box[1] - 7, box[2] + 7, box[3] + 7)
        c.draw.rounded_rectangle(ring, radius=size // 5 + 6, outline=GOLD, width=5)
    c.draw.rounded_rectangle(box, radius=size // 6, fill=fill, outline=t.background, width=2)
    if top is None:
        c.text((cx, cy), "?", size=int(size * 0.55), fill=ink, anchor="mm", bold=True)
    else:
        inset = round(size * 0.04)
        pips(c, (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), top, ink)
    if front is not None:
        edge = box[1] if front_up else box[3]
        tab = _tab(c, cx, edge, front_up, blend(colour, t.background, 0.72))
        c.text(
            ((tab[0] + tab[2]) / 2, (tab[1] + tab[3]) / 2),
            str(front),
            size=SMALL,
            fill=t.ink,
            anchor="mm",
            bold=True,
        )
    if leader:
        edge = box[3] if front_up else box[1]
        tab = _tab(c, cx, edge, not front_up, GOLD, width=40, height=28)
        crown(c.draw, (tab[0] + 9, tab[1] + 5, tab[2] - 9, tab[3] - 4), t.on_colour)


# ----------------------------------------------------------------- sections


def _title(c: Canvas, view: ArtabanView, names: Sequence[str], subtitle: str) -> int:
    height = 108
    title_band(c, height)
    board_title(
        c,
        kicker=subtitle.upper(),
        status=_status(view, names),
        y=54,
        size=36,
        margin=MARGIN,
        counter=f"Ply {view.ply}" if view.phase == "play" else None,
    )
    return height + 16


def _badges(view: ArtabanView, p: PlayerView, t: Theme) -> list[tuple[str, RGB, RGB]]:
    """(label, fill, ink) of the seat's badges."""
    badges: list[tuple[str, RGB]] = []
    if view.phase == "play" and p.seat == view.to_play:
        badges.append(("TO MOVE", t.highlight))
    if view.draw_offer == p.seat:
        badges.append(("OFFERS A DRAW", t.ink))
    final = view.final
    if final is not None and final.ranking:
        top = final.ranking[0]
        if len(top) > 1:
            badges.append(("DRAW", t.ink))
        elif p.seat in top:
            badges.append(("WINNER", t.good))
    return [(label, fill, t.on_colour) for label, fill in badges]


def _player_panel(
    c: Canvas, view: ArtabanView, p: PlayerView, names: Sequence[str], box: Box
) -> None:
    t = c.theme
    x0, y0, x1, _ = box
    colour = t.player_colour(p.seat)
    acting = p.seat == view.to_play or p.seat in view.waiting_on
    seat_panel(c, box, colour, acting=acting)
    cy = y0 + 30
    right = badge_row(c, x1 - 14, cy, _badges(view, p, t))
    shape_marker(c.draw, (x0 + 38, cy), 11, t.seat_shape(p.seat), colour)
    c.text(
        (x0 + 58, cy),
        display_name(names, p.seat),
        size=28,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=right - x0 - 66,
    )
    c.text(
        (x0 + 28, y0 + 58),
        f"Player {p.seat + 1} · rank {START_RANK[p.seat]} to rank {HOME_RANK[p.seat]}",
        size=SMALL,
        fill=t.muted,
        anchor="lt",
    )
    if view.phase == "setup":
        bx = x0 + 28
        box = c.text((bx, y0 + 118), "Set-up", size=SMALL, fill=t.muted, anchor="lm", bold=True)
        label = "COMMITTED" if p.committed else "ARRANGING"
        fill = t.good if p.committed else t.grid
        ink = t.on_colour if p.committed else t.ink
        c.pill((box[2] + 14, y0 + 118), label, size=SMALL, fill=fill, ink=ink, height=38)
        return
    cols = (("Score", str(p.score)), ("Home", str(p.home)), ("On board", str(p.on_board)))
    cw = (x1 - x0 - 40) / 3
    for k, (label, value) in enumerate(cols):
        sx = x0 + 28 + k * cw
        c.text((sx, y0 + 96), label, size=SMALL, fill=t.muted, anchor="lt", bold=True)
        c.text((sx, y0 + 126), value, size=38 if k == 0 else 32, fill=t.ink, anchor="lt", bold=True)


PLAYER_PANEL_H: Final = 176


def _players(c: Canvas, view: ArtabanView, names: Sequence[str], y: int) -> int:
    gap = 14
    w = (c.width - 2 * MARGIN - gap) // 2
    h = PLAYER_PANEL_H
    for i, p in enumerate(view.players[:2]):
        x = MARGIN + i * (w + gap)
        _player_panel(c, view, p, names, (x, y, x + w, y + h))
    return y + h + 18


def _square_xy(file: int, rank: int, flip: bool) -> tuple[int, int]:
    col = 7 - file if flip else file
    row = rank - 1 if flip else 8 - rank
    return col, row


def _board(c: Canvas, view: ArtabanView, y: int, *, flip: bool) -> int:
    t = c.theme
    left = (c.width - BOARD_PX) // 2
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
                    colour = blend(colour, t.player_colour(seat), 0.16)
            name = f"{FILES[file]}{rank}"
            if name == frm and frm != to:
                colour = blend(colour, t.highlight, 0.42)
            c.draw.rectangle((x0, y0, x0 + SQUARE - 1, y0 + SQUARE - 1), fill=colour)
            if name == to:
                c.draw.rectangle(
                    (x0 + 3, y0 + 3, x0 + SQUARE - 4, y0 + SQUARE - 4), outline=t.highlight, width=5
                )
    c.draw.rectangle(
        (left - 2, top - 2, left + BOARD_PX + 1, top + BOARD_PX + 1), outline=t.grid, width=2
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
    return top + BOARD_PX + COORD + 12


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


def _info(c: Canvas, view: ArtabanView, names: Sequence[str], y: int) -> int:
    """Last move, draw offer, the no-progress count and the variant."""
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    lines: list[tuple[str, str]] = []
    if view.last_move is not None:
        lines.append(("Last move", _last_move_text(view, names)))
    if view.draw_offer is not None:
        lines.append(("Draw offer", f"{display_name(names, view.draw_offer)} offers a draw"))
    if view.diagonal_captures:
        lines.append(("Variant", "diagonal captures and sacrifices"))
    h = 78 + 42 * len(lines)
    c.panel((x0, y, x1, y + h))
    ly = y + 32
    for label, text in lines:
        c.text((x0 + 20, ly), label, size=SMALL, fill=t.muted, anchor="lm", bold=True)
        c.text((x0 + 176, ly), text, size=BODY, fill=t.ink, anchor="lm", max_width=x1 - x0 - 196)
        ly += 42
    # The 40-ply rule (R9) as a bar.
    label = f"{view.quiet_plies} of {view.quiet_limit} quiet plies"
    c.text((x0 + 20, ly), "No progress", size=SMALL, fill=t.muted, anchor="lm", bold=True)
    c.text((x0 + 176, ly), label, size=BODY, fill=t.ink, anchor="lm")
    bar_left = x0 + 176 + text_width(label, BODY) + 20
    bar_right = x1 - 24
    if bar_right - bar_left > 60:
        c.panel((bar_left, ly - 9, bar_right, ly + 9), fill=t.slot, radius=9)
        share = min(1.0, view.quiet_plies / max(1, view.quiet_limit))
        if share > 0:
            fill = t.bad if share >= 0.75 else t.highlight
            c.panel(
                (
                    bar_left,
                    ly - 9,
                    bar_left + max(18, round(share * (bar_right - bar_left))),
                    ly + 9,
                ),
                fill=fill,
                radius=9,
            )
    return y + h + 16


def _final(c: Canvas, view: ArtabanView, names: Sequence[str], y: int) -> int:
    t = c.theme
    final = view.final
    if final is None:
        return y
    x0, x1 = MARGIN, c.width - MARGIN
    reason = wrap_text(final.reason, SMALL, x1 - x0 - 40)
    h = 78 + 32 * len(reason) + 12
    c.panel((x0, y, x1, y + h), outline=t.highlight, width=3)
    top = final.ranking[0] if final.ranking else ()
    if len(top) == 1:
        headline = f"{display_name(names, top[0])} wins!"
    else:
        headline = "Agreed draw" if final.agreed else "Draw"
    scores = " - ".join(str(s) for s in final.scores)
    box = c.text(
        (x0 + 20, y + 38),
        headline,
        size=38,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - x0 - 260,
    )
    if len(top) == 1:
        crown(c.draw, (box[2] + 14, y + 20, box[2] + 58, y + 52), GOLD)
    c.text((x1 - 20, y + 38), f"Score {scores}", size=30, fill=t.ink, anchor="rm", bold=True)
    ly = y + 84
    for line in reason:
        c.text((x0 + 20, ly), line, size=SMALL, fill=t.muted, anchor="lm")
        ly += 32
    return y + h + 16


def _legend(c: Canvas, view: ArtabanView, y: int) -> int:
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    if view.phase == "setup":
        note = "Both set-ups are revealed together once both players have committed."
        for line in wrap_text(note, SMALL, x1 - x0):
            c.text((x0, y + 8), line, size=SMALL, fill=t.muted, anchor="lt")
            y += 32
        return y + 24

    def front(c: Canvas, x: int, cy: int) -> None:
        draw_die(c, (x + 22, cy + 6), 40, owner=0, top=3, front=2, leader=False, front_up=True)

    def leader(c: Canvas, x: int, cy: int) -> None:
        draw_die(c, (x + 22, cy), 40, owner=1, top=5, front=None, leader=True, front_up=True)

    def last(c: Canvas, x: int, cy: int) -> None:
        c.draw.rectangle((x, cy - 18, x + 36, cy + 18), outline=t.highlight, width=4)

    items = (
        LegendItem("front face (tip forward: 7 minus it comes up)", front, 46),
        LegendItem("Leader", leader, 46),
        LegendItem("last move", last, 36),
    )
    return legend(c, items, x0=x0, x1=x1, y=y + 8, size=SMALL, row_height=60) + 8


def _board_height(view: ArtabanView) -> int:
    h = 124 + PLAYER_PANEL_H + 18 + BOARD_PX + 2 * COORD + 12 + 78 + 3 * 42 + 16 + 150
    if view.final is not None:
        h += 78 + 32 * 6 + 28
    return h


def render_board(
    view: ArtabanView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The public board, from Player 1's side; never shows ``view.me``."""
    c = Canvas(BOARD_WIDTH, _board_height(view), theme)
    y = _title(c, view, names, _subtitle(view, "board"))
    y = _players(c, view, names, y)
    if view.final is not None:
        y = _final(c, view, names, y)
    y = _board(c, view, y, flip=False)
    if view.phase != "setup":
        y = _info(c, view, names, y)
    y = _legend(c, view, y)
    return c.crop(y + 8)


def _subtitle(view: ArtabanView, what: str) -> str:
    variant = " · diagonal captures" if view.diagonal_captures else ""
    return f"Artaban · {what}{variant}"


# ----------------------------------------------------------------- private


def _private_header(c: Canvas, me_seat: int, names: Sequence[str], what: str, right: str) -> int:
    t = c.theme
    colour = t.player_colour(me_seat)
    h = private_band(c, colour=colour, kicker=what.upper(), margin=MARGIN)
    shape_marker(c.draw, (MARGIN + 22, 70), 14, t.seat_shape(me_seat), colour)
    box = c.text((c.width - MARGIN, 70), right, size=28, fill=t.ink, anchor="rm", bold=True)
    c.text(
        (MARGIN + 46, 70),
        display_name(names, me_seat),
        size=34,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=box[0] - MARGIN - 70,
    )
    return h + 20


def _next_step(me: SetupView) -> tuple[str, str]:
    """(headline, hint) for the set-up step the player is on."""
    n = len(me.values)
    if me.committed:
        return "Committed.", "Waiting for your opponent; both set-ups are revealed together."
    if n < 8:
        left = 8 - n
        need = 28 - me.total
        low, high = max(1, need - 6 * (left - 1)), min(6, need - (left - 1))
        can = f"{low} to {high}" if low < high else str(low)
        return (
            f"Next: the top value for file {FILES[n]} ({can})",
            f"{left} file{'s' if left != 1 else ''} left to fill with {need}. Type "
            f"'set {FILES[n]} {low}', or 'setup random' for a random set-up committed at once.",
        )
    if me.leader is None:
        return "Next: the Leader's file", "Type 'leader c' to put the Leader on file c."
    return "Ready to commit", "Type 'commit', or 'setup reset' to start again."


def _setup_row(c: Canvas, me: SetupView, y: int) -> int:
    t = c.theme
    colour = t.player_colour(me.seat)
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
            outline = t.highlight if f == current else t.grid
            c.draw.rounded_rectangle(
                box, radius=size // 6, fill=t.slot, outline=outline, width=4 if f == current else 2
            )
            if f == current:
                c.text((cx, cy), "?", size=44, fill=t.highlight, anchor="mm", bold=True)
        c.text(
            (cx, y + 150),
            f"{FILES[f]}{START_RANK[me.seat]}",
            size=26,
            fill=t.ink if f < len(me.values) else t.muted,
            anchor="mm",
            bold=True,
        )
    del colour
    return y + h + 18


def _progress(c: Canvas, me: SetupView, y: int) -> int:
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    headline, hint = _next_step(me)
    hint_lines = wrap_text(hint, SMALL, x1 - x0 - 40)
    h = 150 + 32 * len(hint_lines)
    c.panel((x0, y, x1, y + h))
    total_label = f"Total {me.total} of 28"
    c.text((x0 + 20, y + 36), total_label, size=34, fill=t.ink, anchor="lm", bold=True)
    leader = f"Leader: file {me.leader}" if me.leader is not None else "Leader: not chosen"
    c.text((x1 - 20, y + 36), leader, size=BODY, fill=t.ink, anchor="rm", bold=True)
    bar = (x0 + 20, y + 66, x1 - 20, y + 84)
    c.panel(bar, fill=t.slot, radius=9)
    share = min(1.0, me.total / 28)
    if share > 0:
        fill = t.good if me.total == 28 else t.player_colour(me.seat)
        c.panel(
            (bar[0], bar[1], bar[0] + max(18, round(share * (bar[2] - bar[0]))), bar[3]),
            fill=fill,
            radius=9,
        )
    colour = t.good if me.committed else t.highlight
    c.text((x0 + 20, y + 114), headline, size=28, fill=colour, anchor="lm", bold=True)
    ly = y + 148
    for line in hint_lines:
        c.text((x0 + 20, ly), line, size=SMALL, fill=t.muted, anchor="lm")
        ly += 32
    return y + h + 18


def _setup_notes(c: Canvas, me: SetupView, y: int) -> int:
    t = c.theme
    notes = [
        f"Your dice will stand on rank {START_RANK[me.seat]} and head for rank "
        f"{HOME_RANK[me.seat]}.",
        "Each die starts with its lowest face next to the top towards the front.",
        "Nobody else sees this until both players have committed.",
    ]
    for note in notes:
        for line in wrap_text(note, SMALL, c.width - 2 * MARGIN):
            c.text((MARGIN, y), line, size=SMALL, fill=t.muted, anchor="lt")
            y += 32
    return y + 10


def render_private(
    view: ArtabanView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The viewer's own image: their hidden set-up while it lasts (``view.me``),
    afterwards the board seen from their side."""
    me = view.me
    if me is not None:
        c = Canvas(PRIVATE_WIDTH, 1000, theme)
        right = "Committed" if me.committed else "Setting up"
        y = _private_header(c, me.seat, names, "Artaban · your set-up (only you see this)", right)
        y = _setup_row(c, me, y)
        y = _progress(c, me, y)
        y = _setup_notes(c, me, y)
        return c.crop(y)
    seat = view.viewer
    if seat is None:
        return render_board(view, names=names, theme=theme)
    c = Canvas(BOARD_WIDTH, _board_height(view) + 20, theme)
    y = _private_header(
        c,
        seat,
        names,
        f"Artaban · your view from rank {START_RANK[seat]}",
        _status(view, names),
    )
    y = _players(c, view, names, y)
    if view.final is not None:
        y = _final(c, view, names, y)
    y = _board(c, view, y, flip=seat == 1)
    if view.phase != "setup":
        y = _info(c, view, names, y)
    y = _legend(c, view, y)
    return c.crop(y + 8)


class ArtabanRenderer(ViewRenderer, name="artaban", board=render_board, private=render_private):
    """The registry entry (see :mod:`renderers`)."""


__all__ = [
    "BOARD_WIDTH",
    "PRIVATE_WIDTH",
    "ArtabanRenderer",
    "draw_die",
    "render_board",
    "render_private",
]
