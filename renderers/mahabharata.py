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

import bot.i18n as i18n
from bot.engines.mahabharata_views import (
    FinalView,
    LastPickView,
    LeaderView,
    MahabharataView,
    PlayerView,
    ScreenView,
    SpaceView,
)
from bot.i18n import N_, localize
from renderers.common import (
    DEFAULT_THEME,
    RGB,
    Canvas,
    LegendItem,
    Theme,
    ViewRenderer,
    blend,
    board_title,
    column_heading,
    crown,
    die_face,
    display_name,
    elephant,
    fit_text,
    legend,
    min_text_size,
    ordinal,
    private_band,
    private_heading,
    seat_panel,
    seat_pill,
    section_heading,
    shape_marker,
    text_width,
    title_band,
    token_chip,
    wrap_text,
)

BOARD_WIDTH: Final = 1200
"""Landscape enough that the board is at most 1.25 times as tall as it is
wide (issue 17: Discord shows an attachment in a box of capped height)."""
PRIVATE_WIDTH: Final = 1000
MARGIN: Final = 24
GAP: Final = 16
SECTION_GAP: Final = 22
TITLE_H: Final = 112
CARD_W: Final = 560
"""A leader card: room for Bhishma's seven spaces and a winner's name."""
LEFT_X1: Final = MARGIN + CARD_W
"""The right edge of the leader cards (one column down the left)."""
COLUMN_X0: Final = LEFT_X1 + 32
"""The column right of the leaders: draft order, dice and players, or the result."""
COLUMN_X1: Final = BOARD_WIDTH - MARGIN
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
CLASS_NAMES: Final = {
    "C": N_("Chariot"),
    "E": N_("Elephant"),
    "H": N_("Cavalry"),
    "I": N_("Infantry"),
}
"""The icon classes' names; the letters (``C``, ``H2``) are the game's
notation, the same in every language, and the key says what they stand for."""
# The leaders' names are drawn as ``i18n.t(lang, name)``: the engine lists
# them for the catalog (``bot.engines.mahabharata_components.DATA_NAMES``).
PLACES: Final = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))
"""A result's places (at most four players)."""


def place_name(place: int, lang: str) -> str:
    """``1st`` .. ``4th`` in ``lang``."""
    return i18n.t(lang, PLACES[place - 1]) if 1 <= place <= len(PLACES) else ordinal(place)


def seat_name(names: Sequence[str], seat: int, lang: str) -> str:
    """:func:`~renderers.common.display_name` with its stand-in (``Player 2``)
    in ``lang``."""
    return display_name(names, seat, i18n.t(lang, "Player"))


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


def face_name(face: str | None, lang: str = "en") -> str:
    """A die face for people: ``Cavalry 2``, ``Raja``; ``not rolled`` for None."""
    if face is None:
        return i18n.t(lang, "not rolled")
    if face == "raja":
        return i18n.t(lang, "Raja")
    cls = token_class(face)
    if cls in ("C", "E"):
        return i18n.t(lang, CLASS_NAMES[cls])
    if cls == "?":
        return face.capitalize()
    if cls == "H":
        return i18n.t(lang, "Cavalry {n}", n=token_icons(face))
    return i18n.t(lang, "Infantry {n}", n=token_icons(face))


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


def _status(view: MahabharataView, names: Sequence[str], lang: str) -> str:
    rnd = view.round
    if view.phase == "setup":
        return i18n.t(lang, "Setting up: drawing leaders")
    if view.phase == "roll":
        return i18n.t(lang, "Round {round} · rolling the dice", round=rnd)
    if view.phase == "draft":
        if view.waiting_on:
            who = " & ".join(seat_name(names, s, lang) for s in view.waiting_on)
            return i18n.t(lang, "Round {round} · {names} to pick", round=rnd, names=who)
        return i18n.t(lang, "Round {round} · draft", round=rnd)
    if view.phase == "announce":
        # Short enough to stay whole beside the elephant token.
        return i18n.t(lang, "Round {round} · Pati announcements", round=rnd)
    if view.phase == "over":
        if view.final is not None and view.final.ranking:
            top = view.final.ranking[0]
            if len(top) == 1:
                return i18n.t(lang, "Game over · {name} wins", name=seat_name(names, top[0], lang))
            return i18n.t(lang, "Game over · a draw")
        return i18n.t(lang, "Game over")
    return i18n.t(lang, "Round {round} · {phase}", round=rnd, phase=view.phase)


def _shared_line(left: str, right: str, room: int, gap: int = 24) -> tuple[str, str]:
    """Two texts on one line (small bold), ``left`` from the left and
    ``right`` from the right, cut where together they are wider than
    ``room``: each keeps what it needs of half the room, the other the rest."""
    lw, rw = text_width(left, SMALL, True), text_width(right, SMALL, True)
    if lw + gap + rw <= room:
        return left, right
    half = (room - gap) // 2
    right_room = max(half, room - gap - lw)
    left_room = room - gap - min(rw, right_room)
    return fit_text(left, SMALL, left_room, True), fit_text(right, SMALL, right_room, True)


def _title(c: Canvas, view: MahabharataView, names: Sequence[str], lang: str) -> int:
    t = c.theme
    title_band(c, TITLE_H)
    right = c.width - MARGIN
    players = i18n.tn(
        lang, "MAHABHARATA · {n} PLAYER", "MAHABHARATA · {n} PLAYERS", view.num_players
    )
    status = _status(view, names, lang)
    if view.elephant is not None:
        colour = t.player_colour(view.elephant)
        elephant(c.draw, (right - 78, 26, right, 82), colour, t.panel)
        label_right = right - 92
        # Say what holding the elephant means: its holder picks first (R5, R7).
        label = (
            i18n.t(lang, "Elephant token")
            if view.phase == "over"
            else i18n.t(lang, "Elephant token: picks first")
        )
        # The kicker and the label share the top line.
        players, label = _shared_line(players, label, label_right - MARGIN)
        c.text((label_right, 18), label, size=SMALL, fill=t.muted, anchor="rt", bold=True)
        # The status line keeps its room; the holder's name has the rest.
        status_w = text_width(status, 36, True)
        name_box = c.text(
            (label_right, 58),
            seat_name(names, view.elephant, lang),
            size=SMALL,
            fill=t.ink,
            anchor="rt",
            bold=True,
            max_width=max(220, label_right - MARGIN - status_w - 24),
        )
        # The status stops at the name, and at the label's left where that
        # leaves it half the band at least.
        label_left = max(label_right - text_width(label, SMALL, True), (MARGIN + label_right) // 2)
        right = min(name_box[0], label_left) - 24
    board_title(
        c,
        kicker=players,
        status=status,
        y=56,
        size=36,
        margin=MARGIN,
        right=right,
    )
    return TITLE_H + 20


# The board is landscape (issue 17): the title band across the top, the
# leader cards in one column on the left, and a column on the right with the
# draft order, the dice and the players (or, at the end, the result).  The
# key goes under whichever column ends higher.  Who is to pick, the clocks
# and what just happened are in the message above the board; the board keeps
# the position.


def _draft_strip(c: Canvas, view: MahabharataView, x0: int, x1: int, y: int, lang: str) -> int:
    """The round's snake order as seat marks (names are in the players' rows):
    picks made faded, the next one ringed and pointed at."""
    t = c.theme
    n = len(view.draft_order)
    done = min(view.picks_made, n)
    title = i18n.t(lang, "Draft order · {done} of {n} picks done", done=done, n=n)
    y = column_heading(c, x0, y, title, right=x1)
    gap = 10
    size = max(36, min(52, (x1 - x0 - gap * (n - 1)) // max(1, n)))
    for i, seat in enumerate(view.draft_order):
        x = x0 + i * (size + gap)
        made = i < view.picks_made
        current = i == view.picks_made and view.phase == "draft"
        colour = t.player_colour(seat)
        c.panel(
            (x, y, x + size, y + size),
            fill=t.dim(colour, 0.72) if made else colour,
            radius=size // 4,
            outline=t.highlight if current else None,
            width=4,
        )
        shape_marker(
            c.draw,
            (x + size / 2, y + size / 2),
            size * 0.22,
            t.seat_shape(seat),
            t.muted if made else t.on_colour,
        )
        if current:
            mid = x + size // 2
            c.draw.polygon(
                [(mid - 10, y + size + 14), (mid + 10, y + size + 14), (mid, y + size + 3)],
                fill=t.highlight,
            )
    return y + size + 14 + SECTION_GAP


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
    lang: str = "en",
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
        i18n.tn(lang, "{n} pt", "{n} pts", leader.vp),
        size=SMALL,
        fill=t.highlight,
        ink=t.on_colour,
        height=38,
        pad=10,
    )
    name_x = vp_box[2] + 12
    right = x + w - pad
    leader_name = i18n.t(lang, leader.name)
    if final:
        if winner is not None:
            # The leader's name keeps its room; the winner's pill has the
            # rest (its mark alone where even that is too little).
            room = right - name_x - text_width(leader_name, 30, True) - 12
            left, _ = _seat_pill(
                c,
                right,
                hy,
                winner,
                (seat_name(names, winner, lang), ""),
                max_width=max(200, room),
                anchor="r",
            )
            right = left - 12
        else:
            box = c.text(
                (right, hy),
                i18n.t(lang, "nobody scores"),
                size=SMALL,
                fill=t.muted,
                anchor="rm",
                max_width=(right - name_x) // 2,
            )
            right = box[0] - 12
    c.text(
        (name_x, hy),
        leader_name,
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
    # The label has what the seats' marks and numbers leave (4 seats: 6 digits).
    marks_w = view.num_players * (26 + 22) + 6 * text_width("0", 30, True)
    label = fit_text(i18n.t(lang, "Influence"), SMALL, w - 2 * pad - 18 - marks_w, True)
    c.text((x + pad, iy), label, size=SMALL, fill=t.muted, anchor="lm", bold=True)
    ix = x + pad + text_width(label, SMALL, True) + 18
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


def _leaders(c: Canvas, view: MahabharataView, names: Sequence[str], y: int, lang: str) -> int:
    """The leader cards, one under another, down the left."""
    total = sum(leader.vp for leader in view.leaders)
    if view.phase == "setup":
        title = i18n.t(lang, "{total} of 18 victory points drawn", total=total)
    else:
        title = i18n.t(lang, "Leaders · {total} victory points in play", total=total)
    y = column_heading(c, MARGIN, y, title, right=LEFT_X1)
    if not view.leaders:
        c.text(
            (MARGIN, y + 10),
            i18n.t(lang, "No leader drawn yet."),
            size=SMALL,
            fill=c.theme.muted,
            anchor="lt",
            max_width=LEFT_X1 - MARGIN,
        )
        return y + 60 + SECTION_GAP
    winners = view.final.leader_winners if view.final is not None else ()
    lp = view.last_pick
    for i, leader in enumerate(view.leaders):
        winner = winners[i] if i < len(winners) else None
        last_space = lp.space if lp is not None and lp.leader_index == i else None
        _leader_card(
            c,
            MARGIN,
            y + i * (CARD_H + GAP),
            CARD_W,
            leader,
            view,
            names,
            winner,
            view.final is not None,
            last_space,
            lang,
        )
    return y + len(view.leaders) * (CARD_H + GAP) - GAP + SECTION_GAP


DIE: Final = 88


def _die(
    c: Canvas, box: tuple[int, int, int, int], face: str | None, taken: bool, lang: str
) -> None:
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
        c.text(
            ((x0 + x1) / 2, y0 + 70),
            i18n.t(lang, "RAJA"),
            size=SMALL,
            fill=ink,
            anchor="mm",
            bold=True,
            max_width=x1 - x0 - 4,
        )
        return
    cls = token_class(face)
    if cls in ("H", "I"):
        die_face(c, box, fill=fill, ink=ink, label=cls, pip_count=token_icons(face), label_size=32)
    else:
        die_face(c, box, fill=fill, ink=ink, label=cls, label_size=46)


DICE_PER_ROW: Final = 4
DIE_ROW_H: Final = 12 + DIE + 98
"""A row of dice: the ring's room, the die, its number and who took it."""


def _dice(
    c: Canvas, view: MahabharataView, names: Sequence[str], x0: int, x1: int, y: int, lang: str
) -> int:
    """The eight dice in two rows of four: each die's number under it, then
    who took it (a pill in their colour) or, in the pool, its face in words."""
    t = c.theme
    left = sum(1 for d in view.dice if d.taken_by is None)
    if all(d.face is None for d in view.dice):
        title = i18n.t(lang, "Dice · not rolled yet")
    elif view.phase == "draft":
        title = i18n.t(lang, "Dice · {n} in the pool", n=left)
    else:
        title = i18n.t(lang, "Dice")
    y = column_heading(c, x0, y, title, right=x1)
    lp = view.last_pick
    if lp is not None:
        y = _last_pick_lines(c, view, lp, names, x0, x1, y, lang)
    slot = (x1 - x0) // DICE_PER_ROW
    for i, die in enumerate(view.dice):
        row, col = divmod(i, DICE_PER_ROW)
        cx = x0 + col * slot + slot // 2
        top = y + row * DIE_ROW_H + 12
        taken = die.taken_by is not None
        box = (cx - DIE // 2, top, cx + DIE // 2, top + DIE)
        # The die of the last pick, while it is still on the table this round.
        if lp is not None and lp.die == die.index and die.taken_by == lp.seat:
            c.draw.rounded_rectangle(
                (box[0] - 11, box[1] - 11, box[2] + 11, box[3] + 11),
                radius=DIE // 6 + 11,
                outline=t.ink,
                width=4,
            )
        _die(c, box, die.face, taken, lang)
        if die.taken_by is not None:
            c.draw.rounded_rectangle(
                (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4),
                radius=DIE // 6 + 4,
                outline=t.player_colour(die.taken_by),
                width=4,
            )
        c.text(
            (cx, top + DIE + 14),
            f"d{die.index}",
            size=SMALL,
            fill=t.muted if taken else t.ink,
            anchor="mt",
            bold=True,
        )
        line = top + DIE + 14 + SMALL + 28
        if die.taken_by is not None:
            # Under a die there is room for a short name only: a longer one
            # leaves the seat's mark (its shape and colour, as on the die's
            # ring and in the players' panel), never a stub of a name.
            _seat_pill(
                c,
                cx,
                line,
                die.taken_by,
                (seat_name(names, die.taken_by, lang), ""),
                max_width=slot - 6,
                anchor="m",
            )
        elif die.face is not None:
            c.text(
                (cx, line),
                face_name(die.face, lang),
                size=SMALL,
                fill=t.muted,
                anchor="mm",
                max_width=slot - 4,
            )
    rows = -(-len(view.dice) // DICE_PER_ROW)
    return y + rows * DIE_ROW_H + SECTION_GAP


def _last_pick_text(
    view: MahabharataView, lp: LastPickView, names: Sequence[str], width: int, lang: str = "en"
) -> str:
    """One sentence on the last pick; a screen placement never names its token
    (R14).  A name is cut only where it is wider than a line (``width``)."""
    who = fit_text(seat_name(names, lp.seat, lang), SMALL, width)
    took = {"who": who, "die": lp.die, "face": face_name(lp.face, lang)}
    if lp.placed == "screen":
        return i18n.t(lang, "{who} took d{die} ({face}) and put it behind their screen", **took)
    if lp.placed == "nothing":
        return i18n.t(lang, "{who} took d{die} ({face}) and placed nothing", **took)
    leader = i18n.t(lang, "a leader")
    if lp.leader_index is not None and 0 <= lp.leader_index < len(view.leaders):
        leader = i18n.t(lang, view.leaders[lp.leader_index].name)
    if lp.face != "raja" or lp.token is None:
        if lp.space is not None:
            return i18n.t(
                lang,
                "{who} took d{die} ({face}) and placed it on {leader}, space {space}",
                leader=leader,
                space=lp.space,
                **took,
            )
        return i18n.t(
            lang, "{who} took d{die} ({face}) and placed it on {leader}", leader=leader, **took
        )
    token = face_name(lp.token, lang)
    if lp.space is not None:
        return i18n.t(
            lang,
            "{who} took d{die} ({face}) and placed {token} on {leader}, space {space}",
            token=token,
            leader=leader,
            space=lp.space,
            **took,
        )
    return i18n.t(
        lang,
        "{who} took d{die} ({face}) and placed {token} on {leader}",
        token=token,
        leader=leader,
        **took,
    )


def _wrap_after(text: str, first: int, rest: int) -> list[str]:
    """``text`` in lines at most ``first`` pixels wide for the first line and
    ``rest`` for the others, broken between words."""
    lines: list[str] = []
    for word in text.split():
        room = first if len(lines) == 1 else rest
        if lines and text_width(f"{lines[-1]} {word}", SMALL) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _last_pick_lines(
    c: Canvas,
    view: MahabharataView,
    lp: LastPickView,
    names: Sequence[str],
    x0: int,
    x1: int,
    y: int,
    lang: str = "en",
) -> int:
    """``LAST PICK`` and what it was, above the dice (its die is ringed);
    returns the next y.  It stays on the board after a round's last pick and
    through the next roll, when no die shows it any more."""
    t = c.theme
    step = SMALL + 10
    cy = y + 19
    label = fit_text(i18n.t(lang, "LAST PICK"), SMALL, (x1 - x0) // 3, True)
    box = c.pill((x0, cy), label, size=SMALL, fill=t.ink, ink=t.on_colour, height=38, pad=10)
    shape_marker(c.draw, (box[2] + 20, cy), 10, t.seat_shape(lp.seat), t.player_colour(lp.seat))
    tx = box[2] + 38
    text = _last_pick_text(view, lp, names, x1 - x0, lang)
    lines = _wrap_after(text, x1 - tx, x1 - x0) or [""]
    if len(lines) > 3:
        lines = [*lines[:2], fit_text(" ".join(lines[2:]), SMALL, x1 - x0)]
    for k, line in enumerate(lines):
        x = tx if k == 0 else x0
        c.text((x, cy + k * step), line, size=SMALL, fill=t.ink, anchor="lm", max_width=x1 - x)
    return y + 38 + step * (min(3, len(lines)) - 1) + 14


BADGE_H: Final = 38
PLAYER_H: Final = 100
"""A player's row: the name line and the counts line."""


def fit_shares(texts: Sequence[str], size: int, room: int, *, extra: int = 0) -> list[str]:
    """``texts`` (small bold) for a line ``room`` wide where each also takes
    ``extra`` pixels (a pill's ends, a gap): as they are when all fit, else
    each cut to the widest share that lets them fit (a short one stays whole
    beside a long one)."""
    widths = [text_width(text, size, True) for text in texts]
    if sum(widths) + extra * len(texts) <= room:
        return list(texts)
    cap = max(widths, default=0)
    while cap > 0 and sum(min(w, cap) for w in widths) + extra * len(texts) > room:
        cap -= 4
    return [fit_text(text, size, max(cap, 0), True) for text in texts]


def _player_badges(
    view: MahabharataView, p: PlayerView, t: Theme, lang: str = "en", room: int = 10_000
) -> list[tuple[str, RGB]]:
    """(label, colour) of the seat's badges, cut to share ``room`` if need be."""
    out: list[tuple[str, RGB]] = []
    if p.seat in view.waiting_on:
        label = i18n.t(lang, "TO PICK") if view.phase == "draft" else i18n.t(lang, "TO ACT")
        out.append((label, t.highlight))
    if p.announced:
        out.append((i18n.t(lang, "ANNOUNCED PATI"), t.good))
    labels = fit_shares([label for label, _ in out], SMALL, room, extra=28)
    return [(label, fill) for label, (_, fill) in zip(labels, out, strict=True)]


def _badges_width(badges: Sequence[tuple[str, RGB]]) -> int:
    return sum(text_width(label, SMALL, True) + 20 + 8 for label, _ in badges)


def _badges_inline(badges: Sequence[tuple[str, RGB]], room: int) -> bool:
    """Whether the badges fit on the name line and leave the name 200 px."""
    return not badges or room - _badges_width(badges) >= 200


def _player_height(view: MahabharataView, p: PlayerView, width: int, lang: str = "en") -> int:
    badges = _player_badges(view, p, DEFAULT_THEME, lang, width - 40)
    room = width - 70 - (56 if view.elephant == p.seat else 0)
    return PLAYER_H + (0 if _badges_inline(badges, room) else BADGE_H + 10)


def _players(
    c: Canvas, view: MahabharataView, names: Sequence[str], x0: int, x1: int, y: int, lang: str
) -> int:
    """A row per player: mark, name, the elephant if theirs, whether the game
    waits on them or they announced a Pati, and their counts (R14: counts only)."""
    t = c.theme
    y = column_heading(c, x0, y, i18n.t(lang, "Players"), right=x1)
    counts = fit_shares(
        [i18n.t(lang, "Screen"), i18n.t(lang, "Supply"), i18n.t(lang, "Dice")],
        SMALL,
        x1 - x0 - 40 - 16,
        extra=10 + 30 + text_width("30", SMALL, True),
    )
    for p in view.players:
        colour = t.player_colour(p.seat)
        ph = _player_height(view, p, x1 - x0, lang)
        seat_panel(c, (x0, y, x1, y + ph), colour, acting=p.seat in view.waiting_on)
        cy = y + 30
        shape_marker(c.draw, (x0 + 40, cy), 11, t.seat_shape(p.seat), colour)
        right = x1 - 16
        if view.elephant == p.seat:
            elephant(c.draw, (right - 46, cy - 16, right, cy + 16), t.ink, t.panel)
            right -= 56
        badges = _player_badges(view, p, t, lang, x1 - x0 - 40)
        inline = _badges_inline(badges, right - x0 - 60)
        bx, by = (right, cy) if inline else (x1 - 16, y + PLAYER_H + BADGE_H // 2)
        for label, fill in badges:
            box = c.pill(
                (bx, by), label, size=SMALL, fill=fill, ink=t.on_colour, anchor="r", height=BADGE_H
            )
            bx = box[0] - 8
        if inline:
            right = bx - 4
        c.text(
            (x0 + 60, cy),
            seat_name(names, p.seat, lang),
            size=30,
            fill=t.ink,
            anchor="lm",
            bold=True,
            max_width=right - x0 - 60,
        )
        # Label and number pairs on one line: muted words, bold numbers.
        sx, sy = x0 + 40, y + 74
        for label, value in zip(
            counts, (str(p.screen_count), str(p.supply_count), f"{p.dice_taken}/2"), strict=True
        ):
            box = c.text((sx, sy), label, size=SMALL, fill=t.muted, anchor="lm", bold=True)
            box = c.text((box[2] + 10, sy), value, size=SMALL, fill=t.ink, anchor="lm", bold=True)
            sx = box[2] + 30
        y += ph + 10
    return y - 10 + SECTION_GAP


CHIP_W: Final = 50
CHIP_H: Final = 42
CHIP_GAP: Final = 6
GROUPED_W: Final = 92
"""A chip for several tokens of one kind ("I3 x2"), used when a screen's
chips one by one would take more than two rows."""


def _screen_chips(screen: Sequence[str], width: int) -> tuple[list[tuple[str, int]], int, int]:
    """A revealed screen as chips that fit ``width``: (label, count) each, the
    chip width and how many chips a row holds.  One chip per token, or one
    per kind with its count when that would take more than two rows."""
    kinds = sorted(screen, key=_kind_order)
    per_row = max(1, (width + CHIP_GAP) // (CHIP_W + CHIP_GAP))
    if len(kinds) <= 2 * per_row:
        return [(token_label(k), 1) for k in kinds], CHIP_W, per_row
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    per_row = max(1, (width + CHIP_GAP) // (GROUPED_W + CHIP_GAP))
    return [(token_label(k), n) for k, n in counts.items()], GROUPED_W, per_row


def final_row_height(tokens: int, per_row: int) -> int:
    """A result row: the name line, the points line, the screen's label and
    its rows of chips."""
    rows = max(1, -(-tokens // per_row))
    return 136 + rows * (CHIP_H + CHIP_GAP) + 8


def _result_headline(
    c: Canvas, final: FinalView, names: Sequence[str], x0: int, x1: int, y: int, lang: str
) -> int:
    """The winner (with a crown) or the draw, and why the game ended, fitted
    to the column; returns the y under it."""
    t = c.theme
    top = final.ranking[0] if final.ranking else ()
    if len(top) == 1:
        headline = i18n.t(lang, "{name} wins!", name=seat_name(names, top[0], lang))
    elif top:
        who = ", ".join(seat_name(names, s, lang) for s in top)
        headline = i18n.t(lang, "Draw: {names}", names=who)
    else:
        headline = i18n.t(lang, "Game over")
    box = c.text(
        (x0, y), headline, size=38, fill=t.ink, anchor="lt", bold=True, max_width=x1 - x0 - 60
    )
    if len(top) == 1:
        crown(c.draw, (box[2] + 14, y - 2, box[2] + 58, y + 30), t.highlight)
    y += 52
    for line in wrap_text(localize(final.reason, lang), SMALL, x1 - x0):
        c.text((x0, y), line, size=SMALL, fill=t.muted, anchor="lt")
        y += SMALL + 8
    return y + 12


def _final(
    c: Canvas,
    view: MahabharataView,
    final: FinalView,
    names: Sequence[str],
    x0: int,
    x1: int,
    y: int,
    lang: str = "en",
) -> int:
    """The result: the winner, then a row per player in ranking order with
    their points, where they come from, and the screen they revealed."""
    t = c.theme
    y = column_heading(c, x0, y, i18n.t(lang, "Result"), right=x1)
    y = _result_headline(c, final, names, x0, x1, y, lang)
    led: dict[int, int] = {}
    for leader, winner in zip(view.leaders, final.leader_winners, strict=False):
        if winner is not None:
            led[winner] = led.get(winner, 0) + leader.vp
    inner = x0 + 40
    for place, group in enumerate(final.ranking, start=1):
        for seat in group:
            colour = t.player_colour(seat)
            screen = final.screens[seat] if seat < len(final.screens) else ()
            chips, chip_w, per_row = _screen_chips(screen, x1 - 16 - inner)
            rh = final_row_height(len(chips), per_row)
            seat_panel(c, (x0, y, x1, y + rh), colour)
            cy = y + 30
            score = final.scores[seat] if seat < len(final.scores) else 0
            unit = c.text(
                (x1 - 16, cy + 4),
                i18n.t(lang, "points"),
                size=SMALL,
                fill=t.muted,
                anchor="rm",
                max_width=(x1 - inner) // 4,
            )
            num = c.text((unit[0] - 8, cy), str(score), size=44, fill=t.ink, anchor="rm", bold=True)
            place_box = c.text(
                (inner, cy),
                place_name(place, lang),
                size=30,
                fill=t.ink,
                anchor="lm",
                bold=True,
                max_width=(x1 - inner) // 4,
            )
            mx = max(place_box[2] + 24, inner + 70)
            shape_marker(c.draw, (mx, cy), 11, t.seat_shape(seat), colour)
            c.text(
                (mx + 20, cy),
                seat_name(names, seat, lang),
                size=30,
                fill=t.ink,
                anchor="lm",
                bold=True,
                max_width=num[0] - 16 - mx - 20,
            )
            pati = seat < len(final.pati) and final.pati[seat]
            # Where the points come from, in words: "NO PATI" alone left a
            # newcomer guessing what was missing.
            parts = (
                i18n.t(lang, "Leaders {n} · complete Pati 7", n=led.get(seat, 0))
                if pati
                else i18n.t(lang, "Leaders {n} · no complete Pati", n=led.get(seat, 0))
            )
            box = c.text(
                (inner, y + 74),
                parts,
                size=SMALL,
                fill=t.muted,
                anchor="lm",
                max_width=x1 - 16 - inner - (50 if pati else 0),
            )
            if pati:
                c.check((box[2] + 12, y + 62, box[2] + 38, y + 86), t.good, width=4)
            c.text(
                (inner, y + 100),
                i18n.tn(lang, "Screen · {n} token", "Screen · {n} tokens", len(screen)),
                size=SMALL,
                fill=t.muted,
                anchor="lt",
                bold=True,
                max_width=x1 - 16 - inner,
            )
            top = y + 136
            if not chips:
                c.text(
                    (inner, top + CHIP_H // 2),
                    i18n.t(lang, "empty"),
                    size=SMALL,
                    fill=t.muted,
                    anchor="lm",
                    max_width=x1 - 16 - inner,
                )
            for k, (label, count) in enumerate(chips):
                r, col = divmod(k, per_row)
                cx0 = inner + col * (chip_w + CHIP_GAP)
                cy0 = top + r * (CHIP_H + CHIP_GAP)
                token_chip(
                    c,
                    (cx0, cy0, cx0 + chip_w, cy0 + CHIP_H),
                    label if count == 1 else f"{label} x{count}",
                    colour=colour,
                    size=SMALL,
                )
            y += rh + 10
    return y - 10 + SECTION_GAP


def _legend(c: Canvas, x0: int, x1: int, y: int, lang: str = "en") -> int:
    t = c.theme

    def glyph(icon: str) -> LegendItem:
        def draw(c: Canvas, x: int, cy: int) -> None:
            class_glyph(c, (x + 20, cy), 20, icon, fill=t.grid, ink=t.ink)

        return LegendItem(i18n.t(lang, CLASS_NAMES[icon]), draw, 40)

    def chip(c: Canvas, x: int, cy: int) -> None:
        token_chip(c, (x, cy - 21, x + 50, cy + 21), "I3", colour=t.grid, ink=t.ink, size=SMALL)

    def stacked(c: Canvas, x: int, cy: int) -> None:
        c.pill((x, cy), "x2", size=SMALL, fill=t.ink, ink=t.on_colour, height=34, pad=6)

    items = (
        *(glyph(icon) for icon in CLASSES),
        LegendItem(i18n.t(lang, "token with 3 icons"), chip, 50),
        LegendItem(i18n.t(lang, "stacked"), stacked, text_width("x2", SMALL, True) + 12),
    )
    return legend(c, items, x0=x0, x1=x1, y=y, size=SMALL, row_height=50)


def _board_height(view: MahabharataView, lang: str = "en") -> int:
    """Room enough for the taller column and the key (cropped after drawing)."""
    left = 60 + len(view.leaders) * (CARD_H + GAP)
    if view.final is not None:
        column = 60 + 52 + 8 * (SMALL + 8)
        per_row = (COLUMN_X1 - COLUMN_X0 - 56 + CHIP_GAP) // (CHIP_W + CHIP_GAP)
        for screen in view.final.screens:
            column += final_row_height(min(len(screen), 2 * per_row), per_row) + 10
    else:
        column = 3 * 60 + 120 + 4 * (SMALL + 10) + 2 * DIE_ROW_H
        column += sum(
            _player_height(view, p, COLUMN_X1 - COLUMN_X0, lang) + 10 for p in view.players
        )
    return TITLE_H + 20 + max(left, column) + 4 * 50 + 60


def render_board(
    view: MahabharataView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The public board: never shows what is behind a screen (ignores ``view.me``)."""
    c = Canvas(BOARD_WIDTH, _board_height(view, lang), theme)
    y = _title(c, view, names, lang)
    left = _leaders(c, view, names, y, lang)
    x0, x1 = COLUMN_X0, COLUMN_X1
    if view.final is not None:
        column = _final(c, view, view.final, names, x0, x1, y, lang)
    else:
        column = y
        if view.draft_order:
            column = _draft_strip(c, view, x0, x1, column, lang)
        column = _dice(c, view, names, x0, x1, column, lang)
        column = _players(c, view, names, x0, x1, column, lang)
    # The key under whichever column ends higher, so the image stays short.
    if left <= column:
        left = _legend(c, MARGIN, LEFT_X1, left - 8, lang) + SECTION_GAP
    else:
        column = _legend(c, x0, x1, column - 8, lang) + SECTION_GAP
    return c.crop(max(left, column) - SECTION_GAP + MARGIN)


# ----------------------------------------------------------------- private screen


def _private_header(
    c: Canvas, view: MahabharataView, me: ScreenView, names: Sequence[str], lang: str
) -> int:
    t = c.theme
    colour = t.player_colour(me.seat)
    kicker = i18n.t(lang, "MAHABHARATA · YOUR SCREEN (ONLY YOU SEE THIS)")
    h = private_band(
        c,
        colour=colour,
        kicker=fit_text(kicker, c.min_text, c.width - 2 * MARGIN - 8, True),
        margin=MARGIN,
    )
    shape_marker(c.draw, (MARGIN + 22, 70), 14, t.seat_shape(me.seat), colour)
    if view.phase == "setup":
        where = i18n.t(lang, "Setting up")
    elif view.phase == "over":
        where = i18n.t(lang, "Game over")
    else:
        where = i18n.t(lang, "Round {round}", round=view.round)
    # The name keeps 300 pixels at least beside where the game stands.
    where = fit_text(where, 28, c.width - 2 * MARGIN - 46 - 300, True)
    prompt = None
    if me.seat in view.waiting_on:
        if view.phase == "draft":
            prompt = i18n.t(lang, "YOUR PICK")
        elif view.phase == "announce":
            prompt = i18n.t(lang, "ANNOUNCE PATI?")
        else:
            prompt = i18n.t(lang, "YOUR TURN")
        prompt = fit_text(prompt, P_SMALL, c.width - 2 * MARGIN - 46 - 300, True)
    private_heading(
        c,
        name=seat_name(names, me.seat, lang),
        where=where,
        prompt=prompt,
        margin=MARGIN,
        small=P_SMALL,
    )
    return h + 20


def _pati_panel(c: Canvas, me: ScreenView, y: int, lang: str = "en") -> int:
    t = c.theme
    x0, x1 = MARGIN, c.width - MARGIN
    if me.pati_complete:
        h = 92
        c.panel((x0, y, x1, y + h), fill=blend(t.good, t.panel, 0.78), outline=t.good, width=3)
        c.draw.ellipse((x0 + 20, y + 18, x0 + 76, y + 74), fill=t.good)
        c.check((x0 + 32, y + 32, x0 + 64, y + 60), t.on_colour, width=6)
        c.text(
            (x0 + 96, y + 32),
            i18n.t(lang, "PATI COMPLETE"),
            size=32,
            fill=t.good,
            anchor="lm",
            bold=True,
            max_width=x1 - x0 - 116,
        )
        c.text(
            (x0 + 96, y + 66),
            i18n.t(lang, "Worth 7 victory points at the end. You may announce it after a round."),
            size=P_SMALL,
            fill=t.ink,
            anchor="lm",
            max_width=x1 - x0 - 116,
        )
        return y + h + 20
    missing = [localize(item, lang) for item in me.pati_missing] or [
        i18n.t(lang, "Something (the engine gave no detail)")
    ]
    lines: list[str] = []
    for item in missing:
        lines.extend(wrap_text(item, P_SMALL, x1 - x0 - 90) or [""])
    h = 64 + 34 * len(lines) + 10
    c.panel((x0, y, x1, y + h), outline=t.grid, width=2)
    title = i18n.t(lang, "PATI NOT COMPLETE")
    needs = i18n.t(lang, "needs 1 C · 1 E · H = 3 · I = 5")
    needs_box = c.text(
        (x1 - 20, y + 30),
        needs,
        size=P_SMALL,
        fill=t.muted,
        anchor="rm",
        max_width=(x1 - x0) // 2 - 20,
    )
    c.text(
        (x0 + 20, y + 30),
        title,
        size=28,
        fill=t.ink,
        anchor="lm",
        bold=True,
        max_width=needs_box[0] - x0 - 40,
    )
    ly = y + 70
    for item in missing:
        wrapped = wrap_text(item, P_SMALL, x1 - x0 - 90) or [""]
        c.cross((x0 + 26, ly - 8, x0 + 42, ly + 8), t.bad, width=4)
        for line in wrapped:
            c.text((x0 + 60, ly), line, size=P_SMALL, fill=t.ink, anchor="lm")
            ly += 34
    return y + h + 20


def _screen_panel(c: Canvas, me: ScreenView, y: int, lang: str = "en") -> int:
    t = c.theme
    colour = t.player_colour(me.seat)
    heading = i18n.tn(
        lang, "Behind your screen · {n} token", "Behind your screen · {n} tokens", len(me.screen)
    )
    y = section_heading(c, MARGIN, y, fit_text(heading, c.min_text, c.width - 2 * MARGIN, True))
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
        c.text(
            (x0 + 64, cy - 14),
            i18n.t(lang, CLASS_NAMES[cls]),
            size=26,
            fill=t.ink,
            anchor="lm",
            bold=True,
            max_width=chips_x - x0 - 64 - 6,
        )
        icons = sum(token_icons(k) for k in kinds)
        c.text(
            (x0 + 64, cy + 16),
            i18n.tn(lang, "{n} icon", "{n} icons", icons),
            size=P_SMALL,
            fill=t.muted,
            anchor="lm",
            max_width=chips_x - x0 - 64 - 6,
        )
        if not kinds:
            c.text(
                (chips_x, cy),
                i18n.t(lang, "none"),
                size=P_SMALL,
                fill=t.muted,
                anchor="lm",
                max_width=x1 - 16 - chips_x,
            )
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


def _supply_panel(c: Canvas, me: ScreenView, y: int, lang: str = "en") -> int:
    t = c.theme
    colour = t.player_colour(me.seat)
    left = sum(n for _, n in me.supply)
    heading = i18n.tn(lang, "Your supply · {n} token left", "Your supply · {n} tokens left", left)
    y = section_heading(c, MARGIN, y, fit_text(heading, c.min_text, c.width - 2 * MARGIN, True))
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
    view: MahabharataView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Image.Image:
    """The viewer's own screen: tokens behind it, supply and Pati progress.

    ``view.me`` must be set (the engine's view for that seat)."""
    me = view.me
    if me is None:
        raise ValueError("render_private needs a seat's view (view.me is None).")
    c = Canvas(PRIVATE_WIDTH, 1400 + 60 * len(me.screen) + 40 * len(me.pati_missing), theme)
    y = _private_header(c, view, me, names, lang)
    y = _pati_panel(c, me, y, lang)
    y = _screen_panel(c, me, y, lang)
    y = _supply_panel(c, me, y, lang)
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
