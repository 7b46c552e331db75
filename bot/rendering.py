"""Rendering off the event loop.

Pillow drawing holds the GIL, so render threads starve the event loop (each
aiosqlite round trip waits for the GIL behind them): under load a 1 ms move
took 35-70 ms.  A render *process* keeps the loop free; views are small
picklable values and PNGs come back as bytes.  ``workers=0`` renders in a
thread instead (tests, tiny hosts).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from bot.replay import GameRecord
    from bot.tenure import Reader

from bot.pools import CLOSE_TIMEOUT, spawn_pool, stop_pool
from renderers import get_renderer
from renderers.common import to_png

log = logging.getLogger(__name__)

#: How long one image may take, queueing included, before it is given up:
#: far above a busy pool's worst case, far below "for ever".
RENDER_TIMEOUT = 60.0


def render_png(
    engine_name: str, kind: str, view: Any, names: Sequence[str], lang: str = "en"
) -> bytes:
    """Draw and encode one image, its words in ``lang``; runs in the pool."""
    renderer = get_renderer(engine_name)
    draw = renderer.board if kind == "board" else renderer.private
    return to_png(draw(view, names=list(names), lang=lang))


UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's upload limit for a bot's message (10 MiB), for the files of one
message together; a replay aims at 8 MB (``renderers.replay.BUDGET``)."""

REPLAY_TIMEOUT = 300.0
"""A replay draws at most ``renderers.replay.MAX_FRAMES`` frames: the longest
Kauda Baji game takes about 4 s of one core, never minutes."""

T = TypeVar("T")


@dataclass(frozen=True)
class Replay:
    """A game's animated replay and what it shows, so that the message it is
    posted with can say so (how many moves, whether sampled)."""

    data: bytes
    """The GIF."""
    frames: int
    """Pictures in the GIF (the start, then the moves kept)."""
    moves: int
    """The moves of the game the replay covers (the last frame's number)."""
    scale: float = 1.0
    """1.0: each board at its own size; less when the budget shrank it."""
    over: bool = True
    """False for a game still being played (a replay up to now)."""
    cap: int = 0
    """The most pictures a replay keeps, when the game had more and that cap
    alone left moves out (0: it did not, or the upload limit left out more)."""

    @property
    def sampled(self) -> bool:
        return self.frames < self.moves + 1

    @property
    def step(self) -> int:
        """About every how many moves a frame is kept (1: every move)."""
        if not self.sampled:
            return 1
        return max(2, round(self.moves / max(1, self.frames - 1)))


def draw_replay(record: GameRecord, budget: int | None = None, lang: str = "en") -> Replay:
    """A game's animated replay from its *complete* record, its words
    (headlines, counters, boards) in ``lang``; runs in the pool.  The frames
    are the public views only (:mod:`bot.replay`)."""
    from bot.replay import frames
    from renderers.replay import BUDGET, MAX_FRAMES, encode_replay

    shown = frames(record)
    encoded = encode_replay(
        get_renderer(record.engine),
        shown,
        record.names,
        budget=BUDGET if budget is None else budget,
        lang=lang,
    )
    return Replay(
        encoded.data,
        encoded.frames,
        shown[-1].move,
        encoded.scale,
        shown[-1].over,
        MAX_FRAMES if encoded.capped else 0,
    )


def render_replay(record: GameRecord, budget: int | None = None, lang: str = "en") -> bytes:
    """The GIF bytes alone (the demo, the command line)."""
    return draw_replay(record, budget, lang).data


class ReplayCache:
    """The replays drawn last, newest kept, bounded by count and by bytes.

    One per :class:`RenderPool`, so per process (like the pools: a second
    process draws a replay once more).  Keyed by ``(game id, version)``: a
    game that moved on is a new key, and a finished game's replay never
    changes, so nothing needs invalidating; the oldest fall out."""

    def __init__(self, max_entries: int = 8, max_bytes: int = 64_000_000) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._items: OrderedDict[Hashable, Replay] = OrderedDict()
        self.bytes = 0

    def get(self, key: Hashable) -> Replay | None:
        replay = self._items.get(key)
        if replay is not None:
            self._items.move_to_end(key)
        return replay

    def put(self, key: Hashable, replay: Replay) -> None:
        if len(replay.data) > self.max_bytes:
            return
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= len(old.data)
        self._items[key] = replay
        self.bytes += len(replay.data)
        while len(self._items) > self.max_entries or self.bytes > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self.bytes -= len(dropped.data)

    def __len__(self) -> int:
        return len(self._items)


# -- one frame of a game, for /game review ----------------------------------------------


@dataclass(frozen=True)
class Shot:
    """One frame of a game as ``/game review`` shows it: the public board at
    that move, and (when asked for a seat) that seat's own view of the same
    moment.  ``lines`` keep their ``{p0}`` tags (the edge fills them, escaped)."""

    index: int
    """The frame shown, from 0 (the start): the one asked for, kept in range."""
    count: int
    """Frames in the whole game (the last is ``count - 1``)."""
    move: int
    last_move: int
    version: int
    lines: tuple[str, ...]
    over: bool
    board: bytes
    """PNG: the public board (``engine.view(state, None)``)."""
    private: bytes | None
    """PNG: the asked seat's own view at that moment, None when not asked or
    when that seat had nothing hidden then."""
    menu: tuple[tuple[int, int, str], ...]
    """The frames the finest "go to a move" select offers (the range holding
    the frame shown: :func:`bot.replay.menu_levels`): (index, move, headline
    with plain names)."""


REVIEW_FRAMES = 4
"""Games whose frames a process keeps for ``/game review`` (one press after
another rebuilds none; the longest Kauda Baji game takes about 0.3 s)."""
_review_frames: OrderedDict[str, list[Any]] = OrderedDict()
_review_lock = threading.Lock()


def _frames_of(record: GameRecord) -> list[Any]:
    """The record's frames, kept per process by the record's own text (two
    games, or two versions of one, never share an entry)."""
    from bot.replay import frames

    key = hashlib.sha256(record.format().encode()).hexdigest()
    with _review_lock:
        found = _review_frames.get(key)
        if found is not None:
            _review_frames.move_to_end(key)
            return found
    built = frames(record)
    with _review_lock:
        _review_frames[key] = built
        while len(_review_frames) > REVIEW_FRAMES:
            _review_frames.popitem(last=False)
    return built


def render_shot(record: GameRecord, index: int, reader: Reader | None, lang: str = "en") -> Shot:
    """Frame ``index`` of a game (kept in range) drawn for ``/game review``,
    its images and menu headlines in ``lang``; runs in the pool. ``reader``: also draw the view
    of the seat they held at that moment (:meth:`bot.tenure.Reader.seat_at` the frame's version:
    a player who left sees their seat up to the position they left, a member who took one over
    from the position they were handed; the edge asks only for a finished game). The complete
    record is needed to rebuild the state; only the public view and the reader's seat's view are
    drawn from it.
    """
    from bot.engines import get_engine
    from bot.replay import menu_levels, position_since, state_at

    shown = _frames_of(record)
    index = min(max(index, 0), len(shown) - 1)
    frame = shown[index]
    names = list(record.names)
    board = render_png(record.engine, "board", frame.view, names, lang)
    private = None
    seat = None
    if reader is not None:
        # The position stood from before the table events the frame folds
        # in: a player who left sees the one they left, and a member who
        # took a seat over the one they were handed (it was theirs to see).
        for version in range(frame.version, position_since(record, frame.version) - 1, -1):
            seat = reader.seat_at(version)
            if seat is not None:
                break
    if seat is not None:
        engine = get_engine(record.engine)
        view = engine.view(state_at(record, frame.version), seat)
        if getattr(view, "me", None) is not None:
            private = render_png(record.engine, "private", view, names, lang)
    finest = menu_levels(len(shown), index)[-1]
    menu = tuple((a, shown[a].move, shown[a].headline(names, lang)) for a, _ in finest.options)
    return Shot(
        index=index,
        count=len(shown),
        move=frame.move,
        last_move=shown[-1].move,
        version=frame.version,
        lines=frame.lines,
        over=frame.over,
        board=board,
        private=private,
        menu=menu,
    )


def public_record_text(record: GameRecord, reader: Reader | None) -> tuple[str, int]:
    """A member's export of a game: the public record for ``reader`` (their
    seat's own lines kept while they held it) as text, and how many lines it
    hides; runs in the pool (it replays the whole game)."""
    from bot.replay import public_record

    public = public_record(record, reader)
    return public.format(), public.hidden_actions


def _warm_up() -> None:
    # Import the engines' view types and load fonts once per worker.
    import bot.engines  # noqa: F401


class RenderTimeout(TimeoutError):
    """An image took longer than :attr:`RenderPool.render_timeout` to draw."""


class RenderPool:
    def __init__(
        self,
        workers: int = 1,
        *,
        render_timeout: float = RENDER_TIMEOUT,
        replay_timeout: float = REPLAY_TIMEOUT,
        replay_cache: ReplayCache | None = None,
    ) -> None:
        self.workers = workers
        self.render_timeout = render_timeout
        self.replay_timeout = replay_timeout
        self.replays = replay_cache if replay_cache is not None else ReplayCache()
        self._executor: Executor | None = None
        self._replay_executor: Executor | None = None
        """Replays draw in a process of their own: a long game's replay
        takes seconds (about 4 s for the longest Kauda Baji game), and boards
        queued behind it in the board workers would wait as long."""
        self._drawing: dict[Hashable, asyncio.Future[Replay]] = {}

    def _pool(self, lane: str = "board") -> Executor | None:
        if self.workers <= 0:
            return None
        if lane == "replay":
            if self._replay_executor is None:
                self._replay_executor = spawn_pool(1, _warm_up)
            return self._replay_executor
        if self._executor is None:
            self._executor = spawn_pool(self.workers, _warm_up)
        return self._executor

    async def png(
        self, engine_name: str, kind: str, view: Any, names: Sequence[str], lang: str = "en"
    ) -> bytes:
        """Draw one image off the event loop, its words in ``lang`` (issue
        33); :class:`RenderTimeout` if it hangs.

        A hung worker would otherwise hold up its game's delivery for ever
        (and every image queued behind it); its processes are replaced.
        """
        return await self._run(
            render_png,
            (engine_name, kind, view, list(names), lang),
            self.render_timeout,
            f"a {engine_name} {kind} image",
        )

    async def replay(
        self,
        record: GameRecord,
        *,
        key: Hashable | None = None,
        budget: int | None = None,
        lang: str = "en",
    ) -> Replay:
        """A game's animated replay (a GIF under 8 MB, and what it shows)
        drawn in the pool, its words in ``lang``, with its own longer time
        limit (:data:`REPLAY_TIMEOUT`).

        ``record`` is the game's *complete* record (:func:`bot.replay.load_record`):
        the worker needs every action to rebuild the states, and draws only
        public views.  ``key`` (default ``(game id, number of log entries)``)
        finds it in :attr:`replays`, this process's cache, so a second request
        is served without drawing; two requests at once draw it once.  The
        language is part of the cache's key (a replay in Hindi is another
        GIF); a given ``key`` is kept as it is for English, and paired with
        the language for any other."""
        if key is None and record.game_id is not None:
            key = (record.game_id, len(record.actions))
        if key is not None and lang != "en":
            key = (key, lang)
        if key is None:
            return await self._draw_replay(record, budget, lang)
        cached = self.replays.get(key)
        if cached is not None:
            return cached
        drawing = self._drawing.get(key)
        if drawing is not None:
            return await asyncio.shield(drawing)
        future: asyncio.Future[Replay] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            replay = await self._draw_replay(record, budget, lang)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._drawing.pop(key, None)
        self.replays.put(key, replay)
        future.set_result(replay)
        return replay

    async def _draw_replay(
        self, record: GameRecord, budget: int | None, lang: str = "en"
    ) -> Replay:
        # Looked up at call time, so a test can count the renders.
        # English is drawn as before the language came (two arguments: a
        # stand-in for draw_replay, in the tests, takes just those).
        args: tuple[Any, ...] = (record, budget) if lang == "en" else (record, budget, lang)
        return await self._run(
            draw_replay,
            args,
            self.replay_timeout,
            f"the replay of {record.engine} #{record.game_id}",
            lane="replay",
        )

    async def shot(
        self, record: GameRecord, index: int, reader: Reader | None = None, lang: str = "en"
    ) -> Shot:
        """Frame ``index`` of a game for ``/game review``, drawn in the pool
        (rebuilding a long game's frames takes a few tenths of a second:
        never on the event loop), its words in ``lang``.  See :func:`render_shot`."""
        return await self._run(
            render_shot,
            (record, index, reader, lang),
            self.render_timeout,
            f"move {index} of {record.engine} #{record.game_id}",
        )

    async def public_record(self, record: GameRecord, reader: Reader | None) -> tuple[str, int]:
        """:func:`public_record_text`, off the event loop."""
        return await self._run(
            public_record_text,
            (record, reader),
            self.render_timeout,
            f"the record of {record.engine} #{record.game_id}",
        )

    async def _run(
        self,
        work_fn: Callable[..., T],
        args: tuple[Any, ...],
        timeout: float,
        what: str,
        *,
        lane: str = "board",
    ) -> T:
        pool = self._pool(lane)
        work: Awaitable[T]
        if pool is None:
            work = asyncio.to_thread(work_fn, *args)
        else:
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(pool, work_fn, *args)
        try:
            return await asyncio.wait_for(work, timeout)
        except TimeoutError:
            log.error(
                "%s took over %g s to draw; %s",
                what,
                timeout,
                "restarting the render workers" if pool is not None else "giving up on it",
            )
            if pool is not None and pool in (self._executor, self._replay_executor):
                # The next image starts a fresh pool; this one's hung worker is terminated.
                if pool is self._executor:
                    self._executor = None
                else:
                    self._replay_executor = None
                await asyncio.to_thread(stop_pool, pool, 0.0)
            raise RenderTimeout(f"drawing {what} took too long") from None

    def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        """Stop the workers: queued renders are cancelled, running ones get *timeout*
        seconds, then a worker still busy (hung) is terminated.

        ``shutdown(wait=True)`` alone would wait for ever on a hung worker,
        and so would the bot's exit (and a test run).
        """
        for executor in (self._executor, self._replay_executor):
            if executor is not None:
                stop_pool(executor, timeout)
        self._executor = self._replay_executor = None
