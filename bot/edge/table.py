"""What happens when someone at the table asks for something.

Slash commands and components both land here, so a click and a typed command
give the same answers.  Every refusal is an ephemeral reply with the reason,
and nothing changes; hidden information is only ever sent ephemerally or by
DM to its owner.
"""

from __future__ import annotations

import datetime
import io
import logging
from collections.abc import Callable, Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.choices import follow_up_prompt
from bot.edge.delivery import Delivery, jump_url
from bot.edge.lobby import lobby_text, option_help_lines
from bot.edge.moderators import has_moderator_permissions
from bot.edge.moderators import is_moderator as moderator_here
from bot.edge.ports import Discord, Headings
from bot.edge.replies import NO_PINGS, edit_reply, reply
from bot.engines import get_engine
from bot.engines.core import GameError, Seat
from bot.outgoing import (
    Style,
    clip,
    discord_time,
    fill_seats,
    names_of,
    plain_name,
    plural,
    safe_name,
)
from bot.service import (
    GameBroken,
    GameService,
    LiveGame,
    MoveResult,
    Player,
    StaleBoard,
    TakebackRequest,
)
from bot.timekeeping import clock_deadline
from storage.errors import StorageError
from storage.games import ALL_STATUSES, GameRecord, GameStatus, LogEntry, MovesMade

if TYPE_CHECKING:
    from bot.director import TournamentDirector
    from bot.rendering import RenderPool
    from storage.games import GameStore
    from storage.timekeeping import SettingsStore

log = logging.getLogger(__name__)


def player_of(itx: discord.Interaction[Any]) -> Player:
    return Player(user_id=itx.user.id, display_name=itx.user.display_name[:64])


def is_moderator(itx: discord.Interaction[Any]) -> bool:
    """Manage Server or Manage Messages (without the server's configured
    moderator role: :meth:`Table.is_moderator` adds it)."""
    return has_moderator_permissions(itx)


LOG_LIMIT = 8 * 1024 * 1024
"""A game's log file is cut (from the start) past this many bytes."""


# -- the rules (``/help``, ``/game rules``) ----


def rules_summary(engine_name: str) -> str:
    """A game's one-message summary (``bot/engines/data/<game>.rules.md``)."""
    try:
        return (resources.files("bot.engines") / "data" / f"{engine_name}.rules.md").read_text(
            encoding="utf-8"
        )
    except FileNotFoundError:
        return "No summary yet."


def complete_rules(engine_name: str) -> str:
    """A game's complete rules, with its glossary: the package's copy of
    ``docs/rules/<game>.md`` (``bot/engines/data/rules/``; a test keeps the
    copy identical), so an installed bot has them without the repository."""
    return (resources.files("bot.engines") / "data" / "rules" / f"{engine_name}.md").read_text(
        encoding="utf-8"
    )


class TableHost(Discord, Protocol):
    """What the table uses of the bot: Discord's channels and DMs, the
    games' store and service, delivery, each server's settings, the clock,
    the tournaments (is a game a tournament's?) and the desk's headings."""

    @property
    def store(self) -> GameStore: ...
    @property
    def service(self) -> GameService: ...
    @property
    def delivery(self) -> Delivery: ...
    @property
    def server_settings(self) -> SettingsStore: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    @property
    def tournaments(self) -> TournamentDirector: ...
    @property
    def desk(self) -> Headings: ...
    @property
    def renders(self) -> RenderPool: ...


class Table:
    def __init__(self, bot: TableHost) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def is_moderator(self, itx: discord.Interaction[Any]) -> bool:
        """Manage Server, Manage Messages, or the server's Chaupal moderator
        role (``/moderate settings moderator_role``)."""
        return await moderator_here(self.bot.server_settings, itx)

    async def find_game(
        self, itx: discord.Interaction[Any], game_id: int | None, want: str
    ) -> LiveGame:
        """The game a command means (see :meth:`GameService.find_game`); in a
        game's thread, that game counts as in its channel."""
        channel_id = itx.channel_id or 0
        if game_id is not None:
            record = await self.bot.store.get_game(game_id)
            if record is not None and record.thread_id == channel_id:
                channel_id = record.channel_id
        return await self.service.find_game(
            channel_id=channel_id, user_id=itx.user.id, game_id=game_id, want=want
        )

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
            if verb == "join":
                game = await self.find_game(itx, game_id, "lobby")
                game = await service.join(game.id, player_of(itx))
                note = f"{safe_name(itx.user.display_name)} joined game #{game.id}."
            elif verb == "leave":
                game = await self.find_game(itx, game_id, "mine")
                left = await service.leave(game.id, itx.user.id)
                if left is None:
                    await self._refresh_lobby(itx, game, closed=True)
                    return
                game = left
                note = f"{safe_name(itx.user.display_name)} left game #{game.id}."
            else:
                game = await self.find_game(itx, game_id, "any")
                moderator = await self.is_moderator(itx)
                result = await service.start(game.id, itx.user.id, moderator=moderator)
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
        from bot.edge.ui.items import lobby_rules_view

        content = (
            lobby_text(game, defaults=await self.service.server_defaults(game.record.guild_id))
            if not closed
            else f"Game #{game.id}: the lobby was closed (everyone left)."
        )
        view = None if closed or game.record.status != "lobby" else lobby_rules_view(game)
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
        from bot.edge.ui.items import private_view

        try:
            await itx.response.defer(ephemeral=True, thinking=True)
            game = await self.find_game(itx, game_id, "mine")
            result = await self.service.play(game.id, itx.user.id, text)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        done = self._done_text(result)
        # Still this player's turn: the next menu comes with the reply.
        seat = result.actor
        follow_up = private_view(self.bot.service, result.game, seat) if seat is not None else None
        if follow_up is not None and seat is not None:
            done += "\n" + follow_up_prompt(result.game.engine, result.game.state, seat)
        view = self._with_takeback(result, follow_up)
        if view is not None:
            await reply(itx, done, view=view)
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
        from bot.edge.ui.items import menu_heading, menu_view, private_view

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
            try:
                seat = self._readable_seat(game, itx.user.id)
            except GameError as exc:
                await self.refuse(itx, exc)  # left since the service let them choose
                return
            view = menu_view(
                game,
                seat,
                step.version,
                step.path,
                step.options,
                self.service.menu_words(game, seat),
                step.depth,
            )
            prompt = menu_heading(self.bot.service, game, seat, step.path)
            if in_menu:
                await edit_reply(itx, prompt, view=view)
            else:
                await reply(itx, prompt, view=view)
            return
        done = self._done_text(result)
        # Still this player's turn (a second pick, the next step of a set-up):
        # offer the next menu at once instead of sending them back to the board.
        actor = result.actor
        follow_up = (
            private_view(self.bot.service, result.game, actor) if actor is not None else None
        )
        if follow_up is not None and actor is not None:
            done += "\n" + follow_up_prompt(result.game.engine, result.game.state, actor)
        components = self._with_takeback(result, follow_up)
        if in_menu:
            await edit_reply(itx, done, view=components)
        elif components is not None:
            await reply(itx, done, view=components)
        else:
            await reply(itx, done)
        await self.bot.delivery.publish(result)

    # -- taking a move back (issue 31) -----------------------------------

    async def take_back(
        self, itx: discord.Interaction[Any], game_id: int | None, *, target: int | None = None
    ) -> None:
        """``/game takeback`` (``target`` None), or **Take back** under the
        player's "Played: …" (the version that move was made at).  Taken back
        at once while nothing happened since; after others acted, a request
        in the game's thread that every other player must agree to."""
        from bot.edge.ui.items import private_view

        button = target is not None
        try:
            if not button:
                # A button's answer edits its "Played: …" in place (the
                # interaction's first response); a command may take a while.
                await itx.response.defer(ephemeral=True, thinking=True)
            game = (
                await self.service.get(game_id)
                if game_id is not None and button
                else await self.find_game(itx, game_id, "mine")
            )
            outcome = await self.service.take_back(game.id, itx.user.id, target=target)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        if isinstance(outcome, MoveResult):
            live = outcome.game
            undone = fill_seats(outcome.undone or "", live, Style.CONTENT)
            said = f"You took back your last move: {undone}"
            seat = live.seat_of(itx.user.id)
            view = private_view(self.service, live, seat) if seat is not None else None
            if view is not None and seat is not None:
                said += "\n" + follow_up_prompt(live.engine, live.state, seat)
            if button:
                # The "Played: …" it was under says what became of the move.
                await edit_reply(itx, said, view=view)
            elif view is not None:
                await reply(itx, said, view=view)
            else:
                await reply(itx, said)
            await self.bot.delivery.publish(outcome)
            return
        await self._ask_takeback(itx, outcome)

    async def _ask_takeback(self, itx: discord.Interaction[Any], request: TakebackRequest) -> None:
        """Post a takeback request in the game's thread, pinging once each
        player whose agreement it needs (a decision they owe), or say it
        waits already."""
        from bot.edge.replies import pinging
        from bot.edge.ui.items import takeback_request_view
        from bot.outgoing import mention

        game = request.game
        waiting = names_of(game, request.waiting_for)
        if not request.new:
            await reply(
                itx,
                f"You asked already: waiting for {waiting} to agree. Nothing changes unless "
                "everyone does, and any move first ends the request.",
            )
            return
        audience = await self.bot.delivery.audience(game)
        users = [game.user_of(s) for s in sorted(request.asked)]
        pinged = [game.user_of(s) for s in sorted(request.asked) if audience.reachable(s)]
        who = " ".join(
            mention(u) if u in pinged else f"**{safe_name(game.names[s])}**"
            for s, u in zip(sorted(request.asked), users, strict=True)
        )
        try:
            await self.bot.delivery.send(
                game,
                content=clip(request_text(request, who)),
                view=takeback_request_view(game.id, request.version),
                allowed_mentions=pinging(pinged),
            )
        except discord.HTTPException as exc:
            log.warning(
                "game %d: could not post a takeback request (%s %s)", game.id, exc.status, exc.code
            )
            await reply(itx, "I could not post the request in the game's thread; nothing changed.")
            return
        await reply(
            itx,
            f"Others moved since, so {waiting} must agree: I asked in the game's thread. "
            "Nothing changes unless everyone does, and any move first ends the request.",
        )

    async def answer_takeback(
        self, itx: discord.Interaction[Any], game_id: int, version: int, *, agree: bool
    ) -> None:
        """**Agree** or **Decline** under a takeback request: the message is
        edited with where the request stands; the last agreement takes the
        move back, and everyone's boards follow."""
        try:
            outcome = await self.service.answer_takeback(
                game_id, itx.user.id, version, agree=agree
            )
        except StaleBoard as exc:
            # Out of date for everyone: the request's buttons go.
            if not itx.response.is_done():
                await edit_reply(itx, str(exc), view=None)
                return
            await self.refuse(itx, exc)
            return
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        if isinstance(outcome, MoveResult):
            live = outcome.game
            await edit_reply(
                itx,
                "Taken back with everyone's agreement: "
                f"{fill_seats(outcome.undone or '', live, Style.CONTENT)}",
                view=None,
            )
            await self.bot.delivery.publish(outcome)
            return
        game = outcome.game
        if outcome.declined_by is not None:
            await edit_reply(
                itx,
                f"**{safe_name(game.names[outcome.declined_by])}** declined to take back "
                f"**{safe_name(game.names[outcome.seat])}**'s move: the game goes on as it is.",
                view=None,
            )
            return
        agreed = names_of(game, outcome.agreed)
        await edit_reply(
            itx,
            clip(
                request_text(outcome, names_of(game, outcome.waiting_for))
                + f"\nAgreed so far: {agreed}."
            ),
        )

    async def outdated_menu(
        self, itx: discord.Interaction[Any], game_id: int, *, in_menu: bool
    ) -> None:
        """A button or menu from before menus were shown flat: its path would
        pick something else now, so nothing is played."""
        from bot.edge.ui.items import private_view

        why = "That menu was made by an older version of Chaupal, so nothing was played."
        try:
            game = await self.service.get(game_id)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        if in_menu:
            await self._refresh_menu(itx, game_id, why)
            return

        seat = game.readable_seat(itx.user.id)
        view = private_view(self.bot.service, game, seat) if seat is not None else None
        if view is None:
            await reply(itx, f"{why} Use the newest board.")
        else:
            await reply(itx, f"{why} Your choices now:", view=view)

    async def _refresh_menu(self, itx: discord.Interaction[Any], game_id: int, why: str) -> None:
        """A menu whose choice is gone: say so, and offer the current choices
        if the player still has any (nothing was changed)."""
        from bot.edge.ui.items import private_view

        game = await self.service.get(game_id)
        seat = game.readable_seat(itx.user.id)
        view = private_view(self.bot.service, game, seat) if seat is not None else None
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
        done = f"Played: {fill_seats(label, game, Style.CONTENT)}"
        if result.takeback is not None and result.takeback_until is not None:
            # The throw that follows waits for it (issue 31): say how long.
            done += (
                f"\nThe next throw or draw comes {discord_time(result.takeback_until)}: "
                "until then, **Take back** undoes this move."
            )
        return done

    @staticmethod
    def _with_takeback(
        result: MoveResult, view: discord.ui.View | None
    ) -> discord.ui.View | None:
        """A "Played: …" reply's components: its next menu, and **Take back**
        while the move is its player's to take back alone (issue 31)."""
        from bot.edge.ui.items import with_takeback

        if result.takeback is None:
            return view
        return with_takeback(view, result.game.id, result.takeback)

    @staticmethod
    def _readable_seat(game: LiveGame, user_id: int) -> Seat:
        """The seat whose secrets ``user_id`` may see now, or a refusal that
        tells nothing about the seat: a player who left it watches, as
        anyone else does (:mod:`bot.tenure`)."""
        seat = game.readable_seat(user_id)
        if seat is not None:
            return seat
        if game.seat_of(user_id) is not None:
            raise GameError(
                f"You left game #{game.id}: its seat is the automatic player's now, and "
                "you watch it as everyone else does."
            )
        raise GameError(f"You are not playing in game #{game.id}.")

    async def show_mine(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """The caller's private view, ephemerally (the DM fallback)."""
        from bot.edge.ui.items import private_view

        try:
            await itx.response.defer(ephemeral=True, thinking=True)
            game = (
                await self.find_game(itx, None, "mine")
                if game_id is None
                else await self.service.get(game_id)
            )
            seat = self._readable_seat(game, itx.user.id)
            if game.state is None:
                raise GameError(f"Game #{game.id} has not started yet.")
            file = await self.bot.delivery.private_file(game, seat)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        view = private_view(self.bot.service, game, seat)
        text = f"Your private view of {game.engine.title} #{game.id} (only you can see this)."
        if view is not None:
            await reply(itx, text, file=file, view=view)
        else:
            await reply(itx, text, file=file)

    # -- moderators and vacations ----------------------------------------

    async def pause(
        self, itx: discord.Interaction[Any], game_id: int | None, *, resume: bool
    ) -> None:
        """Stop a game's clocks (``/moderate game pause``), or start them again."""
        try:
            await itx.response.defer(ephemeral=True)
            moderator = await self.is_moderator(itx)
            game = await self.find_game(itx, game_id, "any")
            if resume:
                game = await self.service.resume(game.id, itx.user.id, moderator=moderator)
            else:
                game = await self.service.pause(game.id, itx.user.id, moderator=moderator)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        if resume:
            await reply(itx, f"Game #{game.id} is running again.")
        else:
            await reply(
                itx,
                f"Game #{game.id} is paused: its clocks stand still until /moderate game resume.",
            )
        await self.bot.delivery.catch_up(game.id)

    async def away(self, itx: discord.Interaction[Any], days: int | None) -> None:
        """``/game away days:n`` (or ``/game back`` with ``days`` None)."""
        try:
            await itx.response.defer(ephemeral=True)
            if days is None:
                said = await self.service.back(itx.user.id)
            else:
                said = await self.service.away(itx.user.id, days)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        await reply(itx, said)
        # Each of the caller's boards says so (and shows when they are back).
        for record in await self.bot.store.games_of_user(itx.user.id):
            if record.status == "active":
                await self.bot.delivery.catch_up(record.id)

    # -- the log and the caller's games ----------------------------------

    async def _log_record(self, itx: discord.Interaction[Any], game_id: int | None) -> GameRecord:
        """A started game of this channel (or its thread), live or over."""
        channel_id = itx.channel_id or 0
        store = self.bot.store
        if game_id is not None:
            record = await store.get_game(game_id)
            if record is None:
                raise GameError(f"There is no game #{game_id}.")
            if channel_id not in (record.channel_id, record.thread_id):
                raise GameError(f"Game #{game_id} is in another channel: ask for its log there.")
        else:
            here = [
                r
                for r in await store.games_in_channel(channel_id, statuses=ALL_STATUSES)
                if r.status != "lobby"
            ]
            running = [r for r in here if r.status == "active"]
            if len(running) > 1:
                ids = ", ".join(f"#{r.id}" for r in running)
                raise GameError(f"Several games are running here ({ids}); give the game number.")
            if running:
                record = running[0]
            elif here:
                record = here[-1]  # the newest finished game
            else:
                raise GameError("No game has been played in this channel yet.")
        if record.status == "lobby":
            raise GameError(f"Game #{record.id} has not started yet, so it has no log.")
        return record

    async def log(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """``/game log``: the public log as a text file, only ever from the
        public narrations (an action's own text may be secret)."""
        try:
            await itx.response.defer(ephemeral=True, thinking=True)
            record = await self._log_record(itx, game_id)
            game = await self.service.get(record.id)
            entries = await self.bot.store.log(record.id)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        text = log_text(game, entries)
        data = text.encode("utf-8")
        if len(data) > LOG_LIMIT:
            data = "… (the start is cut)\n".encode() + data[-LOG_LIMIT:]
        # The file's times are UTC (a text file cannot show the reader's
        # own); the message shows when the game was opened in theirs.
        await reply(
            itx,
            f"The public log of {game.engine.title} #{game.id}, opened "
            f"{discord_time(record.created_at, 'f')} ({discord_time(record.created_at)}). "
            "Times in the file are UTC.",
            file=discord.File(io.BytesIO(data), filename=f"chaupal-{game.id}-log.txt"),
        )

    async def export(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """``/game export``: the game as text, the moves in Chaupal's notation
        one a line (``python -m bot replay FILE`` reads it), privately.  What
        another seat did in secret is written ``?``, also after the end: the
        secret lines of the caller's seat are kept while they held it
        (:mod:`bot.tenure`: not after they left it, not before they took it
        over), nobody else's."""
        from bot.replay import load_record
        from bot.tenure import Reader

        try:
            await itx.response.defer(ephemeral=True, thinking=True)
            record = await self._log_record(itx, game_id)
            game = await self.service.get(record.id)
            complete = await load_record(self.bot.store, record.id)
            # A seat's own lines only while the caller held it (bot.tenure).
            reader = Reader.of(itx.user.id, game.seats, complete.lines)
            text, hidden = await self.bot.renders.public_record(complete, reader)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        if hidden:
            what = (
                f"{plural(hidden, 'move')} other players made in secret "
                f"{'is' if hidden == 1 else 'are'} written `?`, so it cannot be replayed "
                "offline; `/game replay` draws the replay here."
            )
        else:
            what = "It is complete: `python -m bot replay FILE` draws its replay offline."
        await reply(
            itx,
            f"{game.engine.title} #{game.id} as text: the options, the seats, then every move "
            f"in Chaupal's notation, one a line. {what}",
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"chaupal-{game.id}.txt"),
        )

    async def mine(self, itx: discord.Interaction[Any]) -> None:
        """``/game mine``: the caller's live games anywhere, theirs to play
        first, each with a link to its newest board."""
        try:
            await itx.response.defer(ephemeral=True)
            records = await self.bot.store.games_of_user(itx.user.id)
            lines: list[tuple[int, str]] = []
            for record in records:
                lines.append(await self._mine_line(itx.user.id, record))
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        if not lines:
            await reply(itx, "You are in no live game. Open one with /game new.")
            return
        yours = sum(1 for order, _ in lines if order == 0)
        head = (
            f"**Your games** ({len(lines)}; your turn in {yours}):"
            if yours
            else f"**Your games** ({len(lines)}; none waits for you):"
        )
        body = [line for _, line in sorted(lines, key=lambda item: item[0])]
        await reply(itx, "\n".join([head, *body]), suppress_embeds=True)

    async def _mine_line(self, user_id: int, record: GameRecord) -> tuple[int, str]:
        """``(order, line)``: order 0 when it is the user's turn.  The game's
        thread, and a tidy link to its newest board (``[board](<…>)``, as
        ``/game history`` writes links), not a raw URL."""
        where = record.thread_id or record.channel_id
        title = f"#{record.id} {get_title(record.engine)} in <#{where}>"
        kind = "lobby" if record.status == "lobby" else "board"
        stored = await self.bot.store.get_message(record.id, kind)
        url = jump_url(record.guild_id, stored[0], stored[1]) if stored else ""
        link = f" — [{kind}](<{url}>)" if stored else ""
        if record.status == "lobby":
            return 2, f"{title} — lobby, not started{link}"
        try:
            game = await self.service.get(record.id)
        except GameError:
            return 2, f"{title} — cannot be loaded; a moderator can end it{link}"
        seat = game.seat_of(user_id)
        state = game.state
        if state is None or game.is_over:
            return 2, f"{title}{link}"
        paused = " (paused)" if game.paused else ""
        waiting = game.engine.waiting_on(state)
        if seat is not None and seat in waiting:
            deadline = None if game.paused else clock_deadline(game.seats[seat], game.table.clock)
            runs_out = "" if deadline is None else f", your clock runs out {discord_time(deadline)}"
            return 0, f"▶ **{title} — your turn**{runs_out}{paused}{link}"
        if waiting:
            return 1, f"{title} — waiting for {names_of(game, waiting)}{paused}{link}"
        return 1, f"{title} — waiting{paused}{link}"

    # -- telling a player by DM, kicks, handing a seat over ----------------

    async def tell(self, user_id: int, text: str) -> bool:
        """A DM to one player, pinging nobody; False when it could not be
        sent (DMs closed): nothing else happens then."""
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            await dm.send(content=clip(text), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("a DM to a player was refused (%s %s)", exc.status, exc.code)
            return False
        return True

    async def kick(
        self, itx: discord.Interaction[Any], target: discord.abc.User, game_id: int | None
    ) -> None:
        """``/moderate game kick``: a moderator hands a player's seat to the automatic
        player (a two-player game ends), and the player is told by DM what
        happened and what it means for their place."""
        try:
            await itx.response.defer(ephemeral=True)
            moderator = await self.is_moderator(itx)
            game = await self.find_game(itx, game_id, "any")
            result = await self.service.kick(game.id, target.id, moderator=moderator)
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        who = safe_name(target.display_name)
        live = result.game
        title = f"{live.engine.title} #{live.id}"
        where = f"<#{self.bot.delivery.place_id(live)}>"
        if live.is_over:
            await reply(itx, f"{who} is out of game #{game.id}, and the game is over.")
            told = (
                f"A moderator removed you from {title} ({where}). That ended the game, "
                "and you lost."
            )
        else:
            await reply(
                itx, f"{who} is out of game #{game.id}; the automatic player takes their seat."
            )
            told = (
                f"A moderator removed you from {title} ({where}); the automatic player plays "
                "your seat from now on, ranked last."
            )
        await self.tell(target.id, told)
        await self.bot.delivery.catch_up(game.id)

    async def _in_tournament(self, game_id: int) -> bool:
        return await self.bot.tournaments.store.table_of_game(game_id) is not None

    async def offer_seat(
        self,
        itx: discord.Interaction[Any],
        game_id: int,
        old: discord.abc.User,
        new: discord.abc.User,
    ) -> None:
        """``/moderate game replace``: a moderator asks ``new`` (in the game's thread,
        pinging only them) to take ``old``'s seat; nothing changes until they
        press **Take the seat**."""
        from bot.edge.replies import pinging
        from bot.edge.ui.items import seat_offer_view
        from bot.outgoing import mention

        try:
            await itx.response.defer(ephemeral=True)
            moderator = await self.is_moderator(itx)
            game = await self.find_game(itx, game_id, "any")
            game, seat = await self.service.check_replacement(
                game.id,
                old.id,
                new.id,
                moderator=moderator,
                tournament=await self._in_tournament(game.id),
            )
            if new.bot:
                raise GameError(
                    f"{safe_name(new.display_name)} is a bot: only a person can take a seat."
                )
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        was = safe_name(game.names[seat])
        title = f"{game.engine.title} #{game.id}"
        content = (
            f"{mention(new.id)}, a moderator asks you to take over **{was}**'s seat in "
            f"{title}. You would play on from where the game is, on the same clock; the "
            "seat's hand or screen and its choices would come to you by DM. "
            "Press **Take the seat** to play it, or **Decline**."
        )
        try:
            await self.bot.delivery.send(
                game,
                content=clip(content),
                view=seat_offer_view(game.id, seat, new.id, old.id),
                allowed_mentions=pinging([new.id]),
            )
        except discord.HTTPException as exc:
            log.warning(
                "game %d: could not post a seat offer (%s %s)", game.id, exc.status, exc.code
            )
            await reply(itx, "I could not post the offer in the game's thread; nothing changed.")
            return
        await reply(
            itx,
            f"Asked {safe_name(new.display_name)} to take over {was}'s seat in game "
            f"#{game.id}; nothing changes unless they accept.",
        )

    async def answer_seat_offer(
        self,
        itx: discord.Interaction[Any],
        game_id: int,
        seat: int,
        *,
        new_user_id: int,
        old_user_id: int,
        take: bool,
    ) -> None:
        """**Take the seat** or **Decline** under a seat offer: only the
        member asked may answer; taking it hands the seat over (checked again
        by the service), sends the seat's private view to the new player
        only, and tells the old player by DM."""
        if itx.user.id != new_user_id:
            await self.refuse(
                itx,
                GameError(
                    "This offer is not for you: only the member it names can take the seat "
                    "or decline it."
                ),
            )
            return
        who = safe_name(itx.user.display_name)
        if not take:
            await edit_reply(
                itx,
                f"{who} declined to take over a seat in game #{game_id}; nothing changed.",
                view=None,
            )
            return
        try:
            result, old = await self.service.replace_seat(
                game_id,
                seat,
                old_user_id,
                player_of(itx),
                tournament=await self._in_tournament(game_id),
            )
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        game = result.game
        title = f"{game.engine.title} #{game.id}"
        was = safe_name(old.display_name)
        await edit_reply(itx, f"{who} took over **{was}**'s seat in {title}.", view=None)
        await reply(
            itx,
            f"You play **{was}**'s old seat in {title} now, from where the game is and on the "
            "same clock. The seat's hand or screen, and its choices when they are private, "
            "come to you by DM; /game hand shows them here too.",
        )
        await self.tell(
            old_user_id,
            f"A moderator handed your seat in {title} to {who}. The seat is no longer yours: "
            "you get no more of its views or turns, and the game's result will not count for "
            "your rating.",
        )
        await self.bot.delivery.hand_over(game.id, seat)

    # -- learning a game, and opening a lobby (``/help``, ``/game rules``, ``/game new``) --

    async def rules(self, itx: discord.Interaction[Any], engine_name: str, *, full: bool) -> None:
        """A game's summary with a **Complete rules** button, or (``full``)
        its complete rules as a Markdown file: one message a player can read
        in Discord's preview, download or search, instead of a dozen pages."""
        from bot.edge.ui.items import rules_view

        try:
            engine = get_engine(engine_name)
        except GameError as exc:
            await self.refuse(itx, exc)
            return
        if not full:
            await reply(itx, rules_summary(engine.name), view=rules_view(engine.name))
            return
        try:
            text = complete_rules(engine.name)
        except FileNotFoundError:
            await self.refuse(itx, GameError(f"The complete rules of {engine.title} are missing."))
            return
        await reply(
            itx,
            f"The complete rules of **{engine.title}**, as Chaupal plays them; the glossary "
            "of the board's words is at the end.",
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{engine.name}-rules.md"),
        )

    async def option_help(
        self, itx: discord.Interaction[Any], engine_name: str, game_id: int | None
    ) -> None:
        """What every option of a game does (**Options**): with a lobby's
        ``game_id``, that lobby's values; without, the game's defaults and
        this server's table defaults (under a game's rules).  Only the
        presser sees it; a lobby names only the options it changed."""
        try:
            engine = get_engine(engine_name)
            defaults = await self.service.server_defaults(itx.guild_id)
            values: Mapping[str, Any] = {}
            if game_id is not None:
                game = await self.service.get(game_id)
                if game.engine.name != engine.name or game.record.guild_id != itx.guild_id:
                    raise GameError(f"There is no {engine.title} game #{game_id} here.")
                values, defaults = game.record.options, game.table
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        await reply(itx, "\n".join(option_help_lines(engine, values, defaults)))

    async def open_lobby(
        self,
        itx: discord.Interaction[Any],
        engine_name: str,
        options: Mapping[str, str],
        *,
        bots: int = 0,
    ) -> None:
        """A new lobby in this channel (``/game new``, or a **Play** button
        of ``/help``), posted publicly with Join, Leave, Start and Rules;
        ``bots`` seats are the automatic players' (``/game new bots:N``)."""
        from bot.edge.ui.items import lobby_rules_view

        if itx.guild_id is None:
            await self.refuse(itx, GameError("Start games in a server channel, not in DMs."))
            return
        try:
            live = await self.service.new_game(
                engine_name,
                creator=player_of(itx),
                guild_id=itx.guild_id,
                channel_id=itx.channel_id or 0,
                options=dict(options),
                automatic_players=bots,
            )
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        text = lobby_text(live, defaults=await self.service.server_defaults(itx.guild_id))
        await reply(itx, text, ephemeral=False, view=lobby_rules_view(live))
        message = await itx.original_response()
        await self.bot.store.set_message(live.id, "lobby", message.channel.id, message.id)

    # -- safety nets and shortcuts (issue 18) ------------------------------

    async def ask_resign(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """``/game resign``: nothing happens yet; an ephemeral question with
        **Resign** (good for :data:`~bot.edge.ui.items.RESIGN_CONFIRM_SECONDS`) and
        **Keep playing**.  A moderator ending a game they do not play in is
        asked the same way."""
        from bot.edge.ui.items import RESIGN_CONFIRM_SECONDS, resign_view

        try:
            await itx.response.defer(ephemeral=True)
            moderator = await self.is_moderator(itx)
            live = await self.find_game(itx, game_id, "any" if moderator else "mine")
            question = await self._resign_question(live, itx.user.id, moderator=moderator)
        except GameBroken as exc:
            # A game that cannot be restored has no position to confirm
            # against: a moderator naming it ends it at once.
            if not moderator or game_id is None:
                await self.refuse(itx, exc)
                return
            try:
                await self.service.end_broken(game_id)
            except Exception as failure:
                await self.refuse(itx, failure)
                return
            await reply(
                itx, f"Game #{game_id} could not be restored; it is over, without a result."
            )
            return
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        until = int(self.bot.clock()) + RESIGN_CONFIRM_SECONDS
        await reply(
            itx,
            f"{question} Press **Resign** to confirm (until {discord_time(until)}), "
            "or **Keep playing**.",
            view=resign_view(live.id, live.version, until),
        )

    async def _resign_question(self, live: LiveGame, user_id: int, *, moderator: bool) -> str:
        """What confirming would do, or a GameError saying why it cannot be
        done (the service checks again when it is confirmed)."""
        title = f"{live.engine.title} #{live.id}"
        if live.record.status == "lobby":
            raise GameError(f"Game #{live.id} has not started; use /game leave.")
        if live.is_over:
            raise GameError(f"Game #{live.id} is already over.")
        seat = live.seat_of(user_id)
        if seat is None:
            if not moderator:
                raise GameError(f"You are not playing in game #{live.id}.")
            if await self.bot.desk.heading(live):
                # A tournament game has a result to decide, not just an end.
                raise GameError(
                    f"Game #{live.id} is a tournament game: decide it with "
                    f"`/moderate tournament adjudicate game:{live.id} result:…` (draw, the "
                    "winner, or places in seat order)."
                )
            return f"End {title} for everyone, without a result?"
        if live.is_auto(seat):
            raise GameError(f"You have already left game #{live.id}.")
        if len(live.seats) <= 2:
            return f"Resign {title}? The game ends, and you lose."
        return (
            f"Resign {title}? The automatic player takes your seat, ranked last, "
            "and the others play on."
        )

    async def answer_resign(
        self,
        itx: discord.Interaction[Any],
        game_id: int,
        version: int,
        until: int,
        *,
        confirmed: bool,
    ) -> None:
        """**Resign** or **Keep playing** under a resignation's question.
        Refused, changing nothing, once it expired; a moderator's end of
        someone else's game is refused too once the game moved on (they
        decided on the position they saw).  A player's own resignation
        stands while they still hold the seat."""
        if not confirmed:
            await edit_reply(itx, f"You keep playing game #{game_id}; nothing changed.", view=None)
            return
        try:
            if self.bot.clock() > until:
                raise GameError(
                    "This confirmation has expired, so nothing changed; use /game resign "
                    "again if you still mean it."
                )
            moderator = await self.is_moderator(itx)
            live = await self.service.get(game_id)
            await self._resign_question(live, itx.user.id, moderator=moderator)
            if live.seat_of(itx.user.id) is None and live.version != version:
                raise GameError(
                    f"Game #{game_id} has moved on since you asked, so nothing changed; "
                    "look at its board and use /game resign again if you still mean it."
                )
            result = await self.service.resign(game_id, itx.user.id, moderator=moderator)
        except Exception as exc:
            if isinstance(exc, GameError | StorageError) and not itx.response.is_done():
                await edit_reply(itx, str(exc), view=None)
                return
            await self.refuse(itx, exc)
            return
        if result.game.is_over:
            await edit_reply(itx, f"Game #{game_id} is over.", view=None)
        else:
            await edit_reply(
                itx,
                f"You left game #{game_id}: the automatic player plays your seat, "
                "ranked last, and the others play on.",
                view=None,
            )
        await self.bot.delivery.publish(result)

    async def rematch(self, itx: discord.Interaction[Any], game_id: int) -> None:
        """**Rematch** on a finished game's board: a new lobby of the same
        game with the same options (the game's and the table's) in the
        game's channel, opened by the clicker; the other players are pinged
        once and each presses **Join**.  Only the game's players may press
        it; while the rematch's lobby is open, another press points to it."""
        from bot.edge.replies import pinging
        from bot.edge.ui.items import lobby_rules_view
        from bot.outgoing import mention

        try:
            await itx.response.defer(ephemeral=True)
            old = await self.service.get(game_id)
            if old.seat_of(itx.user.id) is None:
                raise GameError(
                    f"Only the players of game #{game_id} can ask for its rematch; "
                    "open a game of your own with /game new."
                )
            if not old.is_over:
                raise GameError(f"Game #{game_id} is not over yet.")
            if await self.bot.desk.heading(old):
                # Issue 31: its board offers none; an old button asks for one.
                raise GameError(
                    f"Game #{game_id} was a tournament's game: its players meet as the "
                    "tournament pairs them."
                )
            open_link = await self._open_rematch(old)
            if open_link is not None:
                await reply(itx, f"The rematch of game #{game_id} is open already: {open_link}")
                return
            live = await self.service.new_game(
                old.engine.name,
                creator=player_of(itx),
                guild_id=old.record.guild_id,
                channel_id=old.record.channel_id,
                options={**old.record.options, **old.table.to_json()},
            )
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        others = sorted({s.user_id for s in old.seats} - {itx.user.id})
        invited = " ".join(mention(u) for u in others)
        head = f"Rematch of game #{game_id}: {invited}, press **Join** to play again.\n"
        defaults = await self.service.server_defaults(old.record.guild_id)
        try:
            message = await self.bot.get_partial_messageable(old.record.channel_id).send(
                content=clip(head + lobby_text(live, defaults=defaults)),
                view=lobby_rules_view(live),
                allowed_mentions=pinging(others),
            )
        except discord.HTTPException as exc:
            log.warning("game %d: could not post a rematch (%s %s)", game_id, exc.status, exc.code)
            await self.service.leave(live.id, itx.user.id)  # closes the empty lobby
            await reply(itx, "I could not post the rematch's lobby; nothing changed.")
            return
        await self.bot.store.set_message(live.id, "lobby", message.channel.id, message.id)
        await self.bot.store.set_message(game_id, "rematch", message.channel.id, message.id)
        link = jump_url(old.record.guild_id, message.channel.id, message.id)
        await reply(itx, f"Opened game #{live.id}, the rematch: {link}")

    async def _open_rematch(self, old: LiveGame) -> str | None:
        """A link to the rematch of ``old`` while its lobby is still open."""
        stored = await self.bot.store.get_message(old.id, "rematch")
        if stored is None:
            return None
        for record in await self.bot.store.games_in_channel(old.record.channel_id):
            if (
                record.status == "lobby"
                and await self.bot.store.get_message(record.id, "lobby") == stored
            ):
                return jump_url(old.record.guild_id, stored[0], stored[1])
        return None

    async def next_turn(self, itx: discord.Interaction[Any]) -> None:
        """``/game next`` (and **My turn**): a link to the game where the
        caller must act that has waited longest.  A wait starts when the
        seat's clock started (``clock_since``) or, in a game without a clock,
        at the game's last change (``updated_at``)."""
        try:
            await itx.response.defer(ephemeral=True)
            waits: list[tuple[float, LiveGame]] = []
            running: tuple[GameStatus, ...] = ("active",)
            for record in await self.bot.store.games_of_user(itx.user.id, statuses=running):
                try:
                    game = await self.service.get(record.id)
                except GameError:
                    continue  # cannot be loaded: /game mine says so
                seat = game.seat_of(itx.user.id)
                public, private = self.service.owing(game)
                if seat is None or seat not in public | private:
                    continue
                since = game.seats[seat].clock_since
                waits.append((record.updated_at if since is None else since, game))
        except Exception as exc:
            await self.refuse(itx, exc)
            return
        if not waits:
            await reply(itx, "Nobody is waiting for you.")
            return
        waits.sort(key=lambda wait: (wait[0], wait[1].id))
        since, game = waits[0]
        board = await self.bot.store.get_message(game.id, "board")
        link = (
            jump_url(game.record.guild_id, board[0], board[1])
            if board is not None
            else f"<#{self.bot.delivery.place_id(game)}>"
        )
        more = len(waits) - 1
        tail = f" ({more} more waiting for you: /game mine)" if more else ""
        await reply(
            itx,
            f"Your turn in {game.engine.title} #{game.id}, waiting since "
            f"{discord_time(since)}: {link}{tail}",
        )


def request_text(request: TakebackRequest, who: str) -> str:
    """A takeback request as the game's thread reads it: whose move, what it
    undoes (public words only: the move's narration), and who must answer."""
    game = request.game
    move = fill_seats(request.move, game, Style.CONTENT)
    since = (
        f" That undoes the {plural(request.undoes, 'move')} made since, too."
        if request.undoes
        else ""
    )
    return (
        f"**{safe_name(game.names[request.seat])}** asks to take back their move: {move}"
        f"{since}\n{who}: press **Agree** to take it back, or **Decline** to play on. "
        "Nothing changes unless everyone agrees, and any move first ends the request."
    )


def get_title(engine_name: str) -> str:
    try:
        return get_engine(engine_name).title
    except GameError:
        return engine_name


def moves_word(made: MovesMade | None) -> str:
    """``, 8 moves, the last <t:…:R>`` for a running game in a list."""
    if made is None:
        return ", no move yet"
    return f", {plural(made.count, 'move')}, the last {discord_time(made.last_at)}"


def _utc(timestamp: float) -> str:
    moment = datetime.datetime.fromtimestamp(timestamp, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def log_text(game: LiveGame, entries: list[LogEntry]) -> str:
    """The public log of a game as plain text: one line per narration (the
    public account of an action; never the action's own text, which may be
    secret), with its time in UTC (said in the header: Discord's timestamps
    do not render in a file), and the result once the game is over."""
    record = game.record
    players = ", ".join(f"{s.seat + 1}. {plain_name(s.display_name)}" for s in game.seats)
    lines = [
        f"{game.engine.title} #{game.id} — the public log",
        f"Players: {players}",
        f"Opened: {_utc(record.created_at)}. Every time in this log is UTC "
        "(Coordinated Universal Time), as YYYY-MM-DD HH:MM.",
        "",
    ]
    for entry in entries:
        if not entry.narration:
            continue
        said = fill_seats(entry.narration, game, Style.PLAIN)
        lines.append(f"{_utc(entry.created_at)}  {said}")
    if game.is_over and game.outcome is not None:
        outcome = game.outcome
        places = "; ".join(
            f"{rank}. {' & '.join(plain_name(game.names[s]) for s in sorted(group))}"
            for rank, group in enumerate(outcome.ranking, start=1)
        )
        reason = fill_seats(outcome.reason, game, Style.PLAIN)
        lines += ["", f"Over ({_utc(record.updated_at)}): {reason} Ranking: {places}"]
    elif game.is_over:
        lines += ["", f"Over ({_utc(record.updated_at)})."]
    return "\n".join(lines) + "\n"
