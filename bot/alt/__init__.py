"""Alt text: what every image the bot sends shows, in words (issue 33).

Discord reads an attachment's description to whoever cannot see the image.
Each game has a module here (``bot/alt/<game>.py``, found by the game's name
as :mod:`bot.engines.games` finds its classes) with two functions:

- ``board(view, names, lang, waiting, last) -> Parts``: the public board,
  from the public view (``engine.view(state, None)``) only;
- ``private(view, names, lang) -> Parts``: a seat's own view.

A description says, in this order: the game, whose turn it is and what they
must decide; the position in words (what a sighted player reads off the
board); the last move.  Every word comes through the catalog in ``lang``;
a description is at most :data:`LIMIT` characters, cut at a whole sentence.

Pure: no Discord, no Pillow, no storage; only the views and the catalog.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from bot.i18n import localize, t, tn

__all__ = [
    "LIMIT",
    "Parts",
    "describe_board",
    "describe_leaderboard",
    "describe_private",
    "describe_replay",
    "describe_review_shot",
    "describe_standings",
    "fit",
    "game_title",
    "seat_names",
]

LIMIT: Final = 1024
"""Discord's longest attachment description."""


@dataclass
class Parts:
    """A description's sentences, in the three parts it is read in."""

    head: list[str] = field(default_factory=list)
    """The game, whose turn it is and what they must decide."""
    body: list[str] = field(default_factory=list)
    """The position in words."""
    tail: list[str] = field(default_factory=list)
    """The last move."""


def fit(parts: Parts, limit: int = LIMIT) -> str:
    """``parts`` as one text of at most ``limit`` characters: the head and the
    last move always (as long as they fit), then as much of the position as
    there is room for, cut after a whole sentence."""
    head = [s for s in parts.head if s]
    tail = [s for s in parts.tail if s]
    body = [s for s in parts.body if s]
    fixed = len(" ".join(head + tail))
    kept: list[str] = []
    room = limit - fixed - (1 if tail else 0)
    for sentence in body:
        need = len(sentence) + 1
        if need > room:
            break
        kept.append(sentence)
        room -= need
    return _clip(" ".join(head + kept + tail), limit)


def _clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at a space (never mid-word)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > 0:
        cut = cut[:space]
    return cut + "…"


_SEAT_TAG: Final = re.compile(r"\{p(\d+)\}")


def seat_names(text: str, names: Sequence[str]) -> str:
    """``text`` with its seat tags (``{p0}``) filled with ``names``."""

    def name(found: re.Match[str]) -> str:
        seat = int(found.group(1))
        return names[seat] if 0 <= seat < len(names) else found.group(0)

    return _SEAT_TAG.sub(name, text)


def said(text: str, names: Sequence[str], lang: str) -> str:
    """An engine's message (a narration line, a reason) in ``lang``, names in."""
    return seat_names(localize(text, lang), names).strip()


def name_of(names: Sequence[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


def listing(lang: str, items: Iterable[str]) -> str:
    """Items joined as a list (``a, b, c``) in ``lang``."""
    return ", ".join(items)


def who(lang: str, names: Sequence[str], seats: Iterable[int]) -> str:
    return listing(lang, (name_of(names, s) for s in seats))


def ranking_sentence(
    lang: str, names: Sequence[str], ranking: Sequence[Sequence[int]], scores: Sequence[int] | None
) -> list[str]:
    """The places at the end of a game, best first, with scores if any."""
    out: list[str] = []
    for place, seats in enumerate(ranking, start=1):
        for seat in seats:
            if scores is not None and 0 <= seat < len(scores):
                out.append(
                    tn(
                        lang,
                        "Place {place}: {name}, {n} point.",
                        "Place {place}: {name}, {n} points.",
                        scores[seat],
                        place=place,
                        name=name_of(names, seat),
                    )
                )
            else:
                out.append(
                    t(lang, "Place {place}: {name}.", place=place, name=name_of(names, seat))
                )
    return out


# -- the games --------------------------------------------------------------------------


def _module(engine_name: str) -> Any:
    if not re.fullmatch(r"[a-z_]+", engine_name):
        raise ValueError(engine_name)
    return importlib.import_module(f"bot.alt.{engine_name}")


def describe_board(
    engine_name: str,
    view: Any,
    *,
    names: Sequence[str],
    lang: str,
    waiting: Iterable[int] | None = None,
    last: str | None = None,
) -> str:
    """The public board's description.  ``view`` is the public view
    (``engine.view(state, None)``); ``waiting`` the seats the board says are
    to act (None: as the view says); ``last`` the last move as narrated (a
    ``Msg`` or text with seat tags), instead of what the view says of it."""
    parts: Parts = _module(engine_name).board(
        view, list(names), lang, None if waiting is None else tuple(waiting)
    )
    if last:
        parts.tail = [t(lang, "Last move: {move}", move=said(last, names, lang))]
    return fit(parts)


def describe_private(engine_name: str, view: Any, *, names: Sequence[str], lang: str) -> str:
    """A seat's own view's description (it goes only where that image goes)."""
    parts: Parts = _module(engine_name).private(view, list(names), lang)
    return fit(parts)


# -- leaderboards, standings, replays, reviews ------------------------------------------


class LeaderRow(Protocol):
    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def rating(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...


class StandingRow(Protocol):
    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def points(self) -> float: ...
    @property
    def games(self) -> int: ...


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def describe_leaderboard(title: str, rows: Sequence[LeaderRow], *, lang: str) -> str:
    """A leaderboard image: its title and each row (rank, name, rating,
    games, wins), best first."""
    parts = Parts(head=[t(lang, "Leaderboard: {title}.", title=title)])
    for row in rows:
        parts.body.append(
            t(
                lang,
                "{rank}. {name}: rating {rating}, {games} games, {wins} wins.",
                rank=row.rank,
                name=row.name,
                rating=_number(round(row.rating)),
                games=row.games,
                wins=row.wins,
            )
        )
    return fit(parts)


def describe_standings(
    title: str,
    rows: Sequence[StandingRow],
    *,
    round: int,
    rounds: int,
    final: bool,
    lang: str,
) -> str:
    """A tournament's standings image: the tournament, after which round,
    and each row (place, name, points, games)."""
    head = (
        t(lang, "Final standings of {title}.", title=title)
        if final
        else t(
            lang,
            "Standings of {title} after round {round} of {rounds}.",
            title=title,
            round=round,
            rounds=rounds,
        )
    )
    parts = Parts(head=[head])
    for row in rows:
        parts.body.append(
            t(
                lang,
                "{rank}. {name}: {points} points from {games} games.",
                rank=row.rank,
                name=row.name,
                points=_number(row.points),
                games=row.games,
            )
        )
    return fit(parts)


def game_title(engine_name: str, game_id: int, lang: str) -> str:
    """A game's name and number (``Mahabharata #12``) in ``lang``."""
    return t(lang, _module(engine_name).TITLE, id=game_id)


def describe_replay(
    engine_name: str,
    game_id: int,
    names: Sequence[str],
    *,
    moves: int,
    frames: int,
    ranking: Sequence[Iterable[int]] | None,
    reason: str = "",
    lang: str,
) -> str:
    """An animated replay: the game, the players, how many moves it shows,
    and the result (``ranking`` None: still being played)."""
    parts = Parts(
        head=[
            t(
                lang,
                "Animated replay of {game}, played by {players}.",
                game=game_title(engine_name, game_id, lang),
                players=listing(lang, names),
            )
        ]
    )
    parts.body.append(
        tn(
            lang,
            "It shows {n} move in {frames} pictures.",
            "It shows {n} moves in {frames} pictures.",
            moves,
            frames=frames,
        )
    )
    if ranking is None:
        parts.tail.append(t(lang, "The game is still being played."))
    else:
        places = [sorted(seats) for seats in ranking]
        parts.tail += ranking_sentence(lang, names, places, None)
        if reason:
            parts.tail.append(said(reason, names, lang))
    return fit(parts)


def describe_review_shot(
    engine_name: str,
    game_id: int,
    names: Sequence[str],
    *,
    move: int,
    last_move: int,
    lines: Sequence[str],
    lang: str,
    view: Any = None,
    private: bool = False,
) -> str:
    """One frame of ``/game review``: the game, the move shown, the position
    (``view``: the public view at that frame, or with ``private`` the
    reviewer's own view of that moment) and what happened in it."""
    title = game_title(engine_name, game_id, lang)
    if move == 0:
        where = t(lang, "{game} at the start.", game=title)
    else:
        where = t(
            lang, "{game} after move {move} of {last}.", game=title, move=move, last=last_move
        )
    kind = t(lang, "What only you saw at that moment.") if private else t(lang, "The public board.")
    names = list(names)
    if view is None:
        parts = Parts()
    elif private:
        parts = _module(engine_name).private(view, names, lang)
    else:
        parts = _module(engine_name).board(view, names, lang, None)
    parts.head = [kind, where, *parts.head]
    happened = " ".join(said(line, names, lang) for line in lines if line)
    if happened:
        parts.tail = [t(lang, "Last move: {move}", move=happened)]
    return fit(parts)
