"""Turning a seat's legal actions into small menus, for any game.

Discord menus hold at most 25 options, and a Raja die alone can have fifty
placements, so actions are narrowed word by word: the first level groups
actions by their first word (``d3``), deeper levels list whole actions once
25 or fewer remain, and otherwise group by the next word.

A level whose only option is a group is no choice, so it is passed through
and the level under it is shown at once (Kauda Baji's lone "Spend 6"
becomes the moves of that 6): a step that offers exactly one choice never
costs a click.

A position in the menus is a *path* of option indices (of the levels shown).  The path, the game
id and the state version are all a button or select needs to carry, so no
custom_id ever holds a card name or any other hidden word: the server rebuilds
the same menu from the same state and reads the index back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engines.core import Engine, Seat, owed_decisions

MENU_LIMIT = 25


class StaleChoice(LookupError):
    """The path no longer fits the seat's legal actions."""


@dataclass(frozen=True)
class MenuOption:
    """One entry of a menu: a whole action (``leaf``) or a group of them."""

    text: str
    """The whole action text (leaf) or the shared prefix words (group)."""
    leaf: bool
    size: int
    """How many actions the option stands for."""


Words = Callable[[str], Sequence[str]]


def split_words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def menu_options(
    candidates: Sequence[str], depth: int, words: Words = split_words
) -> list[MenuOption]:
    """The options shown for ``candidates``, which share their first ``depth`` words."""
    if depth > 0 and len(candidates) <= MENU_LIMIT:
        return [MenuOption(text=c, leaf=True, size=1) for c in candidates]
    groups: dict[tuple[str, ...], list[str]] = {}
    leaves: set[str] = set()
    for text in candidates:
        split = tuple(words(text))
        if len(split) <= depth + 1:
            leaves.add(text)
        else:
            groups.setdefault(split[: depth + 1], []).append(text)
    options: dict[str, MenuOption] = {t: MenuOption(text=t, leaf=True, size=1) for t in leaves}
    for prefix, members in groups.items():
        key = " ".join(prefix)
        if len(members) == 1 and key not in leaves:
            options[members[0]] = MenuOption(text=members[0], leaf=True, size=1)
        else:
            options["\0" + key] = MenuOption(text=key, leaf=False, size=len(members))
    # Keep the engine's order: an option sits where its first action does.
    first: dict[str, int] = {}
    for index, text in enumerate(candidates):
        split = tuple(words(text))
        key = text if text in options else "\0" + " ".join(split[: depth + 1])
        first.setdefault(key, index)
    return [options[k] for k in sorted(options, key=first.__getitem__)]


def _members(
    candidates: Sequence[str], group: MenuOption, depth: int, words: Words
) -> list[str]:
    """The actions of ``group`` (shown at ``depth - 1``)."""
    return [
        c
        for c in candidates
        if len(words(c)) > depth and " ".join(tuple(words(c))[:depth]) == group.text
    ]


def _shown(
    candidates: list[str], depth: int, words: Words
) -> tuple[list[str], int, list[MenuOption]]:
    """The level shown for ``candidates`` at ``depth``: a level whose only
    option is a group is passed through (it offers no choice)."""
    while True:
        options = menu_options(candidates, depth, words)
        if len(options) != 1 or options[0].leaf:
            return candidates, depth, options
        depth += 1
        candidates = _members(candidates, options[0], depth, words)


def follow(
    actions: Sequence[str], path: Sequence[int], words: Words = split_words
) -> tuple[str | None, list[MenuOption], int]:
    """Walk ``path`` through the menus of ``actions``.

    Returns ``(action, [], depth)`` when the path ends on a whole action, or
    ``(None, options, depth)`` with the menu to show next.  Raises
    :class:`StaleChoice` when an index no longer exists.
    """
    candidates = list(actions)
    depth = 0
    for step, index in enumerate(path):
        candidates, depth, options = _shown(candidates, depth, words)
        if not 0 <= index < len(options):
            raise StaleChoice("That choice is no longer on offer.")
        picked = options[index]
        if picked.leaf:
            if step != len(path) - 1:
                raise StaleChoice("That choice is no longer on offer.")
            return picked.text, [], depth
        depth += 1
        candidates = _members(candidates, picked, depth, words)
    candidates, depth, options = _shown(candidates, depth, words)
    return None, options, depth


def trail(
    actions: Sequence[str], path: Sequence[int], words: Words = split_words
) -> list[MenuOption]:
    """The options ``path`` picks, level by level (raises :class:`StaleChoice`)."""
    picked: list[MenuOption] = []
    for end in range(1, len(path) + 1):
        action, options, _ = follow(actions, path[: end - 1], words)
        if action is not None:
            raise StaleChoice("That choice is no longer on offer.")
        index = path[end - 1]
        if not 0 <= index < len(options):
            raise StaleChoice("That choice is no longer on offer.")
        picked.append(options[index])
    return picked


def locate(
    actions: Sequence[str], picked: Sequence[MenuOption], words: Words = split_words
) -> tuple[int, ...]:
    """The path that picks the same options (by their text) among ``actions``.

    This is how a menu drawn for an older state stays usable: its path is read
    back as the options it showed, and those are looked up again among the
    seat's current legal actions.  Raises :class:`StaleChoice` when one of
    them is no longer on offer.
    """
    path: list[int] = []
    for option in picked:
        action, options, _ = follow(actions, path, words)
        if action is not None:
            raise StaleChoice("That choice is no longer on offer.")
        for index, current in enumerate(options):
            if current.text == option.text and current.leaf == option.leaf:
                path.append(index)
                break
        else:
            raise StaleChoice("That choice is no longer on offer.")
    return tuple(path)


def format_path(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)


def parse_path(text: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        return tuple(int(part) for part in text.split("."))
    except ValueError:
        raise StaleChoice("That button is damaged; use the newest board.") from None


# -- the words above a menu -----------------------------------------------------------------

NEXT_CHOICE = "Your next choice:"
CHANGE_CHOICE = "Until everyone has chosen, you may still change yours:"


def menu_prompt(picked: Sequence[str]) -> str:
    """The words above a menu: ``Choose:`` at the top level, then what the
    player has picked so far (the options' labels, in order), so a deeper
    menu says what it is a menu of (``Die 4 (Raja) › Jayadratha, space 2:
    which token?``) instead of a bare "narrowed"."""
    if not picked:
        return "Choose:"
    return f"{' › '.join(picked)}: choose one:"


def follow_up_prompt(engine: Engine[Any, Any, Any], state: Any, seat: Seat) -> str:
    """The words above the menu a reply brings when the player may act again.

    A decision still owed (a second pick, the next step of a set-up) is
    their next choice.  A seat that has already chosen in a simultaneous
    phase owes nothing: its menu is an offer to change (swap) its choice.
    """
    public, private = owed_decisions(engine, state)
    return NEXT_CHOICE if seat in public or seat in private else CHANGE_CHOICE
