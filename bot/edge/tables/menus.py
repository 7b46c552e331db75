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
from typing import Any

import discord

from bot.choices import (
    CHANGE_CHOICE,
    NEXT_CHOICE,
    MenuOption,
    StaleChoice,
    Words,
    follow,
    follow_up_prompt,
    sections,
    trail,
)
from bot.engines.core import CHANCE, Engine, LabelsChoices, Seat
from bot.i18n import DEFAULT, N_, t, tn
from bot.outgoing import Style, fill_seats
from bot.service import GameService, LiveGame, menu_words_of

_PROMPTS = (N_("Your next choice:"), N_("Until everyone has chosen, you may still change yours:"))
""":data:`bot.choices.NEXT_CHOICE` and :data:`bot.choices.CHANGE_CHOICE`,
for the catalog."""
assert _PROMPTS == (NEXT_CHOICE, CHANGE_CHOICE)


def menu_prompt(picked: Sequence[str], lang: str = DEFAULT) -> str:
    """:func:`bot.choices.menu_prompt` in ``lang``: ``Choose:`` at the top
    level, then what the player picked so far (``Die 4 › e5: choose one:``)."""
    if not picked:
        return t(lang, "Choose:")
    return t(lang, "{picked}: choose one:", picked=" › ".join(picked))


def next_prompt(engine: Engine[Any, Any, Any], state: Any, seat: Seat, lang: str = DEFAULT) -> str:
    """:func:`bot.choices.follow_up_prompt` in ``lang``: the words above the
    menu a reply brings when the player may act again."""
    return t(lang, follow_up_prompt(engine, state, seat))


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
    lang: str = DEFAULT,
) -> str:
    """An option's wording: an action's label, or a group's name and (in
    private menus) how many actions it holds; names plain for a select's
    label, escaped (``Style.CONTENT``) for a message's text; in ``lang``."""
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
            named = fill_seats(label, game, style, lang=lang)
            size = tn(lang, "{n} choice", "{n} choices", option.size)
            label = f"{named} ({size})"
            return label[:100] or "…"
    return fill_seats(label, game, style, lang=lang)[:100] or "…"


def menu_heading(
    service: GameService,
    game: LiveGame,
    seat: Seat,
    path: Sequence[int],
    lang: str = DEFAULT,
) -> str:
    """The words above the menu ``path`` leads to: what the player picked on
    the way there, in the options' own labels (:func:`bot.choices.menu_prompt`),
    in ``lang``."""
    if game.state is None or not path:
        return menu_prompt((), lang)
    texts = service.legal_texts(game, seat)
    try:
        picked = trail(texts, path, service.menu_words(game, seat))
    except StaleChoice:
        return menu_prompt((), lang)
    # Message text, not a select label: names are escaped.
    return menu_prompt(
        [
            option_label(game, seat, option, counts=False, style=Style.CONTENT, lang=lang)
            for option in picked
        ],
        lang,
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


def board_choices(game: LiveGame, lang: str = DEFAULT) -> list[tuple[tuple[int, ...], str]]:
    """The public board's pick buttons and select options, as (path, label)."""
    menu = board_menu(game, lang)
    picks = list(menu.buttons)
    for _, options in menu.selects:
        picks += [((int(o.value),), o.label) for o in options]
    return picks


def board_menu(game: LiveGame, lang: str = DEFAULT) -> BoardMenu:
    """The public board's choices.

    They appear only when they follow from the public view and every seat to
    move has the same menu (one player to move, or partners choosing which
    army starts): each pick is resolved against the picker's own legal
    actions.  A few whole moves are buttons, more are selects (one
    interaction either way); a level of groups (dice) is buttons, each
    opening its moves.  Otherwise the board offers "Choose…".  Its words
    in ``lang`` (the channel's language)."""
    choose = BoardMenu([((), t(lang, "Choose…"))], [], frozenset())
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
        labels = tuple(
            option_label(game, seat, option, counts=False, lang=lang) for option in options
        )
        menus.add((flat, labels, tuple(placeholders(game, seat, options, depth, words, lang))))
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
    game: LiveGame,
    seat: Seat,
    options: Sequence[MenuOption],
    depth: int,
    words: Words,
    lang: str = DEFAULT,
) -> list[tuple[str, tuple[int, int]]]:
    """How a level spreads over selects, as (placeholder, (start, stop)): a
    lone select says "Choose…"; several say what each holds, by the labels
    of their first and last groups ("Choose: d1: 5 … c3: 2")."""
    spread = sections(options, depth, words)
    if len(spread) == 1:
        return [(t(lang, "Choose…"), (0, len(options)))]
    engine, state = game.engine, game.state

    def named(group: str) -> str:
        label = (
            engine.choice_label(state, seat, group) if isinstance(engine, LabelsChoices) else group
        )
        return fill_seats(label, game, Style.PLAIN, lang=lang)

    out = []
    for start, stop, groups in spread:
        if not groups:
            head = t(
                lang,
                "Choose ({first}–{last} of {count})…",
                first=start + 1,
                last=stop,
                count=len(options),
            )
        elif len(groups) == 1:
            head = t(lang, "Choose: {group}", group=named(groups[0]))
        else:
            head = t(
                lang,
                "Choose: {first} … {last}",
                first=named(groups[0]),
                last=named(groups[-1]),
            )
        out.append((head[:150], (start, stop)))
    return out
