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
from bot.i18n import DEFAULT, N_, localize, t, tn
from bot.live import LiveGame
from bot.outgoing import clip, safe_name
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


def player_count(game: LiveGame, lang: str = DEFAULT) -> str:
    """How many play: the range a lobby takes, the seats once it started
    (a two-player tournament table is not "2-4 players")."""
    engine = game.engine
    if game.record.status != "lobby":
        return tn(lang, "{n} player", "{n} players", len(game.seats))
    if engine.min_players == engine.max_players:
        return tn(lang, "{n} player", "{n} players", engine.min_players)
    return t(lang, "{low}-{high} players", low=engine.min_players, high=engine.max_players)


def title(engine: Engine[Any, Any, Any], lang: str = DEFAULT) -> str:
    """A game's title in ``lang`` (the titles are in the catalog:
    :data:`bot.edge.translator.CHOICE_WORDS`)."""
    return t(lang, engine.title)


def seat_lines(game: LiveGame, lang: str = DEFAULT) -> str:
    """One line per seat: its number, its player (escaped), what it plays
    where the game names it, and whether its player left it."""
    roles: tuple[str, ...] = ()
    if isinstance(game.engine, NamesSeats):
        roles = game.engine.seat_roles(len(game.seats), game.record.options)
    lines = []
    for s in game.seats:
        line = f"{s.seat + 1}. {safe_name(s.display_name)}"
        if s.seat < len(roles):
            line += f" — {localize(roles[s.seat], lang)}"
        if s.controller == "auto" and not s.automatic_player:
            line = t(lang, "{seat} (left: the automatic player plays it)", seat=line)
        lines.append(line)
    return "\n".join(lines) or t(lang, "(nobody yet)")


def lobby_text(
    game: LiveGame,
    *,
    defaults: TableOptions,
    status: str = "",
    heading: str = "",
    lang: str = DEFAULT,
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
    lines = [
        t(
            lang,
            "**{title}** — game #{game_id}, {players}",
            title=title(engine, lang),
            game_id=game.id,
            players=player_count(game, lang),
        ),
        seat_lines(game, lang),
    ]
    if heading:
        lines.insert(0, heading)
        # A tournament's games take no move back unless it says so (issue
        # 31): that is its default, not an option it changed.
        defaults = dataclasses.replace(defaults, takeback=False)
    changed = changed_options(game, defaults)
    if changed:
        lines.append(t(lang, "Options: {options}", options=", ".join(f"`{c}`" for c in changed)))
    if any(s.automatic_player for s in game.seats):
        lines.append(
            t(
                lang,
                "🤖 Automatic players at level **{level}**; not rated.",
                level=t(lang, game.table.level),
            )
        )
    if game.record.status == "lobby":
        lines.append(
            t(
                lang,
                "Press **Join** to play; {creator} or a moderator presses "
                "**Start**. **Options** and **Rules** explain.",
                creator="<@" + str(game.record.creator_id) + ">",
            )
        )
    elif status:
        lines.append(status)
    elif game.record.status == "active":
        lines.append(t(lang, "The game has started."))
    else:
        lines.append(t(lang, "This lobby is closed."))
    return clip("\n".join(lines))


# -- what options mean (the lobby, ``/game new``) ----

TABLE_OPTION_HELP: Final[Mapping[str, tuple[str, tuple[str, ...]]]] = {
    "clock": (
        N_(
            "time for each move (`1d`, `12h`) or a bank plus time per move (`3d+12h`); "
            "none: no clock"
        ),
        ("none", "12h", "1d", "2d", "3d", "7d", "1d+12h", "3d+12h", "7d+1d"),
    ),
    "timeout": (
        N_(
            "when a clock runs out: the automatic player makes that move (substitute), "
            "the seat passes where it can (skip), or the player loses (forfeit)"
        ),
        ("substitute", "skip", "forfeit"),
    ),
    "reminder": (
        N_(
            "auto: reminders follow the clock; a time (`12h`): the first reminder after that "
            "long; off: none"
        ),
        ("auto", "off", "6h", "12h", "1d", "2d"),
    ),
    "rated": (N_("whether the result counts for the players' ratings"), ("yes", "no")),
    "level": (
        N_(
            "how strong the lobby's automatic players are: easy (rules of thumb), "
            "medium (searches about 0.2 s a move) or hard (about 1 s)"
        ),
        ("easy", "medium", "hard"),
    ),
    "substitute": (
        N_(
            "how strong the automatic player is that moves on a timeout or plays a seat a "
            "person left: easy, medium or hard"
        ),
        ("easy", "medium", "hard"),
    ),
    "takeback": (
        N_(
            "whether a player may take back their last move: alone until someone else acts, "
            "then only if everyone agrees; never after dice, a draw or a reveal"
        ),
        ("yes", "no"),
    ),
}
"""The service's own lobby options (``bot.timekeeping.TABLE_OPTIONS``), in
players' words, with values to suggest."""

OPTION_VALUES_LISTED: Final = 12
"""A whole-number option with at most this many values suggests them all;
a wider one suggests its default and its bounds."""


def option_range(option: Option, lang: str = DEFAULT) -> str:
    """The values an engine option takes, in players' words."""
    if isinstance(option.default, bool):
        return t(lang, "yes or no")
    if option.choices:
        words = [show_option(c) for c in option.choices]
        if len(words) == 1:
            return words[0]
        return t(lang, "{some} or {last}", some=", ".join(words[:-1]), last=words[-1])
    if option.low is not None and option.high is not None:
        return f"{option.low}-{option.high}"
    if option.low is not None:
        return t(lang, "{low} or more", low=option.low)
    if option.high is not None:
        return t(lang, "up to {high}", high=option.high)
    if isinstance(option.default, int):
        return t(lang, "a whole number")
    return t(lang, "a word")


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
    engine: Engine[Any, Any, Any],
    values: Mapping[str, Any],
    table: TableOptions,
    lang: str = DEFAULT,
) -> list[str]:
    """What every option does, with the values it takes and this lobby's
    value (the lobby's **Options** button; a game's rules show the
    defaults): the game's options, then the table's."""
    name_of = title(engine, lang)
    if engine.options:
        lines = [
            t(lang, "**{title}'s options** (chosen with `/game new` `options:`):", title=name_of)
        ]
        for name, option in sorted(engine.options.items()):
            value = show_option(values.get(name, option.default))
            lines.append(
                f"- `{name}={value}` ({option_range(option, lang)}): {localize(option.help, lang)}"
            )
    else:
        lines = [t(lang, "**{title}** has no game options of its own.", title=name_of)]
    lines.append(t(lang, "**Table options** (any game):"))
    chosen = table.to_json()
    lines += [
        f"- `{name}={chosen[name]}`: {t(lang, TABLE_OPTION_HELP[name][0])}"
        for name in TABLE_OPTIONS
    ]
    return lines
