"""A lobby's options as typed: ``/game new options:…`` read into a dict,
and the suggestions Discord shows while it is typed (pure)."""

from __future__ import annotations

import re
from typing import Any

from bot.edge.tables.lobbies import TABLE_OPTION_HELP, option_values
from bot.engines import get_engine
from bot.engines.core import Engine, GameError, excerpt, resolve_options
from bot.i18n import DEFAULT, Msg, localize, t
from bot.timekeeping import TABLE_OPTIONS, TableOptions


def parse_options(text: str | None) -> dict[str, str]:
    """``"diagonal_captures=yes, other=2"`` -> a dict; the engine checks values."""
    options: dict[str, str] = {}
    if not text:
        return options
    for part in text.replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise GameError(
                Msg("Options look like name=value; {typed} does not.", typed=excerpt(part))
            )
        options[name.strip().lower()] = value.strip()
    return options


_LAST_OPTION = re.compile(r"[^,\s]*$")


def option_completions(
    engine_name: str | None, typed: str, lang: str = DEFAULT
) -> list[tuple[str, str]]:
    """``/game new``'s ``options:`` suggestions as (shown, value): the text
    typed so far with its last ``name=value`` completed from the chosen
    game's options and the table's (``clock``, ``timeout``, ``reminder``,
    ``rated``), matching what was typed as a prefix.  At most 25, each
    within Discord's 100 characters (a value that would not fit is left
    out: it could not be sent back whole)."""
    # Options are separated by commas or spaces: the last one is being typed.
    last = typed[len(_LAST_OPTION.sub("", typed)) :]
    head = typed[: len(typed) - len(last)].rstrip(", \t")
    prefix = f"{head}, " if head else ""
    chosen = {part.partition("=")[0].strip().lower() for part in head.replace(",", " ").split()}
    known: list[tuple[str, tuple[str, ...], str]] = []
    try:
        engine = get_engine(engine_name) if engine_name else None
    except GameError:
        engine = None
    if engine is not None:
        for name, option in sorted(engine.options.items()):
            known.append((name, option_values(option), localize(option.help, lang)))
    for name in TABLE_OPTIONS:
        help_text, values = TABLE_OPTION_HELP[name]
        known.append((name, values, t(lang, help_text).replace("`", "")))
    wanted = last.lower()
    completions: list[tuple[str, str]] = []
    if not wanted:
        # Nothing typed of the next option: more values than fit, so each
        # option's first values come round in turn, and every option shows.
        rounds = max((len(values) for _, values, _ in known), default=0)
        known = [
            (name, values[i : i + 1], help_text)
            for i in range(rounds)
            for name, values, help_text in known
            if i < len(values)
        ]
    for name, values, help_text in known:
        if name in chosen:
            continue
        for value in values:
            pair = f"{name}={value}"
            if not pair.startswith(wanted):
                continue
            full = prefix + pair
            if len(full) > 100:
                continue
            completions.append((_shown(head, pair, help_text), full))
        # A number typed that is not among the suggestions, but allowed.
        typed_value = wanted.partition("=")[2]
        if wanted.startswith(f"{name}=") and typed_value and typed_value not in values:
            full = prefix + wanted
            if len(full) <= 100 and _accepted(engine, name, typed_value):
                completions.insert(0, (_shown(head, wanted, help_text), full))
    return completions[:25]


def _shown(head: str, pair: str, help_text: str) -> str:
    """A suggestion as the list shows it: the option it adds (after "…"
    when options were typed before it) and what the option does."""
    return f"{'… ' if head else ''}{pair} — {help_text}"[:100]


def _accepted(engine: Engine[Any, Any, Any] | None, name: str, value: str) -> bool:
    """Whether the lobby would take ``name=value`` (the engine's own check,
    or the table's)."""
    try:
        if name in TABLE_OPTIONS:
            TableOptions.parse({name: value})
        elif engine is not None:
            resolve_options(engine, {name: value})
        else:
            return False
    except GameError:
        return False
    return True
