"""A game's replay as one animated GIF (issue 21), for every game alike.

Each frame is the game's own public board (``renderer.board``) under a band
with the frame's headline (what happened, names filled in) and a counter
(``Move 12 of 80``).  The first frame is held :data:`START_MS`, the others
:data:`FRAME_MS`, the last :data:`LAST_MS`.

**Why GIF.**  Discord plays an attached GIF inline in every client; animated
WebP arrived on the desktop clients only in late 2024 and, as Discord's own
tracker said then (discord/lilliput#159), not everywhere (phones, links).
Measured on the same frames (docs/ARCHITECTURE.md, "Replays") lossless WebP
is smaller, but not enough to risk a still image on a phone.

**Small files.**  Every frame is mapped, without dithering, onto one palette
chosen once from the first, middle and last frames (flat board graphics),
so frames compare index by index.  Frames after the first store only the
rectangle that changed, with unchanged pixels inside it set to the
transparent index (long runs that LZW packs to almost nothing), and are
never disposed (``disposal=1``): what a frame leaves out shows through from
the frames before it.  The encoder is a loop over Pillow's GIF frame writer
(``GifImagePlugin.getheader`` / ``getdata``) rather than ``save_all``, which
keeps every whole frame in memory until the end: here two frames are held
at a time, so the longest Kauda Baji game (thousands of moves) costs no
more memory than a short one.

The layers that never change (a board's grid, its key) are not drawn once
and reused: each renderer draws a whole board from a view in a few
milliseconds (its static pieces already cached), and the frame difference
stores those layers once anyway, so splitting the renderers into layers
would save little time and no bytes.

**The budget.**  A replay must fit Discord's 10 MB upload limit for bots.
:func:`encode_replay` aims at :data:`BUDGET` (8 MB): it keeps at most
:data:`MAX_FRAMES` frames, and when the file would still be too big it
stops early, keeps fewer frames (evenly spaced; the first and last always
stay), and below :data:`MIN_FRAMES` frames shrinks the image instead, never
failing.  The counter says which move each frame shows, so a sampled
replay says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from io import BytesIO
from typing import Any, Final, Protocol

from PIL import GifImagePlugin, Image, ImageChops

from renderers.common import (
    DEFAULT_THEME,
    Canvas,
    Theme,
    fill_names,
    fit_text,
    min_text_size,
    title_band,
    wrap_text,
)

BUDGET: Final = 8_000_000
"""Bytes a replay aims at: under Discord's 10 MB for bots, with room to spare."""
DISCORD_LIMIT: Final = 10 * 1024 * 1024
FRAME_MS: Final = 1200
START_MS: Final = 2000
LAST_MS: Final = 4000
MAX_FRAMES: Final = 600
"""About twelve minutes of replay: more is not watched, only waited for."""
MIN_FRAMES: Final = 60
"""Below this many frames a replay shrinks its image instead of losing moves."""
MIN_SCALE: Final = 0.35
MAX_ASPECT: Final = 1.25
"""A frame is at most this many times as tall as it is wide, as every image
the bot posts (docs/ARCHITECTURE.md, "Boards that fit the chat"): the
headline band over a tall board widens the canvas instead."""
HEADLINE_LINES: Final = 2
_TRANSPARENT: Final = 255
"""The palette index that means "unchanged": the palette's other 255 hold colours."""


class ReplayFrame(Protocol):
    """What a frame needs to be drawn (:class:`bot.replay.Frame` is one)."""

    @property
    def move(self) -> int: ...
    @property
    def view(self) -> Any: ...
    @property
    def lines(self) -> tuple[str, ...]: ...
    @property
    def over(self) -> bool: ...


class BoardDrawer(Protocol):
    def board(
        self, view: Any, *, names: Sequence[str], theme: Theme = DEFAULT_THEME
    ) -> Image.Image: ...


@dataclass(frozen=True)
class Encoded:
    """An encoded replay and what it took to fit the budget."""

    data: bytes
    frames: int
    """Frames kept (identical neighbours merge into one GIF frame)."""
    of: int
    """Frames given."""
    scale: float
    """1.0: each board at its own size."""
    attempts: int

    @property
    def sampled(self) -> bool:
        return self.frames < self.of


def counter(frame: ReplayFrame, last_move: int) -> str:
    if frame.move == 0:
        return "Start"
    return f"Move {frame.move} of {last_move}" + (" · end" if frame.over else "")


def frame_image(
    renderer: BoardDrawer,
    frame: ReplayFrame,
    names: Sequence[str],
    last_move: int,
    *,
    theme: Theme = DEFAULT_THEME,
    board_size: tuple[int, int] | None = None,
) -> Image.Image:
    """One frame: the headline band over the game's public board, on a
    canvas for a board of ``board_size`` (the largest board of the replay:
    a board whose height changes during a game keeps one frame size)."""
    filled = getattr(renderer, "filled_board", None)
    if filled is not None and board_size is not None:
        # A board whose height changes with the phase fills the frame.
        board = filled(frame.view, names=names, theme=theme, height=board_size[1])
    else:
        board = renderer.board(frame.view, names=names, theme=theme)
    width, height = board_size or board.size
    width, height = max(width, board.width), max(height, board.height)
    size = min_text_size(width) + 6
    margin = 24
    line_h = size + 10
    band = 2 * 14 + HEADLINE_LINES * line_h + 3
    # The band makes a tall board taller: widen the canvas (board centred)
    # rather than post a frame the chat shows too small to read.
    width = max(width, math.ceil((band + height) / MAX_ASPECT))
    c = Canvas(width, band + height, theme=theme)
    title_band(c, band)
    box = c.pill(
        (c.width - margin, band // 2),
        counter(frame, last_move),
        size=size - 4,
        fill=theme.grid,
        ink=theme.ink,
        anchor="r",
    )
    width = box[0] - 2 * margin
    headline = fill_names(" ".join(line for line in frame.lines if line), names)
    if not headline:
        headline = "The game begins." if frame.move == 0 else ""
    lines = wrap_text(headline, size, width, bold=True)
    if len(lines) > HEADLINE_LINES:
        rest = " ".join(lines[HEADLINE_LINES - 1 :])
        lines = [*lines[: HEADLINE_LINES - 1], fit_text(rest + " …", size, width, bold=True)]
    top = (band - len(lines) * line_h) // 2
    for i, line in enumerate(lines):
        c.text((margin, top + i * line_h), line, size=size, fill=theme.ink, anchor="la", bold=True)
    c.image.paste(board, ((c.width - board.width) // 2, band))
    return c.image


def sample(count: int, keep: int) -> list[int]:
    """``keep`` indices of ``count`` frames, evenly spaced, first and last kept."""
    if keep >= count:
        return list(range(count))
    if keep <= 2:
        return sorted({0, count - 1})
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


class _OverBudget(Exception):
    def __init__(self, written: int, size: int) -> None:
        self.written, self.size = written, size


def _palette(images: Sequence[Image.Image]) -> Image.Image:
    """One palette of 255 colours for every frame (index 255 stays free for
    "unchanged"), from a strip of the sample frames, every third pixel."""
    width = max(im.width for im in images)
    height = sum(im.height for im in images)
    strip = Image.new("RGB", (width, height))
    y = 0
    for im in images:
        strip.paste(im, (0, y))
        y += im.height
    strip = strip.resize((max(1, width // 3), max(1, height // 3)), Image.Resampling.NEAREST)
    return strip.quantize(_TRANSPARENT, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _write_gif(
    images: Iterator[tuple[Image.Image, int]], palette: Image.Image, budget: int
) -> tuple[bytes, int]:
    """Stream ``(rgb image, milliseconds)`` into a GIF: frame differences over
    one palette, at most two frames held.  :class:`_OverBudget` as soon as the
    file passes ``budget``."""
    out = BytesIO()
    previous: Image.Image | None = None
    pending: tuple[Image.Image, tuple[int, int], int] | None = None
    written = 0

    def flush() -> None:
        nonlocal written
        assert pending is not None
        im, offset, ms = pending
        params: dict[str, Any] = {"duration": ms, "disposal": 1}
        if written:
            params["transparency"] = _TRANSPARENT
        for chunk in GifImagePlugin.getdata(im, offset, **params):
            out.write(chunk)
        written += 1
        if out.tell() > budget:
            raise _OverBudget(written, out.tell())

    for rgb, ms in images:
        frame = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
        if previous is None:
            header, _ = GifImagePlugin.getheader(frame, None, {"loop": 0})
            for chunk in header:
                out.write(chunk)
            pending = (frame, (0, 0), ms)
            previous = frame
            continue
        changed = ImageChops.difference(frame, previous)
        bbox = changed.getbbox()
        assert pending is not None
        if bbox is None:
            im, offset, held = pending
            pending = (im, offset, held + ms)  # the same picture, held longer
            continue
        flush()
        patch = frame.crop(bbox)
        same = changed.crop(bbox).point([255, *(0,) * 255], "1")
        patch.paste(_TRANSPARENT, mask=same)
        pending = (patch, bbox[:2], ms)
        previous = frame
    if pending is not None:
        flush()
    out.write(b";")
    return out.getvalue(), written


def encode_replay(
    renderer: BoardDrawer,
    frames: Sequence[ReplayFrame],
    names: Sequence[str],
    *,
    budget: int = BUDGET,
    max_frames: int = MAX_FRAMES,
    theme: Theme = DEFAULT_THEME,
) -> Encoded:
    """The frames as an animated GIF of at most ``budget`` bytes (see the
    module's docstring: sampled, then shrunk, never refused)."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    last_move = frames[-1].move
    keep = min(len(frames), max_frames)
    scale = 1.0
    attempts = 0
    while True:
        attempts += 1
        chosen = [frames[i] for i in sample(len(frames), keep)]
        # One canvas for all: the largest board drawn (a board's height may
        # change with the phase); drawing a board is a few milliseconds.
        boards = [renderer.board(f.view, names=names, theme=theme).size for f in chosen]
        board_size = (max(w for w, _ in boards), max(h for _, h in boards))

        def drawn(
            chosen: list[ReplayFrame] = chosen,
            scale: float = scale,
            board_size: tuple[int, int] = board_size,
        ) -> Iterator[tuple[Image.Image, int]]:
            for i, frame in enumerate(chosen):
                image = frame_image(
                    renderer, frame, names, last_move, theme=theme, board_size=board_size
                )
                if scale < 1.0:
                    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
                    image = image.resize(size, Image.Resampling.LANCZOS)
                ms = START_MS if i == 0 else LAST_MS if i == len(chosen) - 1 else FRAME_MS
                if len(chosen) == 1:
                    ms = LAST_MS
                yield image, ms

        sample_images = [
            image for image, _ in drawn([chosen[0], chosen[len(chosen) // 2], chosen[-1]], scale)
        ]
        palette = _palette(sample_images)
        try:
            data, written = _write_gif(drawn(), palette, budget)
        except _OverBudget as over:
            # Project the whole file from what was written, and aim 10 % under.
            projected = over.size * len(chosen) / max(1, over.written)
            ratio = budget / projected * 0.9
            # Fewer moves first: a shrunk frame's blended edges cost the
            # GIF more bytes than the pixels it saves (a 561-move Sangram
            # game shrunk to 0.6 still kept only 63 frames, drawn in twice
            # the time), so shrinking waits until MIN_FRAMES.
            if keep > MIN_FRAMES:
                keep = max(MIN_FRAMES, min(keep - 1, math.floor(keep * ratio)))
            elif scale > MIN_SCALE:
                scale = max(MIN_SCALE, scale * math.sqrt(ratio))
            elif keep > 2:
                keep = max(2, min(keep - 1, math.floor(keep * ratio)))
            else:
                raise ValueError(f"even two frames do not fit in {budget} bytes") from None
            continue
        return Encoded(data, written, len(frames), scale, attempts)
