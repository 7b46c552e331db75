"""The generic action menus: every legal action is reachable, no level
exceeds Discord's 25 options, and paths are refused once they go stale."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.choices import (
    FLAT_LIMIT,
    StaleChoice,
    follow,
    format_path,
    locate,
    parse_path,
    path_to,
    sections,
    trail,
)


def reachable(actions: list[str]) -> list[str]:
    found: list[str] = []

    def walk(path: tuple[int, ...]) -> None:
        action, options, _ = follow(actions, path)
        if action is not None:
            found.append(action)
            return
        # A level of whole actions fits in one message's selects.
        assert len(options) <= FLAT_LIMIT or not all(o.leaf for o in options), options
        for i in range(len(options)):
            walk((*path, i))

    walk(())
    return found


def test_up_to_a_hundred_actions_are_one_menu() -> None:
    """Issue 18: when every action fits in one message (four selects of
    25), they are all shown at once: one interaction per decision."""
    actions = [f"d{d} leader{i}.{j}" for d in range(1, 5) for i in range(5) for j in range(5)]
    assert len(actions) == FLAT_LIMIT == 100
    _, options, _ = follow(actions, ())
    assert [o.text for o in options] == actions and all(o.leaf for o in options)
    assert follow(actions, (57,))[0] == actions[57]


def test_more_actions_are_narrowed_by_first_word() -> None:
    actions = [f"d{d} leader{i}.{j}" for d in range(1, 6) for i in range(5) for j in range(5)]
    actions.append("announce")
    _, options, _ = follow(actions, ())
    assert [(o.text, o.leaf) for o in options] == [
        *[(f"d{d}", False) for d in range(1, 6)],
        ("announce", True),
    ]
    # A group that fits is shown flat at once.
    action, leaves, _ = follow(actions, (1,))
    assert action is None and [o.text for o in leaves] == actions[25:50]
    assert follow(actions, (1, 3))[0] == actions[28]


def test_a_big_group_is_narrowed_by_its_next_word() -> None:
    actions = [f"d3 leader{i}.{j} tok{k}" for i in range(6) for j in range(1, 5) for k in range(5)]
    # Every action is die 3's: that level offers no choice and is passed
    # through (issue 18), so the first menu shown is die 3's spaces.
    _, options, depth = follow(actions, ())
    assert depth == 1
    assert len(options) == 6 * 4  # 120 actions > 100: grouped by space
    assert all(not o.leaf for o in options)
    action, leaves, _ = follow(actions, (4,))
    assert action is None and [o.text for o in leaves] == [
        f"d3 leader1.1 tok{k}" for k in range(5)
    ]
    assert follow(actions, (4, 2))[0] == "d3 leader1.1 tok2"


def test_a_level_with_one_group_costs_no_click() -> None:
    """Issue 18: a step that offers exactly one choice is passed through."""
    actions = [f"6 c{i} x{j}" for i in range(11) for j in range(10)]
    _, options, depth = follow(actions, ())
    assert depth == 1 and [o.text for o in options] == [f"6 c{i}" for i in range(11)]


def test_an_old_menu_finds_its_action_when_the_menu_changed_shape() -> None:
    """A menu drawn when the actions were grouped still plays its action
    once they fit flat, and the other way round (a path is read back as the
    options it picked, not as indices)."""
    many = [f"d{d} s{i}.{j}" for d in range(1, 6) for i in range(5) for j in range(5)]
    few = many[20:40]
    picked = trail(many, (0, 23))
    assert [o.text for o in picked] == ["d1", "d1 s4.3"]
    assert follow(few, locate(few, picked))[0] == "d1 s4.3"
    # Flat then, grouped now.
    picked = trail(few, (7,))
    assert follow(many, locate(many, picked))[0] == few[7]
    # A group opened then opens the menu that holds its actions now.
    action, options, _ = follow(few, locate(few, trail(many, (0,))))
    assert action is None and {o.text for o in options} >= {a for a in few if a.startswith("d1 ")}
    with pytest.raises(StaleChoice):
        locate(few, trail(many, (2, 0)))  # d3's moves are gone
    assert path_to(many, "d2 s1.1") == (1, 6)


def test_a_select_holds_whole_groups_where_it_can() -> None:
    """Each select of a flat level keeps one die's (one square's) moves
    together, so its placeholder can say what it holds."""
    actions = [f"{sq} {sq}{m}" for sq in ("a1", "b2", "c3", "d4", "e5") for m in "^<>@!~"][:28]
    actions += ["pass"]
    _, options, depth = follow(actions, (), lambda t: tuple(t.split()))
    spread = sections(options, depth, lambda t: tuple(t.split()))
    assert [(start, stop) for start, stop, _ in spread] == [(0, 24), (24, 29)]
    assert [groups for _, _, groups in spread] == [["a1", "b2", "c3", "d4"], ["e5"]]
    # Groups too many to keep whole are cut every 25.
    odd = [f"g{g} g{g}x{k}" for g in range(9) for k in range(11)]
    _, options, depth = follow(odd, ())
    spread = sections(options, depth)
    assert len(spread) == 4 and all(stop - start <= 25 for start, stop, _ in spread)


def test_stale_index_is_refused() -> None:
    with pytest.raises(StaleChoice):
        follow(["a x", "b y"], (5,))
    with pytest.raises(StaleChoice):
        follow(["a", "b"], (0, 1))  # a leaf cannot be descended into


@given(
    st.lists(
        st.lists(st.sampled_from(["a", "b", "c", "d", "e1", "f2"]), min_size=1, max_size=4).map(
            " ".join
        ),
        min_size=1,
        max_size=160,
        unique=True,
    )
)
def test_every_action_is_reachable_exactly_once(actions: list[str]) -> None:
    # Prefix-free sets only: an action that is a prefix of another is still a leaf of its own.
    assert sorted(reachable(actions)) == sorted(actions)


def test_paths_round_trip() -> None:
    assert parse_path(format_path((3, 0, 12))) == (3, 0, 12)
    assert parse_path("") == ()
    with pytest.raises(StaleChoice):
        parse_path("1.x")


def test_a_deeper_menu_says_what_was_picked_not_narrowed() -> None:
    from bot.choices import menu_prompt

    assert menu_prompt(()) == "Choose:"
    said = menu_prompt(["Die 4 (Raja)", "Die 4 (Raja) on Jayadratha, space 2 (cavalry)"])
    assert said.startswith("Die 4 (Raja) › Die 4 (Raja) on Jayadratha") and "narrowed" not in said


def test_the_menu_after_a_committed_card_is_an_offer_to_change_it() -> None:
    """Sangram: a player who committed a card may swap it until everyone has
    committed; their follow-up menu says so instead of "Your next choice"."""
    import random

    from bot.choices import CHANGE_CHOICE, NEXT_CHOICE, follow_up_prompt
    from bot.engines import get_engine
    from bot.engines.core import resolve_chance

    engine = get_engine("sangram")
    state, _ = resolve_chance(engine, engine.setup(2, {}), random.Random(1).random)
    assert follow_up_prompt(engine, state, 0) == NEXT_CHOICE
    after = engine.apply(state, 0, engine.legal_actions(state, 0)[0])
    assert 0 in engine.to_move(after) and engine.legal_actions(after, 0)
    assert follow_up_prompt(engine, after, 0) == CHANGE_CHOICE
    assert follow_up_prompt(engine, after, 1) == NEXT_CHOICE
