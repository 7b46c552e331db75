"""Mahabharata: the public board and a player's private screen, drawn with Pillow.

Pure functions of a :class:`~bot.engines.mahabharata_views.MahabharataView`:
the board never reads ``view.me`` (it goes to the channel), the private image
is everything the seat's screen hides.  See ``docs/rules/mahabharata.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Final

from PIL import Image

from bot.engines.core import plural
from bot.engines.mahabharata_views import (
    FinalView,
    LastPickView,
    LeaderView,
    MahabharataView,
    PlayerView,
    ScreenView,
    SpaceView,
)
from renderers.common import (
    DEFAULT_THEME,
    RGB,
    Canvas,
    LegendItem,
    Theme,
    ViewRenderer,
    blend,
    board_title,
    crown,
    die_face,
    display_name,
    elephant,
    legend,
    min_text_size,
    ordinal,
    private_band,
    private_heading,
    result_headline,
    seat_panel,
    seat_pill,
    section_heading,
    shape_marker,
    text_width,
    title_band,
    token_chip,
    wrap_text,
)

BOARD_WIDTH: Final = 1100
PRIVATE_WIDTH: Final = 1000
MARGIN: Final = 24
SMALL: Final = min_text_size(BOARD_WIDTH)
"""The board's smallest text (labels, die names, influence, stack counts)."""
P_SMALL: Final = min_text_size(PRIVATE_WIDTH)
"""The private screen's smallest text."""

TOKEN_KINDS: Final = (
    "chariot",
    "elephant",
    "cav1",
    "cav2",
    "cav3",
    "inf1",
    "inf2",
    "inf3",
    "inf4",
    "inf5",
)
CLASSES: Final = ("C", "E", "H", "I")
CLASS_NAMES: Final = {"C": "Chariot", "E": "Elephant", "H": "Cavalry", "I": "Infantry"}

# ----------------------------------------------------------------- token helpers


def token_class(kind: str) -> str:
    """``C``, ``E``, ``H`` or ``I`` for a token kind or die face ("?" if unknown)."""
    if kind == "chariot":
        return "C"
    if kind == "elephant":
        return "E"
    if kind.startswith("cav"):
        return "H"
    if kind.startswith("inf"):
        return "I"
    return "?"


def token_icons(kind: str) -> int:
    """How many icons a token kind shows (chariot and elephant: one)."""
    digits = "".join(ch for ch in kind if ch.isdigit())
    return int(digits) if digits else 1


def token_label(kind: str) -> str:
    """The short chip label: ``C``, ``E``, ``H2``, ``I4``."""
    cls = token_class(kind)
    if cls in ("C", "E"):
        return cls
    if cls == "?":
        return kind[:2].upper()
    return f"{cls}{token_icons(kind)}"


def face_name(face: str | None) -> str:
    """A die face for people: ``Cavalry 2``, ``Raja``; ``not rolled`` for None."""
    if face is None:
        return "not rolled"
    if face == "raja":
        return "Raja"
    cls = token_class(face)
    if cls in ("C", "E"):
        return CLASS_NAMES[cls]
    if cls == "?":
        return face.capitalize()
    return f"{CLASS_NAMES[cls]} {token_icons(face)}"


def _kind_order(kind: str) -> int:
    return TOKEN_KINDS.index(kind) if kind in TOKEN_KINDS else len(TOKEN_KINDS)


# ----------------------------------------------------------------- small pieces


def class_glyph(
    c: Canvas, centre: tuple[float, float], radius: float, icon: str, *, fill: RGB, ink: RGB
) -> None:
    """An icon class as a letter in a shape: C circle (wheel), E square,
    H diamond, I hexagon."""
    cx, cy = centre
    r = radius
    if icon == "C":
        c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif icon == "E":
        s = r * 0.9
        c.draw.rounded_rectangle((cx - s, cy - s, cx + s, cy + s), radius=int(r * 0.3), fill=fill)
    elif icon == "H":
        d = r * 1.18
        c.draw.polygon([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)], fill=fill)
    else:
        c.draw.regular_polygon((cx, cy, r * 1.05), 6, rotation=30, fill=fill)
    c.text((cx, cy), icon, size=max(c.min_text, int(r * 1.15)), fill=ink, anchor="mm", bold=True)


_seat_pill = partial(seat_pill, height=38, pad=10, gap=8)
"""The board's :func:`~renderers.common.seat_pill` (a seat's shape and name)."""


# ----------------------------------------------------------------- board sections


def _status(view: MahabharataView, names: Sequence[str]) -> str:
    rnd = f"Round {view.round}"
    if view.phase == "setup":
        return "Setting up: drawing leaders"
    if view.phase == "roll":
        return f"{rnd} · rolling the dice"
    if view.phase == "draft":
        if view.waiting_on:
            who = " & ".join(display_name(names, s) for s in view.waiting_on)
            return f"{rnd} · {who} to pick"
        return f"{rnd} · draft"
    if view.phase == "announce":
        return f"{rnd} · end of round: Pati announcements"
    if view.phase == "over":
        if view.final is not None and view.final.ranking:
            top = view.final.ranking[0]
            if len(top) == 1:
                return f"Game over · {display_name(names, top[0])} wins"
            return "Game over · a draw"
        return "Game over"
    return f"{rnd} · {view.phase}"


def _title(c: Canvas, view: MahabharataView, names: Sequence[str]) -> int:
    t = c.theme
    height = 112
    title_band(c, height)
    right = c.width - MARGIN
    if view.elephant is not None:
        colour = t.player_colour(view.elephant)
        elephant(c.draw, (right - 78, 26, right, 82), colour, t.panel)
        label_right = right - 92
        c.text((label_right, 18), "Elephant", size=SMALL, fill=t.muted, anchor="rt", bold=True)
        name_box = c.text(
            (label_right, 58),
            display_name(names, view.elephant),
            size=SMALL,
            fill=t.ink,
            anchor="rt",
            bold=True,
            max_width=220,
        )
        right = min(name_box[0], label_right - text_width("Elephant", SMALL, True)) - 24
    players = f"{view.num_players} players"
    board_title(
        c,
        kicker=f"MAHABHARATA · {players.upper()}",
        status=_status(view, names),
        y=56,
        size=36,
        margin=MARGIN,
        right=right,
    )
    return height + 20


def _draft_strip(c: Canvas, view: MahabharataView, names: Sequence[str], y: int) -> int:
    t = c.theme
    n = len(view.draft_order)
    title = f"Draft order · round {view.round} · {min(view.picks_made, n)} of {n} picks done"
    y = section_heading(c, MARGIN, y, title)
    gap = 8
    avail = c.width - 2 * MARGIN
    pw = min(180, (avail - gap * (n - 1)) // n)
    ph = 44
    cy = y + ph // 2
    for i, seat in enumerate(view.draft_order):
        x = MARGIN + i * (pw + gap)
        done = i < view.picks_made
        current = i == view.picks_made and view.phase == "draft"
        colour = t.player_colour(seat)
        fill = t.dim(colour, 0.72) if done else colour
        ink = t.muted if done else t.on_colour
        c.panel(
            (x, y, x + pw, y + ph),
            fill=fill,
            radius=ph // 2,
            outline=t.highlight if current else None,
            width=4,
        )
        shape_marker(c.draw, (x + 17, cy), 8, t.seat_shape(seat), ink)
        c.text(
            (x + 30, cy),
            display_name(names, seat),
            size=SMALL,
            fill=ink,
            anchor="lm",
            bold=True,
            max_width=pw - 38,
        )
        if current:
            mid = x + pw // 2
            c.draw.polygon(
                [(mid - 10, y + ph + 14), (mid + 10, y + ph + 14), (mid, y + ph + 3)],
                fill=t.highlight,
            )
    return y + ph + 26


CARD_H: Final = 184
TILE: Final = 64
TILE_GAP: Final = 12


def _space_tile(c: Canvas, x: int, y: int, space: SpaceView, *, last: bool = False) -> None:
    t = c.theme
    if last:
        # The space of the last pick: drawn first so a stack count stays on top.
        c.draw.rounded_rectangle(
            (x - 6, y - 6, x + TILE + 6, y + TILE + 6), radius=14, outline=t.ink, width=5
        )
    if not space.tokens:
        c.panel((x, y, x + TILE, y + TILE), fill=t.slot, outline=t.grid, radius=10, width=2)
        class_glyph(c, (x + TILE / 2, y + TILE / 2), 20, space.icon, fill=t.grid, ink=t.ink)
        return
    colour = t.player_colour(space.owner) if space.owner is not None else t.muted
    n = len(space.tokens)
    chip = TILE - 8
    for k in range(min(n, 3) - 1, 0, -1):
        off = 4 * k
        c.draw.rounded_rectangle(
            (x + off, y + off, x + off + chip, y + off + chip),
            radius=chip // 4,
            fill=blend(colour, t.background, 0.45),
            outline=t.background,
            width=2,
        )
    token_chip(
        c,
        (x, y, x + chip, y + chip),
        token_label(space.tokens[-1]),
        colour=colour,
        size=SMALL,
        outline=t.background,
    )
    if n > 1:
        # On the tile's top right corner, clear of the chip's centred label.
        c.pill(
            (x + TILE + 8, y - 2),
            f"x{n}",
            size=SMALL,
            fill=t.ink,
            ink=t.on_colour,
            anchor="r",
            height=34,
            pad=6,
            outline=t.background,
        )


def _leader_card(
    c: Canvas,
    x: int,
    y: int,
    w: int,
    leader: LeaderView,
    view: MahabharataView,
    names: Sequence[str],
    winner: int | None,
    final: bool,
    last_space: int | None = None,
) -> None:
    """``last_space``: the 1-based space the last pick went to, if on this card."""
    t = c.theme
    won = final and winner is not None
    c.panel(
        (x, y, x + w, y + CARD_H),
        outline=t.player_colour(winner) if won and winner is not None else None,
        width=4,
        radius=16,
    )
    pad = 16
    hy = y + 32
    vp_box = c.pill(
        (x + pad, hy),
        f"{leader.vp} VP",
        size=SMALL,
        fill=t.highlight,
        ink=t.on_colour,
        height=38,
        pad=10,
    )
    name_x = vp_box[2] + 12
    right = x + w - pad
    if final:
        if winner is not None:
            left, _ = _seat_pill(
                c,
                right,
                hy,
                winner,
                display_name(names, winner),
                max_width=200,
                anchor="r",
            )
            right = left - 12
        else:
            box = c.text((right, hy), "nobody scores", size=SMALL, fill=t.muted, anchor="rm")
            right = box[0] - 12
    c.text(
        (name_x, hy),
        leader.name,
        size=30,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=right - name_x,
    )
    ty = y + 70
    for i, space in enumerate(leader.spaces):
        _space_tile(c, x + pad + i * (TILE + TILE_GAP), ty, space, last=i + 1 == last_space)
    iy = y + CARD_H - 28
    c.text((x + pad, iy), "Influence", size=SMALL, fill=t.muted, anchor="lm", bold=True)
    ix = x + pad + text_width("Influence", SMALL, True) + 18
    for seat in range(view.num_players):
        value = leader.influence[seat] if seat < len(leader.influence) else 0
        colour = t.player_colour(seat)
        mark = colour if value else t.dim(colour, 0.65)
        shape_marker(c.draw, (ix + 10, iy), 10, t.seat_shape(seat), mark)
        c.text(
            (ix + 26, iy),
            str(value),
            size=30,
            fill=colour if value else t.muted,
            anchor="lm",
            bold=bool(value),
        )
        ix += 26 + text_width(str(value), 30, True) + 22


def _leaders(c: Canvas, view: MahabharataView, names: Sequence[str], y: int) -> int:
    total = sum(leader.vp for leader in view.leaders)
    if view.phase == "setup":
        title = f"Leaders drawn · {total} of 18 VP"
    else:
        title = f"Leaders · {total} VP in play"
    y = section_heading(c, MARGIN, y, title)
    if not view.leaders:
        c.text(
            (MARGIN, y + 10), "No leader drawn yet.", size=SMALL, fill=c.theme.muted, anchor="lt"
        )
        return y + 60
    gap = 16
    w = (c.width - 2 * MARGIN - gap) // 2
    winners = view.final.leader_winners if view.final is not None else ()
    lp = view.last_pick
    for i, leader in enumerate(view.leaders):
        col, row = i % 2, i // 2
        winner = winners[i] if i < len(winners) else None
        last_space = lp.space if lp is not None and lp.leader_index == i else None
        _leader_card(
            c,
            MARGIN + col * (w + gap),
            y + row * (CARD_H + gap),
            w,
            leader,
            view,
            names,
            winner,
            view.final is not None,
            last_space,
        )
    rows = (len(view.leaders) + 1) // 2
    return y + rows * (CARD_H + gap) + 8


DIE: Final = 88


def _die(c: Canvas, box: tuple[int, int, int, int], face: str | None, taken: bool) -> None:
    t = c.theme
    fill = t.die_taken if taken else t.die
    ink = t.muted if taken else t.on_colour
    if face is None:
        die_face(c, box, fill=blend(t.die, t.panel, 0.6), ink=t.muted, label="?")
        return
    if face == "raja":
        x0, y0, x1, _ = box
        c.draw.rounded_rectangle(box, radius=DIE // 6, fill=t.die_taken if taken else t.raja)
        crown(
            c.draw,
            (x0 + 20, y0 + 12, x1 - 20, y0 + 50),
            ink,
            jewel=t.die_taken if taken else t.raja,
        )
        c.text(((x0 + x1) / 2, y0 + 70), "RAJA", size=SMALL, fill=ink, anchor="mm", bold=True)
        return
    cls = token_class(face)
    if cls in ("H", "I"):
        die_face(c, box, fill=fill, ink=ink, label=cls, pip_count=token_icons(face), label_size=32)
    else:
        die_face(c, box, fill=fill, ink=ink, label=cls, label_size=46)


def _dice(c: Canvas, view: MahabharataView, names: Sequence[str], y: int) -> int:
    t = c.theme
    left = sum(1 for d in view.dice if d.taken_by is None)
    if all(d.face is None for d in view.dice):
        title = "Dice · not rolled yet"
    elif view.phase == "draft":
        title = f"Dice · {left} in the pool"
    else:
        title = "Dice"
    y = section_heading(c, MARGIN, y, title)
    lp = view.last_pick
    if lp is not None:
        y = _last_pick_line(c, view, lp, names, y)
    n = max(1, len(view.dice))
    slot = (c.width - 2 * MARGIN) // max(8, n)
    tag_bottom = y + DIE + 122
    tag_room = (MARGIN, c.width - MARGIN)
    for i, die in enumerate(view.dice):
        cx = MARGIN + i * slot + slot // 2
        taken = die.taken_by is not None
        box = (cx - DIE // 2, y, cx + DIE // 2, y + DIE)
        # The die of the last pick, while it is still on the table this round.
        last = lp is not None and lp.die == die.index and die.taken_by == lp.seat
        if last:
            c.draw.rounded_rectangle(
                (box[0] - 11, box[1] - 11, box[2] + 11, box[3] + 11),
                radius=DIE // 6 + 11,
                outline=t.ink,
                width=4,
            )
        _die(c, box, die.face, taken)
        if die.taken_by is not None:
            c.draw.rounded_rectangle(
                (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4),
                radius=DIE // 6 + 4,
                outline=t.player_colour(die.taken_by),
                width=4,
            )
        c.text(
            (cx, y + DIE + 10),
            f"d{die.index}",
            size=30,
            fill=t.muted if taken else t.ink,
            anchor="mt",
            bold=True,
        )
        c.text(
            (cx, y + DIE + 46),
            face_name(die.face),
            size=SMALL,
            fill=t.muted,
            anchor="mt",
            max_width=slot - 4,
        )
        if die.taken_by is not None:
            _seat_pill(
                c,
                cx,
                y + DIE + 98,
                die.taken_by,
                display_name(names, die.taken_by),
                max_width=slot - 6,
                anchor="m",
            )
        if last and lp is not None and lp.placed in _TAGS:
            # Nothing else is drawn at the tag's height, so it may spill into
            # the neighbouring slots rather than be cut.
            tag = _tag(c, cx, y + DIE + 124, _TAGS[lp.placed], 2 * slot, tag_room)
            tag_bottom = max(tag_bottom, tag)
    return tag_bottom + 6 if tag_bottom > y + DIE + 122 else tag_bottom


_TAGS: Final = {"screen": "TO SCREEN", "nothing": "PLACED NOTHING"}


def _tag(c: Canvas, cx: int, top: int, text: str, max_width: int, room: tuple[int, int]) -> int:
    """A white label under a die (one or two lines), kept within ``room``
    (left and right limits); returns its bottom."""
    t = c.theme
    max_width = min(max_width, room[1] - room[0])
    lines = wrap_text(text, SMALL, max_width - 16, bold=True) or [text]
    step = SMALL + 8
    h = 10 + step * len(lines)
    w = min(max_width, max(text_width(line, SMALL, True) for line in lines) + 16)
    cx = max(room[0] + w // 2, min(room[1] - w // 2, cx))
    c.panel((cx - w // 2, top, cx + w // 2, top + h), fill=t.ink, radius=8)
    for k, line in enumerate(lines):
        ly = top + 5 + step // 2 + step * k
        c.text((cx, ly), line, size=SMALL, fill=t.on_colour, anchor="mm", bold=True)
    return top + h


def _last_pick_text(view: MahabharataView, lp: LastPickView, names: Sequence[str]) -> str:
    """One line on the last pick; a screen placement never names its token (R14)."""
    who = display_name(names, lp.seat)
    took = f"{who} took d{lp.die} ({face_name(lp.face)})"
    if lp.placed == "screen":
        return f"{took} and put it behind their screen"
    if lp.placed == "nothing":
        return f"{took} and placed nothing"
    where = "a leader"
    if lp.leader_index is not None and 0 <= lp.leader_index < len(view.leaders):
        where = view.leaders[lp.leader_index].name
    if lp.space is not None:
        where += f", space {lp.space}"
    what = "it" if lp.face != "raja" or lp.token is None else face_name(lp.token)
    return f"{took} and placed {what} on {where}"


def _last_pick_line(
    c: Canvas, view: MahabharataView, lp: LastPickView, names: Sequence[str], y: int
) -> int:
    """``LAST PICK`` and what it was, above the dice; returns the next y."""
    t = c.theme
    cy = y + 19
    box = c.pill(
        (MARGIN, cy), "LAST PICK", size=SMALL, fill=t.ink, ink=t.on_colour, height=38, pad=10
    )
    shape_marker(c.draw, (box[2] + 20, cy), 10, t.seat_shape(lp.seat), t.player_colour(lp.seat))
    c.text(
        (box[2] + 38, cy),
        _last_pick_text(view, lp, names),
        size=SMALL,
        fill=t.ink,
        anchor="lm",
        max_width=c.width - MARGIN - box[2] - 38,
    )
    return y + 56


BADGE_H: Final = 38


def _player_badges(
    view: MahabharataView, p: PlayerView, room: int, t: Theme
) -> list[tuple[str, RGB, bool]]:
    """(label, colour, check mark after it) of the seat's badges for a panel
    ``room`` pixels wide inside."""
    out: list[tuple[str, RGB, bool]] = []
    if p.seat in view.waiting_on:
        out.append(("TO PICK" if view.phase == "draft" else "TO ACT", t.highlight, False))
    if p.announced:
        # Four panels leave no room for the words: "PATI" and a tick, as the
        # result panel shows a completed Pati.
        if text_width("ANNOUNCED PATI", SMALL, True) + 24 <= room:
            out.append(("ANNOUNCED PATI", t.good, False))
        else:
            out.append(("PATI", t.good, True))
    return out


def _badge_width(label: str, check: bool) -> int:
    return text_width(label, SMALL, True) + 24 + (34 if check else 0)


def _badge_rows(
    badges: list[tuple[str, RGB, bool]], room: int
) -> list[list[tuple[str, RGB, bool]]]:
    """The badges in rows that fit ``room`` pixels."""
    rows: list[list[tuple[str, RGB, bool]]] = []
    used = room
    for badge in badges:
        w = _badge_width(badge[0], badge[2])
        if not rows or used + 8 + w > room:
            rows.append([])
            used = -8
        rows[-1].append(badge)
        used += 8 + w
    return rows


def _players(c: Canvas, view: MahabharataView, names: Sequence[str], y: int) -> int:
    t = c.theme
    y = section_heading(c, MARGIN, y, "Players")
    n = max(1, len(view.players))
    gap = 12
    pw = (c.width - 2 * MARGIN - gap * (n - 1)) // n
    room = pw - 38
    rows = [_badge_rows(_player_badges(view, p, room, t), room) for p in view.players]
    badge_rows = max((len(r) for r in rows), default=0)
    stats_bottom = 160
    ph = stats_bottom + badge_rows * (BADGE_H + 8) + (8 if badge_rows else 0)
    for i, p in enumerate(view.players):
        x = MARGIN + i * (pw + gap)
        colour = t.player_colour(p.seat)
        seat_panel(c, (x, y, x + pw, y + ph), colour, acting=p.seat in view.waiting_on)
        cy = y + 30
        shape_marker(c.draw, (x + 34, cy), 11, t.seat_shape(p.seat), colour)
        name_right = x + pw - 16
        if view.elephant == p.seat:
            elephant(c.draw, (name_right - 46, cy - 16, name_right, cy + 16), t.ink, t.panel)
            name_right -= 56
        c.text(
            (x + 54, cy),
            display_name(names, p.seat),
            size=30,
            fill=t.ink,
            anchor="lm",
            bold=True,
            max_width=name_right - x - 54,
        )
        # One line per count (label left, number right): three columns of
        # phone-sized labels do not fit a quarter of the board.
        stats = (
            ("Screen", str(p.screen_count)),
            ("Supply", str(p.supply_count)),
            ("Dice", f"{p.dice_taken}/2"),
        )
        for k, (label, value) in enumerate(stats):
            ry = y + 68 + 36 * k
            c.text((x + 24, ry), label, size=SMALL, fill=t.muted, anchor="lm", bold=True)
            c.text((x + pw - 16, ry), value, size=30, fill=t.ink, anchor="rm", bold=True)
        for r, row in enumerate(rows[i]):
            by = y + stats_bottom + BADGE_H // 2 + r * (BADGE_H + 8)
            bx = x + 24
            for label, fill, check in row:
                box = c.pill(
                    (bx, by), label, size=SMALL, fill=fill, ink=t.on_colour, height=BADGE_H
                )
                bx = box[2] + 8
                if check:
                    c.check((bx, by - 12, bx + 26, by + 12), fill, width=4)
                    bx += 34
    return y + ph + 20


def final_row_height(tokens: int, per_row: int) -> int:
    """A result row: the score block, or the rows of screen chips if taller."""
    rows = max(1, -(-tokens // per_row))
    return max(120, 50 + rows * 48 + 12)


def _final(c: Canvas, view: MahabharataView, final: FinalView, names: Sequence[str], y: int) -> int:
    t = c.theme
    y = section_heading(c, MARGIN, y, "Result")
    y = result_headline(
        c,
        y,
        ranking=final.ranking,
        names=names,
        tie="Draw: ",
        reason=final.reason,
        margin=MARGIN,
    )
    y += 12
    led: dict[int, int] = {}
    for leader, winner in zip(view.leaders, final.leader_winners, strict=False):
        if winner is not None:
            led[winner] = led.get(winner, 0) + leader.vp
    chips_x0 = MARGIN + 676
    chip_w, chip_h, chip_gap = 50, 42, 6
    per_row = max(1, (c.width - MARGIN - 16 - chips_x0 + chip_gap) // (chip_w + chip_gap))
    for place, group in enumerate(final.ranking, start=1):
        for seat in group:
            colour = t.player_colour(seat)
            screen = sorted(
                final.screens[seat] if seat < len(final.screens) else (), key=_kind_order
            )
            rh = final_row_height(len(screen), per_row)
            x0, x1 = MARGIN, c.width - MARGIN
            seat_panel(c, (x0, y, x1, y + rh), colour)
            cy = y + 38
            c.text((x0 + 30, cy), ordinal(place), size=30, fill=t.ink, anchor="lm", bold=True)
            shape_marker(c.draw, (x0 + 106, cy), 11, t.seat_shape(seat), colour)
            c.text(
                (x0 + 126, cy),
                display_name(names, seat),
                size=30,
                fill=t.ink,
                anchor="lm",
                bold=True,
                max_width=226,
            )
            pati = seat < len(final.pati) and final.pati[seat]
            score = final.scores[seat] if seat < len(final.scores) else 0
            parts = f"Leaders {led.get(seat, 0)} · Pati {7 if pati else 0}"
            c.text((x0 + 126, cy + 40), parts, size=SMALL, fill=t.muted, anchor="lm")
            c.text((x0 + 450, cy + 4), str(score), size=44, fill=t.ink, anchor="rm", bold=True)
            c.text((x0 + 456, cy + 8), "VP", size=SMALL, fill=t.muted, anchor="lm", bold=True)
            if pati:
                pbox = c.pill(
                    (x0 + 506, cy + 4),
                    "PATI",
                    size=SMALL,
                    fill=t.good,
                    ink=t.on_colour,
                    height=38,
                    pad=10,
                )
                c.check((pbox[2] + 8, cy - 7, pbox[2] + 30, cy + 15), t.good, width=4)
            else:
                c.pill(
                    (x0 + 506, cy + 4),
                    "NO PATI",
                    size=SMALL,
                    fill=t.grid,
                    ink=t.ink,
                    height=38,
                    pad=10,
                )
            c.text(
                (chips_x0, y + 12),
                f"Screen · {plural(len(screen), 'token')}",
                size=SMALL,
                fill=t.muted,
                anchor="lt",
                bold=True,
            )
            if not screen:
                c.text((chips_x0, y + 60), "empty", size=SMALL, fill=t.muted, anchor="lt")
            for k, kind in enumerate(screen):
                r, col = divmod(k, per_row)
                cx0 = chips_x0 + col * (chip_w + chip_gap)
                cy0 = y + 50 + r * (chip_h + chip_gap)
                token_chip(
                    c,
                    (cx0, cy0, cx0 + chip_w, cy0 + chip_h),
                    token_label(kind),
                    colour=colour,
                    size=SMALL,
                )
            y += rh + 10
    return y + 8


def _legend(c: Canvas, y: int) -> int:
    t = c.theme

    def glyph(icon: str) -> LegendItem:
        def draw(c: Canvas, x: int, cy: int) -> None:
            class_glyph(c, (x + 20, cy), 20, icon, fill=t.grid, ink=t.ink)

        return LegendItem(CLASS_NAMES[icon], draw, 40)

    def chip(c: Canvas, x: int, cy: int) -> None:
        token_chip(c, (x, cy - 21, x + 50, cy + 21), "I3", colour=t.grid, ink=t.ink, size=SMALL)

    def stacked(c: Canvas, x: int, cy: int) -> None:
        c.pill((x, cy), "x2", size=SMALL, fill=t.ink, ink=t.on_colour, height=34, pad=6)

    items = (
        *(glyph(icon) for icon in CLASSES),
        LegendItem("token with 3 icons", chip, 50),
        LegendItem("stacked", stacked, text_width("x2", SMALL, True) + 12),
    )
    return legend(c, items, x0=MARGIN, x1=c.width - MARGIN, y=y, size=SMALL, row_height=50)


def _board_height(view: MahabharataView) -> int:
    h = 132 + 120 + 60 + 110
    h += ((len(view.leaders) + 1) // 2) * (CARD_H + 16) + 60
    h += DIE + 190 + 300
    if view.last_pick is not None:
        h += 56 + 60
    if view.final is not None:
        h += 260
        for screen in view.final.screens:
            h += final_row_height(len(screen), 5) + 10
    return h


def render_board(
    view: MahabharataView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The public board: never shows what is behind a screen (ignores ``view.me``)."""
    c = Canvas(BOARD_WIDTH, _board_height(view), theme)
    y = _title(c, view, names)
    if view.final is None and view.draft_order:
        y = _draft_strip(c, view, names, y)
    y = _leaders(c, view, names, y)
    if view.final is not None:
        y = _final(c, view, view.final, names, y)
    else:
        y = _dice(c, view, names, y)
        y = _players(c, view, names, y)
    y = _legend(c, y)
    return c.crop(y + 14)


# ----------------------------------------------------------------- private screen


def _private_header(c: Canvas, view: MahabharataView, me: ScreenView, names: Sequence[str]) -> int:
    t = c.theme
    colour = t.player_colour(me.seat)
    h = private_band(
        c, colour=colour, kicker="MAHABHARATA · YOUR SCREEN (ONLY YOU SEE THIS)", margin=MARGIN
    )
    shape_marker(c.draw, (MARGIN + 22, 70), 14, t.seat_shape(me.seat), colour)
    if view.phase == "setup":
        where = "Setting up"
    elif view.phase == "over":
        where = "Game over"
    else:
        where = f"Round {view.round}"
    prompt = None
    if me.seat in view.waiting_on:
        prompt = {"draft": "YOUR PICK", "announce": "ANNOUNCE PATI?"}.get(view.phase, "YOUR TURN")
    private_heading(
        c,
        name=display_name(names, me.seat),
        where=where,
        prompt=prompt,
        margin=MARGIN,
        small=P_SMALL,
    )
    return h + 20


def _pati_panel(c: Canvas, me: ScreenView, y: int) -> int:
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    if me.pati_complete:
        h = 92
        c.panel((x0, y, x1, y + h), fill=blend(t.good, t.panel, 0.78), outline=t.good, width=3)
        c.draw.ellipse((x0 + 20, y + 18, x0 + 76, y + 74), fill=t.good)
        c.check((x0 + 32, y + 32, x0 + 64, y + 60), t.on_colour, width=6)
        c.text((x0 + 96, y + 32), "PATI COMPLETE", size=32, fill=t.good, anchor="lm", bold=True)
        c.text(
            (x0 + 96, y + 66),
            "Worth 7 VP at the end. You may announce it after a round.",
            size=P_SMALL,
            fill=t.ink,
            anchor="lm",
            max_width=x1 - x0 - 116,
        )
        return y + h + 20
    missing = list(me.pati_missing) or ["Something (the engine gave no detail)"]
    lines: list[str] = []
    for item in missing:
        lines.extend(wrap_text(item, P_SMALL, x1 - x0 - 90) or [""])
    h = 64 + 34 * len(lines) + 10
    c.panel((x0, y, x1, y + h), outline=t.grid, width=2)
    c.text((x0 + 20, y + 30), "PATI NOT COMPLETE", size=28, fill=t.ink, anchor="lm", bold=True)
    needs = "needs 1 C · 1 E · H = 3 · I = 5"
    c.text((x1 - 20, y + 30), needs, size=P_SMALL, fill=t.muted, anchor="rm")
    ly = y + 70
    for item in missing:
        wrapped = wrap_text(item, P_SMALL, x1 - x0 - 90) or [""]
        c.cross((x0 + 26, ly - 8, x0 + 42, ly + 8), t.bad, width=4)
        for line in wrapped:
            c.text((x0 + 60, ly), line, size=P_SMALL, fill=t.ink, anchor="lm")
            ly += 34
    return y + h + 20


def _screen_panel(c: Canvas, me: ScreenView, y: int) -> int:
    t = c.theme
    colour = t.player_colour(me.seat)
    y = section_heading(c, MARGIN, y, f"Behind your screen · {plural(len(me.screen), 'token')}")
    x0, x1 = MARGIN, c.width - MARGIN
    row_h = 70
    chip_w, chip_h, gap = 54, 46, 8
    chips_x = x0 + 200
    per_row = max(1, (x1 - 16 - chips_x + gap) // (chip_w + gap))
    groups = {
        cls: sorted((k for k in me.screen if token_class(k) == cls), key=_kind_order)
        for cls in CLASSES
    }
    heights = [max(row_h, -(-len(groups[cls]) // per_row) * (chip_h + gap) + 16) for cls in CLASSES]
    total = sum(heights) + 16
    c.panel((x0, y, x1, y + total))
    ry = y + 8
    for cls, rh in zip(CLASSES, heights, strict=True):
        kinds = groups[cls]
        cy = ry + row_h // 2
        class_glyph(c, (x0 + 34, cy), 18, cls, fill=t.grid, ink=t.ink)
        c.text((x0 + 64, cy - 14), CLASS_NAMES[cls], size=26, fill=t.ink, anchor="lm", bold=True)
        icons = sum(token_icons(k) for k in kinds)
        c.text(
            (x0 + 64, cy + 16),
            f"{icons} icon{'s' if icons != 1 else ''}",
            size=P_SMALL,
            fill=t.muted,
            anchor="lm",
        )
        if not kinds:
            c.text((chips_x, cy), "none", size=P_SMALL, fill=t.muted, anchor="lm")
        for k, kind in enumerate(kinds):
            r, col = divmod(k, per_row)
            cx0 = chips_x + col * (chip_w + gap)
            cy0 = ry + 8 + r * (chip_h + gap)
            token_chip(
                c,
                (cx0, cy0, cx0 + chip_w, cy0 + chip_h),
                token_label(kind),
                colour=colour,
                size=P_SMALL + 1,
            )
        ry += rh
    return y + total + 20


def _supply_panel(c: Canvas, me: ScreenView, y: int) -> int:
    t = c.theme
    colour = t.player_colour(me.seat)
    left = sum(n for _, n in me.supply)
    y = section_heading(c, MARGIN, y, f"Your supply · {plural(left, 'token')} left")
    x0, x1 = MARGIN, c.width - MARGIN
    h = 120
    c.panel((x0, y, x1, y + h))
    n = max(1, len(me.supply))
    slot = (x1 - x0 - 16) / max(10, n)
    for i, (kind, count) in enumerate(me.supply):
        cx = x0 + 8 + slot * i + slot / 2
        chip = (round(cx - 28), y + 14, round(cx + 28), y + 62)
        if count:
            token_chip(c, chip, token_label(kind), colour=colour, size=P_SMALL + 1)
        else:
            token_chip(
                c,
                chip,
                token_label(kind),
                colour=t.slot,
                ink=t.muted,
                size=P_SMALL + 1,
                outline=t.grid,
            )
        c.text(
            (cx, y + 90),
            f"x{count}",
            size=26,
            fill=t.ink if count else t.muted,
            anchor="mm",
            bold=bool(count),
        )
    return y + h + 20


def render_private(
    view: MahabharataView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The viewer's own screen: tokens behind it, supply and Pati progress.

    ``view.me`` must be set (the engine's view for that seat)."""
    me = view.me
    if me is None:
        raise ValueError("render_private needs a seat's view (view.me is None).")
    c = Canvas(PRIVATE_WIDTH, 1400 + 60 * len(me.screen) + 40 * len(me.pati_missing), theme)
    y = _private_header(c, view, me, names)
    y = _pati_panel(c, me, y)
    y = _screen_panel(c, me, y)
    y = _supply_panel(c, me, y)
    return c.crop(y)


class MahabharataRenderer(
    ViewRenderer, name="mahabharata", board=render_board, private=render_private
):
    """The registry entry (see :mod:`renderers`)."""


__all__ = [
    "BOARD_WIDTH",
    "PRIVATE_WIDTH",
    "MahabharataRenderer",
    "face_name",
    "render_board",
    "render_private",
    "token_class",
    "token_icons",
    "token_label",
]
