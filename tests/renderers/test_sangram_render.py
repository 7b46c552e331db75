"""Renderer tests for Sangram: views built by hand (plus a seeded game through
the engine, when it imports), checked for size, validity and what each image
may show."""

from __future__ import annotations

import ast
import copy
import importlib
import io
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import renderers.common
from bot.engines.sangram_views import (
    OUTCOME_DECLINED,
    OUTCOME_USED,
    OUTCOME_WASTED,
    PHASE_ACTIVATE,
    PHASE_COMMIT,
    PHASE_GROW,
    PHASE_OVER,
    PHASE_RECRUIT,
    PHASE_REFILL,
    PHASE_SETUP,
    STATUS_DONE,
    STATUS_RESOLVING,
    STATUS_RETREATED,
    STATUS_WAITING,
    CardView,
    ChoiceView,
    FinalView,
    GrowRevealView,
    HandView,
    PlayerView,
    RevealView,
    SangramView,
)
from renderers import RENDERERS, get_renderer
from renderers.common import (
    DEFAULT_THEME,
    Canvas,
    card_back,
    card_fan,
    contrast,
    fill_names,
    mark,
    seat_marker,
    text_width,
    to_png,
)
from renderers.sangram import (
    BOARD_WIDTH,
    PRIVATE_WIDTH,
    SangramRenderer,
    render_board,
    render_private,
)
from renderers.sangram_banner import goal_text
from renderers.sangram_cards import KIND_COLOURS, card_title
from renderers.sangram_hand import train_note
from renderers.sangram_kingdoms import GROW_LABEL, TRACK_LABEL
from renderers.sangram_layout import (
    CROWN_STUCK,
    GAME_END,
    MAX_HEIGHT_RATIO,
    SMALL,
    prompt_text,
    seat_label,
)
from tests.renderers.images import playout, render, same

# R1: type -> (lowest motivation, strength, Britishers, activity).
TYPES: dict[str, tuple[int, int, int, str]] = {
    "acharya": (51, 1, 1, "Retreat one opponent: their card goes back unused; they skip "
                "Activate and Recruit this round."),
    "maharaja": (46, 2, 2, "Discard up to 4 of your Britishers."),
    "shoorveer": (41, 2, 2, "Take no Britishers when you recruit this round."),
    "senapati": (36, 2, 3, "Discard up to 6 of your Britishers."),
    "mantri": (31, 1, 1, "Give up to 2 of your Britishers to one opponent."),
    "maharani": (26, 1, 1, "Move your crown up 1 level now, whatever your Britishers."),
    "guptchar": (21, 0, 0, "Move one opponent's crown down 1 level."),
    "yuvaraj": (16, 1, 1, "Copy the activity of the card one opponent played this round."),
    "vyapari": (11, 0, 1, "Take a random card from one opponent's hand, then give them a "
                "card of your choice."),
    "sarthi": (6, 1, 0, "Draw the top card of the deck and activate it at once."),
    "vaidik": (1, 0, 0, "Take 1 of the 5 newest discards and its Britishers; then skip "
               "Recruit."),
}  # fmt: skip


def card(motivation: int) -> CardView:
    for kind, (low, strength, brit, activity) in TYPES.items():
        if low <= motivation <= low + 4:
            return CardView(
                id=f"{kind}-{motivation}",
                kind=kind,
                name=kind.capitalize(),
                motivation=motivation,
                strength=strength,
                britishers=brit,
                activity=activity,
            )
    raise ValueError(motivation)


def desc(cards: list[CardView]) -> tuple[CardView, ...]:
    return tuple(sorted(cards, key=lambda c: -c.motivation))


NAMES = ("Asha", "Bhima the Magnificent of Hastinapura", "Chandra", "Devi", "Esha")
OUTCOMES = (OUTCOME_USED, OUTCOME_DECLINED, OUTCOME_WASTED)
PHASES = (
    PHASE_SETUP,
    PHASE_COMMIT,
    PHASE_ACTIVATE,
    PHASE_RECRUIT,
    PHASE_REFILL,
    PHASE_GROW,
    PHASE_OVER,
)


def build_view(
    num_players: int = 5,
    phase: str = PHASE_ACTIVATE,
    *,
    seed: int = 1,
    round_: int = 6,
    me_seat: int | None = None,
    hand: tuple[CardView, ...] | None = None,
    committed: CardView | None = None,
) -> SangramView:
    """A plausible (busy) view of a game in ``phase``: in Activate a retreat,
    a Sarthi's drawn card resolving and a pending choice; Grow reveals of the
    previous round; at the end, every hand."""
    rng = random.Random(seed)
    n = num_players
    deck = list(range(1, 56))
    rng.shuffle(deck)
    hands = [desc([card(deck.pop()) for _ in range(rng.randint(3, 6))]) for _ in range(n)]
    in_round = phase in (PHASE_COMMIT, PHASE_ACTIVATE, PHASE_RECRUIT)
    table = phase in (PHASE_ACTIVATE, PHASE_RECRUIT, PHASE_REFILL, PHASE_GROW)
    committed_cards = [card(deck.pop()) for _ in range(n)] if table else []
    order = sorted(range(n), key=lambda s: -committed_cards[s].motivation) if table else []
    retreated = {order[1]} if table and n > 2 else set()
    revealed: list[RevealView] = []
    for i, seat in enumerate(order):
        outcome: str | None = None
        if seat in retreated:
            status = STATUS_RETREATED
        elif phase != PHASE_ACTIVATE or i < min(2, n - 1):
            status = STATUS_DONE
            outcome = OUTCOMES[i % len(OUTCOMES)]
        elif i == min(2, n - 1):
            status = STATUS_RESOLVING
        else:
            status = STATUS_WAITING
        revealed.append(
            RevealView(seat=seat, card=committed_cards[seat], status=status, outcome=outcome)
        )
    skippers = retreated | ({order[-1]} if order else set())
    recruit_order: tuple[int, ...] = ()
    recruited: set[int] = set()
    choice: ChoiceView | None = None
    drawn: CardView | None = None
    waiting: tuple[int, ...] = ()
    if phase == PHASE_ACTIVATE:
        resolving = next(r for r in revealed if r.status == STATUS_RESOLVING)
        drawn = card(deck.pop())
        choice = ChoiceView(
            seat=resolving.seat,
            kind="activity",
            effect=drawn.kind,
            card=drawn,
            origin="draw",
            prompt="Choose an opponent to retreat.",
        )
        waiting = (resolving.seat,)
    elif phase == PHASE_RECRUIT:
        # R10: the first in order has recruited, the second chooses.
        recruit_order = tuple(s for s in order if s not in skippers)
        seat = recruit_order[min(1, len(recruit_order) - 1)]
        recruited = set(recruit_order[: recruit_order.index(seat)])
        choice = ChoiceView(
            seat=seat,
            kind="recruit",
            effect="",
            card=None,
            origin="",
            prompt="Choose a volunteer.",
        )
        waiting = (seat,)
    elif phase == PHASE_COMMIT:
        waiting = tuple(s for s in range(n) if s % 2 == 0)
    players = tuple(
        PlayerView(
            seat=s,
            level=(s * 3 + seed) % 10,
            britishers=(s * 4 + seed) % 9,
            hand_size=len(hands[s]),
            committed=(s not in waiting) if phase == PHASE_COMMIT else bool(table),
            retreated=in_round and s in retreated,
            skips_recruit=in_round and s in skippers,
            no_britishers=in_round and s == (order[0] if order else -1),
            grown=s % 3,
            recruited=s in recruited,
        )
        for s in range(n)
    )
    volunteers = desc([card(deck.pop()) for _ in range(n + 1)]) if phase != PHASE_SETUP else ()
    discard = [card(deck.pop()) for _ in range(5)] if phase != PHASE_SETUP else []
    grow: tuple[GrowRevealView, ...] = ()
    if phase in (PHASE_COMMIT, PHASE_ACTIVATE, PHASE_GROW):
        grow_round = round_ if phase == PHASE_GROW else round_ - 1
        grow = tuple(
            GrowRevealView(
                seat=s,
                round=grow_round,
                cards=hands[s][:4],
                level=players[s].level,
                total_strength=players[s].level + sum(c.strength for c in hands[s][:4]),
            )
            for s in range(min(n, 3))
        )
    final: FinalView | None = None
    if phase == PHASE_OVER:
        totals = tuple(players[s].level + sum(c.strength for c in hands[s]) for s in range(n))
        ranked = sorted(range(n), key=lambda s: (-totals[s], players[s].britishers))
        final = FinalView(
            ranking=tuple((s,) for s in ranked),
            total_strength=totals,
            britishers=tuple(p.britishers for p in players),
            best_card=tuple(h[0] if h else None for h in hands),
            hands=tuple(hands),
            reason=f"At the end of round {round_} an army reached Total Army Strength 18.",
        )
    events = (
        "Round 6: reveal: {p0}'s Acharya-55, {p1}'s Maharaja-48.",
        "{p0}'s Acharya-55 retreats {p1}: Maharaja-48 goes back to their hand unused; "
        "they skip Activate and Recruit.",
        "{p2}'s Sarthi drew Guptchar-23.",
        "{p3} recruited Senapati-40 and 3 Britishers.",
        "Train: {p0}, {p1} moved up.",
        "Grow: {p2} reached Total Army Strength 7 and shows their hand.",
        "{p4} committed a card." if n == 5 else "{p1} committed a card.",
    )
    me: HandView | None = None
    if me_seat is not None:
        mine = hands[me_seat] if hand is None else hand
        strength = sum(c.strength for c in mine)
        me = HandView(
            seat=me_seat,
            hand=mine,
            committed=committed,
            hand_strength=strength,
            total_strength=players[me_seat].level + strength,
        )
    return SangramView(
        num_players=n,
        phase=phase,
        round=0 if phase == PHASE_SETUP else round_,
        round_limit=50,
        players=players,
        volunteers=volunteers,
        deck_size=len(deck),
        discard_size=17,
        discard_top=tuple(discard),
        supply=40 - sum(p.britishers for p in players),
        revealed=tuple(revealed),
        revealed_round=round_ if table else round_ - 1,
        drawn=drawn,
        choice=choice,
        recruit_order=recruit_order,
        waiting_on=waiting,
        grow_reveals=grow,
        events=events if phase != PHASE_SETUP else (),
        final=final,
        me=me,
    )


def colours_of(image: Image.Image) -> set[Any]:
    return {c for _, c in image.getcolors(maxcolors=1 << 20) or []}


# ----------------------------------------------------------------- board


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
@pytest.mark.parametrize("phase", PHASES)
def test_board_renders_every_phase(num_players: int, phase: str) -> None:
    view = build_view(num_players, phase, seed=num_players * 10 + len(phase))
    image = render_board(view, names=NAMES[:num_players])
    assert isinstance(image, Image.Image)
    assert image.width == BOARD_WIDTH
    assert 500 < image.height < 2400
    colours = colours_of(image)
    for seat in range(num_players):
        assert DEFAULT_THEME.seat_colour(seat) in colours


@pytest.mark.parametrize("phase", [PHASE_COMMIT, PHASE_ACTIVATE, PHASE_GROW, PHASE_OVER])
def test_busy_five_player_png_is_valid_and_small(phase: str) -> None:
    view = build_view(5, phase, seed=7)
    data = to_png(render_board(view, names=NAMES))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < 150_000
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.format == "PNG"
    assert decoded.width == BOARD_WIDTH
    assert decoded.mode == "P"


@pytest.mark.parametrize("phase", PHASES)
def test_board_never_draws_me(phase: str) -> None:
    public = build_view(5, phase, seed=3)
    private = build_view(5, phase, seed=3, me_seat=2, committed=card(55))
    assert public.me is None and private.me is not None
    assert replace(private, me=None) == public
    assert same(render_board(public, names=NAMES), render_board(private, names=NAMES))


def test_board_shows_commitments_but_never_the_card() -> None:
    view = build_view(4, PHASE_COMMIT, seed=5)
    assert any(not p.committed for p in view.players)
    players = tuple(replace(p, committed=True) for p in view.players)
    done = replace(view, players=players, waiting_on=())
    assert not same(render_board(view, names=NAMES), render_board(done, names=NAMES))
    # What a committed card is cannot reach the board: the view has no field
    # for it and the private hand does not change the image.
    with_me = replace(done, me=HandView(0, (card(1),), card(55), 0, 3))
    assert same(render_board(done, names=NAMES), render_board(with_me, names=NAMES))


def test_board_shows_changes() -> None:
    view = build_view(5, PHASE_ACTIVATE, seed=5)
    renamed = ("Zed", *NAMES[1:])
    assert not same(render_board(view, names=NAMES), render_board(view, names=renamed))
    statuses = tuple(replace(r, status=STATUS_DONE) for r in view.revealed)
    assert not same(
        render_board(view, names=NAMES),
        render_board(replace(view, revealed=statuses), names=NAMES),
    )
    level_up = tuple(replace(p, level=(p.level + 1) % 10) for p in view.players)
    assert not same(
        render_board(view, names=NAMES),
        render_board(replace(view, players=level_up), names=NAMES),
    )


def test_board_shows_what_became_of_each_revealed_card() -> None:
    view = build_view(5, PHASE_RECRUIT, seed=5)
    done = [i for i, r in enumerate(view.revealed) if r.status == STATUS_DONE]
    assert len(done) >= 2
    base = render_board(view, names=NAMES)

    def with_outcome(i: int, outcome: str | None) -> Image.Image:
        revealed = list(view.revealed)
        revealed[i] = replace(revealed[i], outcome=outcome)
        return render_board(replace(view, revealed=tuple(revealed)), names=NAMES)

    i = done[0]
    images = {o: with_outcome(i, o) for o in (None, *OUTCOMES)}
    for a in images:
        for b in images:
            if a != b:
                assert not same(images[a], images[b]), (a, b)
    assert same(images[view.revealed[i].outcome], base)


def test_board_shows_recruit_progress() -> None:
    view = build_view(5, PHASE_RECRUIT, seed=5)
    assert view.choice is not None and len(view.recruit_order) >= 2
    order = view.recruit_order
    base = render_board(view, names=NAMES)
    # Without the order (an older view) the banner says the prompt instead;
    # the order alone takes no more room.
    older = render_board(replace(view, recruit_order=()), names=NAMES)
    assert not same(older, base)
    assert base.height <= older.height
    # The next seat's turn: the first two have recruited.
    players = tuple(replace(p, recruited=p.seat in order[:2]) for p in view.players)
    chooser = order[2] if len(order) > 2 else order[1]
    later = replace(
        view,
        players=players,
        choice=replace(view.choice, seat=chooser),
        waiting_on=(chooser,),
    )
    assert not same(base, render_board(later, names=NAMES))
    # A seat whose turn passed without a volunteer (full hand) looks different
    # from one that recruited.
    none_taken = replace(view, players=tuple(replace(p, recruited=False) for p in view.players))
    assert not same(base, render_board(none_taken, names=NAMES))


def test_board_copes_with_odd_views() -> None:
    view = build_view(5, PHASE_ACTIVATE, seed=2)
    odd_names = ("\U0001f418\U0001f418", "Ñandú " + "x" * 80, "", "Dévi", "{p0}")
    assert render_board(view, names=odd_names).width == BOARD_WIDTH
    assert render_board(view, names=()).width == BOARD_WIDTH
    empty = replace(
        view,
        volunteers=(),
        discard_top=(),
        discard_size=0,
        revealed=(),
        events=(),
        grow_reveals=(),
        drawn=None,
        choice=None,
        waiting_on=(),
    )
    assert render_board(empty, names=NAMES).width == BOARD_WIDTH
    long_event = replace(view, events=("{p1} " + "did a thing and " * 30 + "{p9}.",))
    assert render_board(long_event, names=NAMES).width == BOARD_WIDTH
    odd = replace(
        view,
        players=tuple(replace(p, level=12, britishers=40, hand_size=9) for p in view.players),
    )
    assert render_board(odd, names=NAMES).width == BOARD_WIDTH


def test_final_with_shared_place() -> None:
    view = build_view(4, PHASE_OVER, seed=4)
    assert view.final is not None
    shared = replace(view, final=replace(view.final, ranking=((0, 1), (2,), (3,))))
    image = render_board(shared, names=NAMES)
    assert image.width == BOARD_WIDTH
    assert not same(image, render_board(view, names=NAMES))


# ----------------------------------------------------------------- private


SIX = desc([card(m) for m in (55, 48, 45, 39, 29, 7)])


def test_private_renders_a_full_hand() -> None:
    view = build_view(5, PHASE_COMMIT, me_seat=4, hand=SIX)
    image = render_private(view, names=NAMES)
    assert image.width == PRIVATE_WIDTH
    assert 600 < image.height < 1600
    data = to_png(image)
    assert len(data) < 150_000
    Image.open(io.BytesIO(data)).load()
    assert DEFAULT_THEME.seat_colour(4) in colours_of(image)


def test_private_changes_with_the_hand() -> None:
    a = build_view(4, PHASE_COMMIT, me_seat=1, hand=desc([card(55), card(30), card(3)]))
    b = build_view(4, PHASE_COMMIT, me_seat=1, hand=desc([card(55), card(30), card(4)]))
    c = build_view(4, PHASE_COMMIT, me_seat=1, hand=desc([card(30), card(3)]), committed=card(55))
    ia, ib, ic = (render_private(v, names=NAMES) for v in (a, b, c))
    assert ia.width == ib.width == ic.width == PRIVATE_WIDTH
    assert not same(ia, ib)
    assert not same(ia, ic)


def test_private_shows_the_choice_and_total() -> None:
    view = build_view(5, PHASE_ACTIVATE, me_seat=0, hand=SIX)
    assert view.choice is not None and view.me is not None
    mine = replace(view, choice=replace(view.choice, seat=0), waiting_on=(0,))
    assert not same(render_private(view, names=NAMES), render_private(mine, names=NAMES))
    stronger = replace(view, me=replace(view.me, total_strength=view.me.total_strength + 5))
    assert not same(render_private(view, names=NAMES), render_private(stronger, names=NAMES))


@pytest.mark.parametrize("phase", PHASES)
def test_private_renders_every_phase(phase: str) -> None:
    for n in (2, 5):
        view = build_view(n, phase, me_seat=n - 1, seed=n)
        assert render_private(view, names=NAMES).width == PRIVATE_WIDTH
    empty = build_view(3, phase, me_seat=0, hand=())
    assert render_private(empty, names=NAMES).width == PRIVATE_WIDTH


def test_private_needs_me() -> None:
    with pytest.raises(ValueError, match=r"view\.me"):
        render_private(build_view(2, PHASE_COMMIT), names=NAMES)


# ----------------------------------------------------------------- both


@pytest.mark.parametrize("phase", PHASES)
def test_rendering_does_not_mutate_the_view(phase: str) -> None:
    view = build_view(5, phase, me_seat=0, seed=11, committed=card(20))
    snapshot = copy.deepcopy(view)
    render_board(view, names=NAMES)
    render_private(view, names=NAMES)
    assert view == snapshot


def test_registry() -> None:
    renderer = get_renderer("sangram")
    assert RENDERERS["sangram"] is renderer
    assert isinstance(renderer, SangramRenderer)
    view = build_view(3, PHASE_RECRUIT, me_seat=0)
    assert same(renderer.board(view, names=NAMES), render_board(view, names=NAMES))
    assert same(renderer.private(view, names=NAMES), render_private(view, names=NAMES))


def test_text_helpers() -> None:
    assert (
        fill_names("{p0} gave 2 to {p1}.", NAMES)
        == "Asha gave 2 to Bhima the Magnificent of Hastinapura."
    )
    assert fill_names("{p7} waits.", NAMES) == "Player 8 waits."
    assert seat_label(NAMES, 2) == "P3 Chandra"
    # The prompt never names the seat (the pill beside it does): drawn as given.
    choice = ChoiceView(1, "activity", "acharya", card(53), "card", "choose an opponent.")
    assert prompt_text(choice) == "Choose an opponent."
    assert prompt_text(replace(choice, prompt="")) == "Make a choice"
    assert prompt_text(replace(choice, kind="recruit", prompt=" ")) == "Choose a volunteer"


# ----------------------------------------------------------------- colours & common additions


def test_colours() -> None:
    t = DEFAULT_THEME
    assert set(KIND_COLOURS) == set(TYPES)
    assert len(set(KIND_COLOURS.values())) == len(KIND_COLOURS)
    for colour in KIND_COLOURS.values():
        assert contrast(t.ink, colour) >= 4.5
    five = [t.seat_colour(s) for s in range(5)]
    assert len(set(five)) == 5
    assert len({t.seat_mark_shape(s) for s in range(5)}) == 5
    for colour in five:
        assert contrast(t.on_colour, colour) >= 4.5
        assert contrast(colour, t.background) >= 3
    # The four-seat methods are unchanged.
    assert t.seat_colour(3) == t.player_colour(3)
    assert t.player_colour(4) == t.players[0]
    assert t.seat_colour(5) == t.players[0]


def test_common_card_and_mark_primitives() -> None:
    c = Canvas(300, 120)
    card_back(c, (10, 10, 90, 110), fill=(100, 30, 40), pattern=(220, 180, 90))
    box = card_fan(c, (120, 10), 4, fill=(100, 30, 40), pattern=(220, 180, 90), step=12)
    assert box == (120, 10, 120 + 3 * 12 + 22, 40)
    assert card_fan(c, (120, 60), 0, fill=(0, 0, 0), pattern=(0, 0, 0)) == (120, 60, 120, 60)
    mark(ImageDraw.Draw(c.image), (250, 60), 12, "hexagon", (213, 94, 0))
    seat_marker(c, (280, 60), 10, 4)
    assert c.image.getpixel((250, 60)) == (213, 94, 0)
    assert c.image.getpixel((280, 60)) == DEFAULT_THEME.seat_colour(4)
    assert c.image.getpixel((50, 60)) != DEFAULT_THEME.background


# ----------------------------------------------------------------- through the engine


def _engine() -> Any:
    try:
        from bot.engines.sangram import SangramEngine
    except Exception as exc:  # the engine is being written alongside
        pytest.skip(f"Sangram engine unavailable: {exc}")
    return SangramEngine()


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_engine_views_render(num_players: int) -> None:
    from bot.engines.core import CHANCE, resolve_chance

    engine = _engine()
    rng = random.Random(num_players)
    state = engine.setup(num_players, {})
    state, _ = resolve_chance(engine, state, rng.random)
    names = NAMES[:num_players]
    seen: set[str] = set()
    for step in range(400):
        if engine.outcome(state) is not None:
            break
        if step % 7 == 0:
            view = engine.view(state, None)
            seen.add(view.phase)
            assert render_board(view, names=names).width == BOARD_WIDTH
            seat = step % num_players
            assert render_private(engine.view(state, seat), names=names).width == PRIVATE_WIDTH
        movers = sorted(engine.to_move(state))
        if movers == [CHANCE]:
            state, _ = resolve_chance(engine, state, rng.random)
            continue
        seat = rng.choice(movers)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    final = engine.view(state, None)
    assert render_board(final, names=names).width == BOARD_WIDTH
    assert PHASE_COMMIT in seen


# ----------------------------------------------------------------- layering


RENDERERS_DIR = Path(__file__).resolve().parents[2] / "renderers"
SANGRAM_MODULES = sorted(RENDERERS_DIR.glob("sangram*.py"))
"""renderers/sangram.py and its sibling modules (sangram_cards.py ...)."""
FORBIDDEN_ROOTS = {"discord", "aiosqlite", "storage", "sqlite3", "asyncio"}


@pytest.mark.parametrize("path", SANGRAM_MODULES, ids=lambda p: p.name)
def test_sangram_renderer_imports_only_views(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules = [node.module]
        else:
            continue
        for module in modules:
            root = module.split(".")[0]
            assert root not in FORBIDDEN_ROOTS, module
            if root == "bot":
                assert module in (
                    "bot.engines.core",
                    "bot.engines.sangram_views",
                    "bot.i18n",
                ), module


# ----------------------------------------------------------------- fits the chat (issue 17)


def _within_ratio(image: Image.Image, what: str) -> None:
    assert image.height <= MAX_HEIGHT_RATIO * image.width, f"{what}: {image.size}"


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_every_image_of_a_seeded_game_fits_the_chat(num_players: int) -> None:
    """Discord shrinks a tall attachment until it is tapped: every board and
    every private image posted during a whole seeded game is at most 1.25
    times as tall as it is wide, and still at its width (so the minimum text
    size holds, tests/renderers/test_text_size.py)."""
    engine = _engine()
    options = {k: o.default for k, o in engine.options.items()}
    options["round_limit"] = 25
    states = playout(engine, num_players, 17 + num_players, options)
    names = NAMES[:num_players]
    last_phase = ""
    for k, state in enumerate(states):
        public = engine.view(state, None)
        # Every phase change, the grow reveals, a sample of the rest, the end.
        wanted = (
            public.phase != last_phase
            or bool(public.grow_reveals)
            or k % 3 == 0
            or k == len(states) - 1
        )
        last_phase = public.phase
        if not wanted:
            continue
        board = render_board(public, names=names)
        assert board.width == BOARD_WIDTH
        _within_ratio(board, f"state {k} board")
        for seat in range(num_players):
            image = render_private(engine.view(state, seat), names=names)
            assert image.width == PRIVATE_WIDTH
            _within_ratio(image, f"state {k} private {seat}")
    assert engine.view(states[-1], None).phase == PHASE_OVER


@pytest.mark.parametrize("num_players", [2, 5])
@pytest.mark.parametrize("phase", PHASES)
def test_busy_views_fit_the_chat(num_players: int, phase: str) -> None:
    five = SIX[:5]
    view = build_view(num_players, phase, seed=num_players, me_seat=0, hand=five, committed=card(3))
    _within_ratio(render_board(view, names=NAMES), "board")
    _within_ratio(render_private(view, names=NAMES), "private")


def test_every_grow_reveal_fits_or_is_named() -> None:
    """Five hands of six shown at one Grow do not fit beside the table: those
    that fit are drawn, the others are named in a line."""
    view = build_view(5, PHASE_COMMIT, seed=4)
    six = tuple(SIX)
    reveals = tuple(
        GrowRevealView(seat=s, round=view.round - 1, cards=six, level=3, total_strength=12)
        for s in range(5)
    )
    crowded = replace(view, grow_reveals=reveals)
    image, texts = _drawn(lambda: render_board(crowded, names=NAMES))
    _within_ratio(image, "board")
    also = [t for t in texts if t.startswith("Also shown:")]
    assert len(also) == 1 and "Esha" in also[0]
    one = replace(view, grow_reveals=reveals[:1])
    _, texts = _drawn(lambda: render_board(one, names=NAMES))
    assert not any(t.startswith("Also shown:") for t in texts)
    assert "crown 3 + cards 9" in texts


def test_events_are_left_to_the_message() -> None:
    """What happened is in the message above the board (headline() in
    bot/edge/delivery/texts.py), so the board does not spend its height repeating it."""
    view = build_view(5, PHASE_ACTIVATE, seed=5)
    assert view.events
    assert same(
        render_board(view, names=NAMES), render_board(replace(view, events=()), names=NAMES)
    )


# ----------------------------------------------------------------- words a newcomer understands


def _drawn(draw: Any) -> tuple[Image.Image, list[str]]:
    """The image and every text drawn for it (card faces and tracks included)."""
    sangram = [importlib.import_module(f"renderers.{p.stem}") for p in SANGRAM_MODULES]
    for module in (*sangram, renderers.common):
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()
    image, records = render(draw)
    return image, [r.text for r in records]


LEADERS = ("Maharaja", "Maharani")


def test_leader_names_are_never_cut_alike() -> None:
    """Maharaja and Maharani share their first five letters: a cut keeps
    their ends, so no width draws them the same."""
    narrowest = text_width("Ma\u2026ja", SMALL, True)
    for width in range(narrowest, 200):
        a, b = (card_title(name, SMALL, width) for name in LEADERS)
        assert a != b, width
        assert text_width(a, SMALL, True) <= width and text_width(b, SMALL, True) <= width
    assert card_title("Maharaja", SMALL, 200) == "Maharaja"
    assert card_title("Maharaja", SMALL, narrowest + 10).endswith("ja")


def test_leader_names_are_drawn_whole_on_every_card() -> None:
    """The layouts give every warrior's name room: a final board with full
    hands of both leaders, and every card style, draw the names whole."""
    hand = desc([card(m) for m in (50, 49, 30, 29, 44, 40)])
    view = build_view(5, PHASE_OVER, seed=3)
    assert view.final is not None
    final = replace(view.final, hands=(hand,) * 5)
    _, texts = _drawn(lambda: render_board(replace(view, final=final), names=NAMES))
    assert {"Maharaja", "Maharani", "Shoorveer", "Senapati"} <= set(texts)
    assert not any(t.startswith("Maha") and "\u2026" in t for t in texts)
    grow = build_view(5, PHASE_COMMIT, seed=4)
    shown = GrowRevealView(seat=0, round=grow.round - 1, cards=hand, level=1, total_strength=11)
    _, texts = _drawn(lambda: render_board(replace(grow, grow_reveals=(shown,)), names=NAMES))
    assert texts.count("Maharani") >= 2


def test_goal_and_track_agree() -> None:
    """The goal is an army strength of 18, and army strength is the crown's
    level on the 0-9 track plus the cards in hand: the title says both, the
    track says it is the crown's level, and neither calls the track strength."""
    view = build_view(4, PHASE_COMMIT, seed=2)
    _, texts = _drawn(lambda: render_board(view, names=NAMES))
    goal = goal_text(4)
    assert goal in texts
    assert f"ARMY STRENGTH {GAME_END}" in goal and "CROWN LEVEL + CARDS" in goal
    assert TRACK_LABEL in texts and TRACK_LABEL.endswith("CROWN LEVEL 0-9")
    # The track's numbers: 0 to 9, each drawn on every kingdom's row.
    for level in range(10):
        assert texts.count(str(level)) >= 4
    assert not any("STRENGTH 0-9" in t or "FIRST TO ARMY STRENGTH" in t for t in texts)
    me = build_view(4, PHASE_COMMIT, seed=2, me_seat=1)
    _, texts = _drawn(lambda: render_private(me, names=NAMES))
    assert "ARMY STRENGTH" in texts
    assert any(t.startswith("+ crown ") for t in texts)
    assert any(t.startswith("cards ") for t in texts)


def test_train_and_grow_are_said_in_player_words() -> None:
    """R11-R12 on the board: a seat with 5 or more Britishers shows "crown
    stuck" (not "no Train"), and the Grow column says what each threshold
    draws (not "GREW AT 7 13")."""
    view = build_view(5, PHASE_ACTIVATE, seed=5)
    heavy = [p for p in view.players if p.britishers >= 5]
    assert heavy
    _, texts = _drawn(lambda: render_board(view, names=NAMES))
    assert texts.count(CROWN_STUCK) == len(heavy)
    assert GROW_LABEL in texts
    assert texts.count("7: +2") == 5 and texts.count("13: +1") == 5
    assert not any("no Train" in t or "GREW AT" in t for t in texts)
    me = build_view(5, PHASE_ACTIVATE, seed=5, me_seat=heavy[0].seat)
    _, texts = _drawn(lambda: render_private(me, names=NAMES))
    assert not any("Train" in t for t in texts)
    assert any(t.startswith(CROWN_STUCK) for t in texts)
    assert train_note(4).startswith("crown +1 each round")


RULES = Path(__file__).resolve().parents[2] / "docs" / "rules" / "sangram.md"


def test_the_glossary_defines_the_boards_words() -> None:
    """The game's own words the images use are in the rules' glossary, in
    the images' spelling."""
    text = RULES.read_text()
    assert "\n## Glossary\n" in text
    glossary = text.split("\n## Glossary\n", 1)[1].lower()
    words = (
        "army strength",
        "crown level",
        CROWN_STUCK,
        "train",
        "grow",
        GROW_LABEL.lower(),
        "britishers",
        "motivation",
        "volunteers",
        "face down",
        "retreated",
        "used",
        "declined",
        "wasted",
        *(kind for kind in KIND_COLOURS),
    )
    terms = glossary.split("**")[1::2]
    missing = [w for w in words if not any(w in term for term in terms)]
    assert not missing, missing


def test_a_full_hand_and_a_committed_card_fit_the_chat() -> None:
    """After the reveal a Vaidik can bring a hand to six while the committed
    card is still the seat's: the heading names it rather than a fourth row."""
    view = build_view(3, PHASE_ACTIVATE, seed=2, me_seat=1, hand=SIX, committed=card(18))
    image, texts = _drawn(lambda: render_private(view, names=NAMES))
    _within_ratio(image, "private")
    assert "YOUR HAND · 6 CARDS + COMMITTED YUVARAJ 18" in texts
    five = replace(view, me=replace(view.me, hand=SIX[:5]) if view.me else None)
    image, texts = _drawn(lambda: render_private(five, names=NAMES))
    assert "COMMITTED" in texts and "YOUR HAND · 5 CARDS + 1 COMMITTED" in texts
