"""Games played through the real service on a disk that fills up (issue 29, item 6).

:class:`Table` plays random moves of several games, one at a time, the way
players would.  :func:`fill_free_a_little_and_play_on` is the issue's story:
five new games, the disk fills, the operator frees a little space, the
players carry on and the bot is restarted.  It needs a small disk of its
own, so ``tests/storage/test_full_disk.py`` runs this module in a child
process on a tmpfs mounted in a new user and mount namespace::

    python -m tests.storage.full_disk FOLDER FREED_BYTES

and reads the JSON it prints.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import random
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from bot.engines import ENGINES
from bot.engines.core import progress_seat
from bot.service import GameService, Player
from storage.database import Database
from storage.errors import DatabaseNotWritable, StorageUnavailable
from storage.games import GameStore
from storage.opening import open_database
from tests.fakes import Seeded

PLAYERS = [Player(100 + i, name) for i, name in enumerate(["Asha", "Bhima", "Chitra", "Dev"])]

#: Moves the players try after the operator freed some space; all must succeed.
MOVES_AFTER_FREEING = 30


def wal_size(database_file: Path) -> int:
    """Bytes in the write-ahead log beside *database_file* (0 when there is none)."""
    wal = database_file.with_name(database_file.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


async def open_service(database_file: Path) -> tuple[Database, GameService]:
    database = await open_database(database_file)
    return database, GameService(GameStore(database), draw=Seeded(1))


class Table:
    """Games of every engine, played in turn with random legal moves."""

    def __init__(self, service: GameService, seed: int = 4) -> None:
        self.service = service
        self.moves = random.Random(seed)
        self.games: list[int] = []
        self._next_engine = 0

    async def new_game(self) -> int:
        """Open, fill and start a game of the next engine (its fewest players)."""
        engine = sorted(ENGINES)[self._next_engine % len(ENGINES)]
        self._next_engine += 1
        service = self.service
        game = await service.new_game(engine, creator=PLAYERS[0], guild_id=1, channel_id=10)
        for player in PLAYERS[1 : ENGINES[engine].min_players]:
            await service.join(game.id, player)
        await service.start(game.id, PLAYERS[0].user_id, moderator=False)
        self.games.append(game.id)
        return game.id

    async def play_one(self) -> None:
        """One move in the oldest game still going (a new game when none is)."""
        for game_id in list(self.games):
            game = await self.service.get(game_id)
            if game.is_over:
                self.games.remove(game_id)
                continue
            seat = progress_seat(game.engine, game.state)
            text = self.moves.choice(self.service.legal_texts(game, seat))
            await self.service.play(game_id, game.user_of(seat), text)
            return
        await self.new_game()


def fill(disk_filler: Path) -> int:
    """Write *disk_filler* until the disk is full; return its size."""
    chunk = b"\0" * 4096
    with disk_filler.open("wb", buffering=0) as out:
        while True:
            try:
                out.write(chunk)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
    return disk_filler.stat().st_size


@dataclass
class FullDiskStory:
    """What happened, for the test to judge."""

    wal_before_full: int
    """The log's bytes after five new games, before the disk filled."""
    moves_until_full: int
    """Moves that still succeeded on the full disk before one was refused."""
    moves_after_freeing: int
    """Moves that succeeded, of MOVES_AFTER_FREEING, after a little space was freed."""
    refused_after_freeing: str | None
    """The first refusal after freeing space (StorageUnavailable's problem), if any."""
    restart: str
    """``started``, or why open_database refused the file."""
    move_after_restart: str
    """``played``, or why the first move after the restart was refused."""


async def fill_free_a_little_and_play_on(folder: Path, freed: int) -> FullDiskStory:
    """Five new games on the disk holding *folder*; fill it, free *freed*
    bytes, play on, restart."""
    database_file = folder / "chaupal.sqlite3"
    database, service = await open_service(database_file)
    table = Table(service)
    try:
        for _ in range(5):
            await table.new_game()
            for _ in range(8):
                await table.play_one()
        wal_before_full = wal_size(database_file)

        disk_filler = folder / "something-else"
        fill(disk_filler)
        moves_until_full = 0
        try:
            for _ in range(1000):
                await table.play_one()
                moves_until_full += 1
        except StorageUnavailable as exc:
            if exc.problem != "full":
                raise

        # The operator frees a little space (another program's file shrinks).
        os.truncate(disk_filler, max(0, disk_filler.stat().st_size - freed))
        moves_after_freeing = 0
        refused: str | None = None
        try:
            for _ in range(MOVES_AFTER_FREEING):
                await table.play_one()
                moves_after_freeing += 1
        except StorageUnavailable as exc:
            refused = exc.problem
    finally:
        await database.close()

    move_after_restart = "not tried"
    try:
        database, service = await open_service(database_file)
    except DatabaseNotWritable as exc:
        restart = str(exc)
    else:
        restart = "started"
        try:
            table.service = service
            await table.play_one()
            move_after_restart = "played"
        except StorageUnavailable as exc:
            move_after_restart = exc.problem
        finally:
            await database.close()
    return FullDiskStory(
        wal_before_full=wal_before_full,
        moves_until_full=moves_until_full,
        moves_after_freeing=moves_after_freeing,
        refused_after_freeing=refused,
        restart=restart,
        move_after_restart=move_after_restart,
    )


def main(argv: list[str]) -> None:
    folder, freed = Path(argv[0]), int(argv[1])
    story = asyncio.run(fill_free_a_little_and_play_on(folder, freed))
    print(json.dumps(asdict(story)))


if __name__ == "__main__":
    main(sys.argv[1:])
