"""A finished (or running) game, move by move: its record as text, and the
frames of its replay (issue 21).

Two values, both pure (no Discord, no Pillow, no storage writes):

- :class:`GameRecord`, a game as text, in the spirit of PGN and
  python-chess's value types: :meth:`GameRecord.format` writes it,
  :meth:`GameRecord.parse` reads it back (``parse(format(r)) == r``).  A
  header (the game, the engine's revision, the options, the seats' names,
  the stored result) and then the action log in the engines' own notation,
  one action a line: ``p0 c7 x2 6``, ``chance 3`` (a chance action: a die, a
  draw, a shuffle), ``p1 @left "..."`` (the table's own events, with their
  public narration), ``p2 ?`` (an action kept hidden).
- :class:`Frame`, one picture of the replay: the *public* view after a
  move, and the public lines that tell what happened.  :func:`frames`
  rebuilds them from a complete record with the engine, the single source
  of truth.

**The hidden-information rule.**  Chaupal never shows a seat's hidden
information to anyone else, also after the game ends.  So a record has two
forms.  The *complete* record holds every action's text, hands and draws
included: only the operator writes it, from the database, with ``python -m
bot export GAME_ID`` (the operator holds the database anyway).  The
*public* record (:func:`public_record`, for players) writes every action
the engine's ``private_to`` keeps from the reader as ``?`` (a player reads
their seat's lines only while they held it: :mod:`bot.tenure`), and leaves out
entirely a hidden action the channel was never told about (its narration
is empty: a Mahabharata pass, which only a seat with a complete Pati can
make, would give that away by being there at all).  Frames never need the
hidden texts' *meaning*, but they do need the texts to rebuild the states,
so a public record with ``?`` lines cannot be replayed
(:class:`HiddenActions`); frames are always the public view
(``engine.view(state, None)``) whatever record they come from.

**Frame rules.**  Frame 0 is the start: the set-up and the chance that
opens the game (shuffles, deals, first rolls).  Each player's move then
makes a frame, and what follows it until the next player's move folds into
that frame: the chance it triggered (the dice it rolled, the cards it
drew), so the frame is the position the next player faced, the board the
channel was shown; and the table's events (a seat left, a timeout).  A
move the channel was not told about (empty narration) that changes nothing
public folds into the frame before it, so the count of frames tells nobody
about a private decision.  Hidden moves in a row (the engine's ``private_to``
names a seat: cards committed face down, dice set behind a screen) make one
frame, the position after the last of them: the channel saw only that each
player chose, so "Asha committed a card", "Bhima committed a card" are not
pictures of their own but the words of the frame that shows the reveal.  A
game the table ended (a resignation, a moderator's end) gets the stored
result's reason on its last frame.  A
takeback (``@takeback:<version>``, issue 31: :mod:`bot.takeback`) returns
the game to the position after that many lines, and makes a frame of its
own: the position it went back to, with its words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final, Literal

from bot.engines import get_engine
from bot.engines.core import CHANCE, Engine, GameError, Outcome, Seat, Step
from bot.engines.messages import decode
from bot.outgoing import plain_name
from bot.takeback import takeback_target, targets_of
from bot.tenure import Reader

if TYPE_CHECKING:
    from storage.games import GameRecord as StoredGame
    from storage.games import GameStore, LogEntry, SeatRecord

MAGIC: Final = "Chaupal-Record"
"""The first header key: a file that does not start with it is not a record."""
HIDDEN: Final = "?"
"""An action's text in a public record when the reader may not read it."""
TABLE_EVENT: Final = "@"
"""Table events (the service's, not the engine's: ``bot.service.TABLE_EVENT``)."""
CHANCE_WORD: Final = "chance"

Kind = Literal["complete", "public"]

_SEAT = re.compile(r"p(\d{1,2})")
_HEADER = re.compile(r"([A-Z][A-Za-z-]*): (.*)")


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says why, in a
    sentence for the person who gave it."""


class HiddenActions(RecordError):
    """A public record: some actions are hidden, so its states cannot be rebuilt."""


@dataclass(frozen=True)
class Action:
    """One line of a record's log.

    ``actor`` is a seat or :data:`CHANCE`; ``text`` the action in the
    engine's notation, a table event (``@left``), or :data:`HIDDEN`.
    ``narration`` is kept only for table events, whose words the engine
    cannot say again.  ``private_to`` is what the log stored (not written
    out: a public record uses it, with the engine's own answer, to hide)."""

    actor: Seat
    text: str
    narration: str = ""
    private_to: Seat | None = field(default=None, compare=False)

    @property
    def table_event(self) -> bool:
        return self.text.startswith(TABLE_EVENT)

    @property
    def hidden(self) -> bool:
        return self.text == HIDDEN

    @property
    def takeback(self) -> int | None:
        """A takeback's version: the game is again as it was then (issue 31)."""
        return takeback_target(self.text)

    def format(self) -> str:
        who = CHANCE_WORD if self.actor == CHANCE else f"p{self.actor}"
        if self.table_event and self.narration:
            return f"{who} {self.text} {_json(decode(self.narration))}"
        return f"{who} {self.text}"

    @classmethod
    def parse(cls, line: str, seats: int) -> Action:
        who, _, text = line.partition(" ")
        if who == CHANCE_WORD:
            actor = CHANCE
        else:
            match = _SEAT.fullmatch(who)
            if match is None or int(match.group(1)) >= seats:
                raise RecordError(
                    f"{line[:60]!r}: a line starts with p0 ... p{seats - 1} or chance."
                )
            actor = int(match.group(1))
        text = text.strip()
        if not text or "\n" in text:
            raise RecordError(f"{line[:60]!r}: the action is missing.")
        if text.startswith(TABLE_EVENT):
            event, _, said = text.partition(" ")
            narration: object = ""
            if said:
                try:
                    narration = json.loads(said)
                except ValueError:
                    narration = None
                if not isinstance(narration, str):
                    raise RecordError(f"{line[:60]!r}: a table event's words are a JSON string.")
            return cls(actor, event, str(narration))
        return cls(actor, text)


@dataclass(frozen=True)
class GameRecord:
    """A game as text: header and action log (see the module's docstring)."""

    engine: str
    revision: int
    options: Mapping[str, Any]
    names: tuple[str, ...]
    actions: tuple[Action, ...]
    kind: Kind = "complete"
    game_id: int | None = None
    #: The stored result: needed when the table ended the game (a resignation).
    outcome: Outcome | None = None
    #: A public record written for a player keeps their seat's own lines
    #: (while they held it): the seat they held last.
    reader: Seat | None = None

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def hidden_actions(self) -> int:
        return sum(a.hidden for a in self.actions)

    @property
    def lines(self) -> list[tuple[Seat, str]]:
        """Each line's actor and text, in order: what :func:`bot.tenure.tenures`
        reads to know who held which seat when."""
        return [(a.actor, a.text) for a in self.actions]

    def format(self) -> str:
        """The record as text: header lines ``Key: JSON``, a blank line, the log."""
        header: list[tuple[str, Any]] = [(MAGIC, self.kind), ("Game", self.engine)]
        if self.game_id is not None:
            header.append(("Id", self.game_id))
        header += [
            ("Revision", self.revision),
            ("Options", dict(sorted(self.options.items()))),
            ("Seats", list(self.names)),
        ]
        if self.reader is not None:
            header.append(("Reader", self.reader))
        if self.outcome is not None:
            header.append(("Result", self.outcome.to_json()))
        lines = [f"{key}: {_json(value)}" for key, value in header]
        lines.append("")
        lines += [a.format() for a in self.actions]
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """Read :meth:`format`'s text back; :class:`RecordError` says what is wrong.
        Blank lines and lines starting with ``#`` are skipped."""
        header: dict[str, Any] = {}
        lines = [ln.rstrip("\r") for ln in text.splitlines()]
        body = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
        rest = 0
        for rest, line in enumerate(body):  # noqa: B007 - rest is where the log starts
            match = _HEADER.fullmatch(line)
            if match is None:
                break
            try:
                header[match.group(1)] = json.loads(match.group(2))
            except ValueError:
                raise RecordError(f"The header line {match.group(1)!r} is not JSON.") from None
        else:
            rest = len(body)
        if header.get(MAGIC) not in ("complete", "public"):
            raise RecordError(
                f"Not a Chaupal game record: it starts with '{MAGIC}: \"complete\"' (or "
                '"public"), as `python -m bot export` writes it.'
            )
        try:
            engine, revision = str(header["Game"]), int(header["Revision"])
            options, names = header["Options"], header["Seats"]
            if not isinstance(options, dict) or not isinstance(names, list):
                raise TypeError
            seats = tuple(plain_name(str(n)) for n in names)
            reader = header.get("Reader")
            game_id = header.get("Id")
            outcome = Outcome.from_json(header["Result"]) if "Result" in header else None
        except (KeyError, TypeError, ValueError):
            raise RecordError(
                "The header needs Game, Revision, Options (an object) and Seats (a list)."
            ) from None
        if not seats:
            raise RecordError("The record names no seats.")
        actions = tuple(Action.parse(line, len(seats)) for line in body[rest:])
        return cls(
            engine=engine,
            revision=revision,
            options=options,
            names=seats,
            actions=actions,
            kind=header[MAGIC],
            game_id=None if game_id is None else int(game_id),
            outcome=outcome,
            reader=None if reader is None else int(reader),
        )

    @classmethod
    def from_storage(
        cls, game: StoredGame, seats: Sequence[SeatRecord], log: Sequence[LogEntry]
    ) -> GameRecord:
        """The complete record of a stored game (its row, seats and whole log)."""
        names = tuple(plain_name(s.display_name) for s in sorted(seats, key=lambda s: s.seat))
        actions = tuple(
            Action(
                e.actor,
                e.action,
                decode(e.narration) if e.action.startswith(TABLE_EVENT) else "",
                e.private_to,
            )
            for e in log
        )
        return cls(
            engine=game.engine,
            revision=game.engine_revision,
            options=dict(game.options),
            names=names,
            actions=actions,
            game_id=game.id,
            outcome=None if game.outcome is None else Outcome.from_json(game.outcome),
        )

    @classmethod
    def from_steps(
        cls,
        engine: Engine[Any, Any, Any],
        names: Sequence[str],
        options: Mapping[str, Any],
        steps: Sequence[Step],
    ) -> GameRecord:
        """The complete record of a game played offline (the demo, tests):
        the steps :func:`bot.engines.core.apply_step` and ``resolve_chance``
        returned, in order."""
        return cls(
            engine=engine.name,
            revision=engine.revision,
            options=dict(options),
            names=tuple(plain_name(n) for n in names),
            actions=tuple(Action(s.seat, s.text, "", s.private_to) for s in steps),
        )


async def load_record(store: GameStore, game_id: int) -> GameRecord:
    """The complete record of game ``game_id`` from storage.  Complete: it
    holds every hidden action's text, so only the operator's command line
    and the render process may see it; players get :func:`public_record`."""
    game = await store.get_game(game_id)
    if game is None or game.status == "lobby":
        raise RecordError(f"There is no started game #{game_id}.")
    return GameRecord.from_storage(game, await store.seats(game_id), await store.log(game_id))


def _json(value: Any) -> str:
    # ensure_ascii=False keeps names in their own script; JSON escapes quotes,
    # backslashes and control characters, so a name cannot break a line.
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# -- replaying ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """One picture of a replay.

    ``move`` is 0 for the start, then 1, 2, ... (the moves shown: a private
    decision that changed nothing public is not counted).  ``version`` is
    the log's length up to the last entry folded in (the game's version at
    that point: ``/game review`` steps by it).  ``view`` is the public view
    (``engine.view(state, None)``, ``me`` is None).  ``lines`` are the
    public narrations of the move and what followed it, with ``{p0}`` seat
    tags (fill them with :func:`renderers.common.fill_names` on an image or
    :func:`bot.outgoing.fill_seats` in a message).  ``folded``: how many of
    the first lines tell of hidden moves folded into this frame before the
    one that made it ("Asha committed a card.", when the frame is Chitra's
    commit and the reveal it brought): a headline short of room leaves them
    out first."""

    move: int
    version: int
    view: Any
    lines: tuple[str, ...]
    over: bool = False
    folded: int = 0

    def headline(self, names: Sequence[str], lang: str = "en") -> str:
        """The lines as one sentence in ``lang`` with the seats' names (plain text)."""
        from bot.i18n import localize
        from renderers.common import fill_names

        said = " ".join(localize(line, lang) for line in self.lines if line)
        return fill_names(said, names, lang)


def _engine(record: GameRecord) -> Engine[Any, Any, Any]:
    try:
        engine = get_engine(record.engine)
    except GameError as exc:
        raise RecordError(f"This bot has no game {record.engine!r}: {exc}") from None
    if not engine.min_players <= record.seats <= engine.max_players:
        raise RecordError(f"{engine.title} is played by {engine.min_players}-{engine.max_players}.")
    return engine


def _require_complete(record: GameRecord) -> None:
    if record.hidden_actions:
        raise HiddenActions(
            f"This is a public record: {record.hidden_actions} action(s) are hidden "
            f"(written '{HIDDEN}'), and a replay needs every action to rebuild the game. "
            "Replay the complete record instead, which the bot's operator writes with "
            "`python -m bot export GAME_ID`, or ask for `/game replay` in Discord."
        )


def states(record: GameRecord) -> Iterator[tuple[Action, Any, Any, Any]]:
    """``(line, action, before, after)`` for every line of a complete record,
    in order: ``action`` is the engine's parsed action (None for a table
    event, which leaves the state as it is).  :class:`RecordError` names the
    line that cannot be played (the complete record is the operator's: no
    secret reaches anyone who does not hold it already)."""
    _require_complete(record)
    engine = _engine(record)
    try:
        # The stored options are the resolved ones, exactly what setup took.
        state = engine.setup(record.seats, dict(record.options))
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"The game cannot be set up with these options: {exc}") from None
    # A takeback (issue 31) returns to the state after that many lines.
    wanted = targets_of(line.text for line in record.actions)
    kept = {0: state} if 0 in wanted else {}
    for number, line in enumerate(record.actions, start=1):
        if line.table_event:
            back = line.takeback
            after = state if back is None else kept.get(back)
            if after is None:
                raise RecordError(f"Action {number} ({line.format()!r}) goes back past the start.")
            yield line, None, state, after
            state = after
            if number in wanted:
                kept[number] = state
            continue
        try:
            action = engine.parse(state, line.actor, line.text)
            after = engine.apply(state, line.actor, action)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise RecordError(
                f"Action {number} ({line.format()!r}) cannot be played: {exc}"
            ) from None
        yield line, action, state, after
        state = after
        if number in wanted:
            kept[number] = state


def frames(record: GameRecord) -> list[Frame]:
    """The replay's frames (see the module's docstring for the rules)."""
    engine = _engine(record)
    out: list[Frame] = []
    move, version = 0, 0
    state: Any = engine.setup(record.seats, dict(record.options)) if not record.actions else None
    # The state the frame being built shows; its view is drawn from it only
    # when the frame closes (a chance line or a folded move replaces it, and
    # a long game's views are most of what rebuilding its frames costs).
    shown: Any = state
    shown_view: Any = None
    lines: list[str] = []
    folded = 0
    in_hidden_run = False  # the frame being built was made by a hidden move

    def view_of_shown() -> Any:
        nonlocal shown_view
        if shown_view is None:
            shown_view = engine.view(shown, None)
        return shown_view

    for line, action, before, after in states(record):
        if shown is None:
            shown = before
        version += 1
        state = after
        if action is None and line.takeback is not None:
            # The game went back (a takeback): a frame of its own, the
            # position it returned to, as the channel's next board showed.
            out.append(Frame(move, version - 1, view_of_shown(), tuple(lines), folded=folded))
            move, lines, folded, in_hidden_run = move + 1, [decode(line.narration)], 0, False
            shown, shown_view = after, None
            continue
        if action is None:  # a table event: its stored public words
            lines.append(decode(line.narration))
            continue
        said = engine.narrate(before, line.actor, action, after)
        if line.actor == CHANCE:
            lines.append(said)
            shown, shown_view = after, None
            continue
        if not said and engine.view(after, None) == view_of_shown():
            continue  # nothing public happened: no frame of its own
        hidden = engine.private_to(before, line.actor, action) is not None
        if hidden and in_hidden_run:
            # Another hidden move (a card committed face down, a die set
            # behind a screen): the channel sees only that someone chose, so
            # it joins the frame of the hidden moves before it, and the run
            # shows as one frame, the position after its last move (the
            # reveal, when the last commit brings one).
            if said not in lines:
                folded = len(lines)
                lines.append(said)
            shown, shown_view = after, None
            continue
        out.append(Frame(move, version - 1, view_of_shown(), tuple(lines), folded=folded))
        move, lines, folded, in_hidden_run = move + 1, [said], 0, hidden
        shown, shown_view = after, None
    final = engine.outcome(state)
    if final is None and record.outcome is not None:
        lines.append(record.outcome.reason)
    over = final is not None or record.outcome is not None
    out.append(Frame(move, version, view_of_shown(), tuple(lines), over=over, folded=folded))
    return out


def public_record(record: GameRecord, reader: Seat | Reader | None = None) -> GameRecord:
    """The record players may have: every action the reader may not read
    (``private_to`` a seat other than the reader's, or :data:`CHANCE`, by
    the engine or by the stored log) written as :data:`HIDDEN`, and a hidden
    action the channel was never told about (empty narration) left out.

    ``reader`` keeps their own lines: a seat (held the whole game: the
    operator's ``export --public`` for one seat), or a member
    (:class:`bot.tenure.Reader`), who keeps a seat's lines only while they
    held it, line by line (the ``i``-th line at version ``i``): a player who
    left reads their seat up to their leaving, a member who took a seat
    over from then on.  None hides every private line."""
    engine = _engine(record)
    kept: list[Action] = []
    for version, (line, action, before, after) in enumerate(states(record), start=1):
        if action is None:
            kept.append(line)
            continue
        private = engine.private_to(before, line.actor, action)
        if private is None:
            private = line.private_to  # what the log stored, should the engine differ
        mine = reader.seat_at(version) if isinstance(reader, Reader) else reader
        if private is None or (mine is not None and private == mine):
            kept.append(line)
        elif engine.narrate(before, line.actor, action, after):
            kept.append(Action(line.actor, HIDDEN))
    seat = reader.last_seat if isinstance(reader, Reader) else reader
    return replace(record, actions=tuple(kept), kind="public", reader=seat)


def state_at(record: GameRecord, version: int) -> Any:
    """The state after the first ``version`` lines of a complete record (a
    frame's :attr:`Frame.version`): what a seat's own view of that moment is
    drawn from.  Replaying is cheap (the views are what cost)."""
    engine = _engine(record)
    if version <= 0:
        _require_complete(record)
        return engine.setup(record.seats, dict(record.options))
    for number, (_, _, _, after) in enumerate(states(record), start=1):
        if number >= version:
            return after
    raise RecordError(f"The record has {len(record.actions)} lines, not {version}.")


def position_since(record: GameRecord, version: int) -> int:
    """The first version at which the position after ``version`` lines
    already stood: table events (a seat left or changed hands, a timeout's
    marker) change no state, and a frame folds them in, so its position
    stood at every version from this one to its own."""
    while 0 < version <= len(record.actions):
        line = record.actions[version - 1]
        if not line.table_event or line.takeback is not None:
            break  # a takeback changes the position (issue 31)
        version -= 1
    return version


MENU_OPTIONS: Final = 25
"""Discord's options in one select."""
MENU_LEVELS: Final = 4
"""Selects a review may show: a message has five rows, one is the buttons'."""


@dataclass(frozen=True)
class MenuLevel:
    """One select of a review's "go to a move" menus: ``options`` are
    ranges of frames ``(first, last)``, each ``span`` frames long (the last
    may be shorter); ``span`` 1: the options are single frames.  ``current``
    is the option holding the frame shown."""

    span: int
    options: tuple[tuple[int, int], ...]
    current: int


def menu_levels(count: int, current: int, size: int = MENU_OPTIONS) -> list[MenuLevel]:
    """The selects that reach any of ``count`` frames in a few picks (issue
    31): a short game's frames in one select; a longer one's as ranges of
    ``size`` frames ("Moves 25-49"), then the frames of the range holding
    ``current``; a longer one still as ranges of ``size**2`` frames first.
    So any frame is at most two picks away up to 625 frames, three up to
    15,625; picking a range shows its first frame.  At most
    :data:`MENU_LEVELS` selects (past ``size**4`` frames the finest options
    are ranges, stepped through with the buttons)."""
    current = min(max(current, 0), count - 1)
    spans = [1]
    while spans[-1] * size < count:
        spans.append(spans[-1] * size)
    spans = spans[-MENU_LEVELS:]
    levels: list[MenuLevel] = []
    low, high = 0, count - 1
    for span in reversed(spans):
        options = tuple((a, min(a + span - 1, high)) for a in range(low, high + 1, span))
        at = (current - low) // span
        if len(options) > 1 or span == 1:  # a select of one range offers no choice
            levels.append(MenuLevel(span, options, at))
        low, high = options[at]
    return levels
