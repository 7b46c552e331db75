"""Turning a seat's legal actions into small menus, for any game.

Discord menus hold at most 25 options, and a Raja die alone can have fifty
placements, so actions are narrowed word by word: the first level groups
actions by their first word (``d3``), deeper levels list whole actions once
25 or fewer remain, and otherwise group by the next word.

A position in the menus is a *path* of option indices.  The path, the game
id and the state version are all a button or select needs to carry, so no
custom_id ever holds a card name or any other hidden word: the server rebuilds
the same menu from the same state and reads the index back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MENU_LIMIT = 25


class StaleChoice(LookupError):
    """The path no longer fits the seat's legal actions."""


@dataclass(frozen=True)
class MenuOption:
    """One entry of a menu: a whole action (``leaf``) or a group of them."""

    text: str
    """The whole action text (leaf) or the shared prefix (group)."""
    leaf: bool
    size: int
    """How many actions the option stands for."""


def _words(text: str) -> list[str]:
    return text.split()


def menu_options(candidates: Sequence[str], depth: int) -> list[MenuOption]:
    """The options shown for ``candidates``, which share their first ``depth`` words."""
    if depth > 0 and len(candidates) <= MENU_LIMIT:
        return [MenuOption(text=c, leaf=True, size=1) for c in candidates]
    groups: dict[str, list[str]] = {}
    leaves: list[str] = []
    for text in candidates:
        words = _words(text)
        if len(words) <= depth + 1:
            leaves.append(text)
        else:
            groups.setdefault(" ".join(words[: depth + 1]), []).append(text)
    options: list[MenuOption] = [MenuOption(text=t, leaf=True, size=1) for t in leaves]
    for prefix, members in groups.items():
        if len(members) == 1 and not any(t == prefix for t in leaves):
            options.append(MenuOption(text=members[0], leaf=True, size=1))
        else:
            options.append(MenuOption(text=prefix, leaf=False, size=len(members)))
    # Keep the engine's order: the first action of each option decides.
    first_index = {text: i for i, text in reversed(list(enumerate(candidates)))}

    def order(option: MenuOption) -> int:
        if option.leaf:
            return first_index[option.text]
        return min(first_index[c] for c in candidates if c.startswith(option.text + " "))

    return sorted(options, key=order)


def follow(actions: Sequence[str], path: Sequence[int]) -> tuple[str | None, list[MenuOption], int]:
    """Walk ``path`` through the menus of ``actions``.

    Returns ``(action, [], depth)`` when the path ends on a whole action, or
    ``(None, options, depth)`` with the menu to show next.  Raises
    :class:`StaleChoice` when an index no longer exists.
    """
    candidates = list(actions)
    depth = 0
    for step, index in enumerate(path):
        options = menu_options(candidates, depth)
        if not 0 <= index < len(options):
            raise StaleChoice("That choice is no longer on offer.")
        picked = options[index]
        if picked.leaf:
            if step != len(path) - 1:
                raise StaleChoice("That choice is no longer on offer.")
            return picked.text, [], depth
        candidates = [c for c in candidates if c.startswith(picked.text + " ")]
        depth = len(_words(picked.text))
    return None, menu_options(candidates, depth), depth


def format_path(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)


def parse_path(text: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        return tuple(int(part) for part in text.split("."))
    except ValueError:
        raise StaleChoice("That button is damaged; use the newest board.") from None
