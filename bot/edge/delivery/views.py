"""Each seat's private view (part of :class:`~bot.edge.delivery.delivery.Delivery`):
sent by DM to whoever holds the seat now, with its menu when it must act,
kept up to date in its standing DM, and the fallback when DMs are closed."""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import io
import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.edge.alt import private_alt
from bot.edge.delivery.texts import (
    Audience,
    _owed,
    asked_privately,
    seat_digest,
)
from bot.edge.ports import Edge
from bot.edge.replies import NO_PINGS, pinging
from bot.engines.core import Seat
from bot.engines.messages import decode
from bot.i18n import DEFAULT, t
from bot.outgoing import (
    channel_mention,
    clip,
    discord_time,
    fill_seats,
    game_title,
    mention,
)
from bot.service import LiveGame, secrets_of
from storage.games import OutboxRow

if TYPE_CHECKING:
    pass

from bot.edge.delivery.boards import Boards
from bot.edge.delivery.posting import Posting

log = logging.getLogger(__name__)

SOLO_NARRATION_LINES = 12
"""At a person's table with automatic seats, a board tells a whole round of
their moves (issue 30): up to this many lines."""

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread hides from the channel list after 7 days without posts
(posting reopens it)."""

VIEW_NOTE_CHARS = 300
"""A standing private view's line on what changed is at most this long."""


class DM(enum.Enum):
    SENT = "sent"
    CLOSED = "closed"
    """Discord refused (DMs closed): the channel was told, once."""
    FAILED = "failed"
    """Another error: worth retrying later."""


class PrivateViews:
    """What each seat is sent privately."""

    def __init__(self, bot: Edge, posting: Posting, boards: Boards) -> None:
        self.bot = bot
        self.posting = posting
        self.boards = boards

    async def seat(
        self,
        game: LiveGame,
        seat: Seat,
        row: OutboxRow,
        actor: Seat | None,
        served: frozenset[Seat],
        audience: Audience,
        turn: OutboxRow | None = None,
    ) -> bool:
        """Bring one seat's private view up to date (issue 30): a new DM, which
        notifies, only with a decision the seat owes (its menu comes with it,
        and it announces the decision when the board said it is theirs);
        any other change to what the seat sees edits its standing DM in
        place, silently, with a line on what changed, unless its player
        turned view updates off."""
        if game.is_over:
            return True  # the final board shows everything there is to show
        digest = seat_digest(game, seat, served)
        if game.holder(seat) is None:
            # Nobody holds the seat: a lobby's automatic player sits there,
            # or its player left it and watches like anyone else now
            # (bot.tenure).  Its record moves on without a DM; a member who
            # takes the seat over is sent its whole view all the same, as
            # the hand-over drops this row.
            if row.digest != digest:
                await self.posting.record(
                    game.id, dataclasses.replace(row, version=game.version, digest=digest)
                )
            return True
        # A wait the board announces by this seat's DM (see ``_board``).
        announce = turn if _owed(turn) and asked_privately(game, seat, served) else None
        if row.digest == digest and announce is None:
            return True
        old_me, _, old_asked = row.digest.partition(":")
        me, _, asked = digest.partition(":")
        first = row.version < 0
        has_secrets = secrets_of(game.engine, game.state, seat) is not None
        # A game that hides nothing has no private view worth a DM (its
        # seat's view is the board turned to the seat's side).
        seen = game.hides_information and (has_secrets or not first)
        changed = (me != old_me and seen) or asked != old_asked
        in_reply = seat == actor and seat in game.engine.to_move(game.state)
        public, private = self.bot.service.owing(game)
        owes = seat in public | private
        # A decision the seat owes, whose menu is not in its own reply: new
        # choices, or a wait the board announces here.
        decision = (
            owes and bool(asked) and not in_reply and (announce is not None or asked != old_asked)
        )
        done = dataclasses.replace(row, version=game.version, digest=digest)
        if row.notice:
            pass  # DMs closed: the channel was told once; /game hand shows it
        elif decision:
            link = await self.boards.board_link(game) if announce is not None else ""
            lang = await self._reader_lang(game, seat)
            line = "" if announce is None else self.boards.turn_text(game, announce, link, lang)
            outcome = await self.send_private(game, seat, served, audience, line)
            if outcome is DM.FAILED:
                return False
            if announce is not None:
                closed = outcome is DM.CLOSED
                await self.posting.record(
                    game.id,
                    dataclasses.replace(announce, digest="sent", notice=announce.notice or closed),
                )
            if outcome is DM.CLOSED:
                done = dataclasses.replace(done, notice=True)
        elif changed and seat in audience.views:
            lang = await self._reader_lang(game, seat)
            note = await self._what_changed(game, seat, since=row.version, lang=lang)
            outcome = await self.update_view(game, seat, served, audience, note)
            if outcome is DM.FAILED:
                return False
            if outcome is DM.CLOSED:
                done = dataclasses.replace(done, notice=True)
        await self.posting.record(game.id, done)
        return True

    async def _reader_lang(self, game: LiveGame, seat: Seat) -> str:
        """The language of the seat's player's DMs (issue 33)."""
        user_id = game.holder(seat)
        if user_id is None:
            return DEFAULT
        return await self.bot.languages.for_member(user_id)

    def _view_kind(self, seat: Seat, user_id: int) -> str:
        """The ``messages`` kind of a seat's standing private view: keyed by
        its holder too, so that a seat that changed hands never edits the
        DM of the member who held it before (issue 29)."""
        return f"view:{seat}:{user_id}"

    async def _what_changed(
        self, game: LiveGame, seat: Seat, *, since: int, lang: str = DEFAULT
    ) -> str:
        """The line on a standing view's edit: what happened since the view
        was last sent that concerns this seat (the public narrations naming
        it: a card sent back to its hand, a capture of its pieces), the last
        two at most."""
        tag = f"{{p{seat}}}"
        entries = await self.bot.store.log(game.id, after_seq=max(0, since), up_to=game.version)
        said = [decode(e.narration) for e in entries if tag in e.narration]
        return clip(" ".join(fill_seats(n, game, lang=lang) for n in said[-2:]), VIEW_NOTE_CHARS)

    async def send_private(
        self,
        game: LiveGame,
        seat: Seat,
        served: frozenset[Seat],
        audience: Audience,
        line: str = "",
    ) -> DM:
        """DM one seat its private view with its menu (``line``: the "your
        turn" line its wait owes) as a new message, which notifies unless its
        player is away or in their quiet hours.  The new DM becomes the
        seat's standing view; the one before is deleted, so that the player
        never scrolls through old pictures."""
        user_id = game.holder(seat)
        if user_id is None:
            return DM.SENT  # nobody may read the seat now (bot.tenure): nothing to send
        lang = await self.bot.languages.for_member(user_id)
        png = await self.posting.private_png(game, seat, lang)
        asked = asked_privately(game, seat, served)
        view = self.bot.components.private_view(game, seat, lang=lang) if asked else None
        title = game_title(game, lang)
        where = f"<#{self.posting.place_id(game)}>"
        if view is not None:
            content = t(
                lang,
                "Your view of {title} in {where}. It is your decision: choose below.",
                title=title,
                where=where,
            )
            if line:
                content += f"\n{line}"
        else:
            content = t(lang, "Your view of {title} in {where}.", title=title, where=where)
        return await self._new_view(
            game,
            seat,
            user_id,
            content=content,
            png=png,
            view=view,
            silent=audience.silent(seat),
            audience=audience,
            # The DM was to announce the decision (``line``); the board
            # pinged only a player who asked for both, so the channel's one
            # notice that their DMs are closed says it is their turn instead.
            told=bool(line) and view is not None and seat not in audience.ping & audience.dm,
        )

    async def update_view(
        self,
        game: LiveGame,
        seat: Seat,
        served: frozenset[Seat],
        audience: Audience,
        note: str,
    ) -> DM:
        """Edit the seat's standing private view in place (silent: an edit
        never notifies), with ``note`` on what changed; the menu it carries
        is the seat's choices now (none when it has none).  Without a
        standing view (the first, or the player deleted it), a new DM that
        does not notify."""
        user_id = game.holder(seat)
        if user_id is None:
            return DM.SENT
        lang = await self.bot.languages.for_member(user_id)
        png = await self.posting.private_png(game, seat, lang)
        asked = asked_privately(game, seat, served)
        view = self.bot.components.private_view(game, seat, lang=lang) if asked else None
        when = discord_time(self.bot.clock())
        content = clip(
            t(
                lang,
                "Your view of {title} in {where}, as of {when}.",
                title=game_title(game, lang),
                where=channel_mention(self.posting.place_id(game)),
                when=when,
            )
            + (f" {note}" if note else "")
        )
        name = f"chaupal-{game.id}-private.png"
        standing = await self.bot.store.get_message(game.id, self._view_kind(seat, user_id))
        if standing is not None:
            try:
                await (
                    self.bot.get_partial_messageable(standing[0])
                    .get_partial_message(standing[1])
                    .edit(
                        content=content,
                        attachments=[
                            discord.File(
                                io.BytesIO(png),
                                filename=name,
                                description=private_alt(
                                    game, seat, await self.bot.languages.for_member(user_id)
                                ),
                            )
                        ],
                        view=view,
                        allowed_mentions=NO_PINGS,
                    )
                )
                return DM.SENT
            except discord.NotFound:
                pass  # deleted by the player: a new one below
            except discord.HTTPException as exc:
                log.warning("game %d: view edit failed (%s %s)", game.id, exc.status, exc.code)
                return DM.FAILED
        return await self._new_view(
            game,
            seat,
            user_id,
            content=content,
            png=png,
            view=view,
            silent=True,
            audience=audience,
            told=False,
        )

    async def _new_view(
        self,
        game: LiveGame,
        seat: Seat,
        user_id: int,
        *,
        content: str,
        png: bytes,
        view: discord.ui.View | None,
        silent: bool,
        audience: Audience,
        told: bool,
    ) -> DM:
        """Send the seat's view as a new DM, make it the standing one, and
        delete the one before."""
        kind = self._view_kind(seat, user_id)
        before = await self.bot.store.get_message(game.id, kind)
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            message = await dm.send(
                content=clip(content),
                file=discord.File(
                    io.BytesIO(png),
                    filename=f"chaupal-{game.id}-private.png",
                    description=private_alt(
                        game, seat, await self.bot.languages.for_member(user_id)
                    ),
                ),
                view=view or discord.utils.MISSING,
                allowed_mentions=NO_PINGS,
                silent=silent,
                # A retry of the same version after a crash mid-send is
                # dropped by Discord instead of reaching the player twice.
                nonce=f"s{game.id}.{seat}v{game.version}",
            )
        except discord.Forbidden as exc:
            log.info("game %d: DMs closed for a player (code %s)", game.id, exc.code)
            # The notice says it is their turn when the DM was to say it and
            # the board did not (``dm``; ``both`` was pinged by the board).
            await self._dm_fallback(game, user_id, ping=audience.reachable(seat), turn=told)
            return DM.CLOSED
        except discord.HTTPException as exc:
            log.warning("game %d: DM failed (%s %s)", game.id, exc.status, exc.code)
            return DM.FAILED
        await self.bot.store.set_message(game.id, kind, message.channel.id, message.id)
        if before is not None and before[1] != message.id:
            with contextlib.suppress(discord.HTTPException):
                await (
                    self.bot.get_partial_messageable(before[0])
                    .get_partial_message(before[1])
                    .delete()
                )
        return DM.SENT

    async def _dm_fallback(
        self, game: LiveGame, user_id: int, *, ping: bool = True, turn: bool = False
    ) -> None:
        """The channel's one notice that a player's DMs are closed; ``turn``:
        the DM that failed was to tell them it is their turn (their ``dm``
        setting), so this notice says it instead."""
        # Posted in the channel: in the channel's language.
        lang = await self.posting.channel_lang(game)
        title = game_title(game, lang)
        if turn:
            text = t(
                lang,
                "{who} it is your turn in {title}. I can't DM you (your DMs are closed to me), "
                "so I'll keep your private view here instead: use **/game hand** or the "
                "**Show mine** button on the board; only you will see it.",
                who=mention(user_id),
                title=title,
            )
        else:
            text = t(
                lang,
                "{who} I can't DM you (your DMs are closed to me), so I'll keep your private "
                "view here instead: use **/game hand** or the **Show mine** button on the "
                "board; only you will see it.",
                who=mention(user_id),
            )
        try:
            await self.posting.send(
                game,
                content=text,
                allowed_mentions=pinging([user_id] if ping else []),
            )
        except discord.HTTPException:
            log.warning("game %d: could not post the DM fallback notice", game.id)
