"""Who holds a seat: resigning (after a confirmation), a moderator ending a
game, removing a player (``/moderate game kick``), handing a seat to
another member (``/moderate game replace``, answered with **Take the
seat**), and pausing a game's clocks; with the buttons that confirm them.

Every button's custom_id carries only ids, versions and times, so it
survives a restart and the service checks everything again when it is
pressed."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar, cast

import discord

from bot.edge.arguments import find_game, player_of
from bot.edge.delivery.delivery import Delivery
from bot.edge.moderators import is_moderator
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import NO_PINGS, edit_reply, pinging, reply
from bot.engines.core import GameError, Seat
from bot.engines.messages import Msg
from bot.i18n import DEFAULT, N_, localize, t
from bot.outgoing import clip, discord_time, game_title, mention, safe_name
from bot.service import GameBroken, GameService, LiveGame
from storage.errors import StorageError

log = logging.getLogger(__name__)

RESIGN_CONFIRM_SECONDS = 120
"""How long a resignation's **Resign** button stays good."""


class Seats:
    """Resigning, ending, removing and replacing: a seat changes hands."""

    def __init__(self, bot: Edge, delivery: Delivery) -> None:
        self.bot = bot
        self.delivery = delivery

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> Seats:
        """The bot's :class:`Seats`, for a component's callback."""
        return cast(Seats, itx.client.seats)

    @property
    def service(self) -> GameService:
        return self.bot.service

    @refusing
    async def ask_resign(self, itx: discord.Interaction[Any], game_id: int | None) -> None:
        """``/game resign``: nothing happens yet; an ephemeral question with
        **Resign** (good for :data:`RESIGN_CONFIRM_SECONDS`) and
        **Keep playing**.  A moderator ending a game they do not play in is
        asked the same way."""
        lang = await self.bot.languages.for_reader(itx)
        try:
            await itx.response.defer(ephemeral=True)
            moderator = await is_moderator(self.bot.server_settings, itx)
            live = await find_game(
                self.bot.store, self.service, itx, game_id, "any" if moderator else "mine"
            )
            question = await self._resign_question(
                live, itx.user.id, moderator=moderator, lang=lang
            )
        except GameBroken:
            # A game that cannot be restored has no position to confirm
            # against: a moderator naming it ends it at once.
            if not moderator or game_id is None:
                raise
            await self.service.end_broken(game_id)
            await reply(
                itx,
                t(
                    lang,
                    "Game #{game} could not be restored; it is over, without a result.",
                    game=game_id,
                ),
            )
            return
        until = int(self.bot.clock()) + RESIGN_CONFIRM_SECONDS
        await reply(
            itx,
            t(
                lang,
                "{question} Press **Resign** to confirm (until {when}), or **Keep playing**.",
                question=question,
                when=discord_time(until),
            ),
            view=resign_view(live.id, live.version, until, lang),
        )

    async def _resign_question(
        self, live: LiveGame, user_id: int, *, moderator: bool, lang: str = DEFAULT
    ) -> str:
        """What confirming would do, or a GameError saying why it cannot be
        done (the service checks again when it is confirmed)."""
        title = game_title(live, lang)
        if live.record.status == "lobby":
            raise GameError(Msg("Game #{game} has not started; use /game leave.", game=live.id))
        if live.is_over:
            raise GameError(Msg("Game #{game} is already over.", game=live.id))
        seat = live.seat_of(user_id)
        if seat is None:
            if not moderator:
                raise GameError(Msg("You are not playing in game #{game}.", game=live.id))
            if await self.bot.desk.heading(live):
                # A tournament game has a result to decide, not just an end.
                raise GameError(
                    Msg(
                        "Game #{game} is a tournament game: decide it with "
                        "`/moderate tournament adjudicate game:{game} result:…` (draw, the "
                        "winner, or places in seat order).",
                        game=live.id,
                    )
                )
            return t(lang, "End {title} for everyone, without a result?", title=title)
        if live.is_auto(seat):
            raise GameError(Msg("You have already left game #{game}.", game=live.id))
        if len(live.seats) <= 2:
            return t(lang, "Resign {title}? The game ends, and you lose.", title=title)
        return t(
            lang,
            "Resign {title}? The automatic player takes your seat, ranked last, "
            "and the others play on.",
            title=title,
        )

    @refusing
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
        lang = await self.bot.languages.for_reader(itx)
        if not confirmed:
            await edit_reply(
                itx,
                t(lang, "You keep playing game #{game}; nothing changed.", game=game_id),
                view=None,
            )
            return
        try:
            if self.bot.clock() > until:
                raise GameError(
                    Msg(
                        "This confirmation has expired, so nothing changed; use /game resign "
                        "again if you still mean it."
                    )
                )
            moderator = await is_moderator(self.bot.server_settings, itx)
            live = await self.service.get(game_id)
            await self._resign_question(live, itx.user.id, moderator=moderator)
            if live.seat_of(itx.user.id) is None and live.version != version:
                raise GameError(
                    Msg(
                        "Game #{game} has moved on since you asked, so nothing changed; "
                        "look at its board and use /game resign again if you still mean it.",
                        game=game_id,
                    )
                )
            result = await self.service.resign(game_id, itx.user.id, moderator=moderator)
        except (GameError, StorageError) as exc:
            if not itx.response.is_done():
                said = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
                await edit_reply(itx, localize(said, lang), view=None)
                return
            raise
        if result.game.is_over:
            await edit_reply(itx, t(lang, "Game #{game} is over.", game=game_id), view=None)
        else:
            await edit_reply(
                itx,
                t(
                    lang,
                    "You left game #{game}: the automatic player plays your seat, "
                    "ranked last, and the others play on.",
                    game=game_id,
                ),
                view=None,
            )
        await self.delivery.publish(result)

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

    @refusing
    async def kick(
        self, itx: discord.Interaction[Any], target: discord.abc.User, game_id: int | None
    ) -> None:
        """``/moderate game kick``: a moderator hands a player's seat to the automatic
        player (a two-player game ends), and the player is told by DM what
        happened and what it means for their place."""
        await itx.response.defer(ephemeral=True)
        lang = await self.bot.languages.for_reader(itx)
        moderator = await is_moderator(self.bot.server_settings, itx)
        game = await find_game(self.bot.store, self.service, itx, game_id, "any")
        result = await self.service.kick(game.id, target.id, moderator=moderator)
        who = safe_name(target.display_name)
        live = result.game
        theirs = await self.bot.languages.for_member(target.id)
        title = game_title(live, theirs)
        where = f"<#{self.delivery.place_id(live)}>"
        if live.is_over:
            await reply(
                itx,
                t(
                    lang,
                    "{who} is out of game #{game}, and the game is over.",
                    who=who,
                    game=game.id,
                ),
            )
            told = t(
                theirs,
                "A moderator removed you from {title} ({where}). That ended the game, "
                "and you lost.",
                title=title,
                where=where,
            )
        else:
            await reply(
                itx,
                t(
                    lang,
                    "{who} is out of game #{game}; the automatic player takes their seat.",
                    who=who,
                    game=game.id,
                ),
            )
            told = t(
                theirs,
                "A moderator removed you from {title} ({where}); the automatic player plays "
                "your seat from now on, ranked last.",
                title=title,
                where=where,
            )
        await self.tell(target.id, told)
        await self.delivery.catch_up(game.id)

    async def _in_tournament(self, game_id: int) -> bool:
        return await self.bot.tournaments.store.table_of_game(game_id) is not None

    @refusing
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

        await itx.response.defer(ephemeral=True)
        lang = await self.bot.languages.for_reader(itx)
        moderator = await is_moderator(self.bot.server_settings, itx)
        game = await find_game(self.bot.store, self.service, itx, game_id, "any")
        game, seat = await self.service.check_replacement(
            game.id,
            old.id,
            new.id,
            moderator=moderator,
            tournament=await self._in_tournament(game.id),
        )
        if new.bot:
            raise GameError(
                Msg(
                    "{name} is a bot: only a person can take a seat.",
                    name=safe_name(new.display_name),
                )
            )
        was = safe_name(game.names[seat])
        # Posted in the game's thread: in the channel's language.
        channel = await self.delivery.channel_lang(game)
        title = game_title(game, channel)
        content = t(
            channel,
            "{who}, a moderator asks you to take over **{was}**'s seat in {title}. You would "
            "play on from where the game is, on the same clock; the seat's hand or screen and "
            "its choices would come to you by DM. Press **Take the seat** to play it, or "
            "**Decline**.",
            who=mention(new.id),
            was=was,
            title=title,
        )
        try:
            await self.delivery.send(
                game,
                content=clip(content),
                view=seat_offer_view(game.id, seat, new.id, old.id, channel),
                allowed_mentions=pinging([new.id]),
            )
        except discord.HTTPException as exc:
            log.warning(
                "game %d: could not post a seat offer (%s %s)", game.id, exc.status, exc.code
            )
            await reply(
                itx, t(lang, "I could not post the offer in the game's thread; nothing changed.")
            )
            return
        await reply(
            itx,
            t(
                lang,
                "Asked {name} to take over {was}'s seat in game #{game}; nothing changes "
                "unless they accept.",
                name=safe_name(new.display_name),
                was=was,
                game=game.id,
            ),
        )

    @refusing
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
            raise GameError(
                Msg(
                    "This offer is not for you: only the member it names can take the seat "
                    "or decline it."
                )
            )
        who = safe_name(itx.user.display_name)
        # The offer is the channel's message; the reply to the new player is theirs.
        channel = await self.bot.languages.for_channel(itx.guild_id, itx)
        lang = await self.bot.languages.for_reader(itx)
        if not take:
            await edit_reply(
                itx,
                t(
                    channel,
                    "{who} declined to take over a seat in game #{game}; nothing changed.",
                    who=who,
                    game=game_id,
                ),
                view=None,
            )
            return
        result, old = await self.service.replace_seat(
            game_id,
            seat,
            old_user_id,
            player_of(itx),
            tournament=await self._in_tournament(game_id),
        )
        game = result.game
        was = safe_name(old.display_name)
        await edit_reply(
            itx,
            t(
                channel,
                "{who} took over **{was}**'s seat in {title}.",
                who=who,
                was=was,
                title=game_title(game, channel),
            ),
            view=None,
        )
        await reply(
            itx,
            t(
                lang,
                "You play **{was}**'s old seat in {title} now, from where the game is and on "
                "the same clock. The seat's hand or screen, and its choices when they are "
                "private, come to you by DM; /game hand shows them here too.",
                was=was,
                title=game_title(game, lang),
            ),
        )
        theirs = await self.bot.languages.for_member(old_user_id)
        await self.tell(
            old_user_id,
            t(
                theirs,
                "A moderator handed your seat in {title} to {who}. The seat is no longer yours: "
                "you get no more of its views or turns, and the game's result will not count "
                "for your rating.",
                title=game_title(game, theirs),
                who=who,
            ),
        )
        await self.delivery.hand_over(game.id, seat)

    @refusing
    async def pause(
        self, itx: discord.Interaction[Any], game_id: int | None, *, resume: bool
    ) -> None:
        """Stop a game's clocks (``/moderate game pause``), or start them again."""
        await itx.response.defer(ephemeral=True)
        lang = await self.bot.languages.for_reader(itx)
        moderator = await is_moderator(self.bot.server_settings, itx)
        game = await find_game(self.bot.store, self.service, itx, game_id, "any")
        if resume:
            game = await self.service.resume(game.id, itx.user.id, moderator=moderator)
        else:
            game = await self.service.pause(game.id, itx.user.id, moderator=moderator)
        if resume:
            await reply(itx, t(lang, "Game #{game} is running again.", game=game.id))
        else:
            await reply(
                itx,
                t(
                    lang,
                    "Game #{game} is paused: its clocks stand still until /moderate game resume.",
                    game=game.id,
                ),
            )
        await self.delivery.catch_up(game.id)


# -- the components ---------------------------------------------------------------


class ResignButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:resign:(?P<game>\d+):(?P<version>\d+):(?P<until>\d+):(?P<verb>yes|no)",
):
    """**Resign** or **Keep playing** under ``/game resign``'s ephemeral
    question.  The custom_id carries the game, the version the question was
    asked at and the unix time it expires, so a late or stale click is
    refused by :class:`Seats` (which checks everything again) and changes nothing."""

    LABELS: ClassVar[dict[str, str]] = {"yes": N_("Resign"), "no": N_("Keep playing")}

    def __init__(
        self, game_id: int, version: int, until: int, verb: str, lang: str = DEFAULT
    ) -> None:
        self.game_id, self.version, self.until, self.verb = game_id, version, until, verb
        super().__init__(
            discord.ui.Button(
                label=t(lang, self.LABELS[verb]),
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
        await Seats.of(itx).answer_resign(
            itx, self.game_id, self.version, self.until, confirmed=self.verb == "yes"
        )


def resign_view(game_id: int, version: int, until: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("yes", "no"):
        view.add_item(ResignButton(game_id, version, until, verb, lang))
    return view


class SeatOfferButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:replace:(?P<game>\d+):(?P<seat>\d+):(?P<new>\d+):(?P<old>\d+)"
    r":(?P<verb>take|decline)",
):
    """**Take the seat** or **Decline** under a moderator's offer of a seat.
    The custom_id carries only ids (the game, the seat, the member asked and
    the player who held the seat), so the offer survives a restart and the
    service checks it again when it is answered."""

    LABELS: ClassVar[dict[str, str]] = {"take": N_("Take the seat"), "decline": N_("Decline")}

    def __init__(
        self,
        game_id: int,
        seat: Seat,
        new_user_id: int,
        old_user_id: int,
        verb: str,
        lang: str = DEFAULT,
    ):
        self.game_id, self.seat, self.verb = game_id, seat, verb
        self.new_user_id, self.old_user_id = new_user_id, old_user_id
        super().__init__(
            discord.ui.Button(
                label=t(lang, self.LABELS[verb]),
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
        await Seats.of(itx).answer_seat_offer(
            itx,
            self.game_id,
            self.seat,
            new_user_id=self.new_user_id,
            old_user_id=self.old_user_id,
            take=self.verb == "take",
        )


def seat_offer_view(
    game_id: int, seat: Seat, new_user_id: int, old_user_id: int, lang: str = DEFAULT
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("take", "decline"):
        view.add_item(SeatOfferButton(game_id, seat, new_user_id, old_user_id, verb, lang))
    return view


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (SeatOfferButton, ResignButton)
"""The components whose clicks :class:`Seats` answers."""
