"""Rules tests for the Mahabharata engine, named after the rulings they check
(docs/rules/mahabharata.md, R1-R14)."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines.core import (
    CHANCE,
    ComponentError,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
)
from bot.engines.mahabharata import MahabharataEngine
from bot.engines.mahabharata_components import (
    default_components,
    keep_for_eighteen,
    load_components,
    load_components_text,
)
from bot.engines.mahabharata_rules import leader_winner, rank_scores, snake_order
from bot.engines.mahabharata_state import (
    Announce,
    ChooseFirst,
    DrawLeader,
    MahabharataState,
    Pass,
    PlaceLeader,
    PlaceScreen,
    Roll,
    TakeNothing,
)
from bot.engines.mahabharata_views import LastPickView
from tests.engines.components import Broken, Mutate, assert_refused, parametrize_broken

E = MahabharataEngine()
C = default_components()
KINDS = [t.kind for t in C.tokens]
VP = {ld.key: ld.vp for ld in C.leaders}

# Bhishma 7 + Drona 6 + Virata 2 + Satyaki 3 = 18 with the first four cards.
# In play (table order): virata (C I), satyaki (E H I), drona (C H H I I I),
# bhishma (C E H H I I I).
LEADERS4 = ("bhishma", "drona", "virata", "satyaki")
FACES = ("chariot", "chariot", "elephant", "elephant", "cav1", "cav2", "inf3", "raja")
PATI_SCREEN = ["chariot", "elephant", "cav3", "inf5"]


def act(state: MahabharataState, seat: int, text: str) -> MahabharataState:
    return E.apply(state, seat, E.parse(state, seat, text))


def started(n: int = 2, first: int = 0, leaders: tuple[str, ...] = LEADERS4) -> MahabharataState:
    state = E.setup(n, {})
    for key in leaders:
        state = act(state, CHANCE, f"leader {key}")
    assert state.phase == "first"
    return act(state, CHANCE, f"first {first}")


def rolled(state: MahabharataState, faces: tuple[str, ...] = FACES) -> MahabharataState:
    for d, face in enumerate(faces, 1):
        state = act(state, CHANCE, f"roll d{d} {face}")
    assert state.phase == "draft"
    return state


def edit(state: MahabharataState, change: Callable[[dict[str, Any]], None]) -> MahabharataState:
    obj = json.loads(json.dumps(E.to_json(state)))
    change(obj)
    return E.from_json(obj)


def space(obj: dict[str, Any], key: str, number: int) -> dict[str, Any]:
    result: dict[str, Any] = obj["spaces"][obj["leaders"].index(key)][number - 1]
    return result


def texts(state: MahabharataState, seat: int) -> list[str]:
    return [E.describe(state, seat, a) for a in E.legal_actions(state, seat)]


def empty_supply(obj: dict[str, Any], seat: int, keep: dict[str, int] | None = None) -> None:
    obj["supply"][seat] = {k: (keep or {}).get(k, 0) for k in KINDS}


# --------------------------------------------------------------------------
# R1-R3: component tables
# --------------------------------------------------------------------------


def test_R1_ten_token_kinds_three_each() -> None:
    assert KINDS == [
        "chariot", "elephant", "cav1", "cav2", "cav3",
        "inf1", "inf2", "inf3", "inf4", "inf5",
    ]  # fmt: skip
    assert all(t.count == 3 for t in C.tokens)
    assert [t.name for t in C.tokens][2] == "Cavalry-1"
    state = E.setup(3, {})
    assert all(sum(s) == 30 for s in state.supply)


def test_R2_dice_faces_and_roll_probabilities() -> None:
    assert len(C.dice) == 8
    assert [d.kind for d in C.dice] == ["chariot"] * 2 + ["elephant"] * 2 + ["cavalry"] * 2 + [
        "infantry"
    ] * 2
    assert all(d.faces.count("raja") == 1 for d in C.dice)
    state = started()
    for d in range(1, 9):
        outcomes = E.chance_outcomes(state)
        assert sum(p for _, p in outcomes) == 1
        assert all(isinstance(a, Roll) and a.die == d for a, _ in outcomes)
        if d == 5:  # a cavalry die: Cav-1 and Cav-2 appear twice
            assert dict((a.face, p) for a, p in outcomes if isinstance(a, Roll)) == {
                "cav1": Fraction(2, 6),
                "cav2": Fraction(2, 6),
                "cav3": Fraction(1, 6),
                "raja": Fraction(1, 6),
            }
        state = E.apply(state, CHANCE, outcomes[-1][0])


def test_R3_leaders_vp_equals_spaces() -> None:
    assert len(C.leaders) == 10
    assert all(ld.vp == len(ld.icons) for ld in C.leaders)
    assert {ld.key for ld in C.leaders} >= {"drona", "bhishma", "dhrishtaketu"}
    assert sum(ld.vp for ld in C.leaders) == 45


def _dump_toml(data: dict[str, list[dict[str, Any]]]) -> str:
    """Enough TOML for the component tables (strings, ints, lists)."""
    lines: list[str] = []
    for table, entries in data.items():
        for entry in entries:
            lines.append(f"[[{table}]]")
            lines.extend(f"{key} = {json.dumps(value)}" for key, value in entry.items())
            lines.append("")
    return "\n".join(lines)


def _default_data() -> dict[str, Any]:
    import tomllib

    text = Path(__file__).parents[2].joinpath("bot/engines/data/mahabharata.toml").read_text()
    return tomllib.loads(text)


def _leader(data: dict[str, Any], name: str) -> dict[str, Any]:
    result: dict[str, Any] = next(ld for ld in data["leaders"] if ld["name"] == name)
    return result


BROKEN: Broken = [
    (
        "vp_not_spaces",
        lambda d: _leader(d, "Drona")["icons"].pop(),
        "mahabharata.toml: leader 'Drona' has 6 VP but 5 icon spaces",
    ),
    ("bad_icon", lambda d: _leader(d, "Virata")["icons"].__setitem__(0, "X"), "icon 'X'"),
    ("nine_leaders", lambda d: d["leaders"].pop(), "has 9 leaders; R3 needs 10"),
    ("two_rajas", lambda d: d["dice"][0]["faces"].__setitem__(0, "raja"), "die 1 has 2 Raja"),
    ("no_raja", lambda d: d["dice"][7]["faces"].__setitem__(5, "inf1"), "die 8 has 0 Raja"),
    ("five_faces", lambda d: d["dice"][4]["faces"].pop(0), "die 5 has 5 faces"),
    ("seven_dice", lambda d: d["dice"].pop(), "has 7 dice; R2 needs 8"),
    (
        "unknown_face",
        lambda d: d["dice"][5]["faces"].__setitem__(0, "cav4"),
        "die 6 has face 'cav4', which is not a token kind",
    ),
    ("count_four", lambda d: d["tokens"][3].__setitem__("count", 4), "token 'cav2' has count 4"),
    ("nine_kinds", lambda d: d["tokens"].pop(), "has 9 token kinds; R1 needs 10"),
    ("bad_class", lambda d: d["tokens"][0].__setitem__("class", "Z"), "class 'Z'"),
    ("duplicate_kind", lambda d: d["tokens"][1].__setitem__("kind", "chariot"), "twice"),
    ("missing_field", lambda d: d["leaders"][0].pop("vp"), "lacks the field 'vp'"),
    ("vp_as_text", lambda d: d["leaders"][0].__setitem__("vp", "2"), "whole number"),
    ("no_dice_table", lambda d: d.pop("dice"), "[[dice]]"),
]


@parametrize_broken(BROKEN)
def test_R1_R3_broken_tables_are_refused(mutate: Mutate, message: str) -> None:
    data = _default_data()
    mutate(data)
    assert_refused(load_components_text, _dump_toml(data), message, "mahabharata.toml")


def test_R1_R3_broken_table_file_named_in_message(tmp_path: Path) -> None:
    path = tmp_path / "house_rules.toml"
    path.write_text("this is = = not toml")
    with pytest.raises(ComponentError, match=r"^house_rules\.toml: not valid TOML"):
        load_components(path)
    with pytest.raises(ComponentError, match="cannot be read"):
        load_components(tmp_path / "missing.toml")


def test_R3_R4_table_without_an_18_subset_is_refused() -> None:
    data = _default_data()
    for ld in data["leaders"]:  # ten leaders of 1 VP each: never 18
        ld["vp"], ld["icons"] = 1, ["I"]
    with pytest.raises(ComponentError, match="exactly 18 VP"):
        load_components_text(_dump_toml(data))


def test_R1_R3_round_tripped_default_table_loads_and_drives_an_engine() -> None:
    components = load_components_text(_dump_toml(_default_data()))
    engine = MahabharataEngine(components)
    assert engine.setup(2, {}).phase == "setup"


# --------------------------------------------------------------------------
# R4: leaders in play
# --------------------------------------------------------------------------


def test_R4_four_cards_summing_to_18_are_kept() -> None:
    state = started()
    assert [C.leaders[i].key for i in state.leaders] == ["virata", "satyaki", "drona", "bhishma"]
    assert sum(len(sp) for sp in state.spaces) == 18


def test_R4_below_18_keeps_drawing() -> None:
    state = E.setup(2, {})
    for key in ("virata", "satyaki", "dhrishtaketu", "drupada"):  # 2+3+3+4 = 12
        state = act(state, CHANCE, f"leader {key}")
    assert state.phase == "setup"
    state = act(state, CHANCE, "leader drona")  # 18
    assert state.phase == "first"
    assert len(state.leaders) == 5


def test_R4_subset_rule_keeps_the_most_cards() -> None:
    # Bhagadatta 5, Virata 2, Satyaki 3, Bhishma 7 (17 < 18), Drona 6 (23):
    # discarding Bhagadatta (one card) beats discarding Virata + Satyaki.
    assert keep_for_eighteen((5, 2, 3, 7, 6)) == (1, 2, 3, 4)
    state = E.setup(2, {})
    for key in ("bhagadatta", "virata", "satyaki", "bhishma", "drona"):
        state = act(state, CHANCE, f"leader {key}")
    assert {C.leaders[i].key for i in state.leaders} == {"virata", "satyaki", "bhishma", "drona"}


def test_R4_subset_rule_ties_discard_the_most_recently_drawn() -> None:
    # 7 6 4 6 (23) and 7 6 4 6 3 (26) have no 18 subset.  With a 2 (28) the
    # smallest discards worth 10 are {6, 4} (positions 1, 2), {7, 3}
    # (positions 0, 4) and {4, 6} (positions 2, 3); the one reaching the
    # latest card is {7, 3}.
    assert keep_for_eighteen((7, 6, 4, 6)) is None
    assert keep_for_eighteen((7, 6, 4, 6, 3)) is None
    assert keep_for_eighteen((7, 6, 4, 6, 3, 2)) == (1, 2, 3, 5)
    state = E.setup(2, {})
    for key in ("bhishma", "drona", "drupada", "kritavarma", "satyaki"):
        state = act(state, CHANCE, f"leader {key}")
        assert state.phase == "setup"
    after = act(state, CHANCE, "leader virata")
    assert {C.leaders[i].key for i in after.leaders} == {"drona", "drupada", "kritavarma", "virata"}
    assert E.narrate(state, CHANCE, DrawLeader("virata"), after) == (
        "Leaders in play, 18 victory points in all: Virata (2), Drupada (4), Kritavarma (6),"
        " Drona (6). Set aside: Bhishma, Satyaki."
    )


def test_R4_simple_tie_discards_latest_card() -> None:
    # Drona 6 and Kritavarma 6 both fit; the later one is set aside.
    assert keep_for_eighteen((6, 7, 5, 6)) == (0, 1, 2)


def _oracle(vps: tuple[int, ...]) -> tuple[int, ...] | None:
    """R4 by brute force over bit masks: most cards, then discard latest."""
    best: tuple[tuple[int, tuple[int, ...]], int] | None = None
    for mask in range(1, 1 << len(vps)):
        kept = [i for i in range(len(vps)) if mask >> i & 1]
        if sum(vps[i] for i in kept) != 18:
            continue
        discarded = tuple(sorted(set(range(len(vps))) - set(kept), reverse=True))
        key = (len(kept), discarded)
        if best is None or key > best[0]:
            best = (key, mask)
    if best is None:
        return None
    return tuple(i for i in range(len(vps)) if best[1] >> i & 1)


@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(2, 4))
def test_R4_setup_always_yields_18_vp_property(data: st.DataObject, players: int) -> None:
    state = E.setup(players, {})
    while state.phase == "setup":
        outcomes = E.chance_outcomes(state)
        assert sum(p for _, p in outcomes) == 1
        assert len({p for _, p in outcomes}) == 1  # uniform over cards left
        pick = data.draw(st.integers(0, len(outcomes) - 1))
        state = E.apply(state, CHANCE, outcomes[pick][0])
    assert state.phase == "first"
    assert sum(C.leaders[i].vp for i in state.leaders) == 18
    assert sum(len(sp) for sp in state.spaces) == 18
    vps = tuple(C.leaders[i].vp for i in state.drawn)
    assert len(vps) >= 4
    # Every earlier moment of this attempt had to go on drawing.
    for j in range(4, len(vps)):
        assert sum(vps[:j]) < 18 or _oracle(vps[:j]) is None
    expected = _oracle(vps)
    assert expected is not None
    assert state.leaders == tuple(sorted(state.drawn[k] for k in expected))
    assert keep_for_eighteen(vps) == expected


def test_R4_setup_refuses_bad_counts() -> None:
    with pytest.raises(InvalidOptions):
        E.setup(1, {})
    with pytest.raises(InvalidOptions):
        E.setup(5, {})
    with pytest.raises(InvalidOptions):
        E.setup(2, {"variant": True})


def test_R4_a_card_cannot_be_drawn_twice() -> None:
    state = act(E.setup(2, {}), CHANCE, "leader drona")
    with pytest.raises(IllegalAction, match="already been drawn"):
        act(state, CHANCE, "leader drona")
    assert "drona" not in {
        a.leader for a, _ in E.chance_outcomes(state) if isinstance(a, DrawLeader)
    }


# --------------------------------------------------------------------------
# R5: first player and the elephant
# --------------------------------------------------------------------------


def test_R5_first_player_is_chance_uniform_over_seats() -> None:
    state = E.setup(3, {})
    for key in LEADERS4:
        state = act(state, CHANCE, f"leader {key}")
    outcomes = E.chance_outcomes(state)
    assert outcomes == [(ChooseFirst(s), Fraction(1, 3)) for s in range(3)]
    assert E.to_move(state) == {CHANCE}


def _play_round_to_screens(state: MahabharataState) -> MahabharataState:
    """Everyone takes the first legal action; the round ends (no Pati yet)."""
    state = rolled(state, ("chariot",) * 2 + ("elephant",) * 2 + ("cav1",) * 2 + ("inf1",) * 2)
    while state.phase == "draft":
        (seat,) = E.to_move(state)
        state = E.apply(state, seat, E.legal_actions(state, seat)[0])
    return state


def test_R5_elephant_passes_left_each_round() -> None:
    state = started(n=3, first=2)
    seen = []
    for _ in range(4):
        assert state.phase == "roll"
        seen.append((state.round, state.elephant))
        state = _play_round_to_screens(state)
    assert seen == [(1, 2), (2, 0), (3, 1), (4, 2)]
    assert (state.round, E.view(state, None).elephant) == (5, 0)


# --------------------------------------------------------------------------
# R6-R7: rolling and the snake draft
# --------------------------------------------------------------------------


def test_R6_all_eight_dice_rolled_even_with_two_players() -> None:
    state = started(n=2)
    for d in range(1, 9):
        assert state.phase == "roll"
        assert E.to_move(state) == {CHANCE}
        state = act(state, CHANCE, f"roll d{d} {FACES[d - 1]}")
    assert state.phase == "draft"
    for _ in range(4):
        (seat,) = E.to_move(state)
        state = E.apply(state, seat, E.legal_actions(state, seat)[0])
    # Two players: four dice are left unused, and the next round rolls all 8.
    assert state.phase == "roll"
    assert state.faces == (None,) * 8


def test_the_opening_is_told_in_three_lines() -> None:
    """The first board's text leads with what matters: the leaders in play,
    who holds the elephant and the roll, one line each, not one line per
    card drawn and per die rolled (the log still has every step)."""
    from bot.engines.core import resolve_chance

    state, steps = resolve_chance(E, E.setup(4, {}), random.Random(5).random)
    said = [step.narration for step in steps if step.narration]
    assert len(steps) > 10 and len(said) == 3, said
    leaders, first, rolled = said
    assert leaders.startswith("Leaders in play, 18 victory points in all: ")
    assert re.fullmatch(r"\{p[0-3]\} takes the Elephant token and picks first\.", first)
    faces = ", ".join(E._face_name(face) for face in state.faces)
    assert rolled.startswith(f"The dice were rolled: {faces}. Round 1: {{p")
    assert "Raja" in rolled or "Chariot" in rolled
    assert "VP" not in " ".join(said)


def test_a_raja_placement_menu_is_named_in_words() -> None:
    """A Raja die's placements on one space form a menu group before the
    token is chosen; its label says the die, the leader and the space."""
    state = started(n=2)
    for d in range(1, 9):
        state = act(state, CHANCE, f"roll d{d} {FACES[d - 1]}")
    raja = next(d for d, face in enumerate(state.faces, start=1) if face == "raja")
    leader = C.leaders[state.leaders[0]]
    label = E.choice_label(state, 0, f"d{raja} {leader.key}.1")
    assert label.startswith(f"Die {raja} (Raja) on {leader.name}, space 1 (")
    assert f"{leader.key}.1" not in label


def test_R7_snake_order_two_players() -> None:
    assert snake_order(2, 0) == (0, 1, 1, 0)
    assert snake_order(2, 1) == (1, 0, 0, 1)


def test_R7_snake_order_three_players() -> None:
    assert snake_order(3, 0) == (0, 1, 2, 2, 1, 0)
    assert snake_order(3, 1) == (1, 2, 0, 0, 2, 1)


def test_R7_snake_order_four_players() -> None:
    assert snake_order(4, 3) == (3, 0, 1, 2, 2, 1, 0, 3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R7_engine_follows_the_snake_each_player_two_dice(players: int) -> None:
    state = rolled(started(n=players, first=1))
    movers = []
    while state.phase == "draft":
        (seat,) = E.to_move(state)
        assert E.waiting_on(state) == {seat}
        movers.append(seat)
        view = E.view(state, None)
        assert view.draft_order[view.picks_made] == seat
        state = E.apply(state, seat, E.legal_actions(state, seat)[0])
    assert tuple(movers) == snake_order(players, 1)
    assert all(movers.count(s) == 2 for s in range(players))


# --------------------------------------------------------------------------
# R8: placing
# --------------------------------------------------------------------------


def test_R8_non_raja_die_places_exactly_its_token_screen_or_matching_space() -> None:
    state = rolled(started())
    d5 = [t for t in texts(state, 0) if t.startswith("d5 ")]
    assert d5 == [
        "d5 screen", "d5 satyaki.2", "d5 drona.2", "d5 drona.3", "d5 bhishma.3", "d5 bhishma.4",
    ]  # fmt: skip
    assert E.parse(state, 0, "d5 drona.2") == PlaceLeader(5, "drona", 2, "cav1")
    with pytest.raises(IllegalAction, match="Die 5 shows Cavalry-1"):
        act(state, 0, "d5 drona.2 cav2")
    with pytest.raises(IllegalAction, match="takes chariot, not cavalry"):
        act(state, 0, "d5 drona.1")
    after = act(state, 0, "d5 screen")
    assert after.screens[0][KINDS.index("cav1")] == 1
    assert after.supply[0][KINDS.index("cav1")] == 2


def test_R8_raja_places_any_token_only_on_a_matching_leader_space() -> None:
    state = rolled(started())
    raja = [a for a in E.legal_actions(state, 0) if getattr(a, "die", None) == 8]
    assert raja and all(isinstance(a, PlaceLeader) for a in raja)
    kinds = {a.token for a in raja if isinstance(a, PlaceLeader)}
    assert kinds == set(KINDS)  # any token from supply
    for a in raja:
        assert isinstance(a, PlaceLeader) and a.token is not None
        spec = C.leaders[C.leader_index[a.leader]]
        assert spec.icons[a.space - 1] == C.tokens[C.token_index[a.token]].cls
    # C 3 spaces, E 2, H 5, I 8: 3*1 + 2*1 + 5*3 + 8*5 = 60 choices.
    assert len(raja) == 60
    with pytest.raises(IllegalAction, match="Raja die cannot be used for your Pati"):
        act(state, 0, "d8 screen")
    with pytest.raises(IllegalAction, match="name the token"):
        act(state, 0, "d8 drona.1")
    with pytest.raises(IllegalAction, match="takes chariot, not infantry"):
        act(state, 0, "d8 drona.1 inf2")
    after = act(state, 0, "D8 Drona.2 CAV2")
    assert E.view(after, None).leaders[2].spaces[1].tokens == ("cav2",)
    assert E.label(state, 0, PlaceLeader(8, "drona", 2, "cav2")) == (
        "Die 8 (Raja): Cavalry-2 on Drona, space 2 (cavalry)"
    )


def test_R8_other_players_token_closes_a_space_own_token_stacks() -> None:
    state = rolled(started(n=2, first=0))
    state = act(state, 0, "d1 drona.1")
    assert E.to_move(state) == {1}
    assert "d2 drona.1" not in texts(state, 1)
    with pytest.raises(
        IllegalAction, match=re.escape("Space 1 of Drona holds another player's token.")
    ):
        act(state, 1, "d2 drona.1")
    state = act(act(state, 1, "d2 screen"), 1, "d3 screen")
    assert "d8 drona.1 chariot" in texts(state, 0)  # own space: stacking
    state = act(state, 0, "d8 drona.1 chariot")
    drona = E.view(state, None).leaders[2]
    assert drona.spaces[0].owner == 0
    assert drona.spaces[0].tokens == ("chariot", "chariot")
    assert drona.influence == (2, 0)


def test_R8_supply_limits_placement() -> None:
    state = edit(rolled(started()), lambda o: empty_supply(o, 0, {"cav1": 1}))
    assert not any(t.startswith("d1 ") for t in texts(state, 0))  # no chariots
    with pytest.raises(IllegalAction, match=re.escape("You have no Chariot tokens left.")):
        act(state, 0, "d1 screen")
    state = act(state, 0, "d5 screen")
    assert sum(state.supply[0]) == 0


def _screened(kind: str, count: int) -> MahabharataState:
    """Seat 0 to pick, with ``count`` tokens of ``kind`` behind its screen."""

    def change(obj: dict[str, Any]) -> None:
        obj["screens"][0] = [kind] * count
        obj["supply"][0][kind] -= count

    return edit(rolled(started()), change)


def test_R14_die_buttons_are_public_only_while_the_supply_is_known() -> None:
    """Which dice a picker is offered depends on their supply (R9), which R14
    keeps private; the choices are public only when the public view settles
    it.  Two states the public cannot tell apart offer different dice."""
    assert E.choices_are_public(rolled(started()), 0)  # nothing placed yet
    # One token behind the screen: at least 2 of every kind are left.
    one = _screened("chariot", 1)
    assert E.choices_are_public(one, 0)
    chariots, cavalry = _screened("chariot", 3), _screened("cav3", 3)
    assert E.view(chariots, None) == E.view(cavalry, None)
    assert any(t.startswith("d1 ") for t in texts(cavalry, 0))
    assert not any(t.startswith("d1 ") for t in texts(chariots, 0))  # no chariots left
    assert not E.choices_are_public(chariots, 0)
    assert not E.choices_are_public(cavalry, 0)
    # Seats not to move, and chance's rolls, have nothing hidden.
    assert E.choices_are_public(chariots, 1)
    assert E.choices_are_public(started(), CHANCE)


def test_R14_who_is_asked_to_announce_is_never_public() -> None:
    state = edit(rolled(started()), lambda o: o.update(phase="announce", pending=[1]))
    assert not any(E.choices_are_public(state, s) for s in (CHANCE, 0, 1))


def test_R8_die_taken_once_per_round() -> None:
    state = act(rolled(started()), 0, "d1 screen")
    with pytest.raises(IllegalAction, match=re.escape("Die 1 has already been taken this round.")):
        act(state, 1, "d1 screen")
    assert E.view(state, None).dice[0].taken_by == 0


def test_R8_leader_not_in_play_is_refused() -> None:
    state = rolled(started())
    with pytest.raises(IllegalAction, match=re.escape("Shalya is not in play.")):
        act(state, 0, "d1 shalya.1")
    with pytest.raises(IllegalAction, match=re.escape("Drona has only 6 spaces.")):
        act(state, 0, "d7 drona.7")


# --------------------------------------------------------------------------
# R9: forced choice
# --------------------------------------------------------------------------


def test_R9_a_placeable_die_must_be_taken() -> None:
    # Seat 0 holds only an Infantry-3: die 7 (Infantry-3) and the Raja are
    # the only dice it can take, and it must take one of them.
    state = edit(rolled(started()), lambda o: empty_supply(o, 0, {"inf3": 1}))
    assert texts(state, 0) == ["d7 screen"] + [
        f"d7 {sp}" for sp in ("virata.2", "satyaki.3", "drona.4", "drona.5", "drona.6")
    ] + [f"d7 bhishma.{j}" for j in (5, 6, 7)] + [
        f"d8 {sp} inf3"
        for sp in (
            *("virata.2", "satyaki.3", "drona.4", "drona.5", "drona.6"),
            *("bhishma.5", "bhishma.6", "bhishma.7"),
        )
    ]
    with pytest.raises(IllegalAction, match="You must take a die you can place"):
        act(state, 0, "d3 none")
    with pytest.raises(IllegalAction, match=re.escape("You have no Elephant tokens left.")):
        act(state, 0, "d3 screen")


def test_R9_raja_only_placeable_die_is_forced() -> None:
    def change(o: dict[str, Any]) -> None:
        empty_supply(o, 0, {"chariot": 1})
        for key, n in (("virata", 1), ("drona", 1)):
            space(o, key, n).update(owner=1, tokens=["chariot"])

    # No chariot die left (d1, d2 taken), the only open C space is Bhishma 1:
    # the Raja die must go there.
    faces = ("chariot", "chariot", "elephant", "elephant", "cav1", "cav2", "inf3", "raja")
    state = edit(rolled(started(), faces), change)
    state = edit(state, lambda o: o.update(taken=[1, 1, None, None, None, None, None, None]))
    assert texts(state, 0) == ["d8 bhishma.1 chariot"]


def test_R9_nothing_placeable_take_any_die_place_nothing() -> None:
    state = edit(rolled(started()), lambda o: empty_supply(o, 0))
    actions = E.legal_actions(state, 0)
    assert actions == [TakeNothing(d) for d in range(1, 9)]
    assert texts(state, 0) == [f"d{d} none" for d in range(1, 9)]
    after = act(state, 0, "d3 none")
    assert after.taken[2] == 0
    assert after.supply == state.supply and after.screens == state.screens
    assert after.spaces == state.spaces
    assert E.to_move(after) == {1}
    assert E.narrate(state, 0, TakeNothing(3), after) == "{p0} took die 3 but could place nothing."


# --------------------------------------------------------------------------
# R10: end of round and the announce phase
# --------------------------------------------------------------------------


def _finish_round(state: MahabharataState) -> MahabharataState:
    while state.phase == "draft":
        (seat,) = E.to_move(state)
        state = E.apply(state, seat, E.legal_actions(state, seat)[0])
    return state


def test_R10_game_ends_when_all_18_spaces_hold_a_token() -> None:
    def change(o: dict[str, Any]) -> None:
        icon_kind = {"C": "chariot", "E": "elephant", "H": "cav1", "I": "inf1"}
        for key in o["leaders"]:
            spec = C.leaders[C.leader_index[key]]
            for j, icon in enumerate(spec.icons, 1):
                if (key, j) != ("virata", 1):
                    space(o, key, j).update(owner=1, tokens=[icon_kind[icon]])

    state = edit(rolled(started()), change)
    state = act(state, 0, "d1 virata.1")
    assert state.phase == "draft"  # R10: only checked when the round is over
    state = act(act(state, 1, "d2 screen"), 1, "d3 screen")
    state = act(state, 0, "d4 screen")
    assert state.phase == "over"
    outcome = E.outcome(state)
    assert outcome is not None
    assert outcome.reason == "All 18 leader spaces hold a token."
    assert E.to_move(state) == frozenset()


def test_R10_round_without_pati_or_full_board_starts_a_new_round() -> None:
    state = _finish_round(rolled(started()))
    assert state.phase == "roll" and state.round == 2 and state.elephant == 1
    assert E.outcome(state) is None


def _pati_state(holders: tuple[int, ...], players: int = 2) -> MahabharataState:
    def change(o: dict[str, Any]) -> None:
        for s in holders:
            o["screens"][s] = list(PATI_SCREEN)
            for k in PATI_SCREEN:
                o["supply"][s][k] -= 1

    faces = ("chariot",) * 2 + ("elephant",) * 2 + ("cav1",) * 2 + ("inf1",) * 2
    return edit(rolled(started(n=players), faces), change)


def test_R10_players_with_a_pati_decide_simultaneously() -> None:
    state = _finish_round(_pati_state((0, 1), players=3))
    assert state.phase == "announce"
    assert E.to_move(state) == {0, 1}
    assert E.waiting_on(state) == frozenset()
    assert E.view(state, None).waiting_on == ()
    assert E.view(state, 0).waiting_on == (0,)
    assert E.view(state, 2).waiting_on == ()
    assert E.view(state, None).phase == "announce"
    assert texts(state, 0) == ["announce", "pass"]
    assert texts(state, 2) == []
    state = act(state, 0, "announce")
    assert E.to_move(state) == {1}  # one decision does not end the others' turn
    assert E.view(state, None).players[0].announced
    with pytest.raises(NotYourTurn):
        act(state, 0, "announce")
    state = act(state, 1, "pass")
    assert state.phase == "over"
    outcome = E.outcome(state)
    assert outcome is not None
    assert outcome.reason == "A Pati was announced."
    assert outcome.scores[0] >= 7 and outcome.scores[1] >= 7  # R11: announced or not


def test_R10_nobody_announcing_continues() -> None:
    state = _finish_round(_pati_state((1,)))
    assert E.to_move(state) == {1}
    state = act(state, 1, "pass")
    assert state.phase == "roll" and state.round == 2


def test_R10_no_pati_skips_the_announce_phase() -> None:
    state = _finish_round(_pati_state(()))
    assert state.phase == "roll"


def test_R10_R14_not_your_turn_in_announce_names_nobody() -> None:
    state = _finish_round(_pati_state((1,), players=3))
    for seat in (0, 2):
        with pytest.raises(NotYourTurn) as info:
            act(state, seat, "announce")
        message = str(info.value)
        assert "{p" not in message and "1" not in message and "seat" not in message.lower()
    with pytest.raises(IllegalAction, match="announce' or 'pass'"):
        act(state, 1, "d1 screen")


def test_R10_game_ends_when_no_supply_is_left() -> None:
    # Added to R10: nothing can change once every supply is empty.
    def change(o: dict[str, Any]) -> None:
        empty_supply(o, 0, {"chariot": 1, "elephant": 1})
        empty_supply(o, 1, {"chariot": 1, "elephant": 1})

    state = _finish_round(edit(rolled(started()), change))
    assert state.phase == "over"
    assert state.reason == "No player has a token left to place."


# --------------------------------------------------------------------------
# R11: Pati
# --------------------------------------------------------------------------


def _screen(*kinds: str) -> tuple[int, ...]:
    return tuple(kinds.count(k) for k in KINDS)


def test_R11_rulebook_example_2_2_3_infantry_makes_5() -> None:
    screen = _screen("chariot", "elephant", "cav3", "inf2", "inf2", "inf3")
    assert E.pati_missing(screen) == ()


def test_R11_rulebook_example_4_4_infantry_cannot_make_5() -> None:
    screen = _screen("chariot", "elephant", "cav3", "inf4", "inf4")
    assert E.pati_missing(screen) == ("Infantry summing to 5",)


def test_R11_extra_tokens_do_not_spoil_a_pati() -> None:
    screen = _screen(
        "chariot", "chariot", "elephant", "elephant", "cav2", "cav2", "cav1", "inf4", "inf4", "inf1"
    )
    assert E.pati_missing(screen) == ()


def test_R11_cavalry_needs_an_exact_subset() -> None:
    base = ("chariot", "elephant", "inf5")
    assert E.pati_missing(_screen(*base, "cav2", "cav2")) == ("Cavalry summing to 3",)
    assert E.pati_missing(_screen(*base, "cav1", "cav2")) == ()
    assert E.pati_missing(_screen(*base, "cav1", "cav1", "cav1")) == ()


def test_R11_empty_screen_lacks_everything() -> None:
    assert E.pati_missing(_screen()) == (
        "Chariot",
        "Elephant",
        "Cavalry summing to 3",
        "Infantry summing to 5",
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=10, max_size=10))
def test_R11_pati_is_an_exact_subset_sum_property(counts: list[int]) -> None:
    screen = tuple(counts)

    def reachable(cls: str, target: int) -> bool:
        icons = [t.icons for t, n in zip(C.tokens, screen, strict=True) if t.cls == cls
                 for _ in range(n)]  # fmt: skip
        return any(
            sum(combo) == target
            for r in range(len(icons) + 1)
            for combo in itertools.combinations(icons, r)
        )

    expected = reachable("C", 1) and reachable("E", 1) and reachable("H", 3) and reachable("I", 5)
    assert (E.pati_missing(screen) == ()) == expected


# --------------------------------------------------------------------------
# R12-R13: scoring
# --------------------------------------------------------------------------


def test_R12_highest_influence_wins() -> None:
    assert leader_winner((3, 1, 0)) == 0
    assert leader_winner((1, 0)) == 0


def test_R12_tie_on_top_next_lower_single_player_wins() -> None:
    assert leader_winner((2, 2, 1, 0)) == 2
    assert leader_winner((3, 1, 3)) == 1


def test_R12_next_lower_level_tied_or_zero_scores_nobody() -> None:
    assert leader_winner((2, 2, 1, 1)) is None
    assert leader_winner((2, 2, 0)) is None
    assert leader_winner((2, 2)) is None
    assert leader_winner((0, 0, 0)) is None


def test_R12_influence_counts_tokens_not_icons() -> None:
    def change(o: dict[str, Any]) -> None:
        space(o, "drona", 4).update(owner=0, tokens=["inf1", "inf1"])
        space(o, "drona", 5).update(owner=1, tokens=["inf5"])
        space(o, "virata", 1).update(owner=0, tokens=["chariot"])
        space(o, "virata", 2).update(owner=1, tokens=["inf5"])
        o.update(phase="over", reason="A Pati was announced.")

    state = edit(started(), change)
    outcome = E.outcome(state)
    assert outcome is not None
    assert outcome.scores == (6, 0)  # Drona to seat 0; Virata tied 1-1: nobody
    view = E.view(state, None)
    assert view.final is not None
    assert view.final.leader_winners == (None, None, 0, None)


def test_R13_most_vp_wins() -> None:
    assert rank_scores((10, 5, 3)) == (frozenset({0}), frozenset({1}), frozenset({2}))


def test_R13_tie_on_top_single_next_lower_wins() -> None:
    assert rank_scores((10, 10, 5)) == (frozenset({2}), frozenset({0, 1}))
    assert rank_scores((9, 9, 9, 2)) == (frozenset({3}), frozenset({0, 1, 2}))
    assert rank_scores((6, 6, 4, 0)) == (frozenset({2}), frozenset({0, 1}), frozenset({3}))


def test_R13_otherwise_a_draw_of_all_players() -> None:
    assert rank_scores((10, 10, 5, 5)) == (frozenset({0, 1, 2, 3}),)
    assert rank_scores((4, 4)) == (frozenset({0, 1}),)


def test_R11_R13_outcome_of_a_finished_game() -> None:
    def change(o: dict[str, Any]) -> None:
        o["screens"][1] = list(PATI_SCREEN)
        space(o, "bhishma", 1).update(owner=0, tokens=["chariot"])
        o.update(phase="over", reason="A Pati was announced.")

    state = edit(started(), change)
    outcome = E.outcome(state)
    assert outcome is not None
    assert outcome.scores == (7, 7)
    assert outcome.is_draw
    view = E.view(state, None)
    assert view.final is not None
    assert view.final.pati == (False, True)
    assert view.final.screens == ((), ("chariot", "elephant", "cav3", "inf5"))
    assert view.final.ranking == ((0, 1),)


# --------------------------------------------------------------------------
# R14: hidden information
# --------------------------------------------------------------------------


def test_R14_public_view_shows_counts_only() -> None:
    state = act(rolled(started()), 0, "d5 screen")
    public = E.view(state, None)
    assert public.me is None
    assert public.players[0].screen_count == 1
    assert public.players[0].supply_count == 29
    assert public.players[0].dice_taken == 1
    own = E.view(state, 0)
    assert own.me is not None
    assert own.me.screen == ("cav1",)
    assert dict(own.me.supply)["cav1"] == 2
    assert not own.me.pati_complete
    assert own.me.pati_missing == ("Chariot", "Elephant", "Cavalry summing to 3",
                                   "Infantry summing to 5")  # fmt: skip
    other = E.view(state, 1).me
    assert other is not None and other.screen == ()


def test_R14_narration_never_names_a_screen_token() -> None:
    before = rolled(started())
    after = act(before, 0, "d5 screen")
    line = E.narrate(before, 0, PlaceScreen(5), after)
    assert line == "{p0} took die 5 and placed a token behind their screen."
    assert E.private_to(before, 0, PlaceScreen(5)) is None
    line = E.narrate(before, 0, PlaceLeader(5, "drona", 2, "cav1"), after)
    assert "Cavalry-1 on Drona, space 2" in line


def test_R14_a_pass_is_private_and_not_narrated() -> None:
    state = _finish_round(_pati_state((1,)))
    after = act(state, 1, "pass")
    assert E.private_to(state, 1, Pass()) == 1
    assert E.narrate(state, 1, Pass(), after) == ""
    assert E.private_to(state, 1, Announce()) is None


def test_R14_game_end_reveals_everything() -> None:
    state = _finish_round(_pati_state((0,)))
    state = act(state, 0, "announce")
    view = E.view(state, None)
    assert view.phase == "over"
    assert view.final is not None
    assert view.final.pati == (True, False)
    assert "chariot" in view.final.screens[0]
    assert view.final.reason == "A Pati was announced."


def test_R8_R14_last_pick_shows_screen_and_leader_placements() -> None:
    state = started()
    assert E.view(state, None).last_pick is None  # nothing picked at setup
    state = rolled(state)
    assert E.view(state, None).last_pick is None

    # R14: a screen placement shows the die and its face, never the token.
    state = act(state, 0, "d5 screen")
    screen = LastPickView(seat=0, die=5, face="cav1", placed="screen")
    for viewer in (None, 0, 1):
        assert E.view(state, viewer).last_pick == screen
    assert E.to_json(state)["last_pick"]["token"] is None

    # R8: a Raja die on a leader: the leader, its space and the token named.
    state = act(state, 1, "d8 drona.2 cav2")
    view = E.view(state, None)
    last = view.last_pick
    assert last is not None and last.placed == "leader"
    assert (last.seat, last.die, last.face, last.space, last.token) == (1, 8, "raja", 2, "cav2")
    assert last.leader_index is not None
    assert view.leaders[last.leader_index].name == "Drona"
    assert view.leaders[last.leader_index].spaces[1].tokens == ("cav2",)

    # Kept after the round's last pick and through the next roll.
    state = act(state, 1, "d1 virata.1")
    state = act(state, 0, "d7 satyaki.3")
    assert state.phase == "roll" and state.round == 2
    kept = E.view(state, None).last_pick
    assert kept is not None and (kept.seat, kept.die, kept.space) == (0, 7, 3)
    assert E.from_json(json.loads(json.dumps(E.to_json(state)))) == state

    # Saved states from before last_pick load with none.
    old = E.to_json(state)
    del old["last_pick"]
    assert E.from_json(old).last_pick is None
    assert E.from_json(old) == replace(state, last_pick=None)


def test_R9_R14_last_pick_placed_nothing() -> None:
    state = edit(rolled(started()), lambda o: empty_supply(o, 0))
    state = act(state, 0, "d3 none")
    assert E.view(state, None).last_pick == LastPickView(
        seat=0, die=3, face="elephant", placed="nothing"
    )


def test_R14_last_pick_never_names_a_screen_token_in_playouts() -> None:
    rng = random.Random(7)
    screens = 0
    for players in (2, 3, 4):
        state = E.setup(players, {})
        while E.outcome(state) is None:
            (seat, *_) = sorted(E.to_move(state))
            state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            last = E.view(state, None).last_pick
            if last is not None and last.placed != "leader":
                assert last.token is None and last.leader_index is None and last.space is None
                screens += last.placed == "screen"
    assert screens > 0


# --------------------------------------------------------------------------
# Text forms
# --------------------------------------------------------------------------


def test_text_forms_parse_case_insensitively() -> None:
    state = rolled(started())
    assert E.parse(state, 0, "  D3   SCREEN ") == PlaceScreen(3)
    assert E.parse(state, 0, "d3 none") == TakeNothing(3)
    assert E.parse(state, 0, "d8 drona.2 cav2") == PlaceLeader(8, "drona", 2, "cav2")
    assert E.parse(state, 0, "d8 drona.2") == PlaceLeader(8, "drona", 2, None)
    assert E.parse(state, 0, "announce") == Announce()
    assert E.parse(state, 0, "Pass") == Pass()
    assert E.parse(state, CHANCE, "leader drona") == DrawLeader("drona")
    assert E.parse(state, CHANCE, "first 2") == ChooseFirst(2)
    assert E.parse(state, CHANCE, "roll d3 raja") == Roll(3, "raja")


@pytest.mark.parametrize(
    "text",
    ["", "hello", "d9 screen", "d0 screen", "d3 arjuna.2", "d3 drona.2 cav4", "d3", "roll d3 six",
     "leader arjuna", "d3 drona", "first x"],
)  # fmt: skip
def test_text_garbage_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        E.parse(rolled(started()), 0, text)


def test_labels_are_friendly_and_short() -> None:
    state = rolled(started())
    for seat in (0, CHANCE):
        for action in E.legal_actions(state, seat):
            assert 0 < len(E.label(state, seat, action)) <= 100
    assert E.label(state, 0, PlaceScreen(5)) == "Die 5 (Cavalry-1) behind your screen"
    assert E.label(state, 0, PlaceLeader(5, "drona", 2, "cav1")) == (
        "Die 5 (Cavalry-1) on Drona, space 2"
    )
    assert E.label(state, 0, TakeNothing(5)) == "Die 5 (Cavalry-1): take it, place nothing"


# --------------------------------------------------------------------------
# Determinization (issue 19): search deals the other screens afresh (R14)
# --------------------------------------------------------------------------


def _hidden_tokens(screen: list[str], on_leaders: list[str], players: int = 3) -> MahabharataState:
    """Seat 0 to pick; seat 1 has ``screen`` behind its screen and
    ``on_leaders`` on Drona's spaces 4-6 (infantry) and 2-3 (cavalry)."""

    def change(o: dict[str, Any]) -> None:
        o["screens"][0] = ["chariot"]
        o["supply"][0]["chariot"] -= 1
        o["screens"][1] = list(screen)
        for k in screen + on_leaders:
            o["supply"][1][k] -= 1
        for k in on_leaders:
            number = 2 if k.startswith("cav") else 4
            while space(o, "drona", number)["owner"] is not None and number < 6:
                number += 1
            target = space(o, "drona", number)
            target.update(owner=1, tokens=[*target["tokens"], k])

    return edit(rolled(started(n=players)), change)


def test_R14_a_dealt_screen_keeps_every_public_count() -> None:
    state = _hidden_tokens(["cav3", "inf5", "inf5", "elephant"], ["inf1", "inf1", "inf1", "cav2"])
    seen: set[tuple[int, ...]] = set()
    rng = random.Random(4)
    for _ in range(300):
        dealt = E.determinize(state, 0, rng.random)
        assert E.view(dealt, 0) == E.view(state, 0)
        assert E.view(dealt, None) == E.view(state, None)
        assert texts(dealt, 0) == texts(state, 0)
        # The seat's own screen and supply stay exactly as they are.
        assert (dealt.screens[0], dealt.supply[0]) == (state.screens[0], state.supply[0])
        assert dealt.spaces == state.spaces
        for s in (1, 2):
            assert sum(dealt.screens[s]) == sum(state.screens[s])
            # R1: per kind, screen + supply + on leaders = 3; none goes negative.
            for k in range(len(KINDS)):
                assert dealt.screens[s][k] + dealt.supply[s][k] == (
                    state.screens[s][k] + state.supply[s][k]
                )
                assert dealt.screens[s][k] >= 0 and dealt.supply[s][k] >= 0
        # All three Infantry-1 of seat 1 are on Drona: none can be behind its screen.
        assert dealt.screens[1][KINDS.index("inf1")] == 0
        assert dealt.screens[2] == state.screens[2]  # an empty screen hides nothing
        seen.add(dealt.screens[1])
    assert len(seen) > 50  # dealt afresh, not copied


def test_R14_a_dealt_screen_does_not_depend_on_the_hidden_one() -> None:
    """Twins differing only in seat 1's screen (even in classes) deal the same."""
    a = _hidden_tokens(["chariot", "chariot", "elephant"], ["cav2"])
    b = _hidden_tokens(["inf5", "cav3", "inf2"], ["cav2"])
    assert E.view(a, 0) == E.view(b, 0) and a != b
    for seed in range(20):
        dealt_a = E.determinize(a, 0, random.Random(seed).random)
        dealt_b = E.determinize(b, 0, random.Random(seed).random)
        assert E.to_json(dealt_a) == E.to_json(dealt_b)
    # Seat 1 sees its own screen, so for seat 1 the twins stay apart.
    assert E.determinize(a, 1, random.Random(0).random).screens[1] == a.screens[1]


def test_R14_the_latest_screen_pick_shows_its_token_kind() -> None:
    """The die of the latest pick is public (R14), so a screen it went behind
    holds at least one token of its face."""
    state = act(rolled(started()), 0, "d5 screen")  # die 5 shows Cavalry-1
    assert state.last_pick is not None and state.last_pick.placed == "screen"
    cav1 = KINDS.index("cav1")
    rng = random.Random(2)
    for _ in range(100):
        dealt = E.determinize(state, 1, rng.random)
        assert dealt.screens[0][cav1] == 1 and dealt.supply[0][cav1] == 2
        assert E.view(dealt, 1) == E.view(state, 1)


def _without_pati(state: MahabharataState, seat: int) -> MahabharataState:
    """``state`` with ``seat``'s Infantry-5 swapped for an Infantry-1 behind
    its screen: same counts, no complete Pati (R11), so it is not asked (R10)."""

    def change(o: dict[str, Any]) -> None:
        screen = o["screens"][seat]
        screen[screen.index("inf5")] = "inf1"
        o["supply"][seat]["inf5"] += 1
        o["supply"][seat]["inf1"] -= 1
        o["pending"] = [s for s in o["pending"] if s != seat]

    twin = edit(state, change)
    assert E.pati_missing(twin.screens[seat])
    return twin


def test_R10_R14_who_else_is_asked_to_announce_is_dealt_not_copied() -> None:
    """Twins that differ only in whether another seat holds a complete Pati
    (so is asked), or has passed already, deal the same from the same draws."""
    state = _finish_round(_pati_state((0, 1), players=3))
    assert state.phase == "announce" and state.pending == {0, 1}
    twins = {
        # Seat 0 is asked itself; seat 1 is asked, not asked, or has passed.
        0: [state, _without_pati(state, 1), act(state, 1, "pass")],
        # Seat 2 is not asked; somebody else is, but who is hidden.
        2: [state, _without_pati(state, 1), _without_pati(state, 0), act(state, 0, "pass")],
    }
    for seat, states in twins.items():
        assert len({E.to_move(s) for s in states}) > 1
        assert all(E.view(s, seat) == E.view(state, seat) for s in states)
        for seed in range(20):
            dealt = [E.to_json(E.determinize(s, seat, random.Random(seed).random)) for s in states]
            assert all(d == dealt[0] for d in dealt), (seat, seed)


def test_R10_R14_the_players_asked_to_announce_follow_the_dealt_screens() -> None:
    state = _finish_round(_pati_state((0, 1), players=3))
    announced = act(state, 1, "announce")  # public (R10): seat 1 holds a Pati
    for base in (state, announced):
        for seat in (0, 1, 2):
            rng = random.Random(seat)
            asked: set[frozenset[int]] = set()
            for _ in range(200):
                dealt = E.determinize(base, seat, rng.random)
                assert E.view(dealt, seat) == E.view(base, seat)
                assert texts(dealt, seat) == texts(base, seat)
                assert (seat in dealt.pending) == (seat in base.pending)
                assert dealt.announced == base.announced
                for s in (0, 1, 2):
                    if s != seat:
                        # R10: asked exactly when the dealt screen holds a
                        # complete Pati and no announcement was made.
                        has_pati = not E.pati_missing(dealt.screens[s])
                        assert (s in dealt.pending) == (has_pati and not base.announced[s])
                        # An announcement shows a complete Pati.
                        assert has_pati or not base.announced[s]
                # While the phase lasts somebody is still asked.
                assert E.to_move(dealt)
                asked.add(dealt.pending)
            if seat != 1 and base is state:
                assert len(asked) > 1  # dealt, not copied


def test_R14_nothing_is_dealt_when_nothing_is_hidden() -> None:
    setup = E.setup(3, {})
    assert E.determinize(setup, 0, random.Random(0).random) is setup
    fresh = rolled(started())
    assert E.determinize(fresh, 1, random.Random(0).random) is fresh
    over = edit(fresh, lambda o: o.update(phase="over", reason="A Pati was announced."))

    def screened(o: dict[str, Any]) -> None:
        o["screens"][1] = ["inf5"]
        o["supply"][1]["inf5"] -= 1

    over = edit(over, screened)
    assert E.determinize(over, 0, random.Random(0).random) is over  # R14: all screens shown
