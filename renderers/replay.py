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
keeps every whole frame in memory until the end: here three are held at
most.

**Fast enough to wait for** (issue 31: any game's replay within 5 s of
one core; the longest seeded Kauda Baji game took 27 s).  A frame costs
about 25 ms, most of it the game's own board (5-13 ms) and the GIF's LZW
over the changed rectangle (about 8 ms), so the time is the number of
frames: a replay keeps at most :data:`MAX_FRAMES`, evenly spaced (the
counter says which move each shows, and the message that the replay was
sampled).  Each board is drawn once: the canvas starts at the size of the
first, middle and last boards (drawn for the palette anyway) and grows
when a taller board comes (the GIF's screen grows; the first frame is
written again over all of it at the end), rather than every board being
drawn once more to measure it first.  A board that would widen the canvas
(a tall board in a narrow game, :data:`MAX_ASPECT`) is rare: then every
board is measured and the frames laid out once more.  The band and the
board are mapped onto the palette apart, which gives the same pixels as
mapping the whole frame (the mapping is pixel by pixel).

**The budget.**  A replay must fit Discord's 10 MB upload limit for bots.
:func:`encode_replay` aims at :data:`BUDGET` (8 MB).  While it writes, it
projects the whole file from the frames written so far, and stops early
when the projection is well over the budget; it then keeps fewer frames
(evenly spaced; the first and last always stay), and below
:data:`MIN_FRAMES` frames shrinks the image instead, never failing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from io import BytesIO
from typing import Any, Final, Protocol

from PIL import GifImagePlugin, Image, ImageChops

from bot.i18n import DEFAULT, localize, t
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
MAX_FRAMES: Final = 100
"""About two minutes of replay at :data:`FRAME_MS`, and about 2.5 s of one
core to draw at 25 ms a frame, so that the longest game's replay is drawn
within 5 s: a longer game shows every k-th move (issue 31)."""
MIN_FRAMES: Final = 60
"""Below this many frames a replay shrinks its image instead of losing moves."""
MIN_SCALE: Final = 0.35
MAX_ASPECT: Final = 1.25
"""A frame is at most this many times as tall as it is wide, as every image
the bot posts (docs/ARCHITECTURE.md, "Boards that fit the chat"): the
headline band over a tall board widens the canvas instead."""
HEADLINE_LINES: Final = 2
EARLY_FRAMES: Final = 12
"""Frames written before the projected size may stop an encoding early."""
EARLY_MARGIN: Final = 1.15
"""An encoding stops early when its projected size passes the budget by this much."""
_TRANSPARENT: Final = 255
"""The palette index that means "unchanged": the palette's other 255 hold colours."""
_MARGIN: Final = 24


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
    @property
    def folded(self) -> int: ...


class BoardDrawer(Protocol):
    def board(
        self, view: Any, *, names: Sequence[str], theme: Theme = DEFAULT_THEME, lang: str = "en"
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
    capped: bool = False
    """Frames were left out for ``max_frames`` alone (the budget took none)."""

    @property
    def sampled(self) -> bool:
        return self.frames < self.of


def counter(frame: ReplayFrame, last_move: int, lang: str = "en") -> str:
    """The frame's pill: ``Start``, ``Move 12 of 80``, ``Move 80 of 80 · end``."""
    if frame.move == 0:
        # "Start" alone is a button's word elsewhere (Hindi: "begin!"); here
        # it names the position before the first move.
        return "Start" if lang == DEFAULT else t(lang, "Start of the game")
    if frame.over:
        return t(lang, "Move {n} of {last} · end", n=frame.move, last=last_move)
    return t(lang, "Move {n} of {last}", n=frame.move, last=last_move)


@dataclass(frozen=True)
class _Layout:
    """A frame's geometry for boards of at most ``board_size``."""

    width: int
    height: int
    band: int
    board_size: tuple[int, int]

    @classmethod
    def of(cls, board_size: tuple[int, int]) -> _Layout:
        width, height = board_size
        band = 2 * 14 + HEADLINE_LINES * (_text_size(width) + 10) + 3
        # The band makes a tall board taller: widen the canvas (board centred)
        # rather than post a frame the chat shows too small to read.
        width = max(width, math.ceil((band + height) / MAX_ASPECT))
        return cls(width, band + height, band, board_size)

    def board_at(self, board: tuple[int, int]) -> tuple[int, int]:
        return (self.width - board[0]) // 2, self.band


def _text_size(board_width: int) -> int:
    return min_text_size(board_width) + 6


def headline_lines(
    frame: ReplayFrame, names: Sequence[str], size: int, width: int, lang: str = "en"
) -> list[str]:
    """The frame's headline in ``lang`` (each line an engine's message,
    through the catalog) wrapped to at most :data:`HEADLINE_LINES` lines of
    ``width`` pixels: when it is longer, the lines of the hidden moves folded
    into the frame are left out first (the reveal names them all), then the
    rest is cut with an ellipsis."""
    lines: list[str] = []
    for start in (0, frame.folded) if frame.folded else (0,):
        said = " ".join(localize(line, lang) for line in frame.lines[start:] if line)
        headline = fill_names(said, names, lang)
        if not headline and frame.move == 0:
            headline = t(lang, "The game begins.")
        lines = wrap_text(headline, size, width, bold=True)
        if len(lines) <= HEADLINE_LINES:
            return lines
    rest = " ".join(lines[HEADLINE_LINES - 1 :])
    return [*lines[: HEADLINE_LINES - 1], fit_text(rest + " …", size, width, bold=True)]


def _band(
    frame: ReplayFrame,
    names: Sequence[str],
    last_move: int,
    layout: _Layout,
    theme: Theme,
    lang: str = "en",
) -> Image.Image:
    """The headline band of a frame: what happened, and the counter."""
    size = _text_size(layout.board_size[0])
    line_h = size + 10
    c = Canvas(layout.width, layout.band, theme=theme, lang=lang)
    title_band(c, layout.band)
    box = c.pill(
        (c.width - _MARGIN, layout.band // 2),
        counter(frame, last_move, lang),
        size=size - 4,
        fill=theme.grid,
        ink=theme.ink,
        anchor="r",
    )
    lines = headline_lines(frame, names, size, box[0] - 2 * _MARGIN, lang)
    top = (layout.band - len(lines) * line_h) // 2
    for i, line in enumerate(lines):
        c.text((_MARGIN, top + i * line_h), line, size=size, fill=theme.ink, anchor="la", bold=True)
    return c.image


def frame_image(
    renderer: BoardDrawer,
    frame: ReplayFrame,
    names: Sequence[str],
    last_move: int,
    *,
    theme: Theme = DEFAULT_THEME,
    board_size: tuple[int, int] | None = None,
    lang: str = "en",
) -> Image.Image:
    """One frame: the headline band over the game's public board, on a
    canvas for a board of ``board_size`` (the largest board of the replay:
    a board whose height changes during a game keeps one frame size); its
    words in ``lang``."""
    filled = getattr(renderer, "filled_board", None)
    if filled is not None and board_size is not None:
        # A board whose height changes with the phase fills the frame.
        board = filled(frame.view, names=names, theme=theme, height=board_size[1], lang=lang)
    else:
        board = renderer.board(frame.view, names=names, theme=theme, lang=lang)
    width, height = board_size or board.size
    layout = _Layout.of((max(width, board.width), max(height, board.height)))
    image = Image.new("RGB", (layout.width, layout.height), theme.background)
    image.paste(_band(frame, names, last_move, layout, theme, lang), (0, 0))
    image.paste(board, layout.board_at(board.size))
    return image


def sample(count: int, keep: int) -> list[int]:
    """``keep`` indices of ``count`` frames, evenly spaced, first and last kept."""
    if keep >= count:
        return list(range(count))
    if keep <= 2:
        return sorted({0, count - 1})
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


class _OverBudget(Exception):
    def __init__(self, projected: float) -> None:
        self.projected = projected


class _Wider(Exception):
    """A board needs a wider canvas than the frames written so far (a tall
    board widens the canvas, :data:`MAX_ASPECT`): the frames are laid out
    again on it."""

    def __init__(self, board_size: tuple[int, int], *, measured: bool = True) -> None:
        self.board_size = board_size
        self.measure_all = measured


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


def _mapped(image: Image.Image, palette: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _padded(image: Image.Image, size: tuple[int, int], index: int) -> Image.Image:
    """``image`` (on the palette) at its top left of ``size``, the rest ``index``."""
    out = Image.new("P", size, index)
    out.putpalette(image.getpalette() or [])
    out.paste(image, (0, 0))
    return out


def _write_gif(
    images: Iterator[tuple[Image.Image, int]], count: int, budget: int, background: int
) -> tuple[bytes, int]:
    """Stream ``count`` ``(image on the palette, milliseconds)`` into a GIF:
    frame differences over one palette, three frames held at most (the one
    drawn, the one before it, and the first).
    :class:`_OverBudget` as soon as the file passes ``budget``, or its size
    projected from the frames written so far passes it by :data:`EARLY_MARGIN`.

    A frame may be larger than the ones before it (a taller board than any
    drawn yet): the logical screen grows, the new area counts as changed
    (its pixels are compared with :data:`_TRANSPARENT`, which no colour
    has), and at the end the header says the final size and the first
    frame is written again over the whole screen, ``background`` below."""
    out = BytesIO()
    previous: Image.Image | None = None
    pending: tuple[Image.Image, tuple[int, int], int] | None = None
    written = 0
    first: tuple[Image.Image, dict[str, Any], int, int] | None = None
    """The first frame, its parameters, and where its bytes start and end."""

    def flush() -> None:
        nonlocal written, first
        assert pending is not None
        im, offset, ms = pending
        params: dict[str, Any] = {"duration": ms, "disposal": 1}
        if written:
            params["transparency"] = _TRANSPARENT
        start = out.tell()
        for chunk in GifImagePlugin.getdata(im, offset, **params):
            out.write(chunk)
        written += 1
        size = out.tell()
        if first is None:
            first = (im, params, start, size)
        # The frames still to come, as large as the differences so far.
        projected = size + (size - first[3]) / max(1, written - 1) * (count - written)
        if size > budget:
            raise _OverBudget(projected)
        if EARLY_FRAMES <= written < count and projected > budget * EARLY_MARGIN:
            raise _OverBudget(projected)

    for frame, ms in images:
        if previous is None:
            header, _ = GifImagePlugin.getheader(frame, None, {"loop": 0})
            for chunk in header:
                out.write(chunk)
            pending = (frame, (0, 0), ms)
            previous = frame
            continue
        if frame.size != previous.size:
            grown = (max(frame.width, previous.width), max(frame.height, previous.height))
            previous = _padded(previous, grown, _TRANSPARENT)
            if frame.size != grown:
                frame = _padded(frame, grown, background)
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
    data = out.getvalue()
    assert first is not None and previous is not None
    image, params, start, end = first
    if image.size != previous.size:
        # The screen grew: say so in the header (the logical screen's width
        # and height follow the six-byte signature), and draw the first
        # frame again over all of it.
        whole = _padded(image, previous.size, background)
        chunks = b"".join(GifImagePlugin.getdata(whole, (0, 0), **params))
        size = previous.width.to_bytes(2, "little") + previous.height.to_bytes(2, "little")
        data = data[:6] + size + data[10:start] + chunks + data[end:]
        if len(data) > budget:
            raise _OverBudget(len(data))
    return data, written


def encode_replay(
    renderer: BoardDrawer,
    frames: Sequence[ReplayFrame],
    names: Sequence[str],
    *,
    budget: int = BUDGET,
    max_frames: int = MAX_FRAMES,
    theme: Theme = DEFAULT_THEME,
    lang: str = "en",
) -> Encoded:
    """The frames as an animated GIF of at most ``budget`` bytes (see the
    module's docstring: sampled, then shrunk, never refused), its words in
    ``lang``."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    last_move = frames[-1].move
    capped = len(frames) > max_frames
    chosen = [frames[i] for i in sample(len(frames), max_frames)]

    # The palette, from the first, middle and last frames, each on a canvas
    # of its own board's size (only their colours count); those boards
    # also give the canvas its first size.
    ends = sorted({0, len(chosen) // 2, len(chosen) - 1})
    drawn = {i: renderer.board(chosen[i].view, names=names, theme=theme, lang=lang) for i in ends}
    samples = []
    for i in ends:
        layout = _Layout.of(drawn[i].size)
        image = Image.new("RGB", (layout.width, layout.height), theme.background)
        image.paste(_band(chosen[i], names, last_move, layout, theme, lang), (0, 0))
        image.paste(drawn[i], layout.board_at(drawn[i].size))
        samples.append(image)
    palette = _palette(samples)
    first_size = (max(b.width for b in drawn.values()), max(b.height for b in drawn.values()))
    background = _mapped(Image.new("RGB", (1, 1), theme.background), palette).getpixel((0, 0))
    assert isinstance(background, int)

    # Set for a renderer whose board fills a taller frame (``filled_board``).
    filled: Callable[..., Image.Image] | None = (
        getattr(renderer, "filled_board", None)
        if getattr(renderer, "draw_filled", None) is not None
        else None
    )

    def stream(kept: list[int], scale: float) -> Iterator[tuple[Image.Image, int]]:
        """Each kept frame on the palette: the band and the board mapped
        apart (the same pixels as mapping the whole frame), on a canvas as
        large as the largest board drawn so far."""
        size = first_size
        width = _Layout.of(size).width
        for n, index in enumerate(kept):
            frame = chosen[index]
            if filled is not None:
                # A board that fills its frame (Sangram: the last round's
                # battlefield between rounds) is drawn for the canvas as it
                # stands; one taller than the canvas lays the frames out
                # again at its height, so every frame is filled alike.
                board = filled(frame.view, names=names, theme=theme, height=size[1], lang=lang)
                if board.height > size[1]:
                    raise _Wider((max(size[0], board.width), board.height), measured=False)
            elif index in drawn:
                board = drawn[index]
            else:
                board = renderer.board(frame.view, names=names, theme=theme, lang=lang)
            size = (max(size[0], board.width), max(size[1], board.height))
            layout = _Layout.of(size)
            if layout.width != width:
                # A taller canvas grows the GIF's screen (_write_gif), a
                # wider one would shift the board and the band under it.
                raise _Wider(size)
            canvas = Image.new("P", (layout.width, layout.height), background)
            canvas.putpalette(palette.getpalette() or [])
            band = _band(frame, names, last_move, layout, theme, lang)
            canvas.paste(_mapped(band, palette))
            canvas.paste(_mapped(board, palette), layout.board_at(board.size))
            if scale < 1.0:
                small = (max(1, round(canvas.width * scale)), max(1, round(canvas.height * scale)))
                canvas = _mapped(
                    canvas.convert("RGB").resize(small, Image.Resampling.LANCZOS), palette
                )
            ms = START_MS if n == 0 else LAST_MS if n == len(kept) - 1 else FRAME_MS
            yield canvas, LAST_MS if len(kept) == 1 else ms

    keep = len(chosen)
    scale = 1.0
    attempts = 0
    while True:
        attempts += 1
        kept = sample(len(chosen), keep)
        try:
            data, written = _write_gif(stream(kept, scale), len(kept), budget, background)
        except _Wider as wider:
            if not wider.measure_all:
                first_size = wider.board_size
                continue
            # Rare (a tall board in a narrow game): measure every board
            # once, so the canvas is laid out once more and only once.
            sizes = [
                renderer.board(frame.view, names=names, theme=theme, lang=lang).size
                for frame in chosen
            ]
            first_size = (max(w for w, _ in sizes), max(h for _, h in sizes))
            continue
        except _OverBudget as over:
            # Aim 10 % under the budget: fewer frames each differ more.
            ratio = budget / over.projected * 0.9
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
        alone = capped and keep == len(chosen) and scale == 1.0  # the budget took none
        return Encoded(data, written, len(frames), scale, attempts, alone)
