"""What a Sangram seat (or the channel) may see: the renderer's input.

Kept apart from the engine (``bot/engines/sangram.py``) so renderers and
tests can build views by hand.  Everything here is an immutable value.

Conventions
-----------
* Seats are 0-based, as everywhere in the engines (``{p0}`` in narration).
  Action *text* numbers players from 1 as people count them (``target 2`` is
  seat 1), so a renderer should print a player's number (``seat + 1``) next to
  their name for the menus to make sense.
* A card is named in moves by its warrior type and motivation, ``acharya-53``
  (:attr:`CardView.id`).  Motivations are unique (1..55), so the id is too.
* Card lists are ordered highest motivation first (the rulebook's reference
  order) unless said otherwise.
* Event lines (:attr:`SangramView.events`, :attr:`FinalView.reason` has none)
  use the narration placeholders ``{p0}`` .. ``{p4}`` for seats; fill them
  with ``line.format(p0=name0, p1=name1, ...)``.

The public view (``engine.view(state, None)``) never depends on hidden
information: hands, face-down committed cards and the deck.  Its ``me`` is
``None``; a seat's view carries that seat's hand in ``me``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engines.core import Seat

# Phases, as in :attr:`SangramView.phase`.
PHASE_SETUP = "setup"
"""Cards are being dealt (chance only)."""
PHASE_COMMIT = "commit"
"""R4: everybody who can act picks a card face down (simultaneous)."""
PHASE_ACTIVATE = "activate"
"""R4-R9: the revealed cards resolve, highest motivation first."""
PHASE_RECRUIT = "recruit"
"""R10: players take a volunteer one at a time, in activation order."""
PHASE_REFILL = "refill"
"""R10: new volunteers are being drawn (chance only)."""
PHASE_GROW = "grow"
"""R11-R12: Train was applied; Grow cards are being drawn (chance only)."""
PHASE_OVER = "over"
"""R13: the game has ended; :attr:`SangramView.final` is set."""

# Statuses of a revealed card (:attr:`RevealView.status`).
STATUS_WAITING = "waiting"
"""Revealed, not yet resolved."""
STATUS_RESOLVING = "resolving"
"""Its activity is being resolved now (its owner may be choosing)."""
STATUS_DONE = "done"
"""Resolved (used, declined or wasted: see :attr:`RevealView.outcome`); it
goes to the discard pile."""
STATUS_RETREATED = "retreated"
"""Its owner was retreated by an Acharya before it resolved: taken back into
hand unused (R5).  The card is shown because it was revealed publicly."""

# What happened to a resolved card (:attr:`RevealView.outcome`).
OUTCOME_USED = "used"
"""Its activity (or, for a Yuvaraj, the copied one) took effect.  A Sarthi is
used once it draws, whatever becomes of the drawn card (R7)."""
OUTCOME_DECLINED = "declined"
"""Its owner chose not to use the activity (R4); a declined Vaidik keeps the
normal Recruit (R8)."""
OUTCOME_WASTED = "wasted"
"""The activity could do nothing: no possible target, no Britishers, nothing
to take or draw, a crown already at 9, every committed card a Yuvaraj (R6)."""


@dataclass(frozen=True)
class CardView:
    """One warrior card with everything printed on it (R1)."""

    id: str
    """How moves name it: ``acharya-53``."""
    kind: str
    """The warrior type key: ``acharya``, ``maharaja``, ``shoorveer``,
    ``senapati``, ``mantri``, ``maharani``, ``guptchar``, ``yuvaraj``,
    ``vyapari``, ``sarthi`` or ``vaidik``."""
    name: str
    """Display name: ``Acharya``."""
    motivation: int
    """1..55; higher acts first."""
    strength: int
    """Army strength 0..2."""
    britishers: int
    """Britishers it brings when recruited (or taken with a Vaidik), 0..3."""
    activity: str
    """One line describing the warrior's activity."""


@dataclass(frozen=True)
class PlayerView:
    """One player's public row (R14: track, Britishers and hand size are
    public; the hand and Total Army Strength are not)."""

    seat: Seat
    level: int
    """Crown on the strength track, 0..9."""
    britishers: int
    hand_size: int
    committed: bool
    """Commit phase: has put a card face down (they may still change it until
    the last player commits).  Later in the round: has a card on the table."""
    retreated: bool
    """Retreated by an Acharya this round (R5): skips Activate and Recruit and
    cannot be targeted."""
    skips_recruit: bool
    """Will not recruit this round (retreated, or used a Vaidik: R8)."""
    no_britishers: bool
    """A Shoorveer activity was used this round: takes no Britishers when
    recruiting (R9)."""
    grown: int
    """Grow steps taken so far: 0, 1 (reached 7: hand of 5) or 2 (reached 13:
    hand of 6) (R12)."""
    recruited: bool
    """Recruit phase: has taken a volunteer this round (R10); ``False`` in
    other phases.  See :attr:`SangramView.recruit_order`."""


@dataclass(frozen=True)
class RevealView:
    """One card revealed at the end of the commit phase (R4)."""

    seat: Seat
    card: CardView
    status: str
    """``waiting``, ``resolving``, ``done`` or ``retreated`` (see the
    ``STATUS_*`` constants)."""
    outcome: str | None
    """For a ``done`` card: ``used``, ``declined`` or ``wasted`` (the
    ``OUTCOME_*`` constants); ``None`` while waiting or resolving, when
    retreated, or when not known (a game saved before outcomes were kept)."""


@dataclass(frozen=True)
class GrowRevealView:
    """R12: a player reached Total Army Strength 7 for the first time and
    showed their hand to everyone (before drawing the 2 Grow cards)."""

    seat: Seat
    round: int
    cards: tuple[CardView, ...]
    level: int
    total_strength: int
    """Level plus the strengths of ``cards``: the strength that was proved."""


@dataclass(frozen=True)
class ChoiceView:
    """Whose decision the game is waiting for during Activate and Recruit,
    and what about.  All of it is public: the cards involved were revealed
    (or drawn face up by a Sarthi)."""

    seat: Seat
    kind: str
    """``activity`` (an activity's choice: a target, an amount, a card, or
    declining), ``give`` (Vyapari: the card to hand over), ``recruit``."""
    effect: str
    """The warrior key whose activity is resolving (``mantri``); for a
    Yuvaraj this is the copied activity; ``""`` when recruiting."""
    card: CardView | None
    """The card being resolved: the committed card, or the card a Sarthi drew;
    ``None`` when recruiting."""
    origin: str
    """``card`` (the committed card's own activity), ``copy`` (copied by a
    Yuvaraj) or ``draw`` (drawn by a Sarthi); ``""`` when recruiting."""
    prompt: str
    """A short public sentence that does not name the deciding seat (that is
    :attr:`seat`): ``Choose an opponent to retreat.``"""


@dataclass(frozen=True)
class FinalView:
    """Everything revealed at the end (R13)."""

    ranking: tuple[tuple[Seat, ...], ...]
    """Places, best first; seats sharing a place are grouped."""
    total_strength: tuple[int, ...]
    """Per seat: level plus the strengths of the hand."""
    britishers: tuple[int, ...]
    best_card: tuple[CardView | None, ...]
    """Per seat: the highest-motivation card in hand (the third tie-break)."""
    hands: tuple[tuple[CardView, ...], ...]
    reason: str
    """A public sentence without placeholders."""


@dataclass(frozen=True)
class HandView:
    """One player's private view (R14)."""

    seat: Seat
    hand: tuple[CardView, ...]
    """Highest motivation first.  During the commit phase the committed card
    is not in here (it is :attr:`committed`)."""
    committed: CardView | None
    """The card this player put face down this round, until it is discarded
    (or taken back after a retreat)."""
    hand_strength: int
    """The strengths of :attr:`hand` added up."""
    total_strength: int
    """Total Army Strength: level plus :attr:`hand_strength` (R12).  During a
    round the committed card does not count: it is not in the hand."""


@dataclass(frozen=True)
class SangramView:
    num_players: int
    phase: str
    """One of the ``PHASE_*`` constants."""
    round: int
    """1-based; 0 while dealing."""
    round_limit: int
    """The lobby option ``round_limit``: the game also ends after this round;
    0 means no limit, as in the rulebook (R13)."""
    players: tuple[PlayerView, ...]
    volunteers: tuple[CardView, ...]
    """The face-up volunteers (R10)."""
    deck_size: int
    discard_size: int
    discard_top: tuple[CardView, ...]
    """The up to 5 most recent discards, most recent first: what a Vaidik
    picks from and what survives a reshuffle (R3, R8)."""
    supply: int
    """Britisher tokens left in the common supply (R2: 40 in all)."""
    revealed: tuple[RevealView, ...]
    """The cards of the latest reveal, in resolution order (highest motivation
    first).  Kept until the next reveal; :attr:`revealed_round` says which
    round they belong to."""
    revealed_round: int
    drawn: CardView | None
    """A card a Sarthi drew that is resolving now (face up), else ``None``."""
    choice: ChoiceView | None
    """Activate/Recruit: who decides now and about what; ``None`` otherwise
    (in the commit phase see :attr:`waiting_on` and
    :attr:`PlayerView.committed`)."""
    recruit_order: tuple[Seat, ...]
    """Recruit phase: the seats that recruit this round, in turn order (R10:
    activation order, then players who had no card, in seat order; retreated
    and Vaidik players are left out).  Seats before :attr:`choice`'s seat
    have had their turn (:attr:`PlayerView.recruited` says whether they took a
    volunteer: a full hand takes none); the chooser and those after it are
    still to come.  ``()`` in other phases."""
    waiting_on: tuple[Seat, ...]
    """Seats the channel may be told are to act: in the commit phase those
    who have not committed yet (seats that committed may still change their
    card privately); otherwise the one seat deciding."""
    grow_reveals: tuple[GrowRevealView, ...]
    """Grow reveals of the latest round that had any (R12)."""
    events: tuple[str, ...]
    """The last public events, oldest first, with ``{pN}`` placeholders."""
    final: FinalView | None
    me: HandView | None
    """The viewer's own hand; ``None`` in the public view."""
