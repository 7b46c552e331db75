"""Playing: a move typed (``/game play``) or picked (the board's buttons and
selects, a seat's private menu), "Show mine", taking one's own move back,
and the components that ask for them.

A typed move and a click land in the same :class:`Play`, so they give the
same answers and refusals.  Every component is a
:class:`discord.ui.DynamicItem`: its custom_id carries the game id, the
state version it was drawn for and a menu path of indices (see
``bot/choices.py``), never a card or any other hidden word, so it works
after a restart.  A callback only hands over to :class:`Play`, which it
finds on the client (:meth:`Play.of`); the rules stay in the engines.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.choices import MenuOption, Words, follow, format_path, parse_path
from bot.edge.archive.replays import ReplayButton
from bot.edge.arguments import find_game
from bot.edge.delivery.delivery import Delivery
from bot.edge.delivery.texts import next_up
from bot.edge.lobby.lobby import RematchButton
from bot.edge.play.games import MyTurnButton
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import edit_reply, reply
from bot.edge.seats.takebacks import Takebacks
from bot.edge.selects import picked, select
from bot.edge.tables.menus import (
    board_menu,
    menu_heading,
    next_prompt,
    option_label,
    placeholders,
)
from bot.engines.core import GameError, Seat
from bot.engines.messages import Msg
from bot.i18n import DEFAULT, N_, localize, t
from bot.outgoing import Style, discord_time, fill_seats, game_title
from bot.service import GameService, LiveGame, MoveResult, StaleBoard, menu_words_of


def refusal_text(exc: BaseException, lang: str) -> str:
    """What a refusal says, in ``lang``: its message (a :class:`Msg` goes
    through the catalog), else its text as it is."""
    said = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
    return localize(said, lang)


class Play:
    """Moves, typed or picked, and a seat's own view and menu."""

    def __init__(self, bot: Edge, delivery: Delivery, takebacks: Takebacks) -> None:
        self.bot = bot
        self.delivery = delivery
        self.takebacks = takebacks

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> Play:
        """The bot's :class:`Play`, for a component's callback."""
        return cast(Play, itx.client.play)

    @property
    def service(self) -> GameService:
        return self.bot.service

    @refusing
    async def play_text(
        self, itx: discord.Interaction[Any], game_id: int | None, text: str
    ) -> None:
        await itx.response.defer(ephemeral=True, thinking=True)
        lang = await self.bot.languages.for_reader(itx)
        game = await find_game(self.bot.store, self.service, itx, game_id, "mine")
        result = await self.service.play(game.id, itx.user.id, text)
        done = self._done_text(result, lang)
        # Still this player's turn: the next menu comes with the reply.
        seat = result.actor
        follow_up = (
            private_view(self.service, result.game, seat, lang=lang) if seat is not None else None
        )
        if follow_up is not None and seat is not None:
            done += "\n" + next_prompt(result.game.engine, result.game.state, seat, lang)
        view = self._with_takeback(result, follow_up, lang)
        if view is not None:
            await reply(itx, done, view=view)
        else:
            await reply(itx, done)
        await self.delivery.publish(result)

    @refusing
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
        lang = await self.bot.languages.for_reader(itx)
        try:
            # Menus (and the board's "Choose…", which only opens one) stay
            # usable while their choice is legal; other board buttons are
            # strict: the board they belong to has been replaced.
            step = await self.service.play_path(
                game_id, itx.user.id, path, expected_version=version, rebase=in_menu or not path
            )
        except StaleBoard as exc:
            if in_menu and not itx.response.is_done():
                await self._refresh_menu(itx, game_id, refusal_text(exc, lang), lang)
                return
            raise
        except GameError as exc:
            if in_menu and not itx.response.is_done():
                await edit_reply(itx, refusal_text(exc, lang), view=None)
                return
            raise
        result = step.result
        if result is None:
            game = await self.service.get(game_id)
            # Refused if they left since the service let them choose.
            seat = self._readable_seat(game, itx.user.id)
            view = menu_view(
                game,
                seat,
                step.version,
                step.path,
                step.options,
                self.service.menu_words(game, seat),
                step.depth,
                lang=lang,
            )
            prompt = menu_heading(self.service, game, seat, step.path, lang)
            if in_menu:
                await edit_reply(itx, prompt, view=view)
            else:
                await reply(itx, prompt, view=view)
            return
        done = self._done_text(result, lang)
        # Still this player's turn (a second pick, the next step of a set-up):
        # offer the next menu at once instead of sending them back to the board.
        actor = result.actor
        follow_up = (
            private_view(self.service, result.game, actor, lang=lang) if actor is not None else None
        )
        if follow_up is not None and actor is not None:
            done += "\n" + next_prompt(result.game.engine, result.game.state, actor, lang)
        components = self._with_takeback(result, follow_up, lang)
        if in_menu:
            await edit_reply(itx, done, view=components)
        elif components is not None:
            await reply(itx, done, view=components)
        else:
            await reply(itx, done)
        await self.delivery.publish(result)

    @refusing
    async def board(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """``/game board``: the current board, posted again."""
        await itx.response.defer(ephemeral=True)
        live = await find_game(self.bot.store, self.service, itx, game_id, "any")
        if live.state is None:
            raise GameError(
                Msg("Game #{game} has not started yet; its lobby is above.", game=live.id)
            )
        channel = await self.delivery.channel_lang(live)
        await self.delivery.post_board(live, next_up(live, lang=channel), channel)
        lang = await self.bot.languages.for_reader(itx)
        await reply(itx, t(lang, "Posted the board of game #{game}.", game=live.id))

    # -- taking a move back (issue 31) -----------------------------------

    @refusing
    async def take_back(
        self, itx: discord.Interaction[Any], game_id: int | None, *, target: int | None = None
    ) -> None:
        """``/game takeback`` (``target`` None), or **Take back** under the
        player's "Played: …" (the version that move was made at).  Taken back
        at once while nothing happened since; after others acted, a request
        in the game's thread that every other player must agree to."""
        button = target is not None
        if not button:
            # A button's answer edits its "Played: …" in place (the
            # interaction's first response); a command may take a while.
            await itx.response.defer(ephemeral=True, thinking=True)
        game = (
            await self.service.get(game_id)
            if game_id is not None and button
            else await find_game(self.bot.store, self.service, itx, game_id, "mine")
        )
        outcome = await self.service.take_back(game.id, itx.user.id, target=target)
        if isinstance(outcome, MoveResult):
            lang = await self.bot.languages.for_reader(itx)
            live = outcome.game
            undone = fill_seats(outcome.undone or "", live, Style.CONTENT, lang=lang)
            said = t(lang, "You took back your last move: {move}", move=undone)
            seat = live.seat_of(itx.user.id)
            view = private_view(self.service, live, seat, lang=lang) if seat is not None else None
            if view is not None and seat is not None:
                said += "\n" + next_prompt(live.engine, live.state, seat, lang)
            if button:
                # The "Played: …" it was under says what became of the move.
                await edit_reply(itx, said, view=view)
            elif view is not None:
                await reply(itx, said, view=view)
            else:
                await reply(itx, said)
            await self.delivery.publish(outcome)
            return
        await self.takebacks.ask(itx, outcome)

    @refusing
    async def outdated_menu(
        self, itx: discord.Interaction[Any], game_id: int, *, in_menu: bool
    ) -> None:
        """A button or menu from before menus were shown flat: its path would
        pick something else now, so nothing is played."""
        lang = await self.bot.languages.for_reader(itx)
        why = t(lang, "That menu was made by an older version of Chaupal, so nothing was played.")
        game = await self.service.get(game_id)
        if in_menu:
            await self._refresh_menu(itx, game_id, why, lang)
            return

        seat = game.readable_seat(itx.user.id)
        view = private_view(self.service, game, seat, lang=lang) if seat is not None else None
        if view is None:
            await reply(itx, t(lang, "{why} Use the newest board.", why=why))
        else:
            await reply(itx, t(lang, "{why} Your choices now:", why=why), view=view)

    async def _refresh_menu(
        self, itx: discord.Interaction[Any], game_id: int, why: str, lang: str = DEFAULT
    ) -> None:
        """A menu whose choice is gone: say so, and offer the current choices
        if the player still has any (nothing was changed)."""
        game = await self.service.get(game_id)
        seat = game.readable_seat(itx.user.id)
        view = private_view(self.service, game, seat, lang=lang) if seat is not None else None
        if view is None:
            await edit_reply(itx, why, view=None)
        else:
            await edit_reply(itx, t(lang, "{why} Your choices now:", why=why), view=view)

    def _done_text(self, result: MoveResult, lang: str = DEFAULT) -> str:
        first = result.steps[0] if result.steps else None
        if first is None:
            return t(lang, "Done.")
        game = result.game
        label = game.engine.label(
            result.before, first.seat, game.engine.parse(result.before, first.seat, first.text)
        )
        done = t(lang, "Played: {move}", move=fill_seats(label, game, Style.CONTENT, lang=lang))
        if result.takeback is not None and result.takeback_until is not None:
            # The throw that follows waits for it (issue 31): say how long.
            done += "\n" + t(
                lang,
                "The next throw or draw comes {when}: until then, **Take back** undoes this move.",
                when=discord_time(result.takeback_until),
            )
        return done

    @staticmethod
    def _with_takeback(
        result: MoveResult, view: discord.ui.View | None, lang: str = DEFAULT
    ) -> discord.ui.View | None:
        """A "Played: …" reply's components: its next menu, and **Take back**
        while the move is its player's to take back alone (issue 31)."""
        if result.takeback is None:
            return view
        return with_takeback(view, result.game.id, result.takeback, lang)

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
                Msg(
                    "You left game #{game}: its seat is the automatic player's now, and "
                    "you watch it as everyone else does.",
                    game=game.id,
                )
            )
        raise GameError(Msg("You are not playing in game #{game}.", game=game.id))

    @refusing
    async def show_mine(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """The caller's private view, ephemerally (the DM fallback)."""
        await itx.response.defer(ephemeral=True, thinking=True)
        game = (
            await find_game(self.bot.store, self.service, itx, None, "mine")
            if game_id is None
            else await self.service.get(game_id)
        )
        seat = self._readable_seat(game, itx.user.id)
        if game.state is None:
            raise GameError(Msg("Game #{game} has not started yet.", game=game.id))
        lang = await self.bot.languages.for_reader(itx)
        file = await self.delivery.private_file(game, seat, lang)
        view = private_view(self.service, game, seat, lang=lang)
        text = t(
            lang,
            "Your private view of {title} (only you can see this).",
            title=game_title(game, lang),
        )
        if view is not None:
            await reply(itx, text, file=file, view=view)
        else:
            await reply(itx, text, file=file)


# -- the components ---------------------------------------------------------------


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:move:(?P<game>\d+):(?P<version>\d+):(?P<path>[\d.]*)",
):
    """A choice on the board (a move, a die, a square) or "Choose…" (empty path)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        path: tuple[int, ...],
        *,
        label: str = "Choose…",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        self.game_id, self.version, self.path = game_id, version, path
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                custom_id=f"chaupal:move:{game_id}:{version}:{format_path(path)}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickButton:
        return cls(int(match["game"]), int(match["version"]), parse_path(match["path"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Play.of(itx).pick(itx, self.game_id, self.version, self.path, in_menu=False)


class MenuSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chaupal:choose:(?P<game>\d+):(?P<version>\d+):(?P<path>[\d.]*):(?P<chunk>\d+)",
):
    """One level of a seat's private menu (a DM or an ephemeral reply); option
    values are indices into the whole level, and ``chunk`` only keeps
    custom_ids unique when a level spreads over several selects.  A pick edits
    the menu's own message."""

    def __init__(
        self,
        game_id: int,
        version: int,
        path: tuple[int, ...],
        options: Sequence[discord.SelectOption] = (),
        chunk: int = 0,
        placeholder: str = "Choose…",
    ) -> None:
        self.game_id, self.version, self.path = game_id, version, path
        super().__init__(
            select(
                f"chaupal:choose:{game_id}:{version}:{format_path(path)}:{chunk}",
                options,
                placeholder,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MenuSelect:
        return cls(
            int(match["game"]),
            int(match["version"]),
            parse_path(match["path"]),
            chunk=int(match["chunk"]),
        )

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Play.of(itx).pick(
            itx, self.game_id, self.version, (*self.path, picked(self.item)), in_menu=True
        )


class BoardSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chaupal:board:(?P<game>\d+):(?P<version>\d+):(?P<chunk>\d+)",
):
    """The mover's choices as a select on the public board, when they are
    public and too many for buttons.  Like the board's buttons it is strict
    (the board it belongs to may have been replaced), and it answers with an
    ephemeral reply: it never edits the board."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: Sequence[discord.SelectOption] = (),
        chunk: int = 0,
        placeholder: str = "Choose…",
    ) -> None:
        self.game_id, self.version = game_id, version
        super().__init__(select(f"chaupal:board:{game_id}:{version}:{chunk}", options, placeholder))

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardSelect:
        return cls(int(match["game"]), int(match["version"]), chunk=int(match["chunk"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Play.of(itx).pick(
            itx, self.game_id, self.version, (picked(self.item),), in_menu=False
        )


class OutdatedMenu(
    discord.ui.DynamicItem[discord.ui.Item[Any]],
    template=r"chaupal:(?P<kind>pick|menu):(?P<game>\d+):[\d.:]*",
):
    """A board button or menu drawn before menus were shown flat (issue 18),
    whose paths read differently now: it plays nothing, says so, and offers
    the player's current choices."""

    def __init__(self, kind: str, game_id: int, item: discord.ui.Item[Any] | None = None) -> None:
        self.kind, self.game_id = kind, game_id
        super().__init__(
            item or discord.ui.Button(label="…", custom_id=f"chaupal:{kind}:{game_id}:0:")
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OutdatedMenu:
        return cls(match["kind"], int(match["game"]), item)

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Play.of(itx).outdated_menu(itx, self.game_id, in_menu=self.kind == "menu")


class ShowMineButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:mine:(?P<game>\d+)",
):
    def __init__(self, game_id: int, label: str = N_("Show mine")) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"chaupal:mine:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ShowMineButton:
        return cls(int(match["game"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Play.of(itx).show_mine(itx, self.game_id)


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:takeback:(?P<game>\d+):(?P<target>\d+)",
):
    """**Take back** under a player's "Played: …": takes that move back
    while it is still their last.  The custom_id carries the game and the
    version the move was made at; the service checks everything again."""

    def __init__(self, game_id: int, target: int, label: str = N_("Take back")) -> None:
        self.game_id, self.target = game_id, target
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"chaupal:takeback:{game_id}:{target}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TakebackButton:
        return cls(int(match["game"]), int(match["target"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await Play.of(itx).take_back(itx, self.game_id, target=self.target)


# -- building views -----------------------------------------------------------------


def board_view(
    game: LiveGame, *, rematch: bool = True, lang: str = DEFAULT
) -> discord.ui.View | None:
    """Components under the board: the mover's choices when they follow from
    the public view (a few moves as buttons, more as selects, or groups such
    as dice as buttons), else a "Choose…" button; and "Show mine" and "My
    turn"; a finished game's board offers "Rematch" (``rematch``: not a
    tournament's game).  A public message carries only what the public view
    carries, so group buttons show no counts (how many placements a die has
    can depend on a hidden supply).  Its words in ``lang`` (the channel's)."""
    if game.state is None:
        return None
    if game.is_over:
        # The final board offers a rematch (issue 18).
        return final_board_view(game, rematch=rematch, lang=lang)
    view = discord.ui.View(timeout=None)
    menu = board_menu(game, lang)
    for path, label in menu.buttons:
        view.add_item(PickButton(game.id, game.version, path, label=label))
    for chunk, (placeholder, options) in enumerate(menu.selects):
        view.add_item(BoardSelect(game.id, game.version, options, chunk, placeholder))
    row = len(menu.selects) if menu.selects else None
    mine = ShowMineButton(game.id, t(lang, "Show mine"))
    mine.item.row = row
    view.add_item(mine)
    # Whoever a board pings can jump to the game waiting longest for them.
    turn = MyTurnButton(t(lang, "My turn"))
    turn.item.row = row
    view.add_item(turn)
    return view


def final_board_view(
    game: LiveGame, *, rematch: bool = True, lang: str = DEFAULT
) -> discord.ui.View:
    """Under a finished game's board: **Rematch** and **Replay** (issue 21:
    the whole game as an animated image, posted in the channel).  A
    tournament's game offers no rematch (``rematch`` False, issue 31): its
    players meet as the tournament pairs them."""
    view = discord.ui.View(timeout=None)
    if rematch:
        again = RematchButton(game.id)
        again.item.label = t(lang, "Rematch")
        view.add_item(again)
    view.add_item(ReplayButton(game.id, t(lang, "Replay")))
    return view


def menu_view(
    game: LiveGame,
    seat: Seat,
    version: int,
    path: tuple[int, ...],
    options: Sequence[MenuOption],
    words: Words | None = None,
    depth: int = 0,
    *,
    lang: str = DEFAULT,
) -> discord.ui.View:
    """A DM or ephemeral menu: one select, or several when a level holds
    more than 25 options (whole moves up to :data:`bot.choices.FLAT_LIMIT`);
    its words in ``lang`` (its reader's)."""
    view = discord.ui.View(timeout=None)
    select_options = [
        discord.SelectOption(label=option_label(game, seat, option, lang=lang), value=str(i))
        for i, option in enumerate(options)
    ]
    words = words or menu_words_of(game.engine, game.state, seat)
    spread = placeholders(game, seat, options, depth, words, lang)
    for chunk, (head, (start, stop)) in enumerate(spread[:5]):
        view.add_item(MenuSelect(game.id, version, path, select_options[start:stop], chunk, head))
    return view


def private_view(
    service: GameService, game: LiveGame, seat: Seat, *, lang: str = DEFAULT
) -> discord.ui.View | None:
    """Components for a seat's DM or ephemeral view: its menu, when it may
    act, in ``lang`` (its reader's)."""
    if game.is_over or game.state is None or seat not in game.engine.to_move(game.state):
        return None
    texts = service.legal_texts(game, seat)
    if not texts:
        return None
    words = service.menu_words(game, seat)
    _, options, depth = follow(texts, (), words)
    return menu_view(game, seat, game.version, (), options, words, depth, lang=lang)


def with_takeback(
    view: discord.ui.View | None, game_id: int, target: int, lang: str = DEFAULT
) -> discord.ui.View:
    """``view`` (a "Played: …" reply's next menu, or nothing) with **Take
    back** added, in the row a menu leaves free (a menu of five selects has
    none: /game takeback does it then)."""
    out = view or discord.ui.View(timeout=None)
    with contextlib.suppress(ValueError):  # no row left
        out.add_item(TakebackButton(game_id, target, t(lang, "Take back")))
    return out


class BoardComponents:
    """The board's components and a seat's menu, as delivery draws them
    under its posts (:class:`bot.edge.ports.Components`)."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def board_view(
        self, game: LiveGame, *, rematch: bool = True, lang: str = DEFAULT
    ) -> discord.ui.View | None:
        return board_view(game, rematch=rematch, lang=lang)

    def private_view(
        self, game: LiveGame, seat: Seat, *, lang: str = DEFAULT
    ) -> discord.ui.View | None:
        return private_view(self.service, game, seat, lang=lang)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PickButton,
    MenuSelect,
    BoardSelect,
    OutdatedMenu,
    ShowMineButton,
    TakebackButton,
)
"""The components whose clicks :class:`Play` answers (the client registers them)."""
