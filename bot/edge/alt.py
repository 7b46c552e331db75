"""The descriptions (alt text) of the images the edge sends (issue 33):
:mod:`bot.alt` in words, asked here with what the edge holds (a live game,
a drawn replay, a review's shot).  A description never fails a message: if
describing goes wrong, the image still goes, described by its game's name.
The language is the message's: the caller passes it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bot.alt import (
    describe_board,
    describe_leaderboard,
    describe_private,
    describe_replay,
    describe_review_shot,
    describe_standings,
    game_title,
)
from bot.engines.core import Seat
from bot.live import LiveGame
from bot.outgoing import plain_name
from bot.rendering import Replay, Shot
from bot.replay import GameRecord, position_since, state_at
from bot.tenure import Reader

__all__ = [
    "board_alt",
    "describe_leaderboard",
    "describe_standings",
    "private_alt",
    "replay_alt",
    "review_alts",
]

log = logging.getLogger(__name__)


def _names(names: Sequence[str]) -> list[str]:
    return [plain_name(n) for n in names]


def _fallback(engine_name: str, game_id: int, lang: str) -> str:
    try:
        return game_title(engine_name, game_id, lang)
    except Exception:
        return f"{engine_name} #{game_id}"


def board_alt(game: LiveGame, lang: str) -> str:
    """The public board's description: from the public view only."""
    try:
        view = game.engine.view(game.state, None)
        return describe_board(game.engine.name, view, names=_names(game.names), lang=lang)
    except Exception:
        log.exception("game %d: the board's description failed", game.id)
        return _fallback(game.engine.name, game.id, lang)


def private_alt(game: LiveGame, seat: Seat, lang: str) -> str:
    """A seat's own view's description: only where that view's image goes."""
    try:
        view = game.engine.view(game.state, seat)
        return describe_private(game.engine.name, view, names=_names(game.names), lang=lang)
    except Exception:
        log.exception("game %d: a private view's description failed", game.id)
        return _fallback(game.engine.name, game.id, lang)


def replay_alt(game: LiveGame, drawn: Replay, lang: str) -> str:
    """An animated replay's description: the game, the players, the result,
    how many moves it shows."""
    outcome = game.outcome if game.is_over else None
    try:
        return describe_replay(
            game.engine.name,
            game.id,
            _names(game.names),
            moves=drawn.moves,
            frames=drawn.frames,
            ranking=None if outcome is None else [sorted(s) for s in outcome.ranking],
            reason="" if outcome is None else outcome.reason,
            lang=lang,
        )
    except Exception:
        log.exception("game %d: the replay's description failed", game.id)
        return _fallback(game.engine.name, game.id, lang)


async def review_alts(
    game: LiveGame, full: GameRecord, shot: Shot, reader: Reader | None, lang: str
) -> tuple[str, str | None]:
    """A review's images described: the public board at the frame shown (from
    the public view), and the reviewer's own view of that moment when the
    shot has one (the seat ``reader`` held then, found as
    :func:`bot.rendering.render_shot` finds it)."""
    names = _names(full.names)
    engine = game.engine

    def described(view: Any, private: bool) -> str:
        return describe_review_shot(
            engine.name,
            game.id,
            names,
            move=shot.move,
            last_move=shot.last_move,
            lines=shot.lines,
            lang=lang,
            view=view,
            private=private,
        )

    try:
        state: Any = await asyncio.to_thread(state_at, full, shot.version)
    except Exception:
        log.info("game %d: the review's position is not described", game.id, exc_info=True)
        return described(None, False), (None if shot.private is None else described(None, True))
    board = described(engine.view(state, None), False)
    if shot.private is None:
        return board, None
    seat = None
    if reader is not None:
        for version in range(shot.version, position_since(full, shot.version) - 1, -1):
            seat = reader.seat_at(version)
            if seat is not None:
                break
    mine = described(None if seat is None else engine.view(state, seat), True)
    return board, mine
