"""The lobby message and what options mean, in players' words.

Shared by the lobby (which opens lobbies), delivery (which keeps a running
game's lobby message current) and the tournament desk (a tournament game's
table message): below all three, in none of their packages, so none
imports another for it (:mod:`bot.edge.tables`).

A lobby is short (issue 30: at most 600 characters before any option is
changed, four players' longest names included): the game, its seats, one
line with the options that differ from the defaults, and what to do.  What
every option means is one tap away (the lobby's **Options** button,
:func:`option_help_lines`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from bot.engines.core import Engine, NamesSeats, Option
from bot.live import LiveGame
from bot.outgoing import clip, plural, safe_name
from bot.timekeeping import TABLE_OPTIONS, TableOptions

SHOWN_BY_AUTOMATIC_PLAYERS: Final = ("level", "rated")
"""Table options the automatic players' line says already: a lobby with
automatic players is never rated, and their level is theirs."""


def show_option(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def changed_options(game: LiveGame, defaults: TableOptions) -> list[str]:
    """``name=value`` for each of the game's options that differs from its
    default: the engine's options from the engine's defaults, the table's
    from ``defaults`` (the server's, which a new game here starts from)."""
    engine = game.engine
    changed = [
        f"{name}={show_option(game.record.options[name])}"
        for name, option in sorted(engine.options.items())
        if name in game.record.options and game.record.options[name] != option.default
    ]
    table, usual = game.table.to_json(), defaults.to_json()
    automatic = any(s.automatic_player for s in game.seats)
    changed += [
        f"{name}={table[name]}"
        for name in TABLE_OPTIONS
        if table[name] != usual[name] and not (automatic and name in SHOWN_BY_AUTOMATIC_PLAYERS)
    ]
    return changed


def player_count(game: LiveGame) -> str:
    """How many play: the range a lobby takes, the seats once it started
    (a two-player tournament table is not "2-4 players")."""
    engine = game.engine
    if game.record.status != "lobby":
        return plural(len(game.seats), "player")
    if engine.min_players == engine.max_players:
        return plural(engine.min_players, "player")
    return f"{engine.min_players}-{engine.max_players} players"


def seat_lines(game: LiveGame) -> str:
    """One line per seat: its number, its player (escaped), what it plays
    where the game names it, and whether its player left it."""
    roles: tuple[str, ...] = ()
    if isinstance(game.engine, NamesSeats):
        roles = game.engine.seat_roles(len(game.seats), game.record.options)
    lines = []
    for s in game.seats:
        line = f"{s.seat + 1}. {safe_name(s.display_name)}"
        if s.seat < len(roles):
            line += f" — {roles[s.seat]}"
        if s.controller == "auto" and not s.automatic_player:
            line += " (left: the automatic player plays it)"
        lines.append(line)
    return "\n".join(lines) or "(nobody yet)"


def lobby_text(
    game: LiveGame, *, defaults: TableOptions, status: str = "", heading: str = ""
) -> str:
    """The lobby message: the game, its seats, the options that differ from
    the defaults, and what to do (or, once it started, ``status``: the line
    delivery keeps current).  ``heading`` goes first: a tournament game's
    round and table.

    ``defaults`` are the table options a new game in this server starts
    from (``GameService.server_defaults``): a game stores its table options
    resolved, so only the caller, who can read the server's settings, can
    tell which of them were chosen."""
    engine = game.engine
    lines = [f"**{engine.title}** — game #{game.id}, {player_count(game)}", seat_lines(game)]
    if heading:
        lines.insert(0, heading)
        # A tournament's games take no move back unless it says so (issue
        # 31): that is its default, not an option it changed.
        defaults = dataclasses.replace(defaults, takeback=False)
    changed = changed_options(game, defaults)
    if changed:
        lines.append("Options: " + ", ".join(f"`{c}`" for c in changed))
    if any(s.automatic_player for s in game.seats):
        lines.append(f"🤖 Automatic players at level **{game.table.level}**; not rated.")
    if game.record.status == "lobby":
        lines.append(
            f"Press **Join** to play; <@{game.record.creator_id}> or a moderator presses "
            "**Start**. **Options** and **Rules** explain."
        )
    elif status:
        lines.append(status)
    elif game.record.status == "active":
        lines.append("The game has started.")
    else:
        lines.append("This lobby is closed.")
    return clip("\n".join(lines))


# -- what options mean (the lobby, ``/game new``) ----

TABLE_OPTION_HELP: Final[Mapping[str, tuple[str, tuple[str, ...]]]] = {
    "clock": (
        "time for each move (`1d`, `12h`) or a bank plus time per move (`3d+12h`); none: no clock",
        ("none", "12h", "1d", "2d", "3d", "7d", "1d+12h", "3d+12h", "7d+1d"),
    ),
    "timeout": (
        "when a clock runs out: the automatic player makes that move (substitute), "
        "the seat passes where it can (skip), or the player loses (forfeit)",
        ("substitute", "skip", "forfeit"),
    ),
    "reminder": (
        "auto: reminders follow the clock; a time (`12h`): the first reminder after that "
        "long; off: none",
        ("auto", "off", "6h", "12h", "1d", "2d"),
    ),
    "rated": ("whether the result counts for the players' ratings", ("yes", "no")),
    "level": (
        "how strong the lobby's automatic players are: easy (rules of thumb), "
        "medium (searches about 0.2 s a move) or hard (about 1 s)",
        ("easy", "medium", "hard"),
    ),
    "substitute": (
        "how strong the automatic player is that moves on a timeout or plays a seat a "
        "person left: easy, medium or hard",
        ("easy", "medium", "hard"),
    ),
    "takeback": (
        "whether a player may take back their last move: alone until someone else acts, "
        "then only if everyone agrees; never after dice, a draw or a reveal",
        ("yes", "no"),
    ),
}
"""The service's own lobby options (``bot.timekeeping.TABLE_OPTIONS``), in
players' words, with values to suggest."""

OPTION_VALUES_LISTED: Final = 12
"""A whole-number option with at most this many values suggests them all;
a wider one suggests its default and its bounds."""


def option_range(option: Option) -> str:
    """The values an engine option takes, in players' words."""
    if isinstance(option.default, bool):
        return "yes or no"
    if option.choices:
        words = [show_option(c) for c in option.choices]
        return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]
    if option.low is not None and option.high is not None:
        return f"{option.low}-{option.high}"
    if option.low is not None:
        return f"{option.low} or more"
    if option.high is not None:
        return f"up to {option.high}"
    return "a whole number" if isinstance(option.default, int) else "a word"


def option_values(option: Option) -> tuple[str, ...]:
    """Values worth suggesting for an engine option, its default first."""
    values: list[object] = [option.default]
    if isinstance(option.default, bool):
        values += [True, False]
    elif option.choices:
        values += list(option.choices)
    elif option.low is not None and option.high is not None:
        if option.high - option.low < OPTION_VALUES_LISTED:
            values += list(range(option.low, option.high + 1))
        else:
            values += [option.low, option.high]
    shown = [show_option(v) for v in values]
    return tuple(dict.fromkeys(shown))


def option_help_lines(
    engine: Engine[Any, Any, Any], values: Mapping[str, Any], table: TableOptions
) -> list[str]:
    """What every option does, with the values it takes and this lobby's
    value (the lobby's **Options** button; a game's rules show the
    defaults): the game's options, then the table's."""
    if engine.options:
        lines = [f"**{engine.title}'s options** (chosen with `/game new` `options:`):"]
        for name, option in sorted(engine.options.items()):
            value = show_option(values.get(name, option.default))
            lines.append(f"- `{name}={value}` ({option_range(option)}): {option.help}")
    else:
        lines = [f"**{engine.title}** has no game options of its own."]
    lines.append("**Table options** (any game):")
    chosen = table.to_json()
    lines += [f"- `{name}={chosen[name]}`: {TABLE_OPTION_HELP[name][0]}" for name in TABLE_OPTIONS]
    return lines
