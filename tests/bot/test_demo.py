"""``python -m bot demo``: the default gallery a newcomer opens, and the
README's showcase board."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from bot.demo import main
from bot.engines import ENGINES, get_engine
from bot.tools.demo import GALLERY_MAX_BYTES, GALLERY_MAX_IMAGES, run_demo, showcase


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag == "img" and found.get("src"):
            self.images.append(str(found["src"]))


@pytest.fixture(scope="module")
def gallery(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gallery")
    # An earlier full run's images must not stay behind, uncounted and unlisted.
    (out / "artaban").mkdir()
    (out / "artaban" / "001-board.png").write_bytes(b"old")
    return run_demo(out, seed=1)


def test_the_gallery_is_small(gallery: Path) -> None:
    images = sorted(gallery.rglob("*.png"))
    total = sum(p.stat().st_size for p in gallery.rglob("*") if p.is_file())
    # Every game at two players and at its largest table (one size for a
    # two-player game): start, middle and end boards and one private image,
    # plus the leaderboard and the standings.
    sizes = sum(len({2, get_engine(name).max_players}) for name in ENGINES)
    assert len(images) == 4 * sizes + 2
    assert len(images) < GALLERY_MAX_IMAGES and total < GALLERY_MAX_BYTES
    assert not (gallery / "artaban" / "001-board.png").exists()
    for path in images:
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 800, path
    # One replay per game (issue 21), animated, under the bot's upload limit.
    replays = sorted(gallery.rglob("*-replay.gif"))
    assert [p.parent.name for p in replays] == sorted(ENGINES)
    for path in replays:
        assert path.stat().st_size < 8_000_000, path
        with Image.open(path) as image:
            assert image.format == "GIF" and getattr(image, "n_frames", 1) > 10, path


def test_index_links_every_image_and_every_link_exists(gallery: Path) -> None:
    page = (gallery / "index.html").read_text(encoding="utf-8")
    parser = _Links()
    parser.feed(page)
    images = {
        p.relative_to(gallery).as_posix()
        for pattern in ("*.png", "*.gif")
        for p in gallery.rglob(pattern)
    }
    assert set(parser.images) == images and set(parser.links) >= images
    for link in parser.links + parser.images:
        assert not re.match(r"[a-z]+:|/", link), link  # relative, opens from disk
        assert (gallery / link).is_file(), link
    # Each picture has a caption, and every game and table size a heading.
    assert page.count("<figcaption>") == len(images)
    for name in ENGINES:
        engine = get_engine(name)
        for n in sorted({2, engine.max_players}):
            assert f"<h2>{engine.title}, {n} players</h2>" in page
    assert "leaderboard.png" in parser.images and "standings.png" in parser.images
    # Each result names the players, never a seat tag.
    assert "Result: " in page and "{p" not in page


def test_each_replay_caption_says_how_many_moves_a_frame_is(gallery: Path) -> None:
    """Issue 31: a long game's replay keeps about every k-th move to fit
    its budget; its caption says so, and "one frame a move" is said only of
    a replay that shows every move (the start, then each of the log's moves)."""
    page = (gallery / "index.html").read_text(encoding="utf-8")
    captions = dict(re.findall(r'<img src="([^"]+)" alt="([^"]*)"', page))
    seen = set()
    for path in sorted(gallery.rglob("*-replay.gif")):
        caption = captions[path.relative_to(gallery).as_posix()]
        log = path.with_name(path.name.replace("-replay.gif", "-log.txt"))
        lines = log.read_text(encoding="utf-8").splitlines()
        moves = sum(1 for line in lines if line[:3].isdigit())
        with Image.open(path) as image:
            frames = getattr(image, "n_frames", 1)
        said = re.search(r"\((\d+) moves\)|of its (\d+) moves", caption)
        assert said, caption
        counted = int(said.group(1) or said.group(2))
        if path.parts[-2] in {"chaturaji", "kauda_baji"}:  # nothing hidden: a frame a move
            assert counted == moves, (caption, moves)
        else:
            # Hidden moves in a row (set-ups, commits) are one step of the
            # replay, as its frame counter counts them (issue 31).
            assert 0 < counted <= moves, (caption, moves)
        if "one frame a move" in caption:
            assert frames == moves + 1, (path, caption, frames)
            seen.add("every move")
        else:
            assert f"in {frames} pictures, about one every " in caption, (caption, frames)
            seen.add("sampled")
    assert seen == {"every move", "sampled"}, seen  # both kinds, so both are checked


def test_the_gallery_is_seeded(tmp_path: Path) -> None:
    one = run_demo(tmp_path / "one", seed=4, games=["artaban"])
    two = run_demo(tmp_path / "two", seed=4, games=["artaban"])
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    for path in files:
        assert (one / path).read_bytes() == (two / path).read_bytes(), path


def test_showcase_is_the_galleries_mid_game_board(tmp_path: Path, gallery: Path) -> None:
    target = tmp_path / "docs" / "images" / "board.png"
    assert main(["--showcase", str(target)]) == 0
    data = target.read_bytes()
    assert data == showcase() and len(data) < 300_000
    assert data == (gallery / "kauda_baji" / "4p-middle-board.png").read_bytes()


def test_demo_all_is_still_every_move(tmp_path: Path) -> None:
    assert main(["--out", str(tmp_path), "--games", "chaturaji", "--players", "2", "--all"]) == 0
    boards = list((tmp_path / "chaturaji").glob("*-board.png"))
    assert len(boards) > 20 and not (tmp_path / "index.html").exists()
