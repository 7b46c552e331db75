"""Lobbies, and finding games: opening a lobby (with automatic players),
joining, leaving and starting it; the games of a channel or a player, and
the game a command means when its number was left out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engines import get_engine
from bot.engines.core import resolve_chance, resolve_options
from bot.engines.messages import Msg
from bot.live import LiveGame, MoveResult, Player, ServiceError
from bot.service.automatic import Automatic
from bot.service.common import LostRace, automatic_player_name, check_automatic_players
from bot.service.core import Core
from bot.service.games import Games
from bot.service.preferences import Preferences
from bot.service.writer import Writer
from bot.timekeeping import TableOptions, split_options
from storage.games import GameRecord, automatic_player_id


class Lobby:
    """Opens, fills and starts lobbies; finds games."""

    def __init__(
        self,
        core: Core,
        preferences: Preferences,
        writer: Writer,
        games: Games,
        automatic: Automatic,
    ) -> None:
        self.core = core
        self.preferences = preferences
        self.writer = writer
        self.games = games
        self.automatic = automatic

    async def new_game(
        self,
        engine_name: str,
        *,
        creator: Player,
        guild_id: int | None,
        channel_id: int,
        options: Mapping[str, Any] | None = None,
        automatic_players: int = 0,
    ) -> LiveGame:
        """A new lobby, its creator seated, and ``automatic_players`` seats
        for the automatic players (``/game new bots:N``)."""
        engine = get_engine(engine_name)
        engine_given, table_given = split_options(options or {})
        bots = automatic_players
        if bots:
            check_automatic_players(engine, bots)
            # Practice against the automatic players is not rated: their
            # strength is no player's, and a solo game has nobody to rate.
            if str(table_given.get("rated", "no")).strip().lower() in ("yes", "true", "on"):
                raise ServiceError(
                    Msg("A game with automatic players is not rated; leave out rated=yes.")
                )
            table_given = {**table_given, "rated": "no"}
        resolved = resolve_options(engine, engine_given)
        table = TableOptions.parse(
            table_given, defaults=await self.preferences.server_defaults(guild_id)
        )
        record = await self.core.store.create_game(
            engine=engine.name,
            engine_revision=engine.revision,
            options=resolved,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            creator_id=creator.user_id,
            now=self.core.clock(),
            table_options=table.to_json(),
        )
        await self.core.store.add_seat(
            record.id, creator.user_id, creator.display_name, self.core.clock()
        )
        for n in range(1, bots + 1):
            await self.core.store.add_seat(
                record.id,
                automatic_player_id(n),
                automatic_player_name(n),
                self.core.clock(),
                controller="auto",
            )
        return await self.games.get(record.id)

    async def join(self, game_id: int, player: Player) -> LiveGame:
        async with self.core.lock(game_id):
            game = await self.games.load(game_id)
            self.require_lobby(game)
            if game.seat_of(player.user_id) is not None:
                raise ServiceError(Msg("You are already in game #{game}.", game=game_id))
            if len(game.seats) >= game.engine.max_players:
                raise ServiceError(
                    Msg(
                        "Game #{game} is full ({count} players).",
                        game=game_id,
                        count=game.engine.max_players,
                    )
                )
            await self.core.store.add_seat(
                game_id, player.user_id, player.display_name, self.core.clock()
            )
            game.seats = await self.core.store.seats(game_id)
            return game

    async def leave(self, game_id: int, user_id: int) -> LiveGame | None:
        """Leave a lobby; the last player leaving closes it (returns ``None``)."""
        async with self.core.lock(game_id):
            game = await self.games.load(game_id)
            if game.record.status == "active":
                raise ServiceError(
                    Msg(
                        "Game #{game} has already started; use /game resign to leave it.",
                        game=game_id,
                    )
                )
            self.require_lobby(game)
            if game.seat_of(user_id) is None:
                raise ServiceError(Msg("You are not in game #{game}.", game=game_id))
            await self.core.store.remove_seat(game_id, user_id)
            game.seats = await self.core.store.seats(game_id)
            if all(s.automatic_player for s in game.seats):
                # Nobody is left to play with the automatic players.
                game.record = await self.core.store.set_status(
                    game_id, "abandoned", self.core.clock()
                )
                self.core.cache.pop(game_id, None)
                return None
            return game

    async def start(self, game_id: int, user_id: int, *, moderator: bool) -> MoveResult:
        async with self.core.lock(game_id):
            game = await self.games.load(game_id)
            self.require_lobby(game)
            if user_id != game.record.creator_id and not moderator:
                raise ServiceError(
                    Msg("Only the player who opened the game or a moderator can start it.")
                )
            engine = game.engine
            if len(game.seats) < engine.min_players:
                raise ServiceError(
                    Msg(
                        "{title} needs at least {least} players; {joined} joined so far.",
                        title=Msg(engine.title),
                        least=engine.min_players,
                        joined=len(game.seats),
                    )
                )
            state = engine.setup(len(game.seats), game.record.options)
            state, steps = resolve_chance(engine, state, self.core.draw)
            # One transaction: lobby -> active together with the opening
            # chance (shuffles, first rolls), the clocks and the timers, so
            # a crash never leaves an active game that nobody can move.
            try:
                await self.writer.write(game, state=state, steps=steps, status="active")
            except LostRace:
                raise ServiceError(
                    Msg(
                        "Game #{game} changed while it was being started (another start?); "
                        "look at the game again.",
                        game=game_id,
                    )
                ) from None
            await self.automatic.after_change(game, moved=None)
            return MoveResult(
                game=game,
                before=None,
                steps=tuple(steps),
                actor=None,
                version=game.version,
            )

    def require_lobby(self, game: LiveGame) -> None:
        if game.record.status != "lobby":
            raise ServiceError(Msg("Game #{game} has already started.", game=game.id))

    async def games_here(self, channel_id: int) -> list[GameRecord]:
        return await self.core.store.games_in_channel(channel_id)

    async def games_of(self, user_id: int) -> list[GameRecord]:
        return await self.core.store.games_of_user(user_id)

    async def find_game(
        self,
        *,
        channel_id: int,
        user_id: int,
        game_id: int | None,
        want: str,
    ) -> LiveGame:
        """Resolve the game a command means when its id was left out.

        ``want`` is ``"lobby"`` (to join), ``"mine"`` (a live game the caller
        sits in, here) or ``"any"`` (any live game here).
        """
        if game_id is not None:
            game = await self.games.get(game_id)
            if game.record.channel_id != channel_id and want != "mine":
                raise ServiceError(Msg("Game #{game} is in another channel.", game=game_id))
            return game
        here = await self.core.store.games_in_channel(channel_id)
        if want == "lobby":
            candidates = [g for g in here if g.status == "lobby"]
        elif want == "mine":
            mine = await self.core.store.games_of_user(user_id)
            mine_ids = {g.id for g in mine}
            # In a DM (or another channel) a player's only live game is meant.
            candidates = [g for g in here if g.id in mine_ids] or mine
        else:
            candidates = here
        if not candidates:
            if want == "mine":
                # A game that just ended is the likeliest meaning: say so.
                ended = await self.core.store.games_of_user(
                    user_id, statuses=("finished", "abandoned")
                )
                ended = [g for g in ended if channel_id in (g.channel_id, g.thread_id)]
                if ended:
                    raise ServiceError(
                        Msg(
                            "Game #{game} is over, and you have no running game in this "
                            "channel. Start one with /game new.",
                            game=ended[-1].id,
                        )
                    )
            if want == "lobby":
                raise ServiceError(
                    Msg("There is no open lobby in this channel. Start one with /game new.")
                )
            if want == "mine":
                raise ServiceError(
                    Msg("There is no game of yours in this channel. Start one with /game new.")
                )
            raise ServiceError(Msg("There is no game in this channel. Start one with /game new."))
        if len(candidates) > 1:
            ids = ", ".join(f"#{g.id}" for g in candidates)
            raise ServiceError(Msg("Several games match ({ids}); give the game number.", ids=ids))
        return await self.games.get(candidates[0].id)
