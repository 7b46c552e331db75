"""GameService: the only writer of game state, over real SQLite files."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engines import ENGINES
from bot.engines.core import GameError, IllegalAction, NotYourTurn, progress_seat
from bot.service import GameBroken, GameService, Player, ServiceError, StaleBoard
from storage.database import Database
from storage.games import GameStore
from storage.opening import open_database
from tests.fakes import quick_thinking

PLAYERS = [
    Player(100 + i, name) for i, name in enumerate(["Asha", "Bhima", "Chitra", "Dev", "Esha"])
]


class Seeded:
    """A reproducible chance source shared by two runs of the same game."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        return self.rng.random()


async def open_service(
    path: Path | str, draw: Any, snapshot_every: int = 7
) -> tuple[Database, GameService]:
    db = await open_database(path)
    return db, GameService(
        GameStore(db),
        draw=draw,
        snapshot_every=snapshot_every,
        thinker=quick_thinking(),
        think_pad={},
    )


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    db, svc = await open_service(tmp_path / "game.sqlite3", Seeded(1))
    yield svc
    await db.close()


async def started(svc: GameService, engine: str, players: int) -> int:
    game = await svc.new_game(engine, creator=PLAYERS[0], guild_id=1, channel_id=10)
    for p in PLAYERS[1:players]:
        await svc.join(game.id, p)
    result = await svc.start(game.id, PLAYERS[0].user_id, moderator=False)
    return result.game.id


async def play_random(svc: GameService, game_id: int, moves: int, rng: random.Random) -> int:
    played = 0
    while played < moves:
        game = await svc.get(game_id)
        if game.is_over:
            break
        seat = progress_seat(game.engine, game.state)
        text = rng.choice(svc.legal_texts(game, seat))
        await svc.play(game_id, game.user_of(seat), text)
        played += 1
    return played


@pytest.mark.parametrize("engine", sorted(ENGINES))
async def test_restart_mid_game_finishes_identically(tmp_path: Path, engine: str) -> None:
    """Play part of a game, close the database, reopen it with a new service
    and finish: the final state equals an uninterrupted run's."""
    players = ENGINES[engine].max_players

    async def run(path: Path, restart_after: int | None) -> Any:
        draw = Seeded(5)
        moves = random.Random(9)
        db, svc = await open_service(path, draw)
        game_id = await started(svc, engine, players)
        if restart_after is not None:
            await play_random(svc, game_id, restart_after, moves)
            await db.close()
            db, svc = await open_service(path, draw)
        await play_random(svc, game_id, 10_000, moves)
        game = await svc.get(game_id)
        state_json = json.dumps(game.engine.to_json(game.state), sort_keys=True)
        log = [(e.seq, e.actor, e.action) for e in await svc.store.log(game_id)]
        record = game.record
        await db.close()
        return state_json, log, record.status, record.outcome

    straight = await run(tmp_path / "straight.sqlite3", None)
    restarted = await run(tmp_path / "restarted.sqlite3", 23)
    assert restarted == straight
    assert straight[2] == "finished"
    assert straight[3] is not None


async def test_state_rebuilt_from_storage_alone_equals_cached(service: GameService) -> None:
    game_id = await started(service, "mahabharata", 3)
    await play_random(service, game_id, 30, random.Random(2))
    cached = (await service.get(game_id)).state
    service.forget(game_id)
    rebuilt = (await service.get(game_id)).state
    assert rebuilt == cached


async def test_stale_button_is_refused_and_changes_nothing(service: GameService) -> None:
    game_id = await started(service, "mahabharata", 2)
    game = await service.get(game_id)
    old_version = game.version
    await play_random(service, game_id, 1, random.Random(3))
    game = await service.get(game_id)
    before = (game.version, game.state)
    seat = min(game.engine.to_move(game.state))
    with pytest.raises(StaleBoard, match="out of date"):
        await service.play_path(game_id, game.user_of(seat), (0,), expected_version=old_version)
    game = await service.get(game_id)
    assert (game.version, game.state) == before
    assert len(await service.store.log(game_id)) == game.version


async def test_not_your_turn_and_non_player_are_refused(service: GameService) -> None:
    game_id = await started(service, "mahabharata", 2)
    game = await service.get(game_id)
    mover = min(game.engine.to_move(game.state))
    other = 1 - mover
    text = service.legal_texts(game, mover)[0]
    with pytest.raises(NotYourTurn):
        await service.play(game_id, game.user_of(other), text)
    with pytest.raises(ServiceError, match="not playing"):
        await service.play(game_id, 999, text)
    assert (await service.get(game_id)).version == game.version


async def test_illegal_and_garbage_actions_leave_the_game_unchanged(service: GameService) -> None:
    game_id = await started(service, "mahabharata", 2)
    game = await service.get(game_id)
    before = (game.version, game.state)
    mover = game.user_of(min(game.engine.to_move(game.state)))
    with pytest.raises(GameError):
        await service.play(game_id, mover, "fly to the moon")
    with pytest.raises(IllegalAction):
        await service.play(game_id, mover, "d1 none")  # R9: placing is possible
    game = await service.get(game_id)
    assert (game.version, game.state) == before


async def test_start_needs_creator_or_moderator_and_enough_players(service: GameService) -> None:
    game = await service.new_game("mahabharata", creator=PLAYERS[0], guild_id=1, channel_id=10)
    with pytest.raises(ServiceError, match="at least 2"):
        await service.start(game.id, PLAYERS[0].user_id, moderator=False)
    await service.join(game.id, PLAYERS[1])
    with pytest.raises(ServiceError, match="Only the player who opened"):
        await service.start(game.id, PLAYERS[1].user_id, moderator=False)
    result = await service.start(game.id, PLAYERS[1].user_id, moderator=True)
    assert result.game.record.status == "active"
    with pytest.raises(ServiceError, match="already started"):
        await service.join(game.id, PLAYERS[2])


async def test_lobby_is_full_at_max_players(service: GameService) -> None:
    game = await service.new_game("mahabharata", creator=PLAYERS[0], guild_id=1, channel_id=10)
    for p in PLAYERS[1:4]:
        await service.join(game.id, p)
    with pytest.raises(ServiceError, match="full"):
        await service.join(game.id, PLAYERS[4])
    with pytest.raises(ServiceError, match="already in"):
        await service.join(game.id, PLAYERS[1])


async def test_last_player_leaving_closes_the_lobby(service: GameService) -> None:
    game = await service.new_game("mahabharata", creator=PLAYERS[0], guild_id=1, channel_id=10)
    assert await service.leave(game.id, PLAYERS[0].user_id) is None
    record = await service.store.get_game(game.id)
    assert record is not None and record.status == "abandoned"


async def test_concurrent_moves_on_one_game_apply_once(service: GameService) -> None:
    game_id = await started(service, "mahabharata", 2)
    game = await service.get(game_id)
    seat = min(game.engine.to_move(game.state))
    texts = service.legal_texts(game, seat)
    version = game.version
    results = await asyncio.gather(
        *(
            service.play(game_id, game.user_of(seat), text, expected_version=version)
            for text in texts[:2]
        ),
        return_exceptions=True,
    )
    assert sum(1 for r in results if not isinstance(r, BaseException)) == 1
    assert any(isinstance(r, StaleBoard) for r in results)


async def test_resign_ends_a_two_player_game_with_the_resigner_last(
    service: GameService,
) -> None:
    game_id = await started(service, "mahabharata", 2)
    result = await service.resign(game_id, PLAYERS[1].user_id)
    assert result.game.outcome is not None
    assert result.game.outcome.ranking == (frozenset({0}), frozenset({1}))
    with pytest.raises(ServiceError, match="over"):
        await service.play(game_id, PLAYERS[0].user_id, "d1 screen")


async def test_resigning_from_three_hands_the_seat_to_the_automatic_player(
    service: GameService,
) -> None:
    game_id = await started(service, "mahabharata", 3)
    result = await service.resign(game_id, PLAYERS[1].user_id)
    game = result.game
    assert not game.is_over and game.record.status == "active"
    assert game.is_auto(1) and game.seats[1].left_order == 1
    # The automatic seat is never awaited: it plays as soon as it must.
    assert 1 not in game.engine.to_move(game.state)
    log = await service.store.log(game_id)
    assert any(e.action == "@left" and "resigned" in e.narration for e in log)
    with pytest.raises(ServiceError, match=r"already left|not your turn|not playing"):
        await service.resign(game_id, PLAYERS[1].user_id)
    await play_random(service, game_id, 400, random.Random(3))
    game = await service.get(game_id)
    assert game.is_over and game.outcome is not None
    assert game.outcome.ranking[-1] == frozenset({1})  # ranked last
    # Replaying from storage alone gives the same game (table events skipped).
    service.forget(game_id)
    again = await service.get(game_id)
    assert again.engine.to_json(again.state) == game.engine.to_json(game.state)


async def test_corrupt_log_reports_a_broken_game_without_leaking(tmp_path: Path) -> None:
    db, svc = await open_service(tmp_path / "c.sqlite3", Seeded(1), snapshot_every=1000)
    try:
        game_id = await started(svc, "mahabharata", 2)
        other_id = await started(svc, "mahabharata", 2)
        await play_random(svc, game_id, 3, random.Random(1))
        # Simulate a damaged file: rewrite one logged action behind the app's back.
        async with db.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'actions'"
        ) as cursor:
            for (trigger,) in await cursor.fetchall():
                await db.conn.execute(f"DROP TRIGGER {trigger}")
        await db.conn.execute(
            "UPDATE actions SET action = 'd9 secret-thing' WHERE game_id = ? AND seq = ?",
            (game_id, (await svc.store.log(game_id))[-1].seq),
        )
        await db.conn.commit()
        svc.forget(game_id)
        svc.forget(other_id)
        with pytest.raises(GameBroken) as broken:
            await svc.get(game_id)
        assert "secret-thing" not in str(broken.value)
        assert f"#{game_id}" in str(broken.value)
        assert (await svc.get(other_id)).state is not None
    finally:
        await db.close()


async def test_leaving_a_started_game_points_to_resign(service: GameService) -> None:
    game_id = await started(service, "mahabharata", 2)
    with pytest.raises(ServiceError, match="/game resign"):
        await service.leave(game_id, PLAYERS[1].user_id)
    assert len((await service.get(game_id)).seats) == 2


async def test_a_players_game_is_found_from_a_dm(service: GameService) -> None:
    """Typed in a DM (another channel id), a command finds the caller's one live game,
    and asks for the number when there are several."""
    game_id = await started(service, "mahabharata", 2)
    found = await service.find_game(
        channel_id=999, user_id=PLAYERS[0].user_id, game_id=None, want="mine"
    )
    assert found.id == game_id
    other = await started(service, "mahabharata", 2)
    with pytest.raises(ServiceError, match=f"#{game_id}, #{other}"):
        await service.find_game(
            channel_id=999, user_id=PLAYERS[0].user_id, game_id=None, want="mine"
        )
    with pytest.raises(ServiceError, match="no game of yours"):
        await service.find_game(channel_id=999, user_id=424242, game_id=None, want="mine")


async def test_a_player_whose_game_just_ended_is_told_it_is_over(service: GameService) -> None:
    game_id = await started(service, "kauda_baji", 2)
    await service.resign(game_id, PLAYERS[1].user_id)
    with pytest.raises(ServiceError, match=rf"Game #{game_id} is over"):
        await service.find_game(
            channel_id=10, user_id=PLAYERS[0].user_id, game_id=None, want="mine"
        )
    with pytest.raises(ServiceError, match="no game of yours"):
        await service.find_game(channel_id=10, user_id=999, game_id=None, want="mine")
