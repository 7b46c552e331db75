"""Game pieces drawn as shapes: dice, tokens, the crown, the elephant, card backs."""

from __future__ import annotations

from PIL import ImageDraw

from renderers.common.canvas import Canvas
from renderers.common.theme import RGB, Box

_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def pips(c: Canvas, box: Box, count: int, colour: RGB) -> None:
    """Die pips (1 to 6, in the usual layouts) inside the square ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = min(w, h) * 0.1
    for fx, fy in _PIPS.get(count, ()):
        cx, cy = x0 + fx * w, y0 + fy * h
        c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def die_face(
    c: Canvas,
    box: Box,
    *,
    fill: RGB,
    ink: RGB,
    label: str | None = None,
    pip_count: int = 0,
    outline: RGB | None = None,
    label_size: int = 40,
) -> None:
    """A die: rounded square with pips, a label, or a label above a pip row.

    With both a label and pips the label sits in the upper half and the pips
    run in one row beneath it (so "H" over three pips reads "cavalry 3").
    """
    x0, y0, x1, y1 = box
    size = x1 - x0
    c.draw.rounded_rectangle(
        box, radius=size // 6, fill=fill, outline=outline, width=3 if outline is not None else 0
    )
    if label and pip_count:
        rows = [pip_count] if pip_count <= 3 else [(pip_count + 1) // 2, pip_count // 2]
        r = size * 0.072
        gap = r * 0.8
        top = y0 + size * (0.3 if len(rows) == 1 else 0.25)
        c.text(((x0 + x1) / 2, top), label, size=label_size, fill=ink, anchor="mm", bold=True)
        first = y0 + size * (0.72 if len(rows) == 1 else 0.6)
        for k, count in enumerate(rows):
            cy = first + k * (2 * r + gap)
            start = (x0 + x1) / 2 - (count * 2 * r + (count - 1) * gap) / 2 + r
            for i in range(count):
                cx = start + i * (2 * r + gap)
                c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    elif label:
        c.text(
            ((x0 + x1) / 2, (y0 + y1) / 2), label, size=label_size, fill=ink, anchor="mm", bold=True
        )
    elif pip_count:
        pips(c, box, pip_count, ink)


def token_chip(
    c: Canvas,
    box: Box,
    label: str,
    *,
    colour: RGB,
    ink: RGB | None = None,
    size: int = 24,
    outline: RGB | None = None,
) -> None:
    """A player's token: a rounded tile in their colour with a short label."""
    x0, y0, x1, y1 = box
    c.draw.rounded_rectangle(
        box,
        radius=min(x1 - x0, y1 - y0) // 4,
        fill=colour,
        outline=outline,
        width=2 if outline is not None else 0,
    )
    c.text(
        ((x0 + x1) / 2, (y0 + y1) / 2),
        label,
        size=size,
        fill=c.theme.on_colour if ink is None else ink,
        anchor="mm",
        bold=True,
    )


def crown(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, jewel: RGB | None = None) -> None:
    """A three-pointed crown filling ``box`` (the Raja mark)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    base = y0 + 0.78 * h
    pts = [
        (x0, y0 + 0.25 * h),
        (x0 + 0.25 * w, y0 + 0.55 * h),
        (x0 + 0.5 * w, y0 + 0.1 * h),
        (x0 + 0.75 * w, y0 + 0.55 * h),
        (x1, y0 + 0.25 * h),
        (x1 - 0.06 * w, base),
        (x0 + 0.06 * w, base),
    ]
    draw.polygon(pts, fill=fill)
    draw.rectangle((x0 + 0.06 * w, base + 0.06 * h, x1 - 0.06 * w, y1), fill=fill)
    r = 0.08 * w
    for px, py in ((x0, y0 + 0.25 * h), (x0 + 0.5 * w, y0 + 0.1 * h), (x1, y0 + 0.25 * h)):
        draw.ellipse((px - r, py - r, px + r, py + r), fill=fill)
    if jewel is not None:
        jr = 0.07 * w
        jx, jy = x0 + 0.5 * w, y0 + 0.6 * h
        draw.ellipse((jx - jr, jy - jr, jx + jr, jy + jr), fill=jewel)


def elephant(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, detail: RGB) -> None:
    """A side-on elephant facing left filling ``box`` (the first-player marker)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def px(fx: float) -> float:
        return x0 + fx * w

    def py(fy: float) -> float:
        return y0 + fy * h

    # legs, then body, head, trunk, ear, eye, tail
    for fx in (0.36, 0.5, 0.72, 0.86):
        draw.rounded_rectangle(
            (px(fx - 0.06), py(0.55), px(fx + 0.06), py(1.0)),
            radius=max(1, int(w * 0.03)),
            fill=fill,
        )
    draw.ellipse((px(0.28), py(0.12), px(0.98), py(0.8)), fill=fill)
    draw.ellipse((px(0.1), py(0.05), px(0.46), py(0.6)), fill=fill)
    draw.polygon(
        [
            (px(0.12), py(0.3)),
            (px(0.0), py(0.72)),
            (px(0.02), py(0.95)),
            (px(0.1), py(0.95)),
            (px(0.1), py(0.75)),
            (px(0.24), py(0.45)),
        ],
        fill=fill,
    )
    draw.ellipse((px(0.26), py(0.12), px(0.5), py(0.58)), fill=detail)
    draw.ellipse((px(0.29), py(0.16), px(0.47), py(0.54)), fill=fill)
    er = max(1.5, w * 0.025)
    draw.ellipse((px(0.19) - er, py(0.26) - er, px(0.19) + er, py(0.26) + er), fill=detail)
    draw.line([(px(0.97), py(0.35)), (px(1.0), py(0.6))], fill=fill, width=max(2, int(w * 0.03)))


def card_back(
    c: Canvas,
    box: Box,
    *,
    fill: RGB,
    pattern: RGB,
    radius: int | None = None,
    outline: RGB | None = None,
) -> None:
    """A face-down playing card: a rounded card in ``fill`` with an inset
    frame and a diamond in ``pattern`` (small boxes get the frame only)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = max(2, min(w, h) // 8) if radius is None else radius
    c.draw.rounded_rectangle(
        box, radius=r, fill=fill, outline=outline, width=2 if outline is not None else 0
    )
    inset = max(3, min(w, h) // 10)
    if w < 4 * inset or h < 4 * inset:
        return
    line = max(1, min(w, h) // 40)
    c.draw.rounded_rectangle(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
        radius=max(1, r - inset // 2),
        outline=pattern,
        width=line + 1,
    )
    if min(w, h) < 60:
        return
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = (w - 4 * inset) * 0.32, (h - 4 * inset) * 0.36
    c.draw.polygon(
        [(cx, cy - dy), (cx + dx, cy), (cx, cy + dy), (cx - dx, cy)],
        outline=pattern,
        width=line + 1,
    )
    dr = min(dx, dy) * 0.3
    c.draw.polygon([(cx, cy - dr), (cx + dr, cy), (cx, cy + dr), (cx - dr, cy)], fill=pattern)


def card_fan(
    c: Canvas,
    xy: tuple[int, int],
    count: int,
    *,
    fill: RGB,
    pattern: RGB,
    card: tuple[int, int] = (22, 30),
    step: int = 12,
) -> Box:
    """``count`` small card backs overlapping left to right from ``xy`` (top
    left), outlined in the background so each stays countable; returns the
    box they cover (an empty box at ``xy`` for none)."""
    x, y = xy
    w, h = card
    for i in range(count):
        left = x + i * step
        card_back(
            c,
            (left, y, left + w, y + h),
            fill=fill,
            pattern=pattern,
            radius=max(2, w // 6),
            outline=c.theme.background,
        )
    if count <= 0:
        return (x, y, x, y)
    return (x, y, x + (count - 1) * step + w, y + h)
