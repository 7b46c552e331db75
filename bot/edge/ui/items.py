"""Buttons and selects that survive restarts.

Every component is a :class:`discord.ui.DynamicItem`: its custom_id carries
the game id, the state version it was drawn for and a menu path of indices
(see ``bot/choices.py``), never a card or any other hidden word.  Callbacks
only hand over to :class:`bot.edge.table.Table`; the rules stay in the engines.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

import discord

from bot.choices import (
    MenuOption,
    StaleChoice,
    Words,
    follow,
    format_path,
    menu_prompt,
    parse_path,
    sections,
    trail,
)
from bot.engines.core import CHANCE, LabelsChoices, Seat
from bot.outgoing import Style, fill_seats, plural
from bot.service import GameService, LiveGame, menu_words_of

if TYPE_CHECKING:
    from storage.tournaments import TournamentRecord

MAX_BOARD_BUTTONS = 20
"""Group buttons (dice, squares) on a board: four rows; the fifth holds
"Show mine" and "My turn"."""


class TableClicks(Protocol):
    """What a click hands over to (:class:`bot.edge.table.Table`)."""

    async def lobby(
        self, itx: discord.Interaction[Any], game_id: int | None, verb: str
    ) -> None: ...

    async def pick(
        self,
        itx: discord.Interaction[Any],
        game_id: int,
        version: int,
        path: tuple[int, ...],
        *,
        in_menu: bool,
    ) -> None: ...

    async def outdated_menu(
        self, itx: discord.Interaction[Any], game_id: int, *, in_menu: bool
    ) -> None: ...

    async def show_mine(self, itx: discord.Interaction[Any], game_id: int | None) -> None: ...

    async def answer_seat_offer(
        self,
        itx: discord.Interaction[Any],
        game_id: int,
        seat: int,
        *,
        new_user_id: int,
        old_user_id: int,
        take: bool,
    ) -> None: ...

    async def answer_resign(
        self,
        itx: discord.Interaction[Any],
        game_id: int,
        version: int,
        until: int,
        *,
        confirmed: bool,
    ) -> None: ...

    async def rematch(self, itx: discord.Interaction[Any], game_id: int) -> None: ...

    async def take_back(
        self, itx: discord.Interaction[Any], game_id: int | None, *, target: int | None = None
    ) -> None: ...

    async def answer_takeback(
        self, itx: discord.Interaction[Any], game_id: int, version: int, *, agree: bool
    ) -> None: ...

    async def next_turn(self, itx: discord.Interaction[Any]) -> None: ...

    async def open_lobby(
        self,
        itx: discord.Interaction[Any],
        engine_name: str,
        options: Mapping[str, str],
        *,
        bots: int = 0,
    ) -> None: ...

    async def rules(
        self, itx: discord.Interaction[Any], engine_name: str, *, full: bool
    ) -> None: ...

    async def option_help(
        self, itx: discord.Interaction[Any], engine_name: str, game_id: int | None
    ) -> None: ...


class DeskClicks(Protocol):
    """What a tournament's buttons hand over to (:class:`bot.edge.desk.TournamentDesk`)."""

    async def join(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None: ...

    async def leave(self, itx: discord.Interaction[Any], tournament_id: int | None) -> None: ...


class Clicks(Protocol):
    """What a component's callback finds on the interaction's client: the
    table, the desk and the archive, which it hands the click to (the items never import
    the client, which registers them)."""

    @property
    def table(self) -> TableClicks: ...
    @property
    def desk(self) -> DeskClicks: ...
    @property
    def archive(self) -> ArchiveClicks: ...


def _bot(itx: discord.Interaction[Any]) -> Clicks:
    return cast(Clicks, itx.client)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:lobby:(?P<game>\d+):(?P<verb>join|leave|start)",
):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, game_id: int, verb: str) -> None:
        self.game_id, self.verb = game_id, verb
        super().__init__(
            discord.ui.Button(
                label=verb.capitalize(),
                style=self.STYLES[verb],
                custom_id=f"chaupal:lobby:{game_id}:{verb}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["game"]), match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _bot(itx).table.lobby(itx, self.game_id, self.verb)


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
        await _bot(itx).table.pick(itx, self.game_id, self.version, self.path, in_menu=False)


def _select(
    custom_id: str, options: Sequence[discord.SelectOption], placeholder: str
) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder[:150] or "Choose…",
        options=list(options) or [discord.SelectOption(label="…", value="0")],
        min_values=1,
        max_values=1,
    )


def _picked(select: discord.ui.Select[Any]) -> int:
    try:
        return int(select.values[0])
    except (IndexError, ValueError):
        return -1  # refused as stale by the service


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
            _select(
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
        await _bot(itx).table.pick(
            itx, self.game_id, self.version, (*self.path, _picked(self.item)), in_menu=True
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
        super().__init__(
            _select(f"chaupal:board:{game_id}:{version}:{chunk}", options, placeholder)
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardSelect:
        return cls(int(match["game"]), int(match["version"]), chunk=int(match["chunk"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _bot(itx).table.pick(
            itx, self.game_id, self.version, (_picked(self.item),), in_menu=False
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
        await _bot(itx).table.outdated_menu(itx, self.game_id, in_menu=self.kind == "menu")


class ShowMineButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:mine:(?P<game>\d+)",
):
    def __init__(self, game_id: int, label: str = "Show mine") -> None:
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
        await _bot(itx).table.show_mine(itx, self.game_id)


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:tournament:(?P<tournament>\d+):(?P<verb>join|leave)",
):
    """Join or Leave on a tournament's announcement."""

    def __init__(self, tournament_id: int, verb: str) -> None:
        self.tournament_id, self.verb = tournament_id, verb
        super().__init__(
            discord.ui.Button(
                label=verb.capitalize(),
                style=discord.ButtonStyle.success
                if verb == "join"
                else discord.ButtonStyle.secondary,
                custom_id=f"chaupal:tournament:{tournament_id}:{verb}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(int(match["tournament"]), match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        desk = _bot(itx).desk
        if self.verb == "join":
            await desk.join(itx, self.tournament_id)
        else:
            await desk.leave(itx, self.tournament_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    PickButton,
    MenuSelect,
    BoardSelect,
    OutdatedMenu,
    ShowMineButton,
    TournamentButton,
)


# -- building views --------------------------------------------------------


def option_label(
    game: LiveGame,
    seat: Seat,
    option: MenuOption,
    *,
    counts: bool = True,
    style: Style = Style.PLAIN,
) -> str:
    """An option's wording: an action's label, or a group's name and (in
    private menus) how many actions it holds; names plain for a select's
    label, escaped (``Style.CONTENT``) for a message's text."""
    engine, state = game.engine, game.state
    if option.leaf:
        label = engine.label(state, seat, engine.parse(state, seat, option.text))
    else:
        label = (
            engine.choice_label(state, seat, option.text)
            if isinstance(engine, LabelsChoices)
            else option.text
        )
        if counts:
            label = f"{label} ({plural(option.size, 'choice')})"
    return fill_seats(label, game, style)[:100] or "…"


def menu_heading(service: GameService, game: LiveGame, seat: Seat, path: Sequence[int]) -> str:
    """The words above the menu ``path`` leads to: what the player picked on
    the way there, in the options' own labels (:func:`bot.choices.menu_prompt`)."""
    if game.state is None or not path:
        return menu_prompt(())
    texts = service.legal_texts(game, seat)
    try:
        picked = trail(texts, path, service.menu_words(game, seat))
    except StaleChoice:
        return menu_prompt(())
    # Message text, not a select label: names are escaped.
    return menu_prompt(
        [option_label(game, seat, option, counts=False, style=Style.CONTENT) for option in picked]
    )


def tournament_view(record: TournamentRecord) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("join", "leave"):
        view.add_item(TournamentButton(record.id, verb))
    return view


def lobby_view(game: LiveGame) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("join", "leave", "start"):
        view.add_item(LobbyButton(game.id, verb))
    return view


def board_view(game: LiveGame, *, rematch: bool = True) -> discord.ui.View | None:
    """Components under the board: the mover's choices when they follow from
    the public view (a few moves as buttons, more as selects, or groups such
    as dice as buttons), else a "Choose…" button; and "Show mine" and "My
    turn"; a finished game's board offers "Rematch" (``rematch``: not a
    tournament's game).  A public message carries only what the public view
    carries, so group buttons show no counts (how many placements a die has
    can depend on a hidden supply)."""
    if game.state is None:
        return None
    if game.is_over:
        # The final board offers a rematch (issue 18).
        return final_board_view(game, rematch=rematch)
    view = discord.ui.View(timeout=None)
    menu = board_menu(game)
    for path, label in menu.buttons:
        view.add_item(PickButton(game.id, game.version, path, label=label))
    for chunk, (placeholder, options) in enumerate(menu.selects):
        view.add_item(BoardSelect(game.id, game.version, options, chunk, placeholder))
    row = len(menu.selects) if menu.selects else None
    mine = ShowMineButton(game.id)
    mine.item.row = row
    view.add_item(mine)
    # Whoever a board pings can jump to the game waiting longest for them.
    turn = MyTurnButton()
    turn.item.row = row
    view.add_item(turn)
    return view


BOARD_BUTTON_MOVES = 5
"""Up to this many moves sit on the board as buttons, one row; more are a
select (up to :data:`bot.choices.FLAT_LIMIT`)."""


@dataclass(frozen=True)
class BoardMenu:
    """What the public board offers the seats to move."""

    buttons: list[tuple[tuple[int, ...], str]]
    """Pick buttons, as (path, label); ``[((), "Choose…")]`` when the
    choices are private."""
    selects: list[tuple[str, list[discord.SelectOption]]]
    """Selects of whole moves, as (placeholder, options)."""
    seats: frozenset[Seat]
    """The seats whose choices these are (every other seat to move is asked
    by DM)."""


def board_choices(game: LiveGame) -> list[tuple[tuple[int, ...], str]]:
    """The public board's pick buttons and select options, as (path, label)."""
    menu = board_menu(game)
    picks = list(menu.buttons)
    for _, options in menu.selects:
        picks += [((int(o.value),), o.label) for o in options]
    return picks


def board_menu(game: LiveGame) -> BoardMenu:
    """The public board's choices.

    They appear only when they follow from the public view and every seat to
    move has the same menu (one player to move, or partners choosing which
    army starts): each pick is resolved against the picker's own legal
    actions.  A few whole moves are buttons, more are selects (one
    interaction either way); a level of groups (dice) is buttons, each
    opening its moves.  Otherwise the board offers "Choose…"."""
    choose = BoardMenu([((), "Choose…")], [], frozenset())
    engine, state = game.engine, game.state
    if state is None or game.is_over:
        return BoardMenu([], [], frozenset())
    movers = engine.to_move(state) - {CHANCE}
    if not movers or not game.awaits_people():
        # Only automatic seats owe a decision: nothing on the board anybody
        # need press (issue 30).
        return BoardMenu([], [], frozenset())
    public = engine.waiting_on(state)
    if public != movers or not all(engine.choices_are_public(state, s) for s in public):
        return choose
    menus = set()
    for seat in sorted(public):
        texts = [engine.describe(state, seat, a) for a in engine.legal_actions(state, seat)]
        words = menu_words_of(engine, state, seat)
        _, options, depth = follow(texts, (), words)
        flat = all(option.leaf for option in options)
        labels = tuple(option_label(game, seat, option, counts=False) for option in options)
        menus.add((flat, labels, tuple(placeholders(game, seat, options, depth, words))))
    if len(menus) != 1:
        return choose
    ((flat, labels, heads),) = menus
    if not labels:
        return choose
    if flat and len(labels) > BOARD_BUTTON_MOVES:
        selects = [
            (
                head,
                [discord.SelectOption(label=labels[i], value=str(i)) for i in range(start, stop)],
            )
            for head, (start, stop) in heads
        ]
        return BoardMenu([], selects, frozenset(public))
    if len(labels) > MAX_BOARD_BUTTONS:
        return choose
    return BoardMenu([((i,), label) for i, label in enumerate(labels)], [], frozenset(public))


def placeholders(
    game: LiveGame, seat: Seat, options: Sequence[MenuOption], depth: int, words: Words
) -> list[tuple[str, tuple[int, int]]]:
    """How a level spreads over selects, as (placeholder, (start, stop)): a
    lone select says "Choose…"; several say what each holds, by the labels
    of their first and last groups ("Choose: d1: 5 … c3: 2")."""
    spread = sections(options, depth, words)
    if len(spread) == 1:
        return [("Choose…", (0, len(options)))]
    engine, state = game.engine, game.state

    def named(group: str) -> str:
        label = (
            engine.choice_label(state, seat, group) if isinstance(engine, LabelsChoices) else group
        )
        return fill_seats(label, game, Style.PLAIN)

    out = []
    for start, stop, groups in spread:
        if not groups:
            head = f"Choose ({start + 1}–{stop} of {len(options)})…"
        elif len(groups) == 1:
            head = f"Choose: {named(groups[0])}"
        else:
            head = f"Choose: {named(groups[0])} … {named(groups[-1])}"
        out.append((head[:150], (start, stop)))
    return out


def menu_view(
    game: LiveGame,
    seat: Seat,
    version: int,
    path: tuple[int, ...],
    options: Sequence[MenuOption],
    words: Words | None = None,
    depth: int = 0,
) -> discord.ui.View:
    """A DM or ephemeral menu: one select, or several when a level holds
    more than 25 options (whole moves up to :data:`bot.choices.FLAT_LIMIT`)."""
    view = discord.ui.View(timeout=None)
    select_options = [
        discord.SelectOption(label=option_label(game, seat, option), value=str(i))
        for i, option in enumerate(options)
    ]
    words = words or menu_words_of(game.engine, game.state, seat)
    spread = placeholders(game, seat, options, depth, words)
    for chunk, (head, (start, stop)) in enumerate(spread[:5]):
        view.add_item(MenuSelect(game.id, version, path, select_options[start:stop], chunk, head))
    return view


def private_view(service: GameService, game: LiveGame, seat: Seat) -> discord.ui.View | None:
    """Components for a seat's DM or ephemeral view: its menu, when it may act."""
    if game.is_over or game.state is None or seat not in game.engine.to_move(game.state):
        return None
    texts = service.legal_texts(game, seat)
    if not texts:
        return None
    words = service.menu_words(game, seat)
    _, options, depth = follow(texts, (), words)
    return menu_view(game, seat, game.version, (), options, words, depth)


# -- handing a seat to another person (``/moderate game replace``) ---------------------------


class SeatOfferButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:replace:(?P<game>\d+):(?P<seat>\d+):(?P<new>\d+):(?P<old>\d+)"
    r":(?P<verb>take|decline)",
):
    """**Take the seat** or **Decline** under a moderator's offer of a seat.
    The custom_id carries only ids (the game, the seat, the member asked and
    the player who held the seat), so the offer survives a restart and the
    service checks it again when it is answered."""

    LABELS: ClassVar[dict[str, str]] = {"take": "Take the seat", "decline": "Decline"}

    def __init__(self, game_id: int, seat: Seat, new_user_id: int, old_user_id: int, verb: str):
        self.game_id, self.seat, self.verb = game_id, seat, verb
        self.new_user_id, self.old_user_id = new_user_id, old_user_id
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[verb],
                style=discord.ButtonStyle.success
                if verb == "take"
                else discord.ButtonStyle.secondary,
                custom_id=f"chaupal:replace:{game_id}:{seat}:{new_user_id}:{old_user_id}:{verb}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeatOfferButton:
        return cls(
            int(match["game"]),
            int(match["seat"]),
            int(match["new"]),
            int(match["old"]),
            match["verb"],
        )

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _bot(itx).table.answer_seat_offer(
            itx,
            self.game_id,
            self.seat,
            new_user_id=self.new_user_id,
            old_user_id=self.old_user_id,
            take=self.verb == "take",
        )


def seat_offer_view(
    game_id: int, seat: Seat, new_user_id: int, old_user_id: int
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("take", "decline"):
        view.add_item(SeatOfferButton(game_id, seat, new_user_id, old_user_id, verb))
    return view


DYNAMIC_ITEMS += (SeatOfferButton,)


# -- choosing a tournament to join (``/tournament join`` with several open) ---------


class TournamentJoinSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chaupal:tournaments:join",
):
    """A menu of the open tournaments, for ``/tournament join`` when several
    are open and none was named.  A DynamicItem, so a pick still joins after
    a restart (the menu stays on the player's screen).  The custom_id holds
    nothing, and each option's value is a tournament's public number; the
    desk checks the pick again (server, still open) when it joins."""

    def __init__(self, options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="chaupal:tournaments:join",
                placeholder="Choose a tournament to join…",
                options=list(options) or [discord.SelectOption(label="…", value="0")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentJoinSelect:
        return cls()

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        try:
            tournament_id = int(self.item.values[0])
        except (IndexError, ValueError):
            tournament_id = 0  # refused by the desk: there is no tournament #0
        await _bot(itx).desk.join(itx, tournament_id)


DYNAMIC_ITEMS += (TournamentJoinSelect,)


# -- learning a game and opening a lobby (``/help``, ``/game rules``, the lobby) ----


class GameHelpButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"chaupal:help:(?P<game>[a-z_]{1,40}):"
        r"(?P<verb>rules|full|new|options)(?::(?P<table>\d{1,20}))?"
    ),
):
    """A game's **Rules** (its summary, with buttons for the complete rules
    and the options), **Complete rules** (the whole rules page as a file),
    **Options** (what every option does: with a lobby's game number, that
    lobby's values) or **Play** (a new lobby in the channel).  The custom_id
    holds only the game's name, the verb and, for a lobby's **Options**, its
    public game number, so the buttons of ``/help`` and of a lobby work after
    a restart; the table checks the game again when one is pressed."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "rules": discord.ButtonStyle.secondary,
        "full": discord.ButtonStyle.secondary,
        "options": discord.ButtonStyle.secondary,
        "new": discord.ButtonStyle.success,
    }

    def __init__(
        self,
        engine_name: str,
        verb: str,
        *,
        label: str = "",
        row: int | None = None,
        game_id: int | None = None,
    ) -> None:
        self.engine_name, self.verb = engine_name, verb
        # Only **Options** reads a lobby's values; other verbs are the game's.
        self.game_id = game_id if verb == "options" else None
        table = "" if self.game_id is None else f":{self.game_id}"
        super().__init__(
            discord.ui.Button(
                label=(label or verb.capitalize())[:80],
                style=self.STYLES[verb],
                custom_id=f"chaupal:help:{engine_name}:{verb}{table}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameHelpButton:
        table = match["table"]
        return cls(match["game"], match["verb"], game_id=int(table) if table else None)

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        table = _bot(itx).table
        if self.verb == "new":
            await table.open_lobby(itx, self.engine_name, {})
        elif self.verb == "options":
            await table.option_help(itx, self.engine_name, self.game_id)
        else:
            await table.rules(itx, self.engine_name, full=self.verb == "full")


def help_view() -> discord.ui.View:
    """``/help``'s buttons: a row per game, its rules and a new lobby."""
    from bot.engines import ENGINES

    view = discord.ui.View(timeout=None)
    for row, engine in enumerate(list(ENGINES.values())[:5]):
        view.add_item(GameHelpButton(engine.name, "rules", label=f"{engine.title} rules", row=row))
        view.add_item(GameHelpButton(engine.name, "new", label=f"Play {engine.title}", row=row))
    return view


def rules_view(engine_name: str) -> discord.ui.View:
    """Under a game's summary: its complete rules, and what its options do."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameHelpButton(engine_name, "full", label="Complete rules"))
    view.add_item(GameHelpButton(engine_name, "options", label="Options"))
    return view


def lobby_rules_view(game: LiveGame) -> discord.ui.View:
    """A lobby's buttons: Join, Leave and Start, what this lobby's options
    do (the lobby itself names only those changed), and the game's Rules."""
    view = lobby_view(game)
    view.add_item(GameHelpButton(game.engine.name, "options", label="Options", game_id=game.id))
    view.add_item(GameHelpButton(game.engine.name, "rules", label="Rules"))
    return view


DYNAMIC_ITEMS += (GameHelpButton,)


# -- safety nets and shortcuts (issue 18): confirming a resignation, a rematch, "My turn" --

RESIGN_CONFIRM_SECONDS = 120
"""How long a resignation's **Resign** button stays good."""


class ResignButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:resign:(?P<game>\d+):(?P<version>\d+):(?P<until>\d+):(?P<verb>yes|no)",
):
    """**Resign** or **Keep playing** under ``/game resign``'s ephemeral
    question.  The custom_id carries the game, the version the question was
    asked at and the unix time it expires, so a late or stale click is
    refused by the table (which checks everything again) and changes nothing."""

    LABELS: ClassVar[dict[str, str]] = {"yes": "Resign", "no": "Keep playing"}

    def __init__(self, game_id: int, version: int, until: int, verb: str) -> None:
        self.game_id, self.version, self.until, self.verb = game_id, version, until, verb
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[verb],
                style=discord.ButtonStyle.danger
                if verb == "yes"
                else discord.ButtonStyle.secondary,
                custom_id=f"chaupal:resign:{game_id}:{version}:{until}:{verb}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["game"]), int(match["version"]), int(match["until"]), match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _bot(itx).table.answer_resign(
            itx, self.game_id, self.version, self.until, confirmed=self.verb == "yes"
        )


def resign_view(game_id: int, version: int, until: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("yes", "no"):
        view.add_item(ResignButton(game_id, version, until, verb))
    return view


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:rematch:(?P<game>\d+)",
):
    """**Rematch** on a finished game's board: a new lobby of the same game
    and options, opened by whoever pressed it (one of the game's players)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label="Rematch",
                style=discord.ButtonStyle.success,
                custom_id=f"chaupal:rematch:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _bot(itx).table.rematch(itx, self.game_id)


class MyTurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:next",
):
    """**My turn**: whoever presses it gets a link to the next game waiting
    for them (``/game next``); the custom_id holds nothing."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(
                label="My turn", style=discord.ButtonStyle.secondary, custom_id="chaupal:next"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MyTurnButton:
        return cls()

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _bot(itx).table.next_turn(itx)


def final_board_view(game: LiveGame, *, rematch: bool = True) -> discord.ui.View:
    """Under a finished game's board: **Rematch** and **Replay** (issue 21:
    the whole game as an animated image, posted in the channel).  A
    tournament's game offers no rematch (``rematch`` False, issue 31): its
    players meet as the tournament pairs them."""
    view = discord.ui.View(timeout=None)
    if rematch:
        view.add_item(RematchButton(game.id))
    view.add_item(ReplayButton(game.id, "Replay"))
    return view


DYNAMIC_ITEMS += (ResignButton, RematchButton, MyTurnButton)


# -- taking a move back (issue 31) ----------------------------------------------------


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:takeback:(?P<game>\d+):(?P<target>\d+)",
):
    """**Take back** under a player's "Played: …": takes that move back
    while it is still their last.  The custom_id carries the game and the
    version the move was made at; the service checks everything again."""

    def __init__(self, game_id: int, target: int) -> None:
        self.game_id, self.target = game_id, target
        super().__init__(
            discord.ui.Button(
                label="Take back",
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
        await _bot(itx).table.take_back(itx, self.game_id, target=self.target)


class TakebackAnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:takeback-answer:(?P<game>\d+):(?P<version>\d+):(?P<verb>yes|no)",
):
    """**Agree** or **Decline** under a takeback request, posted in the
    game's thread for the other players.  The custom_id carries the game and
    the version the request was made at: any action since makes it out of
    date."""

    LABELS: ClassVar[dict[str, str]] = {"yes": "Agree", "no": "Decline"}

    def __init__(self, game_id: int, version: int, verb: str) -> None:
        self.game_id, self.version, self.verb = game_id, version, verb
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[verb],
                style=discord.ButtonStyle.success
                if verb == "yes"
                else discord.ButtonStyle.secondary,
                custom_id=f"chaupal:takeback-answer:{game_id}:{version}:{verb}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TakebackAnswerButton:
        return cls(int(match["game"]), int(match["version"]), match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _bot(itx).table.answer_takeback(
            itx, self.game_id, self.version, agree=self.verb == "yes"
        )


def with_takeback(view: discord.ui.View | None, game_id: int, target: int) -> discord.ui.View:
    """``view`` (a "Played: …" reply's next menu, or nothing) with **Take
    back** added, in the row a menu leaves free (a menu of five selects has
    none: /game takeback does it then)."""
    out = view or discord.ui.View(timeout=None)
    with contextlib.suppress(ValueError):  # no row left
        out.add_item(TakebackButton(game_id, target))
    return out


def takeback_request_view(game_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("yes", "no"):
        view.add_item(TakebackAnswerButton(game_id, version, verb))
    return view


DYNAMIC_ITEMS += (TakebackButton, TakebackAnswerButton)


# -- the history of finished games and following a game (issue 21) ----------


class ArchiveClicks(Protocol):
    """What the history's and the followers' components hand over to
    (:class:`bot.edge.archive.Archive`)."""

    async def history_page(
        self, itx: discord.Interaction[Any], page: HistoryPage, verb: str
    ) -> None: ...

    async def open_history(
        self,
        itx: discord.Interaction[Any],
        player_id: int | None,
        engine_name: str | None,
        *,
        share: bool = False,
    ) -> None: ...

    async def replay(
        self, itx: discord.Interaction[Any], game_id: int, *, public: bool = True
    ) -> None: ...

    async def review_step(
        self, itx: discord.Interaction[Any], step: ReviewStep, target: int
    ) -> None: ...

    async def follow(
        self, itx: discord.Interaction[Any], game_id: int, *, every_move: bool
    ) -> None: ...


def _archive(itx: discord.Interaction[Any]) -> ArchiveClicks:
    return cast(Clicks, itx.client).archive


@dataclass(frozen=True)
class HistoryPage:
    """One page of ``/game history``, all a page button needs to draw the
    next: who asked (only they turn its pages), whose games (0: everyone's)
    and which game ("all": every game), the moment the history was first
    shown, in milliseconds (games that ended later stay off its pages, so
    pages do not shift under the reader) and the page shown, from 0."""

    owner: int
    player: int
    engine: str
    until: int
    page: int


HISTORY_VERBS: dict[str, str] = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:history:(?P<owner>\d+):(?P<player>\d+):(?P<game>[a-z_]{1,40})"
    r":(?P<until>\d+):(?P<page>\d+):(?P<verb>first|prev|next|last)",
):
    """⏮ ◀ ▶ ⏭ under a page of ``/game history``.  Stateless: the
    custom_id holds the page shown and its filters (ids, a game's name, a
    time and a number: at most 95 characters), so the buttons work after a
    restart, and the archive reads the page again when one is pressed."""

    def __init__(
        self, page: HistoryPage, verb: str, *, disabled: bool = False, row: int | None = None
    ) -> None:
        self.page, self.verb = page, verb
        super().__init__(
            discord.ui.Button(
                label=HISTORY_VERBS[verb],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=history_custom_id(page, verb),
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        page = HistoryPage(
            int(match["owner"]),
            int(match["player"]),
            match["game"],
            int(match["until"]),
            int(match["page"]),
        )
        return cls(page, match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _archive(itx).history_page(itx, self.page, self.verb)


class PlayerHistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:history:(?P<player>\d+)",
):
    """**History** under a ``/profile``: that player's finished games, the
    first page of ``/game history player:…``, answered only to whoever
    presses it (the profile itself is the channel's)."""

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        super().__init__(
            discord.ui.Button(
                label="History",
                style=discord.ButtonStyle.secondary,
                custom_id=f"chaupal:history:{player_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayerHistoryButton:
        return cls(int(match["player"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _archive(itx).open_history(itx, self.player_id, None)


def player_history_view(player_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayerHistoryButton(player_id))
    return view


def history_custom_id(page: HistoryPage, verb: str) -> str:
    return (
        f"chaupal:history:{page.owner}:{page.player}:{page.engine}:{page.until}:{page.page}:{verb}"
    )


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:replay:(?P<game>\d+)",
):
    """**Replay** on a finished game's board and **Replay #n** beside a game in
    ``/game history``: the animated replay of the whole game
    (:meth:`bot.edge.archive.Archive.replay`), posted where the button is:
    in the channel under a public message, only to the presser under their
    own ephemeral history page."""

    def __init__(self, game_id: int, label: str | None = None, *, row: int | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=(label or f"Replay #{game_id}")[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"chaupal:replay:{game_id}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["game"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        # Under an ephemeral message (a history page only its reader sees)
        # the replay stays as private; under a public one it is the channel's.
        message = itx.message
        public = message is None or not message.flags.ephemeral
        await _archive(itx).replay(itx, self.game_id, public=public)


def history_view(page: HistoryPage, pages: int, game_ids: Sequence[int]) -> discord.ui.View | None:
    """The page's **Replay** buttons (one row: a page holds at most five
    games) and, when there is more than one page, ⏮ ◀ ▶ ⏭."""
    if not game_ids and pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for game_id in game_ids[:5]:
        view.add_item(ReplayButton(game_id))
    if pages > 1:
        last = page.page >= pages - 1
        for verb in HISTORY_VERBS:
            first = verb in ("first", "prev")
            view.add_item(
                HistoryButton(page, verb, disabled=page.page == 0 if first else last, row=1)
            )
    return view


class FollowButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:follow:(?P<game>\d+)",
):
    """**Follow** a tournament table's game: the clicker gets one DM when
    it ends (``/game follow`` for every move)."""

    def __init__(self, game_id: int, label: str = "Follow", *, row: int | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"chaupal:follow:{game_id}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FollowButton:
        return cls(int(match["game"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _archive(itx).follow(itx, self.game_id, every_move=False)


class FollowSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chaupal:follows:(?P<chunk>\d+)",
):
    """**Follow a table…**: the same as :class:`FollowButton` when a round
    has more tables than buttons fit.  Option values are public game
    numbers, checked again (this server, still running) when picked."""

    def __init__(
        self, options: Sequence[discord.SelectOption] = (), chunk: int = 0, placeholder: str = ""
    ) -> None:
        super().__init__(
            _select(f"chaupal:follows:{chunk}", options, placeholder or "Follow a table…")
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FollowSelect:
        return cls(chunk=int(match["chunk"]))

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        # A value that is not a number is refused as game #0, which never exists.
        await _archive(itx).follow(itx, max(0, _picked(self.item)), every_move=False)


FOLLOW_BUTTONS = 20
"""Tables offered as **Follow** buttons (four rows of five); beyond that,
selects of 25 (up to :data:`FOLLOW_SELECT_TABLES`)."""
FOLLOW_SELECT_TABLES = 100


def follow_view(tables: Sequence[tuple[int, str]]) -> discord.ui.View | None:
    """**Follow** for each live table (its game and its label, "Table 3"):
    buttons when they fit, else selects (four of 25: the fifth row stays
    free); None without a live table."""
    if not tables:
        return None
    view = discord.ui.View(timeout=None)
    if len(tables) <= FOLLOW_BUTTONS:
        for i, (game_id, label) in enumerate(tables):
            view.add_item(FollowButton(game_id, f"Follow {label}", row=i // 5))
        return view
    shown = tables[:FOLLOW_SELECT_TABLES]
    for chunk, start in enumerate(range(0, len(shown), 25)):
        part = shown[start : start + 25]
        options = [
            discord.SelectOption(label=label[:100], value=str(game_id)) for game_id, label in part
        ]
        head = f"Follow a table ({part[0][1]} … {part[-1][1]})…"
        view.add_item(FollowSelect(options, chunk, head))
    return view


DYNAMIC_ITEMS += (HistoryButton, PlayerHistoryButton, ReplayButton, FollowButton, FollowSelect)


# -- stepping through a game: /game review (issue 21 §2) ----------------------


@dataclass(frozen=True)
class ReviewStep:
    """A ``/game review`` message: whose it is (only they step through it),
    which game and the frame shown (0: the start).  All in the custom_id, so
    the buttons work after a restart; the archive checks each again."""

    owner: int
    game_id: int
    frame: int


REVIEW_VERBS = HISTORY_VERBS
"""The same ⏮ ◀ ▶ ⏭ as the history's pages."""
LAST_FRAME = 2**31
"""⏭'s target: the last frame there is when it is pressed (a game still
being played has more by then)."""


def review_target(step: ReviewStep, verb: str) -> int:
    return {
        "first": 0,
        "prev": step.frame - 1,
        "next": step.frame + 1,
        "last": LAST_FRAME,
    }[verb]


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:review:(?P<owner>\d+):(?P<game>\d+):(?P<frame>\d+)"
    r":(?P<verb>first|prev|next|last)",
):
    """⏮ ◀ ▶ ⏭ under ``/game review``: the frame before or after the one shown
    (in the custom_id, with the game and the member whose review it is)."""

    def __init__(
        self, step: ReviewStep, verb: str, *, disabled: bool = False, row: int = 1
    ) -> None:
        self.step, self.verb = step, verb
        super().__init__(
            discord.ui.Button(
                label=REVIEW_VERBS[verb],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"chaupal:review:{step.owner}:{step.game_id}:{step.frame}:{verb}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewButton:
        step = ReviewStep(int(match["owner"]), int(match["game"]), int(match["frame"]))
        return cls(step, match["verb"])

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        await _archive(itx).review_step(itx, self.step, review_target(self.step, self.verb))


class ReviewSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chaupal:review-move:(?P<owner>\d+):(?P<game>\d+):(?P<frame>\d+)"
    r"(?::(?P<level>\d))?",
):
    """**Go to a move…** under ``/game review``: option values are frame
    numbers (public: every frame of a game is its channel's), read back and
    kept in range by the archive.  A review has one select per level of
    :func:`bot.replay.menu_levels` (ranges of moves, then moves), ``level``
    keeping their custom_ids apart; a range's value is its first frame, so
    every level means the same ("show this frame"), and a select sent
    before levels (no ``level``) still answers so."""

    def __init__(
        self,
        step: ReviewStep,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "Go to move…",
        level: int | None = None,
    ) -> None:
        self.step = step
        suffix = "" if level is None else f":{level}"
        super().__init__(
            _select(
                f"chaupal:review-move:{step.owner}:{step.game_id}:{step.frame}{suffix}",
                options,
                placeholder,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, itx: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewSelect:
        step = ReviewStep(int(match["owner"]), int(match["game"]), int(match["frame"]))
        return cls(step)

    async def callback(self, itx: discord.Interaction[Any]) -> None:
        # A value that is not a number reads as -1: the start, kept in range.
        await _archive(itx).review_step(itx, self.step, _picked(self.item))


@dataclass(frozen=True)
class ReviewMenu:
    """One "go to a move" select of a review: its placeholder and options
    ``(frame, label, shown)``, ``shown`` marking the one holding the frame
    on screen."""

    placeholder: str
    options: tuple[tuple[int, str, bool], ...]


def review_view(step: ReviewStep, count: int, menus: Sequence[ReviewMenu]) -> discord.ui.View:
    """A review's components: the "go to a move" selects (``menus``, at
    most four, 25 options each) above ⏮ ◀ ▶ ⏭, the first two disabled at
    the start and the last two at the end."""
    view = discord.ui.View(timeout=None)
    shown = menus[:4] if count > 1 else []
    # Each select fills a row of its own, in order (a select's row cannot
    # be set through a DynamicItem in discord.py 2.7); the buttons go under.
    for level, menu in enumerate(shown):
        options = [
            discord.SelectOption(label=label[:100] or "…", value=str(frame), default=default)
            for frame, label, default in menu.options[:25]
        ]
        view.add_item(ReviewSelect(step, options, menu.placeholder[:150], level))
    at_start, at_end = step.frame <= 0, step.frame >= count - 1
    for verb in REVIEW_VERBS:
        disabled = at_start if verb in ("first", "prev") else at_end
        view.add_item(ReviewButton(step, verb, disabled=disabled, row=len(shown)))
    return view


DYNAMIC_ITEMS += (ReviewButton, ReviewSelect)
