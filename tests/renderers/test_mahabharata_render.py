"""Renderer tests for Mahabharata: views built by hand, and seeded random
playouts (2, 3 and 4 players) for the sizes of every image of a game."""

from __future__ import annotations

import ast
import copy
import io
import itertools
import random
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.engines.mahabharata import MahabharataEngine
from bot.engines.mahabharata_views import (
    DieView,
    FinalView,
    LastPickView,
    LeaderView,
    MahabharataView,
    PlayerView,
    ScreenView,
    SpaceView,
)
from renderers import RENDERERS, UnknownRenderer, get_renderer
from renderers.common import (
    DEFAULT_THEME,
    TextRecord,
    contrast,
    display_name,
    safe_text,
    to_png,
)
from renderers.mahabharata import (
    BOARD_WIDTH,
    PRIVATE_WIDTH,
    face_name,
    render_board,
    render_private,
    token_label,
)
from tests.renderers import images
from tests.renderers.images import (
    MAX_ASPECT,
    check_every_view,
    check_fits_chat,
    check_playout_fits_chat,
    render,
    same,
)

KINDS = ("chariot", "elephant", "cav1", "cav2", "cav3", "inf1", "inf2", "inf3", "inf4", "inf5")
BY_CLASS = {
    "C": ("chariot",),
    "E": ("elephant",),
    "H": ("cav1", "cav2", "cav3"),
    "I": ("inf1", "inf2", "inf3", "inf4", "inf5"),
}
LEADER_TABLE = {
    "Virata": (1, "CI"),
    "Satyaki": (2, "EHI"),
    "Dhrishtaketu": (3, "HII"),
    "Drupada": (4, "CHII"),
    "Shalya": (5, "EHII"),
    "Bhagadatta": (6, "EEHII"),
    "Jayadratha": (7, "CHHII"),
    "Kritavarma": (8, "CEHHII"),
    "Drona": (9, "CHHIII"),
    "Bhishma": (10, "CEHHIII"),
}
FIVE_LEADERS = ("Virata", "Satyaki", "Dhrishtaketu", "Bhagadatta", "Jayadratha")
WITH_BHISHMA = ("Bhishma", "Kritavarma", "Virata", "Satyaki")
DIE_KINDS = (
    "chariot",
    "chariot",
    "elephant",
    "elephant",
    "cavalry",
    "cavalry",
    "infantry",
    "infantry",
)
FACES = {
    "chariot": ("chariot",) * 5 + ("raja",),
    "elephant": ("elephant",) * 5 + ("raja",),
    "cavalry": ("cav1", "cav1", "cav2", "cav2", "cav3", "raja"),
    "infantry": ("inf1", "inf2", "inf3", "inf4", "inf5", "raja"),
}
NAMES = ("Asha", "Bhima the Magnificent of Hastinapura", "Chandra", "Devi")


def snake(elephant: int, n: int) -> tuple[int, ...]:
    forward = tuple((elephant + i) % n for i in range(n))
    return forward + tuple(reversed(forward))


def build_view(
    num_players: int = 4,
    phase: str = "draft",
    *,
    seed: int = 1,
    leaders: tuple[str, ...] = FIVE_LEADERS,
    fill: float = 0.75,
    round_: int = 4,
    picks_made: int | None = None,
    me_seat: int | None = None,
    screen: tuple[str, ...] | None = None,
) -> MahabharataView:
    """A plausible view of a game in ``phase`` (``setup``, ``roll``, ``draft``,
    ``announce`` or ``over``)."""
    rng = random.Random(seed)
    n = num_players
    used = [dict.fromkeys(KINDS, 0) for _ in range(n)]
    if phase == "setup":
        leaders = leaders[:2]
        fill = 0.0
    leader_views = []
    for name in leaders:
        number, icons = LEADER_TABLE[name]
        spaces = []
        influence = [0] * n
        for icon in icons:
            if rng.random() < fill:
                owner = rng.randrange(n)
                tokens = tuple(rng.choice(BY_CLASS[icon]) for _ in range(rng.choice((1, 1, 2, 3))))
                influence[owner] += len(tokens)
                for kind in tokens:
                    used[owner][kind] += 1
                spaces.append(SpaceView(icon=icon, owner=owner, tokens=tokens))
            else:
                spaces.append(SpaceView(icon=icon, owner=None, tokens=()))
        leader_views.append(
            LeaderView(
                number=number,
                name=name,
                vp=len(icons),
                spaces=tuple(spaces),
                influence=tuple(influence),
            )
        )
    screens: list[tuple[str, ...]] = []
    for _ in range(n):
        if phase == "setup":
            screens.append(())
            continue
        drawn = [rng.choice(KINDS) for _ in range(rng.randint(3, 12))]
        screens.append(tuple(sorted(drawn, key=KINDS.index)))
    if screen is not None and me_seat is not None:
        screens[me_seat] = screen
    for seat, kinds in enumerate(screens):
        for kind in kinds:
            used[seat][kind] += 1

    elephant = None if phase == "setup" else (round_ - 1) % n
    order = () if phase in ("setup", "roll") else snake(elephant or 0, n)
    if picks_made is None:
        picks_made = {"draft": min(3, len(order)), "announce": len(order), "over": len(order)}.get(
            phase, 0
        )
    dice = []
    pick_dice = list(range(8))
    rng.shuffle(pick_dice)
    taker = {pick_dice[i]: order[i] for i in range(picks_made)}
    for i, kind in enumerate(DIE_KINDS):
        face = None if phase in ("setup", "roll") else rng.choice(FACES[kind])
        dice.append(DieView(index=i + 1, kind=kind, face=face, taken_by=taker.get(i)))
    taken_count = [sum(1 for s in order[:picks_made] if s == seat) for seat in range(n)]
    players = tuple(
        PlayerView(
            seat=seat,
            screen_count=len(screens[seat]),
            supply_count=30 - sum(used[seat].values()),
            dice_taken=taken_count[seat],
            announced=(phase == "over" and seat == 2),
        )
        for seat in range(n)
    )
    waiting: tuple[int, ...] = ()
    if phase == "draft" and picks_made < len(order):
        waiting = (order[picks_made],)
    final = None
    if phase == "over":
        pati = tuple(seat % 2 == 0 for seat in range(n))
        winners = tuple(
            max(range(n), key=lv.influence.__getitem__) if any(lv.influence) else None
            for lv in leader_views
        )
        scores = tuple(
            7 * pati[seat]
            + sum(lv.vp for lv, w in zip(leader_views, winners, strict=True) if w == seat)
            for seat in range(n)
        )
        order_by = sorted(range(n), key=lambda s: -scores[s])
        ranking = tuple((s,) for s in order_by)
        final = FinalView(
            scores=scores,
            pati=pati,
            screens=tuple(screens),
            leader_winners=winners,
            ranking=ranking,
            reason="Most victory points; the Pati announced by Chandra ended the "
            "game after round 4.",
        )
    me = None
    if me_seat is not None:
        supply = tuple((kind, 3 - min(3, used[me_seat][kind])) for kind in KINDS)
        mine = screens[me_seat]
        complete = len(mine) >= 8 and me_seat % 2 == 0
        missing = () if complete else ("1 Elephant", "Cavalry icons summing to exactly 3")
        me = ScreenView(
            seat=me_seat, screen=mine, supply=supply, pati_complete=complete, pati_missing=missing
        )
    return MahabharataView(
        num_players=n,
        phase=phase,
        round=0 if phase == "setup" else round_,
        elephant=elephant,
        waiting_on=waiting,
        leaders=tuple(leader_views),
        dice=tuple(dice),
        players=players,
        draft_order=order,
        picks_made=picks_made,
        final=final,
        me=me,
    )


PHASES = ("setup", "roll", "draft", "announce", "over")


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("phase", PHASES)
def test_board_renders_every_phase(num_players: int, phase: str) -> None:
    view = build_view(num_players, phase, seed=num_players * 10 + len(phase))
    image = render_board(view, names=NAMES[:num_players])
    assert isinstance(image, Image.Image)
    assert image.width == BOARD_WIDTH
    assert 400 < image.height < 2400
    # Something was drawn in each player's colour (chips, pills or panels).
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20) or []}
    for seat in range(num_players):
        assert DEFAULT_THEME.player_colour(seat) in colours


@pytest.mark.parametrize(
    "leaders", [FIVE_LEADERS, WITH_BHISHMA, ("Bhishma", "Drona", "Jayadratha")]
)
def test_board_renders_any_leader_set(leaders: tuple[str, ...]) -> None:
    for phase in ("draft", "over"):
        view = build_view(4, phase, leaders=leaders, fill=1.0)
        assert render_board(view, names=NAMES).width == BOARD_WIDTH


def test_png_is_valid_and_small() -> None:
    view = build_view(4, "over", fill=1.0, seed=7)
    data = to_png(render_board(view, names=NAMES))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < 150_000
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.format == "PNG"
    assert decoded.width == BOARD_WIDTH
    assert decoded.mode == "P"


def test_to_png_keeps_palette_images_as_they_are() -> None:
    image = Image.new("P", (10, 10), 3)
    image.putpalette([0, 0, 0, 10, 20, 30, 40, 50, 60, 200, 100, 50])
    decoded = Image.open(io.BytesIO(to_png(image)))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").getpixel((0, 0)) == (200, 100, 50)


def test_private_render_and_screen_differences() -> None:
    base = build_view(4, "draft", me_seat=1, screen=("chariot", "cav2", "inf3"))
    other = build_view(4, "draft", me_seat=1, screen=("chariot", "cav2", "inf4"))
    a = render_private(base, names=NAMES)
    b = render_private(other, names=NAMES)
    assert a.width == PRIVATE_WIDTH == b.width
    assert not same(a, b)
    data = to_png(a)
    assert len(data) < 150_000
    Image.open(io.BytesIO(data)).load()


def test_private_complete_and_incomplete_pati_differ() -> None:
    view = build_view(3, "announce", me_seat=0)
    assert view.me is not None
    done = replace(view, me=replace(view.me, pati_complete=True, pati_missing=()))
    todo = replace(
        view, me=replace(view.me, pati_complete=False, pati_missing=("Infantry summing to 5",))
    )
    assert not same(render_private(done, names=NAMES), render_private(todo, names=NAMES))


def test_private_needs_me() -> None:
    with pytest.raises(ValueError, match=r"view\.me"):
        render_private(build_view(2, "draft"), names=NAMES)


@pytest.mark.parametrize("phase", PHASES)
def test_board_never_draws_me(phase: str) -> None:
    public = build_view(4, phase, seed=3)
    private = build_view(4, phase, seed=3, me_seat=2)
    assert public.me is None and private.me is not None
    assert replace(private, me=None) == public
    assert same(render_board(public, names=NAMES), render_board(private, names=NAMES))


def test_board_shows_changes() -> None:
    view = build_view(4, "draft", seed=5)
    one_more = replace(
        view, picks_made=view.picks_made + 1, waiting_on=(view.draft_order[view.picks_made + 1],)
    )
    assert not same(render_board(view, names=NAMES), render_board(one_more, names=NAMES))
    renamed = ("Zed", *NAMES[1:])
    assert not same(render_board(view, names=NAMES), render_board(view, names=renamed))


def last_pick(view: MahabharataView, placed: str, space: int = 1) -> LastPickView:
    """A last pick that fits ``view``: a die taken this round if there is one,
    and for a leader placement ``space`` of the first leader."""
    taken = [d for d in view.dice if d.taken_by is not None]
    die = taken[-1] if taken else view.dice[0]
    seat = die.taken_by if die.taken_by is not None else 0
    face = die.face or "cav2"
    if placed != "leader":
        return LastPickView(seat=seat, die=die.index, face=face, placed=placed)
    return LastPickView(
        seat=seat,
        die=die.index,
        face=face,
        placed="leader",
        leader_index=0,
        space=space,
        token="inf2" if face == "raja" else face,
    )


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("placed", ["screen", "leader", "nothing"])
def test_board_renders_last_pick_in_every_phase(phase: str, placed: str) -> None:
    view = build_view(4, phase, seed=13)
    marked = replace(view, last_pick=last_pick(view, placed))
    image = render_board(marked, names=NAMES)
    assert image.width == BOARD_WIDTH
    assert 400 < image.height < 2400
    assert len(to_png(image)) < 150_000
    if phase != "over" or placed == "leader":
        # The dice (or, at the end, the outlined leader space) show it.
        assert not same(image, render_board(view, names=NAMES))


def test_board_differs_when_last_pick_differs() -> None:
    view = build_view(4, "draft", seed=5)
    picks = [
        None,
        last_pick(view, "screen"),
        last_pick(view, "nothing"),
        last_pick(view, "leader", space=1),
        last_pick(view, "leader", space=2),
    ]
    images = [render_board(replace(view, last_pick=p), names=NAMES) for p in picks]
    for a, b in itertools.combinations(range(len(images)), 2):
        assert not same(images[a], images[b]), (picks[a], picks[b])


def test_R14_board_never_names_a_screen_token() -> None:
    view = build_view(4, "draft", seed=5)
    screen = last_pick(view, "screen")
    # Even a view that wrongly carried the token would not show it.
    leaked = replace(screen, token="inf5")
    assert same(
        render_board(replace(view, last_pick=screen), names=NAMES),
        render_board(replace(view, last_pick=leaked), names=NAMES),
    )


@pytest.mark.parametrize("phase", PHASES)
def test_rendering_does_not_mutate_the_view(phase: str) -> None:
    view = build_view(4, phase, me_seat=0, seed=11)
    snapshot = copy.deepcopy(view)
    render_board(view, names=NAMES)
    render_private(view, names=NAMES)
    assert view == snapshot


def test_registry() -> None:
    renderer = get_renderer("mahabharata")
    assert RENDERERS["mahabharata"] is renderer
    view = build_view(2, "draft", me_seat=0)
    assert same(renderer.board(view, names=NAMES), render_board(view, names=NAMES))
    assert same(renderer.private(view, names=NAMES), render_private(view, names=NAMES))
    with pytest.raises(UnknownRenderer, match="mahabharata"):
        get_renderer("snakes")


def _drawn(draw: Callable[[], Image.Image]) -> list[str]:
    return [record.text for record in render(draw)[1]]


def test_words_a_newcomer_understands() -> None:
    """Victory points and the elephant are said in words, not "VP" and a bare
    "Elephant" above a name; a result without a Pati says so in words."""
    draft = _drawn(lambda: render_board(build_view(4, "draft"), names=NAMES))
    assert "Elephant token: picks first" in draft
    heading = [t.lower() for t in draft if t.lower().startswith("leaders · ")]
    assert heading and heading[0].endswith("victory points in play")
    over = build_view(4, "over", seed=3)
    assert over.final is not None and not all(over.final.pati)
    ended = _drawn(lambda: render_board(over, names=NAMES))
    assert "Elephant token" in ended and "Elephant token: picks first" not in ended
    assert any(text.endswith("no complete Pati") for text in ended)
    assert any(text.endswith("complete Pati 7") for text in ended) == any(over.final.pati)
    mine = build_view(3, "announce", me_seat=0)
    assert mine.me is not None
    pati = replace(mine, me=replace(mine.me, pati_complete=True, pati_missing=()))
    private = _drawn(lambda: render_private(pati, names=NAMES))
    assert any("7 victory points" in text for text in private)
    for texts in (draft, ended, private):
        assert not [t for t in texts if "VP" in t.split() or t == "NO PATI"], texts


def test_names_are_made_drawable() -> None:
    assert safe_text("Ásha  Dévi") == "Ásha Dévi"
    arjuna = "\u0905\u0930\u094d\u091c\u0941\u0928"
    assert display_name([arjuna], 0) == arjuna  # in its own script (fallback fonts)
    assert display_name(["\u200b\u202e"], 0) == "Player 1"
    assert display_name([], 2) == "Player 3"
    view = build_view(2, "over", seed=2)
    odd = ("\U0001f418\U0001f418", "Ñandú " + "x" * 80)
    assert render_board(view, names=odd).width == BOARD_WIDTH


def test_labels() -> None:
    assert [token_label(k) for k in KINDS] == [
        "C",
        "E",
        "H1",
        "H2",
        "H3",
        "I1",
        "I2",
        "I3",
        "I4",
        "I5",
    ]
    assert face_name("cav2") == "Cavalry 2"
    assert face_name("raja") == "Raja"
    assert face_name(None) == "not rolled"


def test_theme_contrast() -> None:
    t = DEFAULT_THEME
    assert contrast(t.ink, t.background) >= 7
    assert contrast(t.ink, t.panel) >= 7
    assert contrast(t.muted, t.panel) >= 4.5
    for colour in t.players:
        assert contrast(t.on_colour, colour) >= 4.5
        assert contrast(colour, t.background) >= 3
    assert len(set(t.players)) == 4
    assert len(set(t.seat_shapes)) == 4
    assert t.player_colour(5) == t.players[1]


RENDERERS_DIR = Path(__file__).resolve().parents[2] / "renderers"
FORBIDDEN_ROOTS = {"discord", "aiosqlite", "storage", "sqlite3", "asyncio"}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return found


def test_renderers_import_no_discord_storage_or_bot_internals() -> None:
    files = sorted(RENDERERS_DIR.rglob("*.py"))
    assert len(files) >= 3
    for path in files:
        for module in _imports(path):
            root = module.split(".")[0]
            assert root not in FORBIDDEN_ROOTS, f"{path.name} imports {module}"
            if root == "bot":
                # bot.i18n: the catalog, pure (issue 33: images in the reader's language).
                assert module in ("bot.engines.core", "bot.engines.games", "bot.i18n") or (
                    module.startswith("bot.engines.") and module.endswith("_views")
                ), f"{path.name} imports {module}"


# ----------------------------------------------------------------- fitting the chat

ENGINE = MahabharataEngine()
MAX_PNG = 150 * 1024
# Seeds whose games are long (2 players) or reach the announce phase (3, 4).
PLAYOUT_SEEDS = {2: 420, 3: 430, 4: 444}


def playout(players: int) -> list[Any]:
    """Every state of a seeded random game, chance included."""
    return images.playout(ENGINE, players, PLAYOUT_SEEDS[players], {})


def _check(image: Image.Image, records: list[TextRecord], what: str) -> None:
    width = BOARD_WIDTH if what.endswith("board") else PRIVATE_WIDTH
    check_fits_chat(image, records, what, width=width, max_png=MAX_PNG)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_image_of_a_game_fits_the_chat(players: int) -> None:
    """Issue 17: Discord shows an attachment in a box of capped height, so
    every board and every seat's private image of a whole seeded game (every
    third state, chance included, and the last) is at most 1.25 times as tall
    as it is wide."""
    states = playout(players)
    sample = [*states[::3], states[-1]]
    checked = check_playout_fits_chat(
        ENGINE, sample, list(NAMES[:players]), render_board, render_private
    )
    assert checked == len(sample) * (players + 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playout_images_are_readable_and_fit(players: int) -> None:
    """Start, middle, announcements and end: every text at least the phone
    minimum of its image's width, and every image fits the chat."""
    states = playout(players)
    # Odd, so the sample takes states after chance steps and after picks alike.
    stride = max(1, len(states) // 10) | 1
    sample = [*states[::stride], states[-1]]
    phases = check_every_view(
        ENGINE, sample, list(NAMES[:players]), render_board, render_private, _check
    )
    assert {"draft", "over"} <= phases


def _crowded_screen(n: int) -> tuple[str, ...]:
    return tuple(sorted((KINDS[k % len(KINDS)] for k in range(n)), key=KINDS.index))


def test_the_tallest_built_views_fit_the_chat() -> None:
    """The most leaders in play (five), the longest names, four players each
    with a long revealed screen, a last pick and every badge: the tallest
    board and private image still fit the chat and stay readable."""
    names = tuple(f"{name} of the Kuru and Pandava armies" for name in NAMES)
    over = build_view(4, "over", leaders=FIVE_LEADERS, fill=1.0, seed=7)
    assert over.final is not None
    final = replace(over.final, screens=tuple(_crowded_screen(14 + 4 * s) for s in range(4)))
    draft = build_view(4, "draft", leaders=FIVE_LEADERS, fill=1.0, seed=7)
    announced = tuple(replace(p, announced=True) for p in draft.players)
    views = [
        replace(over, final=final, last_pick=last_pick(over, "leader", space=2)),
        replace(draft, players=announced, last_pick=last_pick(draft, "nothing")),
        replace(
            build_view(4, "announce", leaders=FIVE_LEADERS, fill=1.0, seed=7),
            waiting_on=(0, 1, 2, 3),
            players=announced,
        ),
    ]
    for k, view in enumerate(views):
        image, records = render(partial(render_board, view, names=names))
        _check(image, records, f"tallest {k} board")
        assert image.height <= MAX_ASPECT * image.width
    crowded = build_view(4, "draft", me_seat=1, screen=_crowded_screen(24))
    assert crowded.me is not None
    missing = tuple(f"{cls} icons summing to exactly 5" for cls in ("Cavalry", "Infantry"))
    crowded = replace(crowded, me=replace(crowded.me, pati_missing=missing * 2))
    image, records = render(lambda: render_private(crowded, names=names))
    _check(image, records, "tallest private")


def test_a_long_revealed_screen_is_counted_by_kind() -> None:
    """A screen whose chips one by one would take more than two rows of the
    result shows one chip per kind with its count; a short one shows every
    token."""
    view = build_view(2, "over", seed=4)
    assert view.final is not None
    long = _crowded_screen(30)

    def board(short: tuple[str, ...]) -> MahabharataView:
        assert view.final is not None
        return replace(view, final=replace(view.final, screens=(long, short)))

    texts = _drawn(lambda: render_board(board(("cav3", "cav3")), names=NAMES))
    assert "I3 x3" in texts and "C x3" in texts
    # The short screen: a chip per token.
    without = _drawn(lambda: render_board(board(()), names=NAMES))
    assert texts.count("H3") - without.count("H3") == 2
    image = render_board(board(("cav3", "cav3")), names=NAMES)
    assert image.height <= MAX_ASPECT * image.width
