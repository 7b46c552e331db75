"""Whole games through Discord's dispatch in any language (issue 33).

The driver in ``tests/bot/driver.py`` finds buttons by their English labels
and a move by its English "Played:" reply; this one reads nothing a
translation changes: buttons and selects by their custom_ids, the game by
its number in them, a move by the game's version going up.  Each decision
is made the ways players make them, in turn: ``/game play`` with what its
autocomplete offers, a pick on the board, or ``/game hand`` and its menu.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from bot.edge.tables.menus import board_menu
from bot.engines import get_engine
from bot.engines.core import CHANCE
from tests.bot.driver import NAMES, board_picks, boards, bot_of, make_bot, press
from tests.discord_harness import FakeDiscord, FakeUser, Sent
from tests.i18n.reading import Reading

__all__ = ["Played", "play_whole_game"]

_LOBBY = re.compile(r"^chaupal:lobby:(\d+):(join|start)$")

OPTIONS: dict[str, str] = {
    # The shortest games the rules allow, so a whole game stays quick.
    "kauda_baji": "pieces=1",
}


@dataclass
class Played:
    fake: FakeDiscord
    game_id: int
    users: list[FakeUser]
    reading: Reading
    decisions: int = 0
    ways: dict[str, int] = field(default_factory=dict)

    @property
    def sent(self) -> list[Sent]:
        return self.fake.sent


def _button(fake: FakeDiscord, message: Sent, kind: str) -> str:
    for button in fake.buttons(message):
        found = _LOBBY.match(button.get("custom_id", ""))
        if found and found[2] == kind:
            return str(button["custom_id"])
    raise AssertionError(f"no {kind} button on {message}")


async def _walk(
    fake: FakeDiscord,
    user: FakeUser,
    out: list[Sent],
    game_id: int,
    version: int,
    rng: random.Random,
) -> bool:
    """Choose at random in the menus ``out`` brought until the game moves."""
    service = bot_of(fake).service
    for _ in range(12):
        if (await service.get(game_id)).version > version:
            return True
        menu = next((s for s in reversed(out) if s.message_id and fake.selects(s.message_id)), None)
        if menu is None:
            return False
        select = rng.choice(fake.selects(menu.message_id or 0))
        value = rng.choice(select["options"])["value"]
        out = await fake.select(user, menu.message_id or 0, select["custom_id"], [value])
    return (await service.get(game_id)).version > version


async def play_whole_game(
    tmp_path: Path,
    game: str,
    *,
    locale: str,
    guild_locale: str,
    seed: int = 1,
    max_decisions: int = 3000,
) -> Played:
    """One whole game of ``game`` by its fewest players, all with ``locale``,
    in a server whose language is ``guild_locale``."""
    engine = get_engine(game)
    count = engine.min_players
    bot = make_bot(tmp_path / f"{game}.sqlite3", seed)
    fake = await FakeDiscord.start(bot, guild_locale=guild_locale)
    users = [fake.user(name, locale=locale) for name in NAMES[:count]]
    options = {"options": OPTIONS[game]} if game in OPTIONS else {}
    out = await fake.slash(users[0], "game new", game=game, **options)
    lobby = next(s for s in out if s.route == "interaction.response" and not s.ephemeral)
    join = _button(fake, lobby, "join")
    found = _LOBBY.match(join)
    assert found is not None
    game_id = int(found[1])
    for user in users[1:]:
        await fake.click(user, lobby, join)
    await fake.click(users[0], fake.current(lobby), _button(fake, fake.current(lobby), "start"))
    service = bot_of(fake).service
    rng = random.Random(seed)
    played = Played(fake, game_id, users, Reading(names={u.name for u in users}))
    by_id = {u.id: u for u in users}
    for turn in range(max_decisions):
        live = await service.get(game_id)
        if live.is_over:
            break
        movers = live.engine.to_move(live.state) - {CHANCE}
        assert movers, f"game #{game_id} waits on nobody"
        seat = rng.choice(sorted(movers))
        user = by_id[live.user_of(seat)]
        version = live.version
        way = ("command", "board", "hand")[turn % 3]
        if way == "board" and seat not in board_menu(live).seats:
            way = "hand"
        moved = False
        if way == "command":
            choices = await fake.autocomplete(user, "game play", focused="action", action="")
            if choices:
                await fake.slash(user, "game play", action=rng.choice(choices)["value"])
                moved = (await service.get(game_id)).version > version
        elif way == "board":
            board = fake.current(boards(fake)[-1])
            picks = board_picks(fake, board)
            if picks:
                out = await press(fake, user, board, rng.choice(picks))
                moved = await _walk(fake, user, out, game_id, version, rng)
        if not moved:
            way = "hand"
            out = await fake.slash(user, "game hand", game=game_id)
            moved = await _walk(fake, user, out, game_id, version, rng)
        assert moved, f"{user.name} could not move in game #{game_id} ({way})"
        played.decisions += 1
        played.ways[way] = played.ways.get(way, 0) + 1
        await fake.settle()
    live = await service.get(game_id)
    assert live.is_over, f"game #{game_id} did not end in {max_decisions} decisions"
    # The moves' notation, as typed: it is the game's, not a language's.
    log = await bot_of(fake).store.log(game_id)
    for entry in log:
        if not entry.action.startswith("@"):
            played.reading.notation.update(entry.action.split())
    return played
