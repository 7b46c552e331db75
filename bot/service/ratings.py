"""What a finished game does: it is rated once (issue 11) and the game-over
hooks (a tournament) are told."""

from __future__ import annotations

import logging

from bot.engines.core import GameError
from bot.live import LiveGame
from bot.service.core import Core
from bot.tournament.ratings import FinishedGame, Rating, rate
from storage.ratings import StaleRating

log = logging.getLogger(__name__)


class Rater:
    """Rates a finished game and tells the game-over hooks."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def rate(self, game: LiveGame) -> None:
        """Rate a finished game once (issue 11): OpenSkill per player, game
        and server, unless the lobby said ``rated=no``.  Never fails the move
        that ended the game."""
        guild = game.record.guild_id
        if guild is None or game.outcome is None or not game.table.rated:
            return
        if any(s.automatic_player for s in game.seats):
            # Practice against automatic players (``/game new bots:N``) is
            # never rated, whatever its options say.
            return
        if game.id not in await self.core.store.moves_made([game.id]):
            # Issue 31: a game ended before anyone made a move (an entry of
            # a seat that is no table event: a set-up step counts, being a
            # seat's own decision) was never played, so it is not rated.
            return
        finished = FinishedGame.of(game.engine.name, [s.user_id for s in game.seats], game.outcome)
        for _ in range(3):
            try:
                stored = await self.core.ratings.ratings(guild, finished.engine, finished.players)
                changes = rate({u: Rating.of(r) for u, r in stored.items()}, finished)
                await self.core.ratings.apply(
                    game.id, guild, finished.engine, changes.values(), self.core.clock()
                )
                return
            except StaleRating:
                continue  # another game of the same players ended meanwhile
            except (GameError, ValueError) as exc:
                log.warning("game %d could not be rated: %s", game.id, exc)
                return
        log.warning("game %d: ratings kept changing; not rated", game.id)

    def game_over(self, game: LiveGame) -> None:
        for hook in self.core.game_over_hooks:
            try:
                hook(game)
            except Exception:
                log.exception("game %d: a game-over hook failed", game.id)
