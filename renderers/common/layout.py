"""What every game's board or private image lays out alike.

The title band and the board's title, a private image's band and heading,
section headings, a seat's panel, pill and badges, the result headline, and
on the square boards the coordinates, the turned squares and the seats'
edge bars; for the wide boards (a board on the left, a column of panels on
its right), the column's headings and its "Last move".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Literal

from bot.i18n import N_, localize, t
from renderers.common.canvas import Canvas, seat_marker
from renderers.common.measure import fit_choice, text_width, wrap_text
from renderers.common.pieces import crown
from renderers.common.scripts import display_name, safe_text
from renderers.common.theme import RGB, Box

# ---------------------------------------------------------- private headings, square boards


def private_heading(
    c: Canvas, *, name: str, where: str, prompt: str | None, margin: int, small: int
) -> None:
    """The top line of a private view, shared by every game: the seat's name
    on the left, where the game stands on the right, and under it the
    highlighted prompt when the seat must act."""
    t = c.theme
    right = c.width - margin
    box = c.text((right, 26), where, size=28, fill=t.ink, anchor="rt", bold=True)
    left_edge = box[0]
    if prompt is not None:
        pbox = c.pill(
            (right, 76),
            prompt,
            size=small,
            fill=t.highlight,
            ink=t.on_colour,
            anchor="r",
            height=38,
        )
        left_edge = min(left_edge, pbox[0])
    c.text(
        (margin + 46, 70),
        name,
        size=34,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=left_edge - margin - 70,
    )


def turned_square(size: int, file: int, rank: int, turns: int) -> tuple[int, int]:
    """(column, row from the top) on the image of a square (files from 0,
    ranks from 1) of a ``size`` by ``size`` board drawn turned ``turns``
    quarter turns anticlockwise."""
    c, r = file, rank - 1
    for _ in range(turns % 4):
        c, r = size - 1 - r, c
    return c, size - 1 - r


def edge_labels(
    size: int, files: str, display: Callable[[int, int], tuple[int, int]]
) -> tuple[list[str], list[str]]:
    """The coordinate along each display column and row of a square board
    drawn turned: ``display(file, rank)`` gives a square's (column, row) on
    the image (files from 0, ranks from 1).  A column shows its file, or
    its rank when the board is turned a quarter; rows likewise."""
    where = {display(f, r): (f, r) for r in range(1, size + 1) for f in range(size)}

    def label(a: tuple[int, int], b: tuple[int, int]) -> str:
        fa, ra = where[a]
        fb, _ = where[b]
        return files[fa] if fa == fb else str(ra)

    columns = [label((i, 0), (i, size - 1)) for i in range(size)]
    rows = [label((0, i), (size - 1, i)) for i in range(size)]
    return columns, rows


# --------------------------------------------------------------------------- game layout
#
# What every game's board or private image draws alike: the title band, the
# section headings, a seat's panel, pill and badges, the result headline and,
# on the square boards, the coordinates and the seats' edge bars.

_SEAT_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def fill_names(line: str, names: Sequence[str], lang: str = "en") -> str:
    """A narrated line (an event, a result's reason) in ``lang`` (an
    engine's :class:`~bot.engines.messages.Msg` through the catalog), with
    its ``{pN}`` seat placeholders replaced by the seats' names, made
    drawable."""
    line = localize(line, lang)
    return safe_text(
        _SEAT_PLACEHOLDER.sub(lambda m: display_name(names, int(m.group(1)), lang=lang), line)
    )


_ORDINALS: Final = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th")}
"""The places a language may write its own way (Hindi 1ला, 2रा, 3रा, 4था);
any other is ``{n}th`` (Hindi {n}वाँ)."""


def ordinal(n: int, lang: str = "en") -> str:
    """A place: ``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``; in
    another language as its catalog writes it."""
    if lang == "en":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    if n in _ORDINALS:
        return t(lang, _ORDINALS[n])
    return t(lang, "{n}th", n=n)


def title_band(c: Canvas, height: int, *, stripe: RGB | None = None) -> None:
    """The band across the top of a board or private image: the panel colour
    ruled in the grid colour at its foot, with ``stripe`` (the seat's colour,
    on a private image) down its left edge."""
    t = c.theme
    c.draw.rectangle((0, 0, c.width, height), fill=t.panel)
    if stripe is not None:
        c.draw.rectangle((0, 0, 14, height), fill=stripe)
    c.draw.rectangle((0, height - 3, c.width, height), fill=t.grid)


def board_title(
    c: Canvas,
    *,
    kicker: str,
    status: str,
    y: int,
    size: int,
    margin: int,
    x: int | None = None,
    right: int | None = None,
    counter: str | None = None,
) -> None:
    """The text of a board's title band: ``kicker`` (the game, in small muted
    capitals) at the top left, and under it the ``status`` line (where the
    game stands), ``size`` pixels, its top at ``y``, from ``x`` (the margin)
    and cut at ``right`` (the right margin).  ``counter`` (the turn or the
    ply) stands in a pill at the right, and the status line stops short of it."""
    t = c.theme
    right = c.width - margin if right is None else right
    if counter is not None:
        box = c.pill(
            (right, 70), counter, size=c.min_text, fill=t.grid, ink=t.ink, anchor="r", height=40
        )
        right = box[0] - 16
    c.text(
        (margin, 16),
        kicker,
        size=c.min_text,
        fill=t.muted,
        anchor="lt",
        bold=True,
        max_width=c.width - 2 * margin,
    )
    x = margin if x is None else x
    c.text((x, y), status, size=size, fill=t.ink, anchor="lt", bold=True, max_width=right - x)


def private_band(c: Canvas, *, colour: RGB, kicker: str, margin: int, height: int = 108) -> int:
    """The title band of a private image: the band with the seat's ``colour``
    down its left edge and ``kicker`` ("SANGRAM · YOUR HAND (ONLY YOU SEE
    THIS)") at the top left; returns its bottom.  The seat's mark goes at
    ``(margin + 22, 70)``, its name and prompt through :func:`private_heading`."""
    title_band(c, height, stripe=colour)
    c.text((margin + 8, 16), kicker, size=c.min_text, fill=c.theme.muted, anchor="lt", bold=True)
    return height


def section_heading(c: Canvas, x: int, y: int, text: str) -> int:
    """A section's label in small muted capitals; returns the y where the
    section's content starts."""
    c.text((x, y), text.upper(), size=c.min_text, fill=c.theme.muted, anchor="lt", bold=True)
    return y + c.min_text + 14


def seat_panel(c: Canvas, box: Box, colour: RGB, *, acting: bool = False) -> None:
    """A seat's panel (or its row in the result): the panel colour with a tab
    of the seat's ``colour`` down its left edge.  ``acting`` (the seat the
    game waits for) rings it in the highlight."""
    t = c.theme
    x0, y0, x1, y1 = box
    c.panel(box, fill=colour, radius=14)
    c.panel((x0 + 10, y0, x1, y1), radius=14)
    c.draw.rectangle((x0 + 10, y0, x0 + 24, y1), fill=t.panel)
    if acting:
        c.panel(box, fill=None, outline=t.highlight, radius=14, width=4)
        c.draw.rectangle((x0 + 2, y0 + 12, x0 + 9, y1 - 12), fill=colour)


def seat_pill_width(c: Canvas, label: str, *, height: int, pad: int, gap: int) -> int:
    """How wide :func:`seat_pill` draws ``label`` whole (``""``: the mark alone)."""
    mark = 2 * pad + int(2 * height * 0.22)
    return mark + (gap + text_width(label, c.min_text, True) if label else 0)


def seat_pill(
    c: Canvas,
    x: int,
    cy: int,
    seat: int,
    label: str | Sequence[str],
    *,
    max_width: int,
    height: int,
    pad: int,
    gap: int,
    anchor: Literal["l", "m", "r"] = "l",
    dimmed: bool = False,
    outline: RGB | None = None,
) -> tuple[int, int]:
    """A pill in the seat's colour holding its mark and ``label`` (its name),
    at most ``max_width`` wide, ``pad`` inside its ends and ``gap`` between
    the mark and the label; ``dimmed`` fades it (a seat done or out).
    ``label`` may be choices, longest first (:func:`fit_choice`): ``""``
    among them leaves the mark alone, its shape and colour naming the seat.
    Returns its (left, right)."""
    t = c.theme
    size = c.min_text
    colour = t.seat_colour(seat)
    fill = t.dim(colour, 0.65) if dimmed else colour
    ink = t.muted if dimmed else t.on_colour
    mark_r = height * 0.22
    inner = max_width - 2 * pad - int(2 * mark_r) - gap
    choices = (label,) if isinstance(label, str) else tuple(label)
    text = fit_choice(choices, size, inner, bold=True)
    w = min(max_width, seat_pill_width(c, text, height=height, pad=pad, gap=gap))
    left = x if anchor == "l" else x - w // 2 if anchor == "m" else x - w
    top = cy - height // 2
    c.panel(
        (left, top, left + w, top + height), fill=fill, outline=outline, radius=height // 2, width=3
    )
    seat_marker(c, (left + pad + mark_r, cy), mark_r, seat, fill=ink)
    c.text((left + pad + 2 * mark_r + gap, cy), text, size=size, fill=ink, anchor="lm", bold=True)
    return left, left + w


def badge_row(
    c: Canvas,
    right: int,
    cy: int,
    badges: Iterable[tuple[str, RGB, RGB]],
    *,
    gap: int = 8,
) -> int:
    """A panel's status badges ("TO MOVE", "WINNER"), each ``(label, fill,
    ink)``, as pills leftwards from ``right`` on the line ``cy``, the first
    rightmost.  Returns where what stands before them must end."""
    for label, fill, ink in badges:
        box = c.pill((right, cy), label, size=c.min_text, fill=fill, ink=ink, anchor="r", height=36)
        right = box[0] - gap
    return right


def badges_width(c: Canvas, labels: Iterable[str], *, gap: int = 8) -> int:
    """How wide :func:`badge_row` draws badges with these labels, the gap
    before what stands to their left included (0 for none)."""
    return sum(text_width(label, c.min_text, True) + 20 + gap for label in labels)


def result_headline(
    c: Canvas,
    y: int,
    *,
    ranking: Sequence[Sequence[int]],
    names: Sequence[str],
    tie: str,
    reason: str,
    margin: int,
) -> int:
    """The head of a game's result, its top at ``y``: "Asha wins!" and a
    crown for a lone winner, ``tie`` and the names for several ("Draw: Asha,
    Bhima"), "Game over" for none; under it ``reason`` in muted lines.
    Returns the y under the reason."""
    theme = c.theme
    top = ranking[0] if ranking else ()
    if len(top) == 1:
        headline = t(c.lang, "{name} wins!", name=display_name(names, top[0], lang=c.lang))
    elif top:
        headline = tie + ", ".join(display_name(names, s, lang=c.lang) for s in top)
    else:
        headline = t(c.lang, "Game over")
    box = c.text(
        (margin, y),
        headline,
        size=38,
        fill=theme.ink,
        anchor="lt",
        bold=True,
        max_width=c.width - 2 * margin - 60,
    )
    if len(top) == 1:
        crown(c.draw, (box[2] + 14, y - 2, box[2] + 58, y + 30), theme.highlight)
    y += 50
    small = c.min_text
    for line in wrap_text(reason, small, c.width - 2 * margin):
        c.text((margin, y), line, size=small, fill=theme.muted, anchor="lt")
        y += small + 8
    return y


def capture_badge(c: Canvas, box: Box, *, inset: int, ring: int = 0) -> None:
    """A piece taken here: a red disc filling ``box`` with a cross ``inset``
    pixels in from its edges, ringed ``ring`` pixels in the background colour
    (on the board, where it overlaps a square)."""
    t = c.theme
    c.draw.ellipse(box, fill=t.bad, outline=t.background if ring else None, width=ring)
    x0, y0, x1, y1 = box
    c.cross((x0 + inset, y0 + inset, x1 - inset, y1 - inset), t.on_colour, width=4)


def board_coordinates(
    c: Canvas,
    left: int,
    top: int,
    square: int,
    columns: Sequence[str],
    rows: Sequence[str],
    *,
    above: int,
    beside: int,
    size: int,
) -> None:
    """The coordinates round a square board whose top left square is at
    ``(left, top)``: ``columns[i]`` over and under display column ``i``,
    ``above`` pixels out from the board's edge, and ``rows[i]`` either side
    of display row ``i``, ``beside`` pixels out (see :func:`edge_labels`)."""
    t = c.theme
    span = len(columns) * square
    for i, (column, row) in enumerate(zip(columns, rows, strict=True)):
        cx = left + i * square + square // 2
        for ty in (top - above, top + span + above):
            c.text((cx, ty), column, size=size, fill=t.muted, anchor="mm", bold=True)
        cy = top + i * square + square // 2
        for tx in (left - beside, left + span + beside):
            c.text((tx, cy), row, size=size, fill=t.muted, anchor="mm", bold=True)


BOARD_SIDES: Final = ("bottom", "right", "top", "left")
"""The sides of a square board, anticlockwise from the bottom."""


def side_bar(
    c: Canvas, left: int, top: int, span: int, side: str, colour: RGB, *, thickness: int
) -> None:
    """The bar in a seat's (or army's) ``colour`` along the ``side`` of the
    board it plays from (one of :data:`BOARD_SIDES`), 2 pixels out from a
    board ``span`` pixels square whose top left corner is ``(left, top)``."""
    right, bottom = left + span, top + span
    bars = {
        "bottom": (left, bottom + 2, right, bottom + 2 + thickness),
        "right": (right + 2, top, right + 2 + thickness, bottom),
        "top": (left, top - 2 - thickness, right, top - 2),
        "left": (left - 2 - thickness, top, left - 2, bottom),
    }
    c.draw.rectangle(bars[side], fill=colour)


# --------------------------------------------------------------------------- wide boards
#
# Boards that fit the chat (issue 17): a landscape image, the board on the left
# and a column of panels on its right.  Text there is held to the minimum of a
# wider image, so the headings scale with :attr:`Canvas.min_text`.


def private_title(
    c: Canvas,
    *,
    name: str,
    where: str,
    prompt: str | None,
    margin: int,
    band: int = 108,
    mark: int = 18,
) -> None:
    """:func:`private_heading` for an image of any width: the seat's name
    (after its mark, ``mark`` pixels in radius, centred at ``(margin + 22,
    band * 2 // 3)``) on the left, where the game
    stands on the right and, when the seat must act, the highlighted
    ``prompt`` before it, every size at least the image's minimum."""
    t = c.theme
    small = c.min_text
    right = c.width - margin
    cy = band * 2 // 3
    box = c.text((right, cy), where, size=small + 2, fill=t.ink, anchor="rm", bold=True)
    left_edge = box[0]
    if prompt is not None:
        pbox = c.pill(
            (left_edge - 16, cy),
            prompt,
            size=small,
            fill=t.highlight,
            ink=t.on_colour,
            anchor="r",
            height=small + 12,
        )
        left_edge = pbox[0]
    x = margin + 22 + mark + 12
    c.text(
        (x, cy),
        name,
        size=small + 6,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=left_edge - x - 24,
    )


def column_heading(c: Canvas, x: int, y: int, text: str, *, right: int) -> int:
    """A section's label in a side column, in small muted capitals cut to end
    at ``right``; returns the y where the section's content starts."""
    c.text(
        (x, y),
        text.upper(),
        size=c.min_text,
        fill=c.theme.muted,
        anchor="lt",
        bold=True,
        max_width=right - x,
    )
    return y + c.min_text + 14


def last_move_section(
    c: Canvas,
    x0: int,
    x1: int,
    y: int,
    *,
    seat: int,
    name: str,
    lines: Sequence[str],
    size: int,
    line_height: int,
) -> int:
    """A side column's "Last move": the mover's mark and name, then the move
    in words, one line each; returns the y under the last line."""
    y = column_heading(c, x0, y, t(c.lang, "Last move"), right=x1)
    cy = y + line_height // 2
    c.seat_mark((x0 + 14, cy), 14, seat)
    c.text(
        (x0 + 38, cy),
        name,
        size=size,
        fill=c.theme.ink,
        anchor="lm",
        bold=True,
        max_width=x1 - x0 - 38,
    )
    y += line_height
    for line in lines:
        c.text((x0, y + line_height // 2), line, size=size, fill=c.theme.ink, anchor="lm")
        y += line_height
    return y
