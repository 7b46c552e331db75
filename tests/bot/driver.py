"""Playing any registered game through Discord, for the bot tests.

Everything here goes through discord.py's real dispatch (``FakeDiscord``):
slash commands, autocomplete, board buttons and the menus they open.  The
bot's own service is read only to know who must act (what a player would see
on the board).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from bot.client import ChaupalBot
from bot.config import Settings
from bot.engines.core import CHANCE
from tests.discord_harness import FakeDiscord, FakeUser, Sent

Style = Literal["buttons", "command", "hand"]

CUSTOM_ID = re.compile(
    r"^chaupal:(lobby:\d+:(join|leave|start)|pick:\d+:\d+:[\d.]*|menu:\d+:\d+:[\d.]*:\d+|mine:\d+|tournament:\d+:(join|leave))$"
)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def make_bot(path: Path, seed: int, clock: Callable[[], float] | None = None) -> ChaupalBot:
    settings = Settings(
        token=None,
        dev_guild_id=None,
        database_path=path,
        log_level="DEBUG",
        snapshot_every=5,
        render_workers=0,
    )
    return ChaupalBot(
        settings, draw=random.Random(seed).random, sync_commands=False, clock=clock
    )


def bot_of(fake: FakeDiscord) -> ChaupalBot:
    bot = fake.bot
    assert isinstance(bot, ChaupalBot)
    return bot


def boards(fake: FakeDiscord) -> list[Sent]:
    return [
        s
        for s in fake.channel_posts()
        if s.route == "channel.send" and any(name.endswith(".png") for name, _ in s.files)
    ]


async def open_lobby(
    fake: FakeDiscord, game: str, creator: FakeUser, *joiners: FakeUser, options: str | None = None
) -> tuple[int, Sent]:
    """``/game new``, then joins alternating between the button and ``/game join``."""
    kwargs = {"options": options} if options else {}
    out = await fake.slash(creator, "game new", game=game, **kwargs)
    lobby = next(s for s in out if s.route == "interaction.response")
    assert not lobby.ephemeral, lobby
    found = re.search(r"game #(\d+)", lobby.content or "")
    assert found, lobby.content
    game_id = int(found[1])
    for i, user in enumerate(joiners):
        if i % 2 == 0:
            await fake.click(user, lobby, fake.find_button(lobby, label="Join")["custom_id"])
        else:
            await fake.slash(user, "game join")
    return game_id, lobby


async def start(fake: FakeDiscord, creator: FakeUser, lobby: Sent) -> Sent:
    await fake.click(creator, lobby, fake.find_button(lobby, label="Start")["custom_id"])
    return boards(fake)[-1]


async def movers(fake: FakeDiscord, game_id: int, users: dict[int, FakeUser]) -> list[FakeUser]:
    game = await bot_of(fake).service.get(game_id)
    if game.is_over:
        return []
    seats = sorted(game.engine.to_move(game.state) - {CHANCE})
    return [users[game.user_of(s)] for s in seats]


async def walk_menu(
    fake: FakeDiscord, user: FakeUser, out: list[Sent], rng: random.Random
) -> list[Sent]:
    """From a reply holding a menu, choose at random until a move is played."""
    for _ in range(8):
        if any((s.content or "").startswith("Played:") for s in out):
            return out
        menu = next((s for s in reversed(out) if s.message_id and fake.selects(s.message_id)), None)
        if menu is None:
            raise AssertionError(f"no menu and no move: {out}")
        select = rng.choice(fake.selects(menu.message_id or 0))
        value = rng.choice(select["options"])["value"]
        out = await fake.select(user, menu.message_id or 0, select["custom_id"], [value])
    raise AssertionError(f"menus never reached a move: {out}")


async def play_by_buttons(fake: FakeDiscord, user: FakeUser, rng: random.Random) -> list[Sent]:
    """A choice button on the newest board (or its "Choose…"), then menus."""
    board = fake.current(boards(fake)[-1])  # a board may have been edited in place
    picks = [b for b in fake.buttons(board) if b["custom_id"].startswith("chaupal:pick:")]
    assert picks, f"no choice buttons on {board}"
    out = await fake.click(user, board, rng.choice(picks)["custom_id"])
    return await walk_menu(fake, user, out, rng)


async def play_by_hand(
    fake: FakeDiscord, user: FakeUser, rng: random.Random, game_id: int | None = None
) -> list[Sent]:
    """``/game hand`` (the DM fallback), then its menu."""
    kwargs = {"game": game_id} if game_id is not None else {}
    out = await fake.slash(user, "game hand", **kwargs)
    assert any(s.files and s.ephemeral for s in out), out
    return await walk_menu(fake, user, out, rng)


async def play_by_command(
    fake: FakeDiscord, user: FakeUser, rng: random.Random, *, prefer: str | None = None
) -> list[Sent]:
    """``/game play`` with a value autocomplete offered (``prefer``: typed text)."""
    choices = await fake.autocomplete(user, "game play", focused="action", action=prefer or "")
    assert choices, "autocomplete offered no legal action"
    out = await fake.slash(user, "game play", action=rng.choice(choices)["value"])
    assert any((s.content or "").startswith("Played:") and s.ephemeral for s in out), out
    return out


async def play_turn(
    fake: FakeDiscord,
    game_id: int,
    users: dict[int, FakeUser],
    rng: random.Random,
    style: Style,
) -> FakeUser | None:
    """One player's move in whatever way ``style`` says (falling back to the
    hand menu when a decision is private).  Returns who moved."""
    who = await movers(fake, game_id, users)
    if not who:
        return None
    user = rng.choice(who)
    game = await bot_of(fake).service.get(game_id)
    seat = game.seat_of(user.id)
    public = seat in game.engine.waiting_on(game.state)
    single = len(game.engine.to_move(game.state) - {CHANCE}) == 1
    if style == "buttons" and public and single and game.engine.choices_are_public(
        game.state, seat
    ):
        await play_by_buttons(fake, user, rng)
    elif style == "command":
        await play_by_command(fake, user, rng)
    else:
        await play_by_hand(fake, user, rng, game_id)
    return user


def assert_no_secret_ids(fake: FakeDiscord) -> None:
    """Every custom_id the bot ever sent is one of ours: ids and indices only."""
    for sent in fake.sent:
        for row in sent.components:
            for item in row.get("components", []):
                if "custom_id" in item:
                    assert CUSTOM_ID.match(item["custom_id"]), item["custom_id"]
