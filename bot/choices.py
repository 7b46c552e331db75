"""Turning a seat's legal actions into small menus, for any game.

Discord menus hold at most 25 options, and a message at most five rows of
components.  A seat's actions are shown *flat*, every one at once, whenever
they fit in the selects of one message (``FLAT_LIMIT``: four selects of 25,
one row kept for buttons), so nearly every decision is one interaction
(issue 18).  Only beyond that are actions narrowed word by word: a level
groups them by their next word (a die ``d3``, a square ``c2``), and a group
shows its actions flat once they fit.

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
from bot.engines.messages import Msg

NO_LONGER_OFFERED = Msg("That choice is no longer on offer.")
"""A stale choice's refusal (a menu or button from before the game moved on)."""

MENU_LIMIT = 25
"""Options in one Discord select."""
MAX_SELECTS = 4
"""Selects in one message: Discord allows five rows, and one is kept for
buttons ("Show mine", "My turn")."""
FLAT_LIMIT = MAX_SELECTS * MENU_LIMIT
"""Up to this many actions are shown at once, each a whole action."""


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
    if len(candidates) <= FLAT_LIMIT:
        # Issue 18: everything fits in one message, so one interaction.
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


def _members(candidates: Sequence[str], group: MenuOption, depth: int, words: Words) -> list[str]:
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
            raise StaleChoice(NO_LONGER_OFFERED)
        picked = options[index]
        if picked.leaf:
            if step != len(path) - 1:
                raise StaleChoice(NO_LONGER_OFFERED)
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
            raise StaleChoice(NO_LONGER_OFFERED)
        index = path[end - 1]
        if not 0 <= index < len(options):
            raise StaleChoice(NO_LONGER_OFFERED)
        picked.append(options[index])
    return picked


def path_to(actions: Sequence[str], text: str, words: Words = split_words) -> tuple[int, ...]:
    """The path that plays the action ``text`` among ``actions`` (raises
    :class:`StaleChoice` when it is not one of them)."""
    if text not in actions:
        raise StaleChoice(NO_LONGER_OFFERED)
    split = tuple(words(text))
    path: list[int] = []
    while True:
        action, options, _ = follow(actions, path, words)
        if action is not None:
            return tuple(path)
        for index, option in enumerate(options):
            if option.text == text if option.leaf else _starts(split, option.text):
                path.append(index)
                break
        else:  # pragma: no cover - follow() reaches every action
            raise StaleChoice(NO_LONGER_OFFERED)


def _starts(split: Sequence[str], prefix: str) -> bool:
    """Whether an action split into ``split`` lies under the group ``prefix``."""
    return any(" ".join(split[:k]) == prefix for k in range(1, len(split) + 1))


def locate(
    actions: Sequence[str], picked: Sequence[MenuOption], words: Words = split_words
) -> tuple[int, ...]:
    """The path that picks the same thing among ``actions`` as ``picked``
    (the options a path picked in an older menu, level by level).

    This is how a menu drawn for an older state stays usable: a path that
    ended on an action plays that action wherever it sits now (a level shown
    in groups then may be flat now, or the other way round); a path that
    opened a group opens the menu that now holds that group's actions.
    Raises :class:`StaleChoice` when none of them is on offer any more.
    """
    if not picked:
        return ()
    last = picked[-1]
    if last.leaf:
        return path_to(actions, last.text, words)
    path: list[int] = []
    while True:
        action, options, _ = follow(actions, path, words)
        if action is not None:  # pragma: no cover - follow() stops at a menu
            break
        exact = next((i for i, o in enumerate(options) if not o.leaf and o.text == last.text), None)
        if exact is not None:
            return (*path, exact)
        wider = next(
            (i for i, o in enumerate(options) if not o.leaf and last.text.startswith(o.text + " ")),
            None,
        )
        if wider is not None:
            path.append(wider)
            continue
        if any(o.leaf and _starts(tuple(words(o.text)), last.text) for o in options):
            # The group's actions are shown among others at this level.
            return tuple(path)
        break
    raise StaleChoice(NO_LONGER_OFFERED)


def sections(
    options: Sequence[MenuOption], depth: int, words: Words = split_words
) -> list[tuple[int, int, list[str]]]:
    """How a level's options spread over selects: ``(start, stop, groups)``
    per select, where ``groups`` are the group prefixes (the word at
    ``depth``: a die, a square) of the actions the select holds (actions of
    one word, like ``pass``, belong to none).

    A group's actions stay together in one select where they fit, so each
    select's placeholder can say what it holds ("d1: 5 – c3: 2"); when that
    would need more than :data:`MAX_SELECTS` selects, they are cut every 25.
    """

    def key(option: MenuOption) -> str:
        split = tuple(words(option.text))
        return " ".join(split[: depth + 1]) if option.leaf and len(split) > depth + 1 else ""

    runs: list[tuple[int, int]] = []
    for index, option in enumerate(options):
        if runs and key(options[runs[-1][0]]) == key(option) and key(option):
            runs[-1] = (runs[-1][0], index + 1)
        else:
            runs.append((index, index + 1))
    keys = [key(options[start]) for start, _ in runs]
    named = len({k for k in keys if k}) == sum(1 for k in keys if k)
    # A group whose actions are not side by side (Kauda Baji lists moves by
    # piece, but groups them by value) cannot name a select: none is named.
    packed: list[tuple[int, int]] = []
    for start, stop in runs:
        while stop - start > MENU_LIMIT:
            packed.append((start, start + MENU_LIMIT))
            start += MENU_LIMIT
        if packed and stop - packed[-1][0] <= MENU_LIMIT and packed[-1][1] == start:
            packed[-1] = (packed[-1][0], stop)
        else:
            packed.append((start, stop))
    if len(packed) > max(MAX_SELECTS, -(-len(options) // MENU_LIMIT)):
        packed = [
            (start, min(start + MENU_LIMIT, len(options)))
            for start in range(0, len(options), MENU_LIMIT)
        ]
    out = []
    for start, stop in packed:
        groups: list[str] = []
        for option in options[start:stop]:
            group = key(option) if named else ""
            if group and (not groups or groups[-1] != group):
                groups.append(group)
        out.append((start, stop, groups))
    return out


def format_path(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)


def parse_path(text: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        return tuple(int(part) for part in text.split("."))
    except ValueError:
        raise StaleChoice(Msg("That button is damaged; use the newest board.")) from None


# -- the words above a menu -----------------------------------------------------------------

NEXT_CHOICE = Msg("Your next choice:")
CHANGE_CHOICE = Msg("Until everyone has chosen, you may still change yours:")


def menu_prompt(picked: Sequence[str]) -> str:
    """The words above a menu: ``Choose:`` at the top level, then what the
    player has picked so far (the options' labels, in order), so a deeper
    menu says what it is a menu of (``Die 4 (Raja) › Jayadratha, space 2:
    which token?``) instead of a bare "narrowed"."""
    if not picked:
        return Msg("Choose:")
    # Each label may be a message: the path is kept as messages too, so it is
    # read in the reader's language (a label of its own, then " › " and the next).
    path: str = picked[0]
    for label in picked[1:]:
        path = Msg("{path} › {label}", path=path, label=label)
    return Msg("{path}: choose one:", path=path)


def follow_up_prompt(engine: Engine[Any, Any, Any], state: Any, seat: Seat) -> str:
    """The words above the menu a reply brings when the player may act again.

    A decision still owed (a second pick, the next step of a set-up) is
    their next choice.  A seat that has already chosen in a simultaneous
    phase owes nothing: its menu is an offer to change (swap) its choice.
    """
    public, private = owed_decisions(engine, state)
    return NEXT_CHOICE if seat in public or seat in private else CHANGE_CHOICE
