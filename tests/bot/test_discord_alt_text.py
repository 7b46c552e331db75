"""Alt text through discord.py's real dispatch (issue 33): every image the
bot sends in a whole game carries a description, at most 1,024 characters,
in the language of the message it goes with; a seat's own view's
description goes only where that view goes (a DM, an ephemeral reply)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.i18n import t
from tests.bot.driver import bot_of, make_bot, movers
from tests.discord_harness import FakeDiscord, FakeUser, Sent

DEVANAGARI = re.compile("[\u0900-\u097f]")
IMAGES = (".png", ".gif")


def images(sent: list[Sent]) -> list[tuple[Sent, str, str | None]]:
    return [
        (s, name, s.descriptions.get(name))
        for s in sent
        for name, _ in s.files
        if name.endswith(IMAGES)
    ]


def in_language(lang: str, text: str) -> bool:
    if lang == "hi":
        return bool(DEVANAGARI.search(text))
    if lang == "qps":
        return "⟦" in text
    return "⟦" not in text and not DEVANAGARI.search(text)


async def whole_game(
    tmp_path: Path, game: str, players: int, lang: str, options: str | None = None
) -> tuple[FakeDiscord, list[FakeUser], int]:
    """A game played to its end by ``/game play``, with the server and every
    player (and a follower of every board) in ``lang``; a private view
    asked for (``/game hand``), the replay posted, a review and the
    leaderboard at the end."""
    fake = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 5), guild_locale=lang)
    users = [fake.user(name, locale=lang) for name in ("asha", "bhima", "chitra")[:players]]
    follower = fake.user("dev", locale=lang)
    kwargs = {"options": options} if options else {}
    out = await fake.slash(users[0], "game new", game=game, **kwargs)
    lobby = next(s for s in out if s.route == "interaction.response")
    found = re.search(r"#(\d+)", lobby.content or "")
    assert found, lobby.content
    game_id = int(found[1])
    for user in users[1:]:
        await fake.slash(user, "game join")
    await fake.slash(users[0], "game start")
    await fake.slash(follower, "game follow", game=game_id, every_move=True)
    by_id = {u.id: u for u in users}
    rng = random.Random(3)
    asked = False
    for _ in range(3000):
        who = await movers(fake, game_id, by_id)
        if not who:
            break
        user = rng.choice(who)
        if not asked:
            await fake.slash(user, "game hand", game=game_id)
            asked = True
        choices = await fake.autocomplete(user, "game play", focused="action", action="")
        assert choices, "autocomplete offered no legal action"
        await fake.slash(user, "game play", action=rng.choice(choices)["value"])
    game_over = await bot_of(fake).service.get(game_id)
    assert game_over.is_over
    await fake.slash(users[0], "game replay", game=game_id)
    await fake.slash(users[0], "game review", game=game_id)
    await fake.slash(follower, "leaderboard", game=game)
    return fake, [*users, follower], game_id


@pytest.mark.parametrize(
    ("game", "players", "lang", "options"),
    [
        ("sangram", 3, "hi", "round_limit=2"),
        ("artaban", 2, "qps", None),
    ],
)
async def test_every_image_of_a_whole_game_is_described_in_its_messages_language(
    tmp_path: Path, game: str, players: int, lang: str, options: str | None
) -> None:
    fake, _users, _ = await whole_game(tmp_path, game, players, lang, options)
    shown = images(fake.world.sent)
    kinds = {name.rsplit("-", 1)[-1] for _, name, _ in shown}
    # Boards, private views, the replay, the review's images and the
    # leaderboard (``leaderboard-<game>.png``) were all sent.
    assert {"private.png", "replay.gif", "review.png", f"{game}.png"} <= kinds, kinds
    assert any(s.route.startswith("dm.") for s, _, _ in shown)
    for s, name, description in shown:
        assert description, (s, name)
        assert len(description) <= 1024, (name, len(description))
        assert in_language(lang, description), (s, name, description)
        private = name.endswith(("-private.png", "-yours.png"))
        if private:
            # A seat's own view goes only to its reader.
            assert s.ephemeral or s.route.startswith("dm."), (s, name)
    # No public image's description tells what only a seat's view tells.
    marker = {
        "sangram": t(lang, "Your Total Army Strength: {total}.", total=0).split("0")[0],
        "artaban": t(lang, "Your set-up in Artaban: values {total} of 28.", total=0).split("0")[0],
    }[game]
    public = [
        d
        for s, name, d in shown
        if not name.endswith(("-private.png", "-yours.png"))
        and not s.ephemeral
        and not s.route.startswith("dm.")
    ]
    assert public
    assert not any(marker in (d or "") for d in public), marker
    assert any(marker in (d or "") for _, _, d in shown), "no private description was sent"
    await fake.close()


async def test_a_tournaments_standings_images_are_described(tmp_path: Path) -> None:
    """The final announcement's standings (the server's language) and
    ``/tournament standings`` (the asker's): each image described, every
    player in it, in the message's language."""
    from tests.bot.driver import resign
    from tests.bot.test_discord_tournaments import Cup

    cup = Cup(tmp_path / "cup.sqlite3", 11)
    await cup.open(3)
    tid, announcement = await cup.new("artaban", "round_robin")
    await cup.join_everyone(announcement)
    await cup.start()
    languages = bot_of(cup.fake).languages
    await languages.choose_for_server(cup.fake.guild_id, "hi")
    await languages.choose_for_player(cup.players[0].id, "qps")
    for round in (1, 2, 3):
        for table in await cup.tables(round):
            if table.game_id is not None:
                await resign(cup.fake, cup.by_id[table.seats[1]], game=table.game_id)
        await cup.fake.settle()
    assert (await cup.record()).status == "finished"
    mark = len(cup.fake.sent)
    out = await cup.fake.slash(cup.players[0], "tournament standings", tournament=tid)
    final = [
        (s, d)
        for s, name, d in images(cup.fake.world.sent[:mark])
        if name == "standings.png" and not s.ephemeral
    ]
    asked = [(s, d) for s, name, d in images(out) if name == "standings.png"]
    assert final and asked
    for (s, description), lang in [*((f, "hi") for f in final), *((a, "qps") for a in asked)]:
        assert description and len(description) <= 1024, (s, description)
        assert in_language(lang, description), (lang, description)
        for player in cup.players:
            assert player.name in description, (player.name, description)
    await cup.fake.close()
