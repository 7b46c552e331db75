"""Asking the other players to take a move back (issue 31): the request
posted in the game's thread, **Agree** and **Decline** under it, and what
each answer does.  Taking one's own last move back at once is a move
(:meth:`bot.edge.play.moves.Play.take_back`), which hands here when others
moved since."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar, cast

import discord

from bot.edge.delivery.delivery import Delivery
from bot.edge.ports import Edge
from bot.edge.refusals import refusing
from bot.edge.replies import edit_reply, pinging, reply
from bot.i18n import DEFAULT, N_, localize, t, tn
from bot.outgoing import Style, clip, fill_seats, mention, names_of, safe_name
from bot.service import GameService, MoveResult, StaleBoard, TakebackRequest

log = logging.getLogger(__name__)


class Takebacks:
    """A takeback that needs the other players' agreement."""

    def __init__(self, bot: Edge, delivery: Delivery) -> None:
        self.bot = bot
        self.delivery = delivery

    @staticmethod
    def of(itx: discord.Interaction[Any]) -> Takebacks:
        """The bot's :class:`Takebacks`, for a component's callback."""
        return cast(Takebacks, itx.client.takebacks)

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def ask(self, itx: discord.Interaction[Any], request: TakebackRequest) -> None:
        """Post a takeback request in the game's thread, pinging once each
        player whose agreement it needs (a decision they owe), or say it
        waits already."""

        game = request.game
        lang = await self.bot.languages.for_reader(itx)
        waiting = names_of(game, request.waiting_for)
        if not request.new:
            await reply(
                itx,
                t(
                    lang,
                    "You asked already: waiting for {waiting} to agree. Nothing changes unless "
                    "everyone does, and any move first ends the request.",
                    waiting=waiting,
                ),
            )
            return
        channel = await self.delivery.channel_lang(game)
        audience = await self.delivery.audience(game)
        users = [game.user_of(s) for s in sorted(request.asked)]
        pinged = [game.user_of(s) for s in sorted(request.asked) if audience.reachable(s)]
        who = " ".join(
            mention(u) if u in pinged else f"**{safe_name(game.names[s])}**"
            for s, u in zip(sorted(request.asked), users, strict=True)
        )
        try:
            await self.delivery.send(
                game,
                content=clip(request_text(request, who, channel)),
                view=takeback_request_view(game.id, request.version, channel),
                allowed_mentions=pinging(pinged),
            )
        except discord.HTTPException as exc:
            log.warning(
                "game %d: could not post a takeback request (%s %s)", game.id, exc.status, exc.code
            )
            await reply(
                itx,
                t(lang, "I could not post the request in the game's thread; nothing changed."),
            )
            return
        await reply(
            itx,
            t(
                lang,
                "Others moved since, so {waiting} must agree: I asked in the game's thread. "
                "Nothing changes unless everyone does, and any move first ends the request.",
                waiting=waiting,
            ),
        )

    @refusing
    async def answer(
        self, itx: discord.Interaction[Any], game_id: int, version: int, *, agree: bool
    ) -> None:
        """**Agree** or **Decline** under a takeback request: the message is
        edited with where the request stands; the last agreement takes the
        move back, and everyone's boards follow.  The request is the
        channel's message: it is edited in the channel's language."""
        lang = await self.bot.languages.for_channel(itx.guild_id, itx)
        try:
            outcome = await self.service.answer_takeback(game_id, itx.user.id, version, agree=agree)
        except StaleBoard as exc:
            # Out of date for everyone: the request's buttons go.
            if not itx.response.is_done():
                said = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
                await edit_reply(itx, localize(said, lang), view=None)
                return
            raise
        if isinstance(outcome, MoveResult):
            live = outcome.game
            await edit_reply(
                itx,
                t(
                    lang,
                    "Taken back with everyone's agreement: {move}",
                    move=fill_seats(outcome.undone or "", live, Style.CONTENT, lang=lang),
                ),
                view=None,
            )
            await self.delivery.publish(outcome)
            return
        game = outcome.game
        if outcome.declined_by is not None:
            await edit_reply(
                itx,
                t(
                    lang,
                    "**{declined}** declined to take back **{player}**'s move: the game goes on "
                    "as it is.",
                    declined=safe_name(game.names[outcome.declined_by]),
                    player=safe_name(game.names[outcome.seat]),
                ),
                view=None,
            )
            return
        agreed = names_of(game, outcome.agreed)
        await edit_reply(
            itx,
            clip(
                request_text(outcome, names_of(game, outcome.waiting_for), lang)
                + "\n"
                + t(lang, "Agreed so far: {agreed}.", agreed=agreed)
            ),
        )


class TakebackAnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chaupal:takeback-answer:(?P<game>\d+):(?P<version>\d+):(?P<verb>yes|no)",
):
    """**Agree** or **Decline** under a takeback request, posted in the
    game's thread for the other players.  The custom_id carries the game and
    the version the request was made at: any action since makes it out of
    date."""

    LABELS: ClassVar[dict[str, str]] = {"yes": N_("Agree"), "no": N_("Decline")}

    def __init__(self, game_id: int, version: int, verb: str, lang: str = DEFAULT) -> None:
        self.game_id, self.version, self.verb = game_id, version, verb
        super().__init__(
            discord.ui.Button(
                label=t(lang, self.LABELS[verb]),
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
        await Takebacks.of(itx).answer(itx, self.game_id, self.version, agree=self.verb == "yes")


def takeback_request_view(game_id: int, version: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in ("yes", "no"):
        view.add_item(TakebackAnswerButton(game_id, version, verb, lang))
    return view


def request_text(request: TakebackRequest, who: str, lang: str = DEFAULT) -> str:
    """A takeback request as the game's thread reads it: whose move, what it
    undoes (public words only: the move's narration), and who must answer;
    in ``lang``, the channel's language."""
    game = request.game
    move = fill_seats(request.move, game, Style.CONTENT, lang=lang)
    asks = t(
        lang,
        "**{player}** asks to take back their move: {move}",
        player=safe_name(game.names[request.seat]),
        move=move,
    )
    since = (
        " "
        + tn(
            lang,
            "That undoes the {n} move made since, too.",
            "That undoes the {n} moves made since, too.",
            request.undoes,
        )
        if request.undoes
        else ""
    )
    press = t(
        lang,
        "{who}: press **Agree** to take it back, or **Decline** to play on. "
        "Nothing changes unless everyone agrees, and any move first ends the request.",
        who=who,
    )
    return f"{asks}{since}\n{press}"


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TakebackAnswerButton,)
"""The components whose clicks :class:`Takebacks` answers."""
