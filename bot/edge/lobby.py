"""The lobby message and what options mean, in players' words.

Shared by the table (which opens lobbies), delivery (which keeps a running
game's lobby message current) and the tournament desk (a tournament game's
table message): below all three, so none imports another for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.engines.core import Engine, NamesSeats, Option
from bot.live import LiveGame
from bot.outgoing import clip, safe_name
from bot.timekeeping import TABLE_OPTIONS


def show_option(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def lobby_text(game: LiveGame, *, status: str = "", heading: str = "") -> str:
    """The lobby message: the game, its players and options, and what to do
    (or, once it started, ``status``: the line delivery keeps current).
    ``heading`` goes first: a tournament game's round and table."""
    engine = game.engine
    roles: tuple[str, ...] = ()
    if isinstance(engine, NamesSeats):
        roles = engine.seat_roles(len(game.seats), game.record.options)
    seats = (
        "\n".join(
            f"{s.seat + 1}. {safe_name(s.display_name)}"
            + (f" — {roles[s.seat]}" if s.seat < len(roles) else "")
            for s in game.seats
        )
        or "(nobody yet)"
    )
    options = ", ".join(f"{k}={show_option(v)}" for k, v in sorted(game.record.options.items()))
    players = (
        f"{engine.min_players} players"
        if engine.min_players == engine.max_players
        else f"{engine.min_players}-{engine.max_players} players"
    )
    lines = [f"**{engine.title}** — game #{game.id}, {players}.", f"Players:\n{seats}"]
    if heading:
        lines.insert(0, heading)
    if game.record.status == "lobby":
        # A lobby explains its options: players decide to join on them.
        lines += option_help_lines(engine, game.record.options)
    elif options:
        lines.append(f"Options: {options}")
    lines.append(f"Time: {game.table.describe()}.")
    if game.record.status == "lobby":
        if any(s.automatic_player for s in game.seats):
            # Said before the buttons: the owner may start alone at once.
            lines.append(
                f"🤖 seats are played by the automatic player at level **{game.table.level}**, "
                "each taking a few seconds per move; the game is not rated."
            )
        lines.append(
            f"Press **Join** to take a seat. <@{game.record.creator_id}> or a moderator presses "
            "**Start** when everyone is in. **Rules** shows how to play."
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


def option_help_lines(engine: Engine[Any, Any, Any], values: Mapping[str, Any]) -> list[str]:
    """The lobby's lines on options: each of the game's options with its
    value, the values it takes and what it does; then the table's options."""
    if engine.options:
        lines = ["**Options** (chosen with `/game new` `options:`):"]
        for name, option in sorted(engine.options.items()):
            value = show_option(values.get(name, option.default))
            lines.append(f"- `{name}={value}` ({option_range(option)}): {option.help}")
    else:
        lines = [f"**Options**: {engine.title} has no game options."]
    table = " · ".join(f"`{name}`: {TABLE_OPTION_HELP[name][0]}" for name in TABLE_OPTIONS)
    lines.append(f"Table options: {table}.")
    return lines
