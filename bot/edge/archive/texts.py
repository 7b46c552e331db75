"""What looking back shows, as text and data (pure): a history page's rows
and what a page button holds (:class:`HistoryPage`), a replay's and a
review's words, and what a review button holds (:class:`ReviewStep`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.edge.delivery.texts import next_up
from bot.engines import get_engine
from bot.engines.core import GameError
from bot.engines.messages import Msg
from bot.i18n import DEFAULT, t, tn
from bot.outgoing import clip, discord_time, fill_seats, plain_name, safe_name
from bot.replay import menu_levels
from bot.tournament.ratings import shown_points
from storage.games import GameRecord, SeatRecord

if TYPE_CHECKING:
    from bot.live import LiveGame
    from bot.rendering import Replay, Shot

PAGE_SIZE = 5
"""Games on a page of the history: five rows of at most :data:`ROW_CHARS`
fit one message's 2,000 characters, and their **Replay** buttons one row."""
ROW_CHARS = 340
PLAYERS_CHARS = 180
"""A row's players (names and rating changes) are cut to this much."""
NAME_CHARS = 20
"""A player's name in a row is cut to this many characters."""
SERVER_ONLY = Msg("The history belongs to a server: use this in one.")


def title_of(engine: str, lang: str = DEFAULT) -> str:
    try:
        return t(lang, get_engine(engine).title)
    except GameError:
        return engine


def short_name(display_name: str) -> str:
    """A name for a crowded line: plain, cut, then escaped."""
    plain = plain_name(display_name)
    if len(plain) > NAME_CHARS:
        plain = plain[: NAME_CHARS - 1] + "…"
    return safe_name(plain)


def result_text(
    record: GameRecord, seats: Sequence[SeatRecord], rated: bool, lang: str = DEFAULT
) -> str:
    """``won by **Asha**``, ``a draw`` or ``no result`` (a moderator ended
    it), from the outcome stored with the game."""
    try:
        ranking = [sorted(int(s) for s in group) for group in (record.outcome or {})["ranking"]]
    except (KeyError, TypeError, ValueError):
        return t(lang, "over")
    names = {s.seat: short_name(s.display_name) for s in seats}
    if not ranking:
        return t(lang, "over")
    if len(ranking) == 1 and len(ranking[0]) > 1:
        # Everyone tied: a draw if it counted, else the game was just ended.
        return t(lang, "a draw") if rated or record.status == "finished" else t(lang, "no result")
    winners = " & ".join(f"**{names.get(s, '?')}**" for s in ranking[0])
    return t(lang, "won by {winners}", winners=winners)


def players_text(
    seats: Sequence[SeatRecord], changes: Mapping[int, float], player: int | None
) -> str:
    """The players, each with their rating change when the game was rated
    (in shown rating points, as ``/leaderboard`` and ``/profile`` give
    them), the history's player underlined; cut to :data:`PLAYERS_CHARS`."""
    parts: list[str] = []
    for s in seats:
        name = short_name(s.display_name)
        if s.user_id == player:
            name = f"__{name}__"
        change = changes.get(s.user_id)
        parts.append(name if change is None else f"{name} ({shown_points(change):+d})")
    text = ", ".join(parts)
    while len(text) > PLAYERS_CHARS and len(parts) > 1:
        parts.pop()
        text = ", ".join(parts) + ", …"
    return text[:PLAYERS_CHARS]


def history_row(
    record: GameRecord,
    seats: Sequence[SeatRecord],
    changes: Mapping[int, float],
    link: str,
    player: int | None,
    lang: str = DEFAULT,
) -> str:
    """``- <t:…:d> **Sangram #12**: Asha (+84), Bhima (-52) — won by
    **Asha** — [board](<link>)``"""
    head = (
        f"- {discord_time(record.updated_at, 'd')} **{title_of(record.engine, lang)} #{record.id}**"
    )
    result = result_text(record, seats, rated=bool(changes), lang=lang)
    board = t(lang, "[board](<{link}>)", link=link)
    line = f"{head}: {players_text(seats, changes, player)} — {result} — {board}"
    return line if len(line) <= ROW_CHARS else f"{head} — {board}"


def replay_filename(game_id: int) -> str:
    return f"chaupal-{game_id}-replay.gif"


def ordinal(n: int, lang: str = DEFAULT) -> str:
    """``2nd``, ``11th``, ``23rd``."""
    if lang != DEFAULT:
        return t(lang, "{n}th", n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def moves_text(n: int, lang: str = DEFAULT) -> str:
    if lang != DEFAULT:
        return tn(lang, "{n} move", "{n} moves", n)
    return "1 move" if n == 1 else f"{n:,} moves"


def replay_text(game: LiveGame, drawn: Replay, lang: str = DEFAULT) -> str:
    """What a replay's message says it is: the game, its players (escaped),
    how many moves it shows and how (every one, or every k-th to fit
    Discord's upload limit), and where the game stands."""
    players = ", ".join(f"**{safe_name(name)}**" for name in game.names)
    head = t(
        lang,
        "**Replay of {game} #{id}** ({players}):",
        game=t(lang, game.engine.title),
        id=game.id,
        players=players,
    )
    moves = moves_text(drawn.moves, lang)
    # "every 3rd move": in English the ordinal alone; elsewhere the ordinal
    # with its noun, so a language can agree the two.
    nth = ordinal(drawn.step) if lang == DEFAULT else t(lang, "{n}th move", n=drawn.step)
    if drawn.moves == 0:
        shown = t(lang, "the start only, no move yet.")
    elif not drawn.sampled:
        shown = t(lang, "{moves}, every one shown.", moves=moves)
    elif drawn.cap:
        # Why some moves are left out: the cap alone (a long game), or
        # Discord's upload limit (big pictures).
        shown = t(
            lang,
            "{moves}, shown every {nth} move ({frames} pictures: a replay keeps at most {cap}).",
            moves=moves,
            nth=nth,
            frames=drawn.frames,
            cap=drawn.cap,
        )
    else:
        shown = t(
            lang,
            "{moves}, shown every {nth} move ({frames} pictures to fit Discord's upload limit).",
            moves=moves,
            nth=nth,
            frames=drawn.frames,
        )
    if drawn.scale < 1.0:
        shown += " " + t(lang, "Drawn smaller, to fit.")
    lines = [f"{head} {shown} " + t(lang, "The public board only.")]
    if game.is_over:
        # issue 33: next_up in lang once it takes one (bot/edge/delivery/texts.py)
        lines.append(next_up(game, named=range(len(game.seats))))
    else:
        lines.append(
            t(
                lang,
                "The game is still being played: this is up to the current move. "
                "`/game replay game:{id}` again later shows more.",
                id=game.id,
            )
        )
    return clip("\n".join(lines))


LABEL_CHARS = 100
"""Discord's limit on a select option's label."""


def clip_words(text: str, limit: int = LABEL_CHARS) -> str:
    """``text`` in at most ``limit`` characters, cut after a whole word with
    an ellipsis (a single word longer than that is cut where it must be)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut and not text[limit - 1].isspace():
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.—-") + "…"


def start_word(lang: str = DEFAULT) -> str:
    """``Start``: the position before the first move (a noun; a button's
    "Start", a verb, is another message in other languages)."""
    return "Start" if lang == DEFAULT else t(lang, "Start (the position before the first move)")


def frame_label(move: int, headline: str, lang: str = DEFAULT) -> str:
    """A "move k" menu option: ``Move 12: Asha rolled 5…`` (names plain),
    within Discord's 100 characters, cut between words."""
    label = start_word(lang) if move == 0 else t(lang, "Move {n}", n=move)
    return clip_words(f"{label}: {headline}") if headline else label


def range_label(first: int, last: int, lang: str = DEFAULT) -> str:
    """A range of a review's moves: ``Start to move 24``, ``Moves 25-49``."""
    if first == last:
        return start_word(lang) if first == 0 else t(lang, "Move {n}", n=first)
    if first == 0:
        return t(lang, "Start to move {last}", last=last)
    return t(lang, "Moves {first}–{last}", first=first, last=last)


def review_text(game: LiveGame, shot: Shot, lang: str = DEFAULT) -> str:
    """A review's text: the game, the move shown and what happened in it
    (names escaped), and what the images are."""
    said = " ".join(fill_seats(line, game, lang=lang) for line in shot.lines if line)
    if not said and shot.move == 0:
        said = t(lang, "The game begins.")
    if shot.move == 0:
        head = t(
            lang,
            "**{game} #{id}**, the start (only you see this review).",
            game=t(lang, game.engine.title),
            id=game.id,
        )
    else:
        head = t(
            lang,
            "**{game} #{id}**, move {move} of {last} (only you see this review).",
            game=t(lang, game.engine.title),
            id=game.id,
            move=shot.move,
            last=shot.last_move,
        )
    lines = [head, said]
    if not game.is_over:
        lines.append(
            t(
                lang,
                "The game is still being played: up to the current move, the public board only.",
            )
        )
    elif shot.private is not None:
        lines.append(t(lang, "The second image is what only you saw at that moment."))
    return clip("\n".join(line for line in lines if line))


def review_menus(shot: Shot, lang: str = DEFAULT) -> list[ReviewMenu]:
    """A review's "go to a move" selects (:func:`bot.replay.menu_levels`):
    ranges of moves, then the moves of the range shown, each option's value
    the frame it shows (a range: its first move)."""
    levels = menu_levels(shot.count, shot.index)
    headlines = {frame: (move, headline) for frame, move, headline in shot.menu}
    menus: list[ReviewMenu] = []
    for depth, level in enumerate(levels):
        options = []
        for i, (first, last) in enumerate(level.options):
            if level.span == 1 and first in headlines:
                label = frame_label(*headlines[first], lang=lang)
            else:
                label = range_label(first, last, lang)
            options.append((first, label, i == level.current))
        if len(levels) == 1:
            placeholder = t(lang, "Go to a move ({n} in all)…", n=shot.count - 1)
        elif depth == 0:
            placeholder = t(lang, "Go to moves… ({n} in all)", n=shot.count - 1)
        elif level.span == 1:
            placeholder = t(lang, "Go to a move…")
        else:
            placeholder = t(lang, "Go to moves…")
        menus.append(ReviewMenu(placeholder, tuple(options)))
    return menus


@dataclass(frozen=True)
class HistoryPage:
    """One page of ``/game history``, all a page button needs to draw the
    next: who asked (only they turn its pages), whose games (0: everyone's)
    and which game ("all": every game), the moment the history was first
    shown, in milliseconds (games that ended later stay off its pages, so
    pages do not shift under the reader) and the page shown, from 0."""

    owner: int
    player: int
    engine: str
    until: int
    page: int


HISTORY_VERBS: dict[str, str] = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


def history_custom_id(page: HistoryPage, verb: str) -> str:
    return (
        f"chaupal:history:{page.owner}:{page.player}:{page.engine}:{page.until}:{page.page}:{verb}"
    )


@dataclass(frozen=True)
class ReviewStep:
    """A ``/game review`` message: whose it is (only they step through it),
    which game and the frame shown (0: the start).  All in the custom_id, so
    the buttons work after a restart; the archive checks each again."""

    owner: int
    game_id: int
    frame: int


REVIEW_VERBS = HISTORY_VERBS
"""The same ⏮ ◀ ▶ ⏭ as the history's pages."""
LAST_FRAME = 2**31
"""⏭'s target: the last frame there is when it is pressed (a game still
being played has more by then)."""


def review_target(step: ReviewStep, verb: str) -> int:
    return {
        "first": 0,
        "prev": step.frame - 1,
        "next": step.frame + 1,
        "last": LAST_FRAME,
    }[verb]


@dataclass(frozen=True)
class ReviewMenu:
    """One "go to a move" select of a review: its placeholder and options
    ``(frame, label, shown)``, ``shown`` marking the one holding the frame
    on screen."""

    placeholder: str
    options: tuple[tuple[int, str, bool], ...]
