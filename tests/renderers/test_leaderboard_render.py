"""The leaderboard image (issue 11, item 3): rows of 0, 1 and 20 players,
long and odd names, every text readable at phone width, a different image
for different data, a PNG of sane size, and no game registry entry."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

import renderers
from renderers.common import DEFAULT_THEME, TextRecord, Theme, min_text_size, record_text, to_png
from renderers.leaderboard import (
    MAX_ROWS,
    WIDTH,
    LeaderboardRow,
    format_trend,
    render_leaderboard,
)
from tests.renderers.images import same

MAX_PNG = 150 * 1024
ODD_NAMES = (
    "Bhima the Magnificent of Hastinapura and the Seven Rivers",
    "**bold** <@123> @everyone",
    "Élodie Ñuñez",
    "\u200b\u202e",  # nothing of it is drawable: shown as "Player"
    "",
    "line\nbreak\ttab",
)


def rows(n: int, *, names: tuple[str, ...] = ()) -> list[LeaderboardRow]:
    out = []
    for i in range(n):
        name = names[i] if i < len(names) else f"Player {i + 1}"
        trend = (-1.5, 0.0, 2.25, -0.01)[i % 4]
        out.append(
            LeaderboardRow(
                rank=i + 1,
                name=name,
                rating=30.0 - 1.7 * i,
                games=3 + 2 * i,
                wins=i % 3,
                trend=trend,
            )
        )
    return out


def draw(
    data: list[LeaderboardRow], title: str = "Kauda Baji", theme: Theme = DEFAULT_THEME
) -> tuple[Image.Image, list[TextRecord]]:
    with record_text() as records:
        image = render_leaderboard(data, title=title, theme=theme)
    return image, records


def assert_readable(image: Image.Image, records: list[TextRecord]) -> None:
    assert records
    need = min_text_size(image.width)
    small = [(r.text, r.size) for r in records if r.size < need]
    assert not small, small
    assert {r.display_width for r in records} == {image.width}


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, MAX_ROWS])
def test_sizes_and_text(n: int) -> None:
    image, records = draw(rows(n))
    assert image.mode == "RGB" and image.width == WIDTH
    assert_readable(image, records)
    png = to_png(image)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) < MAX_PNG
    assert Image.open(io.BytesIO(png)).size == image.size
    texts = [r.text for r in records]
    assert "Kauda Baji" in texts
    if n == 0:
        assert "No rated games yet" in texts
    else:
        assert "No rated games yet" not in texts
        assert all(str(k) in texts for k in range(1, n + 1))
        assert (f"Top {n}" if n == MAX_ROWS else f"{n} player") in " ".join(texts)


def test_height_grows_with_rows_and_stops_at_twenty() -> None:
    heights = [draw(rows(n))[0].height for n in (1, 2, 5, MAX_ROWS)]
    assert heights == sorted(heights) and len(set(heights)) == 4
    # Twenty rows fit on one image a phone can scroll; more are not drawn.
    assert draw(rows(MAX_ROWS + 5))[0].size == draw(rows(MAX_ROWS))[0].size
    assert heights[-1] < 3 * WIDTH


def test_every_field_is_drawn() -> None:
    _, records = draw(rows(1, names=("Asha",)))
    texts = {r.text for r in records}
    # rank, name, rounded rating, games, wins, trend in whole points with its sign
    assert {"1", "Asha", "30", "3", "0", "-2"} <= texts
    assert {"#", "Player", "Rating", "Games", "Wins", "Last 5"} <= texts


def test_long_and_odd_names_fit_and_stay_readable() -> None:
    data = rows(len(ODD_NAMES), names=ODD_NAMES)
    image, records = draw(data)
    assert_readable(image, records)
    drawn = [r.text for r in records]
    # Only drawable characters reach the font; nothing is left blank.
    assert "Élodie Ñuñez" in drawn  # accents kept (fallback fonts)
    assert "**bold** <@123> @everyone" in drawn
    assert "line break tab" in drawn
    assert drawn.count("Player") >= 1 + 2  # the column head, the undrawable name, the empty one
    # The long name is cut to its column (Canvas.text fits it with an ellipsis).
    assert ODD_NAMES[0] in drawn


def test_different_data_different_image() -> None:
    base = rows(5)
    image = draw(base)[0]
    assert same(image, draw(rows(5))[0])  # deterministic
    variants = [
        [replace(base[0], name="Someone else"), *base[1:]],
        [replace(base[0], rating=12.0), *base[1:]],
        [replace(base[0], games=99), *base[1:]],
        [replace(base[0], wins=2), *base[1:]],
        [replace(base[0], trend=4.0), *base[1:]],
        [replace(base[0], trend=-4.0), *base[1:]],
        base[:4],
    ]
    for variant in variants:
        assert not same(image, draw(variant)[0]), variant[0]
    assert not same(image, draw(base, title="Sangram")[0])


def test_theme_colours_are_used() -> None:
    light = Theme(background=(250, 250, 250), ink=(10, 10, 10), panel=(230, 230, 235))
    image = draw(rows(3), theme=light)[0]
    assert image.getpixel((2, image.height - 2)) == light.background
    assert image.getpixel((2, 2)) == light.panel
    assert not same(image, draw(rows(3))[0])


def test_trend_words() -> None:
    assert format_trend(48.4) == "+48"
    assert format_trend(-31.6) == "-32"
    assert format_trend(0.0) == format_trend(0.4) == format_trend(-0.49) == "0"


def test_a_provisional_rating_is_marked_and_the_footnote_says_why() -> None:
    """Issue 31: a newcomer's rating reads ``1184?`` until enough rated games."""
    first = replace(rows(1, names=("Asha",))[0], rating=1184.0, provisional=True)
    _, records = draw([first, replace(rows(2)[1], rating=1100.0)])
    texts = [r.text for r in records]
    assert "1184?" in texts and "1100" in texts
    assert any("provisional" in t for t in texts)


def test_not_a_game_renderer() -> None:
    assert "leaderboard" not in renderers.RENDERERS
