"""The colours every renderer draws with, and the seats' shapes.

:class:`Theme` holds the palette (the Okabe-Ito player colours, chosen to
stay apart for the common kinds of colour blindness) and the shape each seat
is drawn with beside its colour; :func:`contrast` is WCAG's ratio, which the
tests hold text colours to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
"""``(left, top, right, bottom)`` in pixels, right/bottom exclusive-ish as in Pillow."""

# --------------------------------------------------------------------------- colours


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """Mix ``a`` towards ``b`` by ``t`` (0 gives ``a``, 1 gives ``b``)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def luminance(c: RGB) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio between two colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


SeatShape = Literal["circle", "square", "triangle", "diamond"]
MarkShape = Literal["circle", "square", "triangle", "diamond", "hexagon"]
"""The seat shapes plus the ones games of five or more use (:meth:`Theme.seat_mark_shape`)."""


@dataclass(frozen=True)
class Theme:
    """Colours every renderer draws with.

    ``players`` are the Okabe-Ito orange, sky blue, bluish green and reddish
    purple, chosen to stay apart for the common kinds of colour blindness and
    to read on the dark background; each seat also has a shape
    (:attr:`seat_shapes`) drawn beside its colour so nobody has to rely on
    hue alone.
    """

    background: RGB = (24, 26, 32)
    ink: RGB = (242, 243, 247)
    muted: RGB = (156, 162, 176)
    panel: RGB = (40, 43, 53)
    grid: RGB = (72, 77, 92)
    highlight: RGB = (255, 214, 102)
    players: tuple[RGB, RGB, RGB, RGB] = (
        (230, 159, 0),
        (86, 180, 233),
        (0, 170, 125),
        (214, 128, 175),
    )
    seat_shapes: tuple[SeatShape, SeatShape, SeatShape, SeatShape] = (
        "circle",
        "square",
        "triangle",
        "diamond",
    )
    on_colour: RGB = (17, 18, 22)
    """Text drawn on a player colour, the highlight or a die face."""
    slot: RGB = (30, 32, 40)
    """Empty places (board spaces) inside a panel."""
    die: RGB = (238, 232, 216)
    die_taken: RGB = (78, 82, 95)
    raja: RGB = (233, 196, 106)
    good: RGB = (96, 204, 120)
    bad: RGB = (240, 110, 90)

    def player_colour(self, seat: int) -> RGB:
        """The colour of ``seat`` (0-based); wraps past the fourth seat."""
        return self.players[seat % len(self.players)]

    def seat_shape(self, seat: int) -> SeatShape:
        return self.seat_shapes[seat % len(self.seat_shapes)]

    def dim(self, colour: RGB, amount: float = 0.6) -> RGB:
        """``colour`` faded into the panel (for things already used or done)."""
        return blend(colour, self.panel, amount)

    # Games of five or more.  :meth:`player_colour` and :meth:`seat_shape` wrap
    # after four seats (and stay so); these give a fifth seat its own colour
    # and shape and wrap after it.
    extra_players: tuple[RGB, ...] = ((213, 94, 0),)
    """Colours of the seats after the fourth: Okabe-Ito vermillion (on it
    :attr:`on_colour` keeps 4.8:1; on the background it has 4.5:1)."""
    extra_shapes: tuple[MarkShape, ...] = ("hexagon",)
    """Shapes of the seats after the fourth."""

    def seat_colour(self, seat: int) -> RGB:
        """Like :meth:`player_colour`, with :attr:`extra_players` after the
        fourth seat (a five-seat game gets five colours)."""
        colours = self.players + self.extra_players
        return colours[seat % len(colours)]

    def seat_mark_shape(self, seat: int) -> MarkShape:
        """Like :meth:`seat_shape`, with :attr:`extra_shapes` after the fourth seat."""
        shapes: tuple[MarkShape, ...] = self.seat_shapes + self.extra_shapes
        return shapes[seat % len(shapes)]


DEFAULT_THEME = Theme()
