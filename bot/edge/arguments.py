"""The ``game:`` argument of the slash commands, in one place (as
RoboDanny's ``TimeTransformer`` is its commands' time): the option's type,
its suggestions, and the look-up of the game a request means.

Each command's ``game`` is ``app_commands.Transform[int, X]``, ``X`` saying
what Discord suggests while it is typed (:class:`MyGame`: the member's
games; :class:`StartedGame`: this channel's started games;
:class:`RunningGame`: this channel's running ones; :class:`FollowedGame`:
the games the member follows; :class:`GameNumber`: nothing).  The option is
an integer either way, and the command gets the number as typed: the
handler finds the game (:func:`find_game`) after answering Discord, so a
refusal is the handler's own ephemeral sentence."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engines import get_engine
from bot.engines.core import GameError
from bot.i18n import DEFAULT, N_, Msg, t
from bot.service import Player

if TYPE_CHECKING:
    from bot.live import LiveGame
    from bot.service import GameService
    from storage.followers import FollowerStore
    from storage.games import GameRecord, GameStatus, GameStore

Choices = list[app_commands.Choice[int | float | str]]

GAME_NUMBER = N_("Game number (only needed when you are in several games)")
"""The description of an optional ``game:`` that defaults to the caller's game here."""

FROM_ITS_SERVER = {
    "Follow": N_("Follow a game from its server (where its board is posted)."),
    "Replay": N_("Replay a game from its server (where its board is posted)."),
    "Review": N_("Review a game from its server (where its board is posted)."),
}
"""What :func:`game_here` says outside a server, for each thing a member does."""


def player_of(itx: discord.Interaction[Any]) -> Player:
    """Who is asking, as the service seats them."""
    return Player(user_id=itx.user.id, display_name=itx.user.display_name[:64])


async def find_game(
    store: GameStore,
    service: GameService,
    itx: discord.Interaction[Any],
    game_id: int | None,
    want: str,
) -> LiveGame:
    """The game a command means (see :meth:`GameService.find_game`); in a
    game's thread, that game counts as in its channel."""
    channel_id = itx.channel_id or 0
    if game_id is not None:
        record = await store.get_game(game_id)
        if record is not None and record.thread_id == channel_id:
            channel_id = record.channel_id
    return await service.find_game(
        channel_id=channel_id, user_id=itx.user.id, game_id=game_id, want=want
    )


async def game_here(
    store: GameStore, itx: discord.Interaction[Any], game_id: int, doing: str = "Follow"
) -> GameRecord:
    """A game of this server whose channel the member may see."""
    if itx.guild_id is None:
        said = FROM_ITS_SERVER.get(doing)
        raise GameError(
            Msg(said)
            if said is not None
            else f"{doing} a game from its server (where its board is posted)."
        )
    record = await store.get_game(game_id)
    if record is None or record.guild_id != itx.guild_id:
        raise GameError(Msg("There is no game #{game_id} on this server.", game_id=game_id))
    guild, member = itx.guild, itx.user
    if guild is not None and isinstance(member, discord.Member):
        # A follower gets the channel's view by DM: never of a channel
        # they could not read themselves.
        place = guild.get_channel_or_thread(record.thread_id or record.channel_id)
        place = place or guild.get_channel(record.channel_id)
        if place is not None and not place.permissions_for(member).read_messages:
            raise GameError(
                Msg("Game #{game_id} is played in a channel you can't see.", game_id=game_id)
            )
    return record


STATUS_WORDS = {
    "lobby": N_("lobby"),
    "active": N_("active"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
}
"""A game's status as its suggestion names it."""


def game_choice_name(record: GameRecord, lang: str = DEFAULT) -> str:
    """A game as Discord suggests it: ``#12 Artaban (active)``."""
    status = STATUS_WORDS.get(record.status)
    return t(
        lang,
        "#{game_id} {title} ({status})",
        game_id=record.id,
        title=t(lang, get_engine(record.engine).title),
        status=t(lang, status) if status is not None else record.status,
    )[:100]


async def _language(itx: discord.Interaction[Any]) -> str:
    """The reader's language, for suggestions (English if it cannot be told)."""
    languages = getattr(itx.client, "languages", None)
    if languages is None:
        return DEFAULT
    lang: str = await languages.for_reader(itx)
    return lang


def _store(itx: discord.Interaction[Any]) -> GameStore:
    store: GameStore = itx.client.store
    return store


async def channel_game_choices(
    itx: discord.Interaction[Any], current: str, *, statuses: Collection[GameStatus]
) -> Choices:
    """This channel's games with one of ``statuses``, newest first, whose
    number holds what was typed."""
    records = await _store(itx).games_in_channel(itx.channel_id or 0, statuses=statuses)
    lang = await _language(itx)
    choices: Choices = [
        app_commands.Choice(name=game_choice_name(r, lang), value=r.id)
        for r in reversed(records)
        if current.strip("#") in str(r.id)
    ]
    return choices[:25]


class GameNumber(app_commands.Transformer):
    """A game's public number, with no suggestions."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    async def transform(self, itx: discord.Interaction[Any], value: Any, /) -> int:
        return int(value)


class MyGame(GameNumber):
    """Suggests the member's live games, this channel's first (all of them
    when none is here)."""

    async def autocomplete(
        self, itx: discord.Interaction[Any], value: int | float | str, /
    ) -> Choices:
        current = str(value)
        records = await _store(itx).games_of_user(itx.user.id)
        here = [r for r in records if r.channel_id == itx.channel_id] or records
        lang = await _language(itx)
        choices: Choices = [
            app_commands.Choice(name=game_choice_name(r, lang), value=r.id)
            for r in here
            if current.strip("#") in str(r.id)
        ]
        return choices[:25]


class StartedGame(GameNumber):
    """Suggests this channel's (or its thread's) started games, newest first."""

    async def autocomplete(
        self, itx: discord.Interaction[Any], value: int | float | str, /
    ) -> Choices:
        started: tuple[GameStatus, ...] = ("active", "finished", "abandoned")
        return await channel_game_choices(itx, str(value), statuses=started)


class RunningGame(GameNumber):
    """Suggests this channel's (or its thread's) running games, newest first."""

    async def autocomplete(
        self, itx: discord.Interaction[Any], value: int | float | str, /
    ) -> Choices:
        running: tuple[GameStatus, ...] = ("active",)
        return await channel_game_choices(itx, str(value), statuses=running)


class FollowedGame(GameNumber):
    """Suggests the games the member follows (``/game unfollow``)."""

    async def autocomplete(
        self, itx: discord.Interaction[Any], value: int | float | str, /
    ) -> Choices:
        current = str(value)
        followers: FollowerStore = itx.client.followers
        store = _store(itx)
        shown: Choices = []
        for follower in await followers.of_user(itx.user.id):
            if current.strip("#") not in str(follower.game_id):
                continue
            record = await store.get_game(follower.game_id)
            engine = _title(record.engine) if record is not None else "game"
            shown.append(
                app_commands.Choice(
                    name=f"#{follower.game_id} {engine}"[:100], value=follower.game_id
                )
            )
            if len(shown) == 25:
                break
        return shown


def _title(engine_name: str) -> str:
    try:
        return get_engine(engine_name).title
    except GameError:
        return engine_name
