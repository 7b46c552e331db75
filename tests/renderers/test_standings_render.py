"""The tournament standings image: sizes grow with the rows and stop at
MAX_ROWS (the rest counted in a footnote), long and odd names stay in their
column, a missing tie-break is drawn as a dash, dropped players are dimmed,
0 to 3 tie-break columns, readable text, a PNG of sane size, and speed."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

import renderers
from renderers.common import (
    DEFAULT_THEME,
    TABLE_MARGIN,
    TABLE_SUBTITLE_H,
    TABLE_TITLE_H,
    Box,
    Canvas,
    TextRecord,
    Theme,
    fit_text,
    min_text_size,
    record_text,
    safe_text,
    to_png,
)
from renderers.standings import (
    MAX_ROWS,
    WIDTH,
    StandingRow,
    format_points,
    render_standings,
)
from tests.renderers.images import same

MAX_PNG = 150 * 1024
TITLE = "Artaban — tournament #3"
SUBTITLE = "Swiss, after round 2 of 3"
TWO = ("Buchholz", "Sonneborn-Berger")
THREE = ("Buchholz", "Sonneborn-Berger", "Opp. points")
ODD_NAMES = (
    "\u200b\u202e",  # nothing drawable: shown as "Player"
    "שלום עולם",  # right-to-left, drawn in its own script
    "Z̷̢̛̤a̴̡̟l̶̨̰g̵̱̈o̸̞̓",  # zalgo: two marks per letter stay
    "M" * 200,
    "Bhima the Magnificent of Hastinapura and the Seven Rivers",
    "Élodie Ñuñez",
    "**bold** <@123> @everyone",
    "",
    "line\nbreak\ttab",
    "مرحبا Asha 🎉",
)
# Colours nothing else in the image has, to find what was drawn in them.
MARKED = Theme(ink=(255, 255, 255), muted=(255, 0, 255))


def rows(
    n: int,
    *,
    tiebreaks: int = 2,
    names: tuple[str, ...] = (),
    dropped: frozenset[int] = frozenset(),
) -> list[StandingRow]:
    out = []
    for i in range(n):
        values = (20.5 - i / 2, 12.25 - i / 3, 2.0 + i / 7)[:tiebreaks]
        out.append(
            StandingRow(
                rank=i + 1,
                name=names[i] if i < len(names) else f"Player {i + 1}",
                points=(2 * n - i) / 2,
                tiebreaks=values,
                games=3 + i % 2,
                byes=i % 2,
                dropped=i in dropped,
            )
        )
    return out


def heads(count: int) -> tuple[str, ...]:
    return THREE[:count]


def draw(
    data: list[StandingRow],
    *,
    title: str = TITLE,
    subtitle: str = SUBTITLE,
    tiebreak_names: tuple[str, ...] | None = None,
    theme: Theme = DEFAULT_THEME,
) -> tuple[Image.Image, list[TextRecord]]:
    names = tiebreak_names if tiebreak_names is not None else TWO
    with record_text() as records:
        image = render_standings(
            data, title=title, subtitle=subtitle, tiebreak_names=names, theme=theme
        )
    return image, records


@contextmanager
def text_boxes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Box]]]:
    """Every text drawn inside the block with the box it was drawn in (as
    :meth:`Canvas.text` returns it), the text being what was actually drawn
    after fitting."""
    boxes: list[tuple[str, Box]] = []
    original = Canvas.text

    def spy(self: Canvas, xy: tuple[float, float], text: str, **kwargs: Any) -> Box:
        box = original(self, xy, text, **kwargs)
        if kwargs.get("max_width") is not None:
            size = self.text_size(kwargs["size"])
            text = fit_text(text, size, kwargs["max_width"], kwargs.get("bold", False))
        boxes.append((text, box))
        return box

    with monkeypatch.context() as patch:
        patch.setattr(Canvas, "text", spy)
        yield boxes


def shown(name: str, drawn: list[str]) -> bool:
    """``name`` was drawn whole, or cut with an ellipsis to fit its column."""
    return name in drawn or any(
        t.endswith("\u2026") and len(t) > 1 and name.startswith(t[:-1]) for t in drawn
    )


def assert_readable(image: Image.Image, records: list[TextRecord]) -> None:
    assert records
    need = min_text_size(image.width)
    small = [(r.text, r.size) for r in records if r.size < need]
    assert not small, small
    assert {r.display_width for r in records} == {image.width}


def assert_inside_and_apart(image: Image.Image, boxes: list[tuple[str, Box]]) -> None:
    """Every text inside the image, and no two texts on top of each other."""
    drawn = [(text, box) for text, box in boxes if box[0] != box[2]]
    for text, (x0, y0, x1, y1) in drawn:
        assert min(x0, y0) >= 0 and x1 <= image.width and y1 <= image.height, (text, x0, x1)
    for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(drawn):
        for b, (bx0, by0, bx1, by1) in drawn[i + 1 :]:
            overlap = ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1
            assert not overlap, (a, b)


def marked_pixels(image: Image.Image, colour: tuple[int, int, int], box: Box) -> Box | None:
    """The bounding box of the pixels exactly ``colour`` inside ``box``."""
    region = image.crop(box).convert("RGB")
    mask = Image.new("L", region.size, 0)
    pixels = region.load()
    assert pixels is not None
    hits = mask.load()
    assert hits is not None
    for x in range(region.width):
        for y in range(region.height):
            if pixels[x, y] == colour:
                hits[x, y] = 255
    found = mask.getbbox()
    if found is None:
        return None
    return (box[0] + found[0], box[1] + found[1], box[0] + found[2], box[1] + found[3])


# ----------------------------------------------------------------- sizes


@pytest.mark.parametrize("n", [0, 1, 2, 3, 9, MAX_ROWS])
@pytest.mark.parametrize("count", [0, 2, 3])
def test_sizes_text_and_png(n: int, count: int) -> None:
    image, records = draw(rows(n, tiebreaks=count), tiebreak_names=heads(count))
    assert image.mode == "RGB" and image.width == WIDTH
    assert_readable(image, records)
    png = to_png(image)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) < MAX_PNG
    assert Image.open(io.BytesIO(png)).size == image.size
    texts = [r.text for r in records]
    assert "Artaban - tournament #3" in texts  # the em dash drawn as a hyphen
    assert SUBTITLE in texts
    assert ("No results yet" in texts) == (n == 0)
    assert all(str(k) in texts for k in range(1, n + 1))
    assert not any("more" in t for t in texts)
    assert f"{n} player" in " ".join(texts)


def test_height_grows_with_rows_and_stops_at_max_rows() -> None:
    heights = [draw(rows(n))[0].height for n in (1, 2, 5, MAX_ROWS)]
    assert heights == sorted(heights) and len(set(heights)) == len(heights)
    # No rows: the note, about two rows high.
    assert heights[0] < draw([])[0].height < heights[2]
    capped, records = draw(rows(MAX_ROWS + 8))
    more = draw(rows(MAX_ROWS + 1))[0]
    # Past MAX_ROWS only the footnote is added, whatever the count.
    assert capped.size == more.size and capped.height > heights[-1]
    assert capped.height < 3 * WIDTH
    texts = [r.text for r in records]
    assert "\u2026and 8 more (see the text table)" in texts
    assert f"Player {MAX_ROWS}" in texts and f"Player {MAX_ROWS + 1}" not in texts
    assert "40 players" in texts
    assert_readable(capped, records)


def test_every_field_is_drawn() -> None:
    data = [
        StandingRow(
            rank=1,
            name="Asha",
            points=2.0,
            tiebreaks=(7.5, 3.0, 2.3333),
            games=5,
            byes=4,
        )
    ]
    _, records = draw(data, tiebreak_names=THREE)
    texts = {r.text for r in records}
    # rank, name, points, the three tie-breaks, games, byes
    assert {"1", "Asha", "2", "7½", "3", "2.33", "5", "4"} <= texts
    assert {"#", "Player", "Points", "Buchholz", "Games", "Byes"} <= texts


# ----------------------------------------------------------------- names


def test_long_and_odd_names_fit_their_column(monkeypatch: pytest.MonkeyPatch) -> None:
    for count in (0, 3):
        data = rows(len(ODD_NAMES), tiebreaks=count, names=ODD_NAMES, dropped=frozenset({3}))
        with text_boxes(monkeypatch) as boxes:
            image, records = draw(data, tiebreak_names=heads(count))
        assert_readable(image, records)
        assert_inside_and_apart(image, boxes)
        drawn = [text for text, _ in boxes]
        for name in (
            "Z\u0337\u0322a\u0334\u0321l\u0336\u0328g\u0335\u0331o\u0338\u031e",
            "Élodie Ñuñez",
            "שלום עולם",
            safe_text("مرحبا Asha 🎉"),  # the emoji drawn, or its stand-in
            "**bold** <@123> @everyone",
            "line break tab",
        ):
            assert shown(name, drawn), (name, count)
        # Formatting characters alone and empty names have nothing drawable left.
        assert drawn.count("Player") >= 1 + 2
        long_name = [t for t in drawn if t.startswith("MM")]
        assert len(long_name) == 1 and long_name[0].endswith("\u2026")
        assert "(dropped)" in drawn


def test_long_titles_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    title = "Sangram — the very long tournament of the Seven Rivers " * 5
    subtitle = "Swiss, after round 2 of 3, " * 10
    with text_boxes(monkeypatch) as boxes:
        image, records = draw(rows(3), title=title, subtitle=subtitle)
    assert_readable(image, records)
    assert_inside_and_apart(image, boxes)
    fitted = [t for t, _ in boxes if t.startswith(("Sangram", "Swiss"))]
    assert len(fitted) == 2 and all(t.endswith("\u2026") for t in fitted)
    for _, box in boxes:
        assert box[2] <= WIDTH - TABLE_MARGIN
    # Nothing drawable at all: a fallback title, no crash.
    _, records = draw(rows(1), title="\u200b\u202e", subtitle="")
    assert "Tournament" in [r.text for r in records]


# ----------------------------------------------------------------- cells


def test_missing_tiebreak_is_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    base = StandingRow(rank=5, name="Asha", points=1.0, tiebreaks=(3.5, 0.0), games=2, byes=1)
    names = ("Buchholz", "Avg. place")
    found = {}
    for label, value in (("dash", math.inf), ("zero", 0.0)):
        row = replace(base, tiebreaks=(3.5, value))
        with text_boxes(monkeypatch) as boxes:
            image, records = draw([row], tiebreak_names=names, theme=MARKED)
        texts = [r.text for r in records]
        assert not any("inf" in t for t in texts)
        head = next(box for text, box in boxes if text == "Avg. place")
        # The cell under the head, right-aligned to it, across the row.
        cell = (head[2] - 60, head[3] + 8, head[2] + 1, image.height)
        found[label] = (marked_pixels(image, MARKED.muted, cell), texts)
    dash, texts = found["dash"]
    assert dash is not None, "no dash drawn"
    x0, y0, x1, y1 = dash
    assert 12 <= x1 - x0 <= 20 and 2 <= y1 - y0 <= 6, dash  # a short flat bar
    assert texts.count("0") == 0
    zero, texts = found["zero"]
    assert zero is None and "0" in texts


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2.0, "2"),
        (1.5, "1½"),
        (0.5, "½"),
        (0.0, "0"),
        (-0.0, "0"),
        (10.0, "10"),
        (12.5, "12½"),
        (1.3333, "1.33"),
        (1.6667, "1.67"),
        (2.25, "2¼"),  # quarters as fractions too (issue 31)
        (2.1, "2.1"),
        (0.75, "¾"),
        (7.75, "7¾"),
        (float("inf"), "-"),
        (3.999, "4"),
        (0.004, "0"),
        (-0.001, "0"),
        (-0.5, "-½"),
        (-1.5, "-1½"),
    ],
)
def test_format_points(value: float, text: str) -> None:
    assert format_points(value) == text


def test_halves_are_drawn_as_a_fraction() -> None:
    row = StandingRow(rank=5, name="Asha", points=1.5, tiebreaks=(), games=2, byes=0)
    image, records = draw([row], tiebreak_names=())
    texts = [r.text for r in records]
    # The font has no "½": a whole, a raised 1, a lowered 2 (and a slash).
    assert "1½" not in texts and texts.count("1") == 2 and "2" in texts
    whole, _ = draw([replace(row, points=1.0)], tiebreak_names=())
    half, _ = draw([replace(row, points=0.5)], tiebreak_names=())
    assert not same(image, whole) and not same(image, half) and not same(whole, half)
    assert_readable(image, records)


def test_dropped_rows_are_dimmed_and_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    row = StandingRow(rank=5, name="Asha", points=2.0, tiebreaks=(4.0, 1.5), games=3, byes=1)
    top = TABLE_TITLE_H + TABLE_SUBTITLE_H
    ink = {}
    for dropped in (False, True):
        with text_boxes(monkeypatch) as boxes:
            image, records = draw([replace(row, dropped=dropped)], theme=MARKED)
        assert_readable(image, records)
        assert_inside_and_apart(image, boxes)
        ink[dropped] = marked_pixels(image, MARKED.ink, (0, top, image.width, image.height))
        drawn = dict(boxes)
        assert ("(dropped)" in drawn) == dropped
        if dropped:
            assert drawn["(dropped)"][0] > drawn["Asha"][2]  # after the name
    # Below the title only the rows use the ink; a dropped row does not.
    assert ink[False] is not None and ink[True] is None


# ----------------------------------------------------------------- columns


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_zero_to_three_tiebreak_columns(count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    data = rows(6, tiebreaks=count, dropped=frozenset({2}))
    with text_boxes(monkeypatch) as boxes:
        image, records = draw(data, tiebreak_names=heads(count))
    assert_readable(image, records)
    assert_inside_and_apart(image, boxes)
    texts = {text for text, _ in boxes}
    assert {"#", "Player", "Points", "Games", "Byes"} <= texts
    assert ("Buchholz" in texts) == (count >= 1)
    assert ("12¼" in texts) == (count >= 2)  # Sonneborn-Berger of the first
    assert ("2.14" in texts) == (count >= 3)  # Opp. points of the second
    # A long head is broken over two lines when the names need the room.
    if count >= 2:
        assert {"Sonneborn-", "Berger"} <= texts
    # Numbers stay right of the names.
    name_right = max(box[2] for text, box in boxes if text.startswith("Player "))
    points_left = min(box[0] for text, box in boxes if text in {"Points"})
    assert name_right < points_left


def test_columns_change_the_image() -> None:
    zero = draw(rows(4, tiebreaks=0), tiebreak_names=())[0]
    three = draw(rows(4, tiebreaks=3), tiebreak_names=THREE)[0]
    assert not same(zero, three)


def test_tiebreaks_must_match_their_columns() -> None:
    with pytest.raises(ValueError, match="tie-breaks"):
        draw(rows(2, tiebreaks=2), tiebreak_names=("Buchholz",))
    with pytest.raises(ValueError, match="at most 3"):
        draw(rows(2, tiebreaks=0), tiebreak_names=("a", "b", "c", "d"))


# ----------------------------------------------------------------- the whole image


def test_different_data_different_image() -> None:
    base = rows(5)
    image = draw(base)[0]
    assert same(image, draw(rows(5))[0])  # deterministic
    variants = [
        [replace(base[0], name="Someone else"), *base[1:]],
        [replace(base[0], points=4.5), *base[1:]],
        [replace(base[0], tiebreaks=(1.0, 12.25)), *base[1:]],
        [replace(base[0], tiebreaks=(20.5, math.inf)), *base[1:]],
        [replace(base[0], games=9), *base[1:]],
        [replace(base[0], byes=2), *base[1:]],
        [replace(base[3], dropped=True) if i == 3 else r for i, r in enumerate(base)],
        base[:4],
    ]
    for variant in variants:
        assert not same(image, draw(variant)[0]), variant
    assert not same(image, draw(base, title="Sangram")[0])
    assert not same(image, draw(base, subtitle="Swiss, final")[0])


def test_theme_colours_are_used() -> None:
    light = Theme(background=(250, 250, 250), ink=(10, 10, 10), panel=(230, 230, 235))
    image = draw(rows(3), theme=light)[0]
    assert image.getpixel((2, image.height - 2)) == light.background
    assert image.getpixel((2, 2)) == light.panel


def test_worst_case_png_is_small() -> None:
    # Every row different, long names, halves and all columns: the most ink.
    data = [
        StandingRow(
            rank=i + 1,
            name=f"{chr(65 + i % 26)}{i} " + "Wxyz Qrst Mnop " * 14,
            points=i + 0.5,
            tiebreaks=(100.25 + i, 99.75 - i, math.inf if i % 3 else 3.33),
            games=100 + i,
            byes=i,
            dropped=i % 4 == 1,
        )
        for i in range(MAX_ROWS + 10)
    ]
    image, records = draw(data, tiebreak_names=THREE)
    assert_readable(image, records)
    assert len(to_png(image)) < MAX_PNG


def test_not_a_game_renderer() -> None:
    assert "standings" not in renderers.RENDERERS
