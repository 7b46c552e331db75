"""The generic action menus: every legal action is reachable, no level
exceeds Discord's 25 options, and paths are refused once they go stale."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.choices import MENU_LIMIT, StaleChoice, follow, format_path, parse_path


def reachable(actions: list[str]) -> list[str]:
    found: list[str] = []

    def walk(path: tuple[int, ...]) -> None:
        action, options, _ = follow(actions, path)
        if action is not None:
            found.append(action)
            return
        assert len(options) <= MENU_LIMIT or not path, options
        for i in range(len(options)):
            walk((*path, i))

    walk(())
    return found


def test_first_level_groups_by_first_word() -> None:
    actions = ["d1 screen", "d1 drona.1", "d2 screen", "announce"]
    _, options, _ = follow(actions, ())
    assert [(o.text, o.leaf) for o in options] == [
        ("d1", False),
        ("d2 screen", True),
        ("announce", True),
    ]


def test_group_with_many_actions_is_narrowed_by_next_word() -> None:
    actions = [f"d3 leader{i}.{j} tok{k}" for i in range(6) for j in range(1, 4) for k in range(3)]
    # Every action is die 3's: that level offers no choice and is passed
    # through (issue 18), so the first menu shown is die 3's spaces.
    _, options, depth = follow(actions, ())
    assert depth == 1
    assert len(options) == 6 * 3  # 54 actions > 25: grouped by space
    assert all(not o.leaf for o in options)
    action, leaves, _ = follow(actions, (4,))
    assert action is None and [o.text for o in leaves] == [
        "d3 leader1.2 tok0",
        "d3 leader1.2 tok1",
        "d3 leader1.2 tok2",
    ]
    assert follow(actions, (4, 2))[0] == "d3 leader1.2 tok2"


def test_a_level_with_one_group_costs_no_click() -> None:
    """Issue 18: a step that offers exactly one choice is passed through."""
    actions = ["6 c7x2 a", "6 c7x2 b", "6 d1x1 c"]
    _, options, _ = follow(actions, ())
    assert [o.text for o in options] == actions  # the moves of the lone 6, at once
    assert follow(actions, (2,))[0] == "6 d1x1 c"
    # With two values to spend, the values are the first choice, as before.
    two = [*actions, "4 d1x1 e"]
    _, options, _ = follow(two, ())
    assert [(o.text, o.leaf) for o in options] == [("6", False), ("4 d1x1 e", True)]


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
        max_size=60,
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
