"""What a Mahabharata seat (or the channel) may see: the renderer's input.

Kept apart from the engine so renderers and tests can build views by hand.
Token kinds use the engine's short names: ``chariot``, ``elephant``,
``cav1`` .. ``cav3``, ``inf1`` .. ``inf5``; dice faces add ``raja``.
Icon classes on leader spaces: ``C`` chariot, ``E`` elephant, ``H`` cavalry
(horse), ``I`` infantry.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from bot.engines.core import Seat


def _plain(value: object) -> str:
    """``repr`` as before issue 33: a message (a str) as its English text."""
    if isinstance(value, str):
        return str.__repr__(value)
    if isinstance(value, tuple):
        inner = ", ".join(_plain(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def _repr(view: object) -> str:
    """A dataclass's own ``repr``, with its texts (messages since issue 33)
    written as the strings they are: the seeded playouts hash it."""
    shown = ", ".join(f"{f.name}={_plain(getattr(view, f.name))}" for f in fields(view))  # type: ignore[arg-type]
    return f"{type(view).__qualname__}({shown})"


@dataclass(frozen=True)
class SpaceView:
    icon: str
    """``C``, ``E``, ``H`` or ``I``."""
    owner: Seat | None
    """Whose tokens stand here (R8: a space holds one player's tokens)."""
    tokens: tuple[str, ...]
    """The stacked token kinds, bottom first (public: R14)."""


@dataclass(frozen=True)
class LeaderView:
    number: int
    name: str
    vp: int
    spaces: tuple[SpaceView, ...]
    influence: tuple[int, ...]
    """Tokens per seat on this card (R12)."""


@dataclass(frozen=True)
class DieView:
    index: int
    """1..8, as players type it (``d3``)."""
    kind: str
    """``chariot``, ``elephant``, ``cavalry`` or ``infantry`` (R2)."""
    face: str | None
    """The rolled face, ``None`` before this round's roll."""
    taken_by: Seat | None
    """Who took it this round; ``None`` while it is still in the pool."""


@dataclass(frozen=True)
class LastPickView:
    """The most recent draft pick (R7-R9), kept until the next one, so the
    board after a round's last pick (and through the next roll) still shows
    it.  Everything here is public (R14)."""

    seat: Seat
    die: int
    """1..8, as in :attr:`DieView.index`."""
    face: str
    """The face the die showed when it was taken (a token kind or ``raja``)."""
    placed: str
    """``screen``, ``leader`` or ``nothing`` (R9)."""
    leader_index: int | None = None
    """Leader placements: index into :attr:`MahabharataView.leaders`."""
    space: int | None = None
    """Leader placements: the space, 1-based."""
    token: str | None = None
    """Leader placements: the token kind placed.  Always ``None`` for a
    screen placement: the board never names what went behind a screen."""


@dataclass(frozen=True)
class PlayerView:
    seat: Seat
    screen_count: int
    """Tokens behind the screen: the count only (R14)."""
    supply_count: int
    """Tokens left in supply: the count only (R14)."""
    dice_taken: int
    """Dice taken this round (0, 1 or 2)."""
    announced: bool


@dataclass(frozen=True, repr=False)
class FinalView:
    """Everything revealed when the game is over (R11-R13).  ``reason`` is a
    message (:class:`~bot.engines.messages.Msg`): ``localize`` it."""

    scores: tuple[int, ...]
    pati: tuple[bool, ...]
    screens: tuple[tuple[str, ...], ...]
    leader_winners: tuple[Seat | None, ...]
    """Per leader, in the order of :attr:`MahabharataView.leaders`."""
    ranking: tuple[tuple[Seat, ...], ...]
    reason: str

    def __repr__(self) -> str:
        return _repr(self)


@dataclass(frozen=True, repr=False)
class ScreenView:
    """One player's private screen (R14)."""

    seat: Seat
    screen: tuple[str, ...]
    """Token kinds behind the screen, sorted."""
    supply: tuple[tuple[str, int], ...]
    """(token kind, how many left) for all ten kinds, in table order."""
    pati_complete: bool
    pati_missing: tuple[str, ...]
    """Short sentences on what the screen still lacks, e.g.
    ``"Cavalry summing to 3"``; empty when complete (R11).  Messages
    (:class:`~bot.engines.messages.Msg`): ``localize`` them."""

    def __repr__(self) -> str:
        return _repr(self)


@dataclass(frozen=True)
class MahabharataView:
    num_players: int
    phase: str
    """``setup`` (drawing leaders, choosing the elephant), ``roll``,
    ``draft``, ``announce`` or ``over``."""
    round: int
    elephant: Seat | None
    waiting_on: tuple[Seat, ...]
    """Seats the viewer may be told are to act.  In the announce phase the
    public view leaves this empty: who is deciding would reveal a Pati."""
    leaders: tuple[LeaderView, ...]
    dice: tuple[DieView, ...]
    players: tuple[PlayerView, ...]
    draft_order: tuple[Seat, ...]
    """This round's snake order, one entry per pick (R7)."""
    picks_made: int
    """How many entries of :attr:`draft_order` are done."""
    final: FinalView | None
    me: ScreenView | None
    """The viewer's own screen; ``None`` in the public view."""
    last_pick: LastPickView | None = None
    """The latest pick of the game, ``None`` until the first one."""
