"""``python -m bot demo``: seeded random games of every registered engine,
drawn offline, so a newcomer sees the bot's output without Discord.

The default is a small gallery a newcomer can open: every game at two
players and at its largest table, each with its start, middle and end board
(the end shows the result), one private view, and the leaderboard and
standings of a little round robin, all listed with captions in
``index.html`` (:data:`GALLERY_MAX_IMAGES` images, :data:`GALLERY_MAX_BYTES`
at most).  ``--all`` writes what the demo always wrote: the board after
every move and each private view when it changes (thousands of images).
``--showcase FILE`` writes one mid-game board, the README's picture.

Everything is seeded: the same seed writes the same images.  The command's
options are :mod:`bot.demo`'s, so that ``python -m bot`` builds its parser
without this module.
"""

from __future__ import annotations

import html
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from bot.engines import ENGINES, get_engine
from bot.engines.core import Engine, Outcome, Step, apply_step, progress_seat, resolve_chance
from bot.outgoing import plural
from renderers import GameRenderer, get_renderer
from renderers.common import to_png

if TYPE_CHECKING:
    from bot.rendering import Replay

DEMO_NAMES = ("Asha", "Bhima", "Chitra", "Dev", "Esha")
DEMO_ROUND_LIMIT = 40
"""Random players may take very long to end a game that has no round limit
(Sangram, R13), so the demo sets the lobby option ``round_limit`` where a
game has it."""
GALLERY_MAX_IMAGES: Final = 60
GALLERY_MAX_BYTES: Final = 30_000_000
"""The gallery stays small enough to open, look through and send to a friend."""
DEMO_REPLAY_BUDGET: Final = 3_000_000
"""Each game's replay in the gallery (one per game, at two players) aims at
this, well under the bot's 8 MB, so the five fit the gallery's budget."""
SHOWCASE_GAME: Final = "kauda_baji"
SHOWCASE_PLAYERS: Final = 4
"""The README's board: the fullest table of a game whose board is busy
mid-game (four armies on the cross), so one picture shows what Chaupal draws."""
TOURNAMENT_GAME: Final = "artaban"
"""The round robin behind the leaderboard and standings images: a two-player
game, so the standings break ties by Sonneborn-Berger (a round robin has no
Buchholz: ``bot.tournament.standings.format_tiebreaks``)."""


def demo_options(engine: Engine[Any, Any, Any]) -> dict[str, Any]:
    """The lobby defaults, with a round limit where the game offers one."""
    options: dict[str, Any] = {k: o.default for k, o in engine.options.items()}
    if "round_limit" in options:
        options["round_limit"] = DEMO_ROUND_LIMIT
    return options


def seat_names(players: int) -> dict[str, str]:
    """What fills the ``{p0}`` ... of narration and outcome reasons."""
    return {f"p{i}": name for i, name in enumerate(DEMO_NAMES[:players])}


@dataclass(frozen=True)
class Played:
    """One state of a demo game: after ``move`` player moves, with the log line
    of the move that led to it (none for the start) and the log's steps that
    led to it from the state before (the move and its chance)."""

    move: int
    state: Any
    line: str | None
    steps: tuple[Step, ...] = ()


def playthrough(
    engine: Engine[Any, Any, Any], players: int, rng: random.Random, max_moves: int
) -> Iterator[Played]:
    """A seeded game with random players, state by state (chance resolved)."""
    names = DEMO_NAMES[:players]
    fill = seat_names(players)
    state, opening = resolve_chance(engine, engine.setup(players, demo_options(engine)), rng.random)
    yield Played(0, state, None, tuple(opening))
    for move in range(1, max_moves + 1):
        if engine.outcome(state) is not None:
            return
        seat = progress_seat(engine, state)
        action = rng.choice(engine.legal_actions(state, seat))
        state, step = apply_step(engine, state, seat, action)
        state, chance = resolve_chance(engine, state, rng.random)
        narration = step.narration.format_map(fill)
        line = f"{move:03d} {names[seat]}: {step.text}. {narration}"
        yield Played(move, state, line, (step, *chance))


def result_line(outcome: Outcome, players: int) -> str:
    """The outcome's reason with the players' names, and every score."""
    names = DEMO_NAMES[:players]
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, outcome.scores, strict=True))
    # Like narration, the reason names seats as {p0} ... (core.Outcome).
    reason = outcome.reason.format_map(seat_names(players))
    # Not every reason names the winner ("A Pati was announced."): say it.
    first = " and ".join(names[s] for s in sorted(outcome.winners))
    won = (
        "A draw."
        if outcome.is_draw
        else f"{first} {'win' if len(outcome.winners) > 1 else 'wins'}."
    )
    return f"{won} {reason} Scores: {scores}"


def game_rng(seed: int, name: str, players: int | None = None) -> random.Random:
    """One game's own random numbers; the full run keeps its old seeds."""
    return random.Random(f"{seed}:{name}" if players is None else f"{seed}:{name}:{players}")


# -- the full run (--all) ----------------------------------------------------------------


class DemoGame:
    """One seeded game with random players, written out image by image."""

    def __init__(
        self, engine: Engine[Any, Any, Any], renderer: GameRenderer, folder: Path, players: int
    ) -> None:
        self.engine, self.renderer, self.folder = engine, renderer, folder
        self.players = players
        self.names = list(DEMO_NAMES[:players])
        self.last_private: list[Any] = [None] * players

    def write(self, tag: str, state: Any) -> None:
        engine, names = self.engine, self.names
        board = to_png(self.renderer.board(engine.view(state, None), names=names))
        (self.folder / f"{tag}-board.png").write_bytes(board)
        for seat, name in enumerate(names):
            view = engine.view(state, seat)
            if view != self.last_private[seat]:
                self.last_private[seat] = view
                png = to_png(self.renderer.private(view, names=names))
                (self.folder / f"{tag}-private-{name.lower()}.png").write_bytes(png)

    def play(self, rng: random.Random, max_moves: int) -> list[str]:
        lines: list[str] = []
        state: Any = None
        for played in playthrough(self.engine, self.players, rng, max_moves):
            state = played.state
            if played.line is not None:
                lines.append(played.line)
            self.write(f"{played.move:03d}", state)
        outcome = self.engine.outcome(state)
        if outcome is not None:
            lines.append(f"Game over: {result_line(outcome, self.players)}")
        return lines


def _full_run(
    out: Path, seed: int, games: Sequence[str], players: int | None, max_moves: int
) -> None:
    for name in games:
        engine = get_engine(name)
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.png"):
            old.unlink()
        # Three seats by default (within the game's range): enough to show the
        # table, short enough that every demo game finishes.
        n = max(engine.min_players, min(players or 3, engine.max_players))
        demo = DemoGame(engine, get_renderer(name), folder, n)
        lines = demo.play(game_rng(seed, name), max_moves)
        (folder / "log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- the gallery (the default) -----------------------------------------------------------


@dataclass(frozen=True)
class Picture:
    """One image of the gallery: its path under the output folder and caption."""

    path: str
    caption: str


@dataclass(frozen=True)
class Section:
    """One game at one table size (or the tournament): a heading, its pictures
    and, for a game, its log."""

    heading: str
    pictures: tuple[Picture, ...]
    log: str | None = None
    result: str | None = None


@dataclass(frozen=True)
class Highlights:
    """The start, middle and end of one played game, and its log."""

    start: Played
    middle: Played
    end: Played
    lines: tuple[str, ...]
    played: tuple[Played, ...] = ()


def highlights(
    engine: Engine[Any, Any, Any], players: int, rng: random.Random, max_moves: int
) -> Highlights:
    states = list(playthrough(engine, players, rng, max_moves))
    lines = tuple(p.line for p in states if p.line is not None)
    return Highlights(states[0], states[len(states) // 2], states[-1], lines, tuple(states))


def table_sizes(engine: Engine[Any, Any, Any], players: int | None) -> list[int]:
    """Two players and the largest table (one size for a two-player game), or
    just ``players`` (within the game's range) when asked."""
    if players is not None:
        return [max(engine.min_players, min(players, engine.max_players))]
    return sorted({max(2, engine.min_players), engine.max_players})


def demo_record(engine: Engine[Any, Any, Any], players: int, played: Sequence[Played]) -> Any:
    """The complete record (:class:`bot.replay.GameRecord`) of a demo game."""
    from bot.replay import GameRecord

    steps = [step for p in played for step in p.steps]
    return GameRecord.from_steps(engine, DEMO_NAMES[:players], demo_options(engine), steps)


def replay_caption(drawn: Replay) -> str:
    """What a demo replay shows: every move, or (a long game, sampled to fit
    the budget) about one frame in so many moves, and how many pictures."""
    moves = plural(drawn.moves, "move")
    if not drawn.sampled:
        return f"the whole game, one frame a move ({moves})"
    return (
        f"the whole game in {plural(drawn.frames, 'picture')}, about one every "
        f"{drawn.step} moves of its {moves}, to fit the size budget"
    )


def _game_section(
    out: Path, seed: int, name: str, players: int, max_moves: int, *, replay: bool = False
) -> Section:
    engine, renderer = get_engine(name), get_renderer(name)
    names = list(DEMO_NAMES[:players])
    game = highlights(engine, players, game_rng(seed, name, players), max_moves)
    folder = out / name
    folder.mkdir(parents=True, exist_ok=True)
    prefix = f"{players}p"
    pictures: list[Picture] = []

    def board(tag: str, played: Played, caption: str) -> None:
        path = f"{name}/{prefix}-{tag}-board.png"
        image = renderer.board(engine.view(played.state, None), names=names)
        (out / path).write_bytes(to_png(image))
        pictures.append(Picture(path, caption))

    outcome = engine.outcome(game.end.state)
    result = None if outcome is None else result_line(outcome, players)
    board("start", game.start, "Start: the board as the game opens")
    board("middle", game.middle, f"Middle: after move {game.middle.move} of {game.end.move}")
    ended = "the result" if outcome is not None else f"stopped after {game.end.move} moves"
    board("end", game.end, f"End: {ended}")
    # The middle of the game, where a hand or a screen has something in it.
    seat = 0
    view = engine.view(game.middle.state, seat)
    path = f"{name}/{prefix}-middle-private-{names[seat].lower()}.png"
    (out / path).write_bytes(to_png(renderer.private(view, names=names)))
    pictures.append(
        Picture(path, f"What only {names[seat]} sees (a DM), after move {game.middle.move}")
    )
    if replay:
        from bot.rendering import draw_replay

        path = f"{name}/{prefix}-replay.gif"
        drawn = draw_replay(demo_record(engine, players, game.played), DEMO_REPLAY_BUDGET)
        (out / path).write_bytes(drawn.data)
        pictures.append(Picture(path, f"/game replay: {replay_caption(drawn)}"))
    log = f"{name}/{prefix}-log.txt"
    footer = [] if result is None else [f"Game over: {result}"]
    (out / log).write_text("\n".join([*game.lines, *footer]) + "\n", encoding="utf-8")
    heading = f"{engine.title}, {players} players"
    return Section(heading, tuple(pictures), log=log, result=result)


def _tournament_section(out: Path, seed: int, max_moves: int) -> Section:
    """A round robin of the demo players at :data:`TOURNAMENT_GAME`, rated with
    OpenSkill like a server's games: its leaderboard and final standings."""
    from bot.director import FORMAT_TITLES
    from bot.edge.tournament.texts import TIEBREAK_TITLES
    from bot.tournament import standings
    from bot.tournament.pairing import round_robin_schedule
    from bot.tournament.ratings import FinishedGame, Rating, provisional, rate, shown_rating
    from renderers.leaderboard import LeaderboardRow, render_leaderboard
    from renderers.standings import StandingRow, render_standings

    engine = get_engine(TOURNAMENT_GAME)
    entrants = [standings.Player(i) for i in range(len(DEMO_NAMES))]
    ratings: dict[int, Rating] = {}
    wins: dict[int, int] = {}
    results: list[standings.Result] = []
    for number, round_ in enumerate(round_robin_schedule(entrants), start=1):
        results.extend(standings.Result.bye(number, player) for player in round_.byes)
        for board, table in enumerate(round_.tables):
            rng = random.Random(f"{seed}:tournament:{number}:{board}")
            *_, last = playthrough(engine, len(table.seats), rng, max_moves)
            outcome = engine.outcome(last.state)
            if outcome is None:  # cut off by max_moves: not a result
                continue
            place = {s: i + 1 for i, group in enumerate(outcome.ranking) for s in group}
            results.append(
                standings.Result(
                    number, table.seats, tuple(place[s] for s in range(len(table.seats)))
                )
            )
            finished = FinishedGame.of(TOURNAMENT_GAME, table.seats, outcome)
            for user, change in rate(ratings, finished).items():
                ratings[user] = Rating(change.mu_after, change.sigma_after, change.games_before + 1)
                wins[user] = wins.get(user, 0) + change.won
    best = sorted(ratings, key=lambda u: (-ratings[u].ordinal, u))
    leaders = [
        LeaderboardRow(
            rank=i + 1,
            name=DEMO_NAMES[u],
            rating=shown_rating(ratings[u].mu, ratings[u].sigma),
            games=ratings[u].games,
            wins=wins.get(u, 0),
            provisional=provisional(ratings[u].games),
        )
        for i, u in enumerate(best)
    ]
    title = engine.title
    (out / "leaderboard.png").write_bytes(
        to_png(render_leaderboard(leaders, title=f"{title} on the demo server"))
    )
    final = standings.standings(
        entrants, results, tiebreaks=standings.format_tiebreaks("round_robin", 2)
    )
    kinds = [kind for kind, _ in final[0].tiebreaks] if final else []
    rows = [
        StandingRow(
            rank=s.rank,
            name=DEMO_NAMES[s.player],
            points=s.points,
            tiebreaks=tuple(value for _, value in s.tiebreaks),
            games=s.games,
            byes=s.byes,
        )
        for s in final
    ]
    image = render_standings(
        rows,
        title=f"{title} — demo round robin",
        subtitle=f"{FORMAT_TITLES['round_robin']}, final standings",
        tiebreak_names=[TIEBREAK_TITLES[k] for k in kinds],
    )
    (out / "standings.png").write_bytes(to_png(image))
    played = sum(not r.is_bye for r in results)
    return Section(
        f"{title} round robin ({len(DEMO_NAMES)} players, {played} games)",
        (
            Picture("leaderboard.png", "/leaderboard: ratings after the round robin"),
            Picture("standings.png", "/tournament standings: the final table"),
        ),
    )


def index_html(seed: int, sections: Sequence[Section]) -> str:
    """A plain contact sheet: every image with its caption, relative links."""
    e = html.escape
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Chaupal demo</title>",
        "<style>body{font-family:sans-serif;margin:2em;background:#f4f1ea;color:#222}"
        "figure{display:inline-block;vertical-align:top;margin:0 1em 1.5em 0;width:260px}"
        "img{width:260px;border:1px solid #bbb;background:#fff}"
        "figcaption{font-size:0.9em}</style>",
        "</head><body>",
        "<h1>Chaupal demo</h1>",
        f"<p>Seeded games with random players (seed {seed}), drawn as the bot posts them. "
        "Click an image to see it at full size. <code>python -m bot demo --all</code> "
        "draws every move of every game.</p>",
    ]
    for section in sections:
        parts.append(f"<h2>{e(section.heading)}</h2>")
        if section.result is not None:
            parts.append(f"<p>Result: {e(section.result)}</p>")
        if section.log is not None:
            parts.append(f'<p><a href="{e(section.log)}">Every move (log)</a></p>')
        for picture in section.pictures:
            parts.append(
                f'<figure><a href="{e(picture.path)}"><img src="{e(picture.path)}" '
                f'alt="{e(picture.caption)}"></a><figcaption>{e(picture.caption)}'
                "</figcaption></figure>"
            )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _gallery(
    out: Path, seed: int, games: Sequence[str], players: int | None, max_moves: int
) -> None:
    # A folder left by an earlier run (perhaps --all, thousands of images)
    # would be counted with the gallery and shown nowhere: clear its images.
    for old in [
        *out.glob("*.png"),
        *(p for g in games for pattern in ("*.png", "*.gif") for p in (out / g).glob(pattern)),
    ]:
        old.unlink()
    sections: list[Section] = []
    for name in games:
        sizes = table_sizes(get_engine(name), players)
        for n in sizes:
            # One replay per game: the smallest table's game.
            sections.append(_game_section(out, seed, name, n, max_moves, replay=n == sizes[0]))
    sections.append(_tournament_section(out, seed, max_moves))
    (out / "index.html").write_text(index_html(seed, sections), encoding="utf-8")


def showcase(seed: int = 1, max_moves: int = 3000) -> bytes:
    """The README's board: the gallery's middle board of
    :data:`SHOWCASE_GAME` at :data:`SHOWCASE_PLAYERS` players, as PNG."""
    engine, renderer = get_engine(SHOWCASE_GAME), get_renderer(SHOWCASE_GAME)
    game = highlights(
        engine, SHOWCASE_PLAYERS, game_rng(seed, SHOWCASE_GAME, SHOWCASE_PLAYERS), max_moves
    )
    names = list(DEMO_NAMES[:SHOWCASE_PLAYERS])
    return to_png(renderer.board(engine.view(game.middle.state, None), names=names))


def run_demo(
    out: Path,
    *,
    seed: int = 1,
    games: Sequence[str] | None = None,
    players: int | None = None,
    max_moves: int = 3000,
    full: bool = False,
) -> Path:
    """Write the gallery (or, ``full``, every image of every game) to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    chosen = list(games or sorted(ENGINES))
    if full:
        _full_run(out, seed, chosen, players, max_moves)
    else:
        _gallery(out, seed, chosen, players, max_moves)
    return out
