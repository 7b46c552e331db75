"""Playing a game in each reader's language (issue 33), through discord.py's
real dispatch: a short game of Artaban on a server whose language is Hindi,
between players whose Discord is in Hindi.

What the channel reads (the boards and what is said above them, the
game-over post, its buttons) is in the server's language, one language a
message; what one player reads (the "Played: …" reply, their menus, a
refusal, the resignation's question and its buttons) is in theirs, and so
is what they are sent with no interaction to answer (the "your turn" DM,
their private view).  The same game in the pseudo-locale comes out marked
(every catalog text between ⟦ and ⟧); with the server in Hindi and one
player in English, the channel reads Hindi and that player English.

The engine's own words (its narration of a move, a move's label) are the
engine's to translate; they, the players' names, the notation and the
links are left out before the texts are checked for English.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.edge.client import ChaupalBot
from bot.engines.core import CHANCE
from bot.engines.messages import decode
from bot.i18n import t
from bot.outgoing import Style, fill_seats
from tests.bot.driver import boards, bot_of, make_bot
from tests.discord_harness import FakeDiscord, FakeUser, Sent

DEVANAGARI = re.compile(r"[\u0900-\u097F]")
ENGLISH = re.compile(r"[A-Za-z]{2,}(?:[ ,;:'’]+[A-Za-z]{2,}){2,}")
"""Three English words in a row: a sentence, not a name or a move."""
KEPT = re.compile(
    r"<[^<>]*>|https?://\S+|`[^`]*`|/[a-z]+(?: [a-z]+)*|\*\*[^*]*\*\*|#\d+"
    r"|Artaban|asha|bhima|chaupal-\S+"
)
"""What stays as written in any language: mentions, timestamps, links,
code, commands, bold names, game numbers, the game's title, the players."""


@dataclass
class Table:
    fake: FakeDiscord
    bot: ChaupalBot
    asha: FakeUser
    bhima: FakeUser
    game_id: int = 0
    labels: tuple[str, ...] = ()
    """The labels of the moves played (the engine's words)."""

    @property
    def users(self) -> dict[int, FakeUser]:
        return {self.asha.id: self.asha, self.bhima.id: self.bhima}

    async def mover(self) -> FakeUser:
        game = await self.bot.service.get(self.game_id)
        (seat,) = sorted(game.engine.to_move(game.state) - {CHANCE})
        return self.users[game.user_of(seat)]

    async def engine_words(self, lang: str) -> list[str]:
        """Every text the engine wrote for this game so far, in ``lang``, as
        the edge fills it in (narrations, and the labels of moves)."""
        game = await self.bot.service.get(self.game_id)
        words: list[str] = []
        for entry in await self.bot.store.log(self.game_id):
            if entry.narration and not entry.action.startswith("@"):
                said = decode(entry.narration)
                words += [
                    fill_seats(said, game, style, lang=lang)
                    for style in (Style.CONTENT, Style.PLAIN, Style.MENTION)
                ]
        for label in self.labels:
            words += [fill_seats(label, game, style, lang=lang) for style in Style]
        return [w for w in words if w]

    async def legal_texts(self, user: FakeUser) -> list[str]:
        game = await self.bot.service.get(self.game_id)
        seat = game.seat_of(user.id)
        assert seat is not None
        return self.bot.service.legal_texts(game, seat)


@pytest.fixture
async def started(tmp_path: Path) -> AsyncIterator[tuple[Path, list[FakeDiscord]]]:
    running: list[FakeDiscord] = []
    yield tmp_path, running
    for fake in running:
        await fake.close()


async def open_table(
    where: tuple[Path, list[FakeDiscord]], guild: str, asha: str, bhima: str
) -> Table:
    """A game of Artaban on a server in ``guild``'s language, asha and bhima
    in theirs, both told of their turn by DM too; set up at random, so that
    the next move is a move on the board.  Commands by name only (their
    names are the same in every language), never a button's label."""
    path, running = where
    fake = await FakeDiscord.start(
        make_bot(path / f"chaupal-{guild}-{asha}.sqlite3", 7), guild_locale=guild
    )
    running.append(fake)
    table = Table(
        fake, bot_of(fake), fake.user("asha", locale=asha), fake.user("bhima", locale=bhima)
    )
    for user in (table.asha, table.bhima):
        await fake.slash(user, "chaupal me", turn="both")
    await fake.slash(table.asha, "game new", game="artaban")
    (record,) = await table.bot.store.games_in_channel(fake.channel_id)
    table.game_id = record.id
    await fake.slash(table.bhima, "game join")
    await fake.slash(table.asha, "game start")
    for user in (table.asha, table.bhima):
        await fake.slash(user, "game play", action="setup random")
    await fake.settle()
    return table


def english_in(text: str, engine: Iterable[str] = ()) -> list[str]:
    """The English sentences left in ``text`` once the engine's own words
    and what stays as written are taken out."""
    for words in sorted(engine, key=len, reverse=True):
        text = text.replace(words, " ")
    return ENGLISH.findall(KEPT.sub(" ", text))


def hindi(text: str | None, engine: Iterable[str] = ()) -> None:
    assert text, "nothing to read"
    assert DEVANAGARI.search(text), text
    assert not english_in(text, engine), (english_in(text, engine), text)


def marked(text: str | None) -> None:
    """Every line the catalog wrote is between ⟦ and ⟧ (the pseudo-locale)."""
    assert text and "⟦" in text and "⟧" in text, text


def replies(out: list[Sent]) -> list[Sent]:
    return [s for s in out if s.ephemeral and s.content]


def labels(fake: FakeDiscord, message: Sent) -> list[str]:
    return [b.get("label", "") for b in fake.buttons(message)]


def placeholders(fake: FakeDiscord, message: Sent) -> list[str]:
    return [s.get("placeholder", "") for s in fake.selects(message)]


async def play_first(table: Table, user: FakeUser) -> list[Sent]:
    (text, *_) = await table.legal_texts(user)
    game = await table.bot.service.get(table.game_id)
    seat = game.seat_of(user.id)
    assert seat is not None
    label = game.engine.label(game.state, seat, game.engine.parse(game.state, seat, text))
    table.labels = (*table.labels, label)
    out = await table.fake.slash(user, "game play", action=text)
    await table.fake.settle()
    return out


async def resign(table: Table, user: FakeUser, confirm: str) -> tuple[Sent, list[Sent]]:
    """``/game resign``, then the question's first button (its label is
    ``confirm``, in the player's language)."""
    fake = table.fake
    out = await fake.slash(user, "game resign")
    (question,) = [
        s
        for s in out
        if s.message_id and any("chaupal:resign:" in b["custom_id"] for b in fake.buttons(s))
    ]
    button = fake.find_button(question, label=confirm)
    answered = await fake.click(user, question, button["custom_id"])
    await fake.settle()
    return question, answered


async def test_a_game_on_a_hindi_server_between_hindi_players_reads_hindi(
    started: tuple[Path, list[FakeDiscord]],
) -> None:
    table = await open_table(started, "hi", "hi", "hi")
    fake = table.fake
    engine = await table.engine_words("hi")

    # The board the setups lead to: who is to move, and its buttons.
    board = fake.current(boards(fake)[-1])
    hindi(board.content, engine)
    assert "की बारी है।" in (board.content or "") and "to play" not in (board.content or "")
    assert "घड़ियाँ: " in (board.content or ""), board.content
    assert "मेरा दिखाएँ" in labels(fake, board) and "मेरी बारी" in labels(fake, board)

    # A move: the "Played: …" reply, in the player's language.
    mover = await table.mover()
    other = table.bhima if mover is table.asha else table.asha
    before = len(fake.dms(other))
    out = await play_first(table, mover)
    (played,) = replies(out)
    assert played.content and played.content.startswith("आपने चाल चली:"), played.content
    engine = await table.engine_words("hi")
    hindi(played.content, engine)

    # The next board, and the "your turn" DM to the player it waits for.
    board = fake.current(boards(fake)[-1])
    hindi(board.content, engine)
    turn = [dm for dm in fake.dms(other)[before:] if dm.content]
    assert turn, "no turn DM"
    hindi(turn[-1].content, engine)
    assert "आपकी बारी" in (turn[-1].content or "")

    # Out of turn: refused in the player's language.
    (text, *_) = await table.legal_texts(other)
    refused = replies(await fake.slash(mover, "game play", action=text))
    assert refused and (refused[-1].content or "").startswith("अभी आपकी बारी नहीं है"), refused
    hindi(refused[-1].content, engine)

    # Their menu (/game hand): the heading, the private view and the selects.
    out = await fake.slash(other, "game hand")
    (view,) = [s for s in replies(out) if s.files]
    hindi(view.content, engine)
    assert placeholders(fake, view) and all(p.startswith("चुनें") for p in placeholders(fake, view)), (
        placeholders(fake, view)
    )

    # Their games (/game mine, /game next).
    (mine,) = replies(await fake.slash(other, "game mine"))
    assert (mine.content or "").startswith("**आपके खेल** (1; 1 में आपकी बारी):"), mine.content
    hindi(mine.content, engine)
    (next_,) = replies(await fake.slash(other, "game next"))
    hindi(next_.content, engine)

    # Resigning: the question, its buttons, the answer.
    question, answered = await resign(table, other, "हार मानें")
    hindi(question.content, engine)
    assert labels(fake, question) == ["हार मानें", "खेलते रहें"]
    (over,) = [s for s in answered if s.content and s.route.startswith("interaction")]
    hindi(over.content, engine)

    # The game-over post: the result and the reason (the service's
    # narration of the resignation), its buttons.
    final = fake.current(boards(fake)[-1])
    hindi(final.content, engine)
    assert "ने हार मान ली" in (final.content or ""), final.content
    assert "ख़त्म हुआ" in (final.content or ""), final.content
    # "Rematch" is the lobby's word too (its Hindi comes with the lobby's).
    assert labels(fake, final) == [t("hi", "Rematch"), "रीप्ले"]


async def test_the_same_game_in_the_pseudo_locale_is_marked_throughout(
    started: tuple[Path, list[FakeDiscord]],
) -> None:
    table = await open_table(started, "qps", "qps", "qps")
    fake = table.fake
    marked(fake.current(boards(fake)[-1]).content)
    mover = await table.mover()
    other = table.bhima if mover is table.asha else table.asha
    before = len(fake.dms(other))
    (played,) = replies(await play_first(table, mover))
    marked(played.content)
    assert "Played:" not in (played.content or "")
    marked(fake.current(boards(fake)[-1]).content)
    turn = [dm for dm in fake.dms(other)[before:] if dm.content]
    assert turn, "no turn DM"
    marked(turn[-1].content)
    (text, *_) = await table.legal_texts(other)
    (refused, *_) = replies(await fake.slash(mover, "game play", action=text))
    marked(refused.content)
    (view,) = [s for s in replies(await fake.slash(other, "game hand")) if s.files]
    marked(view.content)
    assert all("⟦" in p for p in placeholders(fake, view)), placeholders(fake, view)
    question, _ = await resign(table, other, t("qps", "Resign"))
    marked(question.content)
    final = fake.current(boards(fake)[-1])
    marked(final.content)
    assert all("⟦" in label for label in labels(fake, final)), labels(fake, final)


async def test_a_hindi_server_with_an_english_player_reads_hindi_and_they_read_english(
    started: tuple[Path, list[FakeDiscord]],
) -> None:
    """One message, one language: the channel's posts are the server's
    (Hindi); what asha alone reads, her replies and her DMs, is hers."""
    table = await open_table(started, "hi", "en-US", "hi")
    fake = table.fake
    asha, bhima = table.asha, table.bhima
    engine = await table.engine_words("hi")
    hindi(fake.current(boards(fake)[-1]).content, engine)
    mover = await table.mover()
    if mover is bhima:
        # bhima, in Hindi, moves first; then it is asha's turn, by DM.
        before = len(fake.dms(asha))
        (played,) = replies(await play_first(table, bhima))
        assert (played.content or "").startswith("आपने चाल चली:"), played.content
        hindi(fake.current(boards(fake)[-1]).content, await table.engine_words("hi"))
        turn = [dm for dm in fake.dms(asha)[before:] if dm.content]
        assert turn and (turn[-1].content or "").startswith("Your turn in Artaban #"), turn
    # asha moves: her reply in English, the board in Hindi.
    (played,) = replies(await play_first(table, asha))
    assert (played.content or "").startswith("Played: "), played.content
    assert not DEVANAGARI.search(played.content or ""), played.content
    board = fake.current(boards(fake)[-1])
    hindi(board.content, await table.engine_words("hi"))
    # Out of turn, she is refused in English.
    (text, *_) = await table.legal_texts(bhima)
    (refused, *_) = replies(await fake.slash(asha, "game play", action=text))
    assert (refused.content or "").startswith("It is not your turn"), refused.content
    # She resigns in English; the channel is told in Hindi.
    question, _ = await resign(table, asha, "Resign")
    assert (question.content or "").startswith("Resign Artaban #"), question.content
    final = fake.current(boards(fake)[-1])
    hindi(final.content, await table.engine_words("hi"))
    assert "ने हार मान ली" in (final.content or ""), final.content


def test_time_left_and_points_read_as_before_in_english_and_in_hindi_words() -> None:
    from bot.outgoing import left_text, points_in, points_text
    from bot.timekeeping import format_left

    for seconds in (0, 59, 60, 3600, 3660, 86400, 90000, 3 * 86400 + 7200):
        assert left_text(seconds) == format_left(seconds)
        assert left_text(seconds, "hi") != format_left(seconds)
        assert DEVANAGARI.search(left_text(seconds, "hi"))
    assert left_text(90000, "hi") == "1 दिन 1 घंटे"
    for value in (0, 0.5, 1, 1.5, 3):
        assert points_in(value) == points_text(value)
        assert "⟦" in points_in(value, "qps")
