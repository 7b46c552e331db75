"""What happens when someone at the table asks for something.

Slash commands and components both land here, so a click and a typed command
give the same answers.  Every refusal is an ephemeral reply with the reason,
and nothing changes; hidden information is only ever sent ephemerally or by
DM to its owner.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engines.core import GameError, NamesSeats
from bot.outgoing import NO_PINGS, Style, edit_reply, fill_seats, reply, safe_name
from bot.service import GameService, LiveGame, MoveResult, Player, StaleBoard
from storage.database import StorageError

if TYPE_CHECKING:
    from bot.client import ChaupalBot

log = logging.getLogger(__name__)


def player_of(itx: discord.Interaction[Any]) -> Player:
    return Player(user_id=itx.user.id, display_name=itx.user.display_name[:64])


def is_moderator(itx: discord.Interaction[Any]) -> bool:
    perms = itx.permissions
    return bool(perms.manage_guild or perms.manage_messages)


def show_option(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def lobby_text(game: LiveGame) -> str:
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
    if options:
        lines.append(f"Options: {options}")
    if game.record.status == "lobby":
        lines.append(
            f"Press **Join** to take a seat. <@{game.record.creator_id}> or a moderator presses "
            "**Start** when everyone is in."
        )
    elif game.record.status == "active":
        lines.append("The game has started: see the board below.")
    else:
        lines.append("This lobby is closed.")
    return "\n".join(lines)


class Table:
    def __init__(self, bot: ChaupalBot) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def refuse(self, itx: discord.Interaction[Any], exc: Exception) -> None:
        """A clear, specific reply; the game stays exactly as it was."""
        if isinstance(exc, GameError | StorageError):
            message = str(exc)
        else:
            log.exception("unexpected error while handling an interaction", exc_info=exc)
            message = "Something went wrong on my side; nothing was changed. Please try again."
        try:
            await reply(itx, message)
        except discord.HTTPException:
            log.warning("could not send a refusal (interaction expired?)")

    # -- lobby -----------------------------------------------------------

    async def lobby(self, itx: discord.Interaction[Any], game_id: int | None, verb: str) -> None:
        service = self.service
        try:
            channel_id = itx.channel_id or 0
            if verb == "join":
                game = await service.find_game(
                    channel_id=channel_id, user_id=itx.user.id, game_id=game_id, want="lobby"
                )
                game = await service.join(game.id, player_of(itx))
                note = f"{safe_name(itx.user.display_name)} joined game #{game.id}."
            elif verb == "leave":
                game = await service.find_game(
                    channel_id=channel_id, user_id=itx.user.id, game_id=game_id, want="mine"
                )
                left = await service.leave(game.id, itx.user.id)
                if left is None:
                    await self._refresh_lobby(itx, game, closed=True)
                    return
                game = left
                note = f"{safe_name(itx.user.display_name)} left game #{game.id}."
            else:
                game = await service.find_game(
                    channel_id=channel_id, user_id=itx.user.id, game_id=game_id, want="any"
                )
                result = await service.start(game.id, itx.user.id, moderator=is_moderator(itx))
                await self._refresh_lobby(itx, result.game)
                await self.bot.delivery.publish(result)
                return
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        await self._refresh_lobby(itx, game, note=note)

    async def _refresh_lobby(
        self, itx: discord.Interaction[Any], game: LiveGame, *, note: str = "", closed: bool = False
    ) -> None:
        from bot.ui.items import lobby_view

        content = (
            lobby_text(game)
            if not closed
            else f"Game #{game.id}: the lobby was closed (everyone left)."
        )
        view = None if closed or game.record.status != "lobby" else lobby_view(game)
        stored = await self.bot.store.get_message(game.id, "lobby")
        is_lobby_click = (
            itx.type is discord.InteractionType.component
            and itx.message is not None
            and stored is not None
            and itx.message.id == stored[1]
        )
        if is_lobby_click and not itx.response.is_done():
            await edit_reply(itx, content, view=view)
            return
        if stored is not None:
            try:
                await (
                    self.bot.get_partial_messageable(stored[0])
                    .get_partial_message(stored[1])
                    .edit(content=content, view=view, allowed_mentions=NO_PINGS)
                )
            except discord.HTTPException:
                log.info("game %d: lobby message could not be edited", game.id)
        if not itx.response.is_done() or note:
            await reply(itx, note or content)

    # -- play ------------------------------------------------------------

    async def play_text(
        self, itx: discord.Interaction[Any], game_id: int | None, text: str
    ) -> None:
        from bot.ui.items import private_view

        try:
            await itx.response.defer(ephemeral=True, thinking=True)
            game = await self.service.find_game(
                channel_id=itx.channel_id or 0, user_id=itx.user.id, game_id=game_id, want="mine"
            )
            result = await self.service.play(game.id, itx.user.id, text)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        done = self._done_text(result)
        # Still this player's turn: the next menu comes with the reply.
        seat = result.actor
        follow_up = private_view(self.bot, result.game, seat) if seat is not None else None
        if follow_up is not None:
            await reply(itx, done + "\nYour next choice:", view=follow_up)
        else:
            await reply(itx, done)
        await self.bot.delivery.publish(result)

    async def pick(
        self,
        itx: discord.Interaction[Any],
        game_id: int,
        version: int,
        path: tuple[int, ...],
        *,
        in_menu: bool,
    ) -> None:
        """Follow a button or select path: play the action, or show the next menu."""
        from bot.ui.items import menu_view, private_view

        try:
            # Menus (and the board's "Choose…", which only opens one) stay
            # usable while their choice is legal; other board buttons are
            # strict: the board they belong to has been replaced.
            step = await self.service.play_path(
                game_id, itx.user.id, path, expected_version=version, rebase=in_menu or not path
            )
        except StaleBoard as exc:
            if in_menu and not itx.response.is_done():
                await self._refresh_menu(itx, game_id, str(exc))
                return
            await self.refuse(itx, exc)
            return
        except Exception as exc:
            if in_menu and isinstance(exc, GameError) and not itx.response.is_done():
                await edit_reply(itx, str(exc), view=None)
                return
            await self.refuse(itx, exc)
            return
        result = step.result
        if result is None:
            game = await self.service.get(game_id)
            seat = self.service.seat_for(game, itx.user.id)
            view = menu_view(game, seat, step.version, step.path, step.options)
            prompt = "Choose:" if not step.path else "Choose (narrowed):"
            if in_menu:
                await edit_reply(itx, prompt, view=view)
            else:
                await reply(itx, prompt, view=view)
            return
        done = self._done_text(result)
        # Still this player's turn (a second pick, the next step of a set-up):
        # offer the next menu at once instead of sending them back to the board.
        actor = result.actor
        follow_up = private_view(self.bot, result.game, actor) if actor is not None else None
        if follow_up is not None:
            done += "\nYour next choice:"
        if in_menu:
            await edit_reply(itx, done, view=follow_up)
        elif follow_up is not None:
            await reply(itx, done, view=follow_up)
        else:
            await reply(itx, done)
        await self.bot.delivery.publish(result)

    async def _refresh_menu(self, itx: discord.Interaction[Any], game_id: int, why: str) -> None:
        """A menu whose choice is gone: say so, and offer the current choices
        if the player still has any (nothing was changed)."""
        from bot.ui.items import private_view

        game = await self.service.get(game_id)
        seat = game.seat_of(itx.user.id)
        view = private_view(self.bot, game, seat) if seat is not None else None
        if view is None:
            await edit_reply(itx, why, view=None)
        else:
            await edit_reply(itx, f"{why} Your choices now:", view=view)

    def _done_text(self, result: MoveResult) -> str:
        first = result.steps[0] if result.steps else None
        if first is None:
            return "Done."
        game = result.game
        label = game.engine.label(
            result.before, first.seat, game.engine.parse(result.before, first.seat, first.text)
        )
        return f"Played: {fill_seats(label, game, Style.CONTENT)}"

    async def show_mine(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """The caller's private view, ephemerally (the DM fallback)."""
        from bot.ui.items import private_view

        try:
            await itx.response.defer(ephemeral=True, thinking=True)
            game = (
                await self.service.find_game(
                    channel_id=itx.channel_id or 0,
                    user_id=itx.user.id,
                    game_id=game_id,
                    want="mine",
                )
                if game_id is None
                else await self.service.get(game_id)
            )
            seat = self.service.seat_for(game, itx.user.id)
            if game.state is None:
                raise GameError(f"Game #{game.id} has not started yet.")
            file = await self.bot.delivery.private_file(game, seat)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        view = private_view(self.bot, game, seat)
        text = f"Your private view of {game.engine.title} #{game.id} (only you can see this)."
        if view is not None:
            await reply(itx, text, file=file, view=view)
        else:
            await reply(itx, text, file=file)
