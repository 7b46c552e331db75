"""The words of a game's menus and what its public board offers (pure: no
component here, so delivery reads the board's choices without the
buttons' handlers).  Below both delivery, which draws the board's choices
under its posts, and play, which builds the menus and answers their picks
through delivery (:mod:`bot.edge.tables`).

An option's label, the heading above a menu, the board's buttons or selects
(:func:`board_menu`) and how a long level spreads over selects
(:func:`placeholders`); paths of indices are :mod:`bot.choices`'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.choices import MenuOption, StaleChoice, Words, follow, menu_prompt, sections, trail
from bot.engines.core import CHANCE, LabelsChoices, Seat
from bot.outgoing import Style, fill_seats, plural
from bot.service import GameService, LiveGame, menu_words_of

MAX_BOARD_BUTTONS = 20
"""Group buttons (dice, squares) on a board: four rows; the fifth holds
"Show mine" and "My turn"."""


def option_label(
    game: LiveGame,
    seat: Seat,
    option: MenuOption,
    *,
    counts: bool = True,
    style: Style = Style.PLAIN,
) -> str:
    """An option's wording: an action's label, or a group's name and (in
    private menus) how many actions it holds; names plain for a select's
    label, escaped (``Style.CONTENT``) for a message's text."""
    engine, state = game.engine, game.state
    if option.leaf:
        label = engine.label(state, seat, engine.parse(state, seat, option.text))
    else:
        label = (
            engine.choice_label(state, seat, option.text)
            if isinstance(engine, LabelsChoices)
            else option.text
        )
        if counts:
            label = f"{label} ({plural(option.size, 'choice')})"
    return fill_seats(label, game, style)[:100] or "…"


def menu_heading(service: GameService, game: LiveGame, seat: Seat, path: Sequence[int]) -> str:
    """The words above the menu ``path`` leads to: what the player picked on
    the way there, in the options' own labels (:func:`bot.choices.menu_prompt`)."""
    if game.state is None or not path:
        return menu_prompt(())
    texts = service.legal_texts(game, seat)
    try:
        picked = trail(texts, path, service.menu_words(game, seat))
    except StaleChoice:
        return menu_prompt(())
    # Message text, not a select label: names are escaped.
    return menu_prompt(
        [option_label(game, seat, option, counts=False, style=Style.CONTENT) for option in picked]
    )


BOARD_BUTTON_MOVES = 5
"""Up to this many moves sit on the board as buttons, one row; more are a
select (up to :data:`bot.choices.FLAT_LIMIT`)."""


@dataclass(frozen=True)
class BoardMenu:
    """What the public board offers the seats to move."""

    buttons: list[tuple[tuple[int, ...], str]]
    """Pick buttons, as (path, label); ``[((), "Choose…")]`` when the
    choices are private."""
    selects: list[tuple[str, list[discord.SelectOption]]]
    """Selects of whole moves, as (placeholder, options)."""
    seats: frozenset[Seat]
    """The seats whose choices these are (every other seat to move is asked
    by DM)."""


def board_choices(game: LiveGame) -> list[tuple[tuple[int, ...], str]]:
    """The public board's pick buttons and select options, as (path, label)."""
    menu = board_menu(game)
    picks = list(menu.buttons)
    for _, options in menu.selects:
        picks += [((int(o.value),), o.label) for o in options]
    return picks


def board_menu(game: LiveGame) -> BoardMenu:
    """The public board's choices.

    They appear only when they follow from the public view and every seat to
    move has the same menu (one player to move, or partners choosing which
    army starts): each pick is resolved against the picker's own legal
    actions.  A few whole moves are buttons, more are selects (one
    interaction either way); a level of groups (dice) is buttons, each
    opening its moves.  Otherwise the board offers "Choose…"."""
    choose = BoardMenu([((), "Choose…")], [], frozenset())
    engine, state = game.engine, game.state
    if state is None or game.is_over:
        return BoardMenu([], [], frozenset())
    movers = engine.to_move(state) - {CHANCE}
    if not movers or not game.awaits_people():
        # Only automatic seats owe a decision: nothing on the board anybody
        # need press (issue 30).
        return BoardMenu([], [], frozenset())
    public = engine.waiting_on(state)
    if public != movers or not all(engine.choices_are_public(state, s) for s in public):
        return choose
    menus = set()
    for seat in sorted(public):
        texts = [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]
        words = menu_words_of(engine, state, seat)
        _, options, depth = follow(texts, (), words)
        flat = all(option.leaf for option in options)
        labels = tuple(option_label(game, seat, option, counts=False) for option in options)
        menus.add((flat, labels, tuple(placeholders(game, seat, options, depth, words))))
    if len(menus) != 1:
        return choose
    ((flat, labels, heads),) = menus
    if not labels:
        return choose
    if flat and len(labels) > BOARD_BUTTON_MOVES:
        selects = [
            (
                head,
                [discord.SelectOption(label=labels[i], value=str(i)) for i in range(start, stop)],
            )
            for head, (start, stop) in heads
        ]
        return BoardMenu([], selects, frozenset(public))
    if len(labels) > MAX_BOARD_BUTTONS:
        return choose
    return BoardMenu([((i,), label) for i, label in enumerate(labels)], [], frozenset(public))


def placeholders(
    game: LiveGame, seat: Seat, options: Sequence[MenuOption], depth: int, words: Words
) -> list[tuple[str, tuple[int, int]]]:
    """How a level spreads over selects, as (placeholder, (start, stop)): a
    lone select says "Choose…"; several say what each holds, by the labels
    of their first and last groups ("Choose: d1: 5 … c3: 2")."""
    spread = sections(options, depth, words)
    if len(spread) == 1:
        return [("Choose…", (0, len(options)))]
    engine, state = game.engine, game.state

    def named(group: str) -> str:
        label = (
            engine.choice_label(state, seat, group) if isinstance(engine, LabelsChoices) else group
        )
        return fill_seats(label, game, Style.PLAIN)

    out = []
    for start, stop, groups in spread:
        if not groups:
            head = f"Choose ({start + 1}–{stop} of {len(options)})…"
        elif len(groups) == 1:
            head = f"Choose: {named(groups[0])}"
        else:
            head = f"Choose: {named(groups[0])} … {named(groups[-1])}"
        out.append((head[:150], (start, stop)))
    return out
