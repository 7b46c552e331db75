"""Pairings for each tournament format: Swiss, round robin, single elimination and pods.

Pure and deterministic: players and past results in, the next round out. No
I/O, no clocks, no randomness; the same input always gives the same round.

Shared conventions:

- A player's *standing* is their row in :func:`standings.standings` over the
  results so far (points, tie-breaks, rating, id), best first. "Lowest ranked"
  means last in that order.
- A :class:`Table` lists player ids in seat order: seat 0 moves first.
- A bye is recorded by the caller as ``Result.bye(round, player)``; it scores a
  win (see :class:`standings.Scoring`).

Swiss (two-sided games), in priority order:

1. everyone plays, except one bye when the count is odd;
2. the bye goes to a player who has had none, while anyone has had none;
3. no rematch while some pairing without one exists (checked over the whole
   field before any rematch is allowed; then the fewest rematches);
4. the bye goes to the lowest-ranked player it can;
5. opponents come from the same score group, else the nearest one (squared
   distance between groups);
6. seats: nobody is asked to take seat 0 (or seat 1) more often than the other
   when an opponent wants the other seat; then alternation;
7. within a score group, the top half meets the bottom half (1 v n/2+1, ...).

These are weights of one maximum-weight matching (networkx's blossom
algorithm). That algorithm is cubic: a 1,000-player field with edges between
neighbouring score groups took 113 s. So a large field is paired in brackets,
top down: each bracket is the next ``bracket_limit`` players by standing (so
a score group and its neighbours), plus whoever the bracket above could not
pair (the floaters). A field no larger than ``bracket_limit`` is one bracket,
paired exactly by the rules above. If the bottom of the field cannot be paired
without a rematch that way, the last pairs are undone and paired again with the
leftovers, in a block that doubles until it is the whole field, so rules 2 and
3 always hold.

Seats in a duel: seat 0 goes to the player who has had it less often; on a tie,
to the one who had seat 1 last time; with no history, to the higher-ranked
player on odd tables and the lower-ranked on even tables.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx

from bot.tournament.standings import Player, Result, Scoring, standings

__all__ = [
    "POD_SEARCH_BUDGET",
    "SWISS_BRACKET_LIMIT",
    "Player",
    "Result",
    "Round",
    "Table",
    "bracket_order",
    "pair_pods",
    "pair_round_robin",
    "pair_single_elimination",
    "pair_swiss",
    "pod_table_sizes",
    "round_robin_schedule",
]

#: Largest slice of a score group paired by one matching (see the module docstring).
#: 20 keeps a 1,000-player round near half a second (32 took up to 1.9 s here).
SWISS_BRACKET_LIMIT = 20

#: Steps the exact pod search may take before falling back to local search.
#: Small fields finish long before; a large field normally needs a few thousand.
POD_SEARCH_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class Table:
    """One game of a round: player ids in seat order (seat 0 moves first)."""

    seats: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.seats) < 2:
            raise ValueError(f"a table seats at least two: {self.seats}")
        if len(set(self.seats)) != len(self.seats):
            raise ValueError(f"a player sits twice at one table: {self.seats}")


@dataclass(frozen=True, slots=True)
class Round:
    """One round's pairings: tables from the top board down, and byes."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def players(self) -> tuple[int, ...]:
        """Everyone with a game or a bye this round, tables first."""
        return tuple(seat for table in self.tables for seat in table.seats) + self.byes


# --- what the history says --------------------------------------------------------------


@dataclass
class _History:
    """Facts about past rounds that pairing needs, read once."""

    met: defaultdict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    byes: Counter[int] = field(default_factory=Counter)
    #: Seat 0 minus seat 1, over two-player games.
    balance: Counter[int] = field(default_factory=Counter)
    #: The seat taken in the latest two-player game.
    last_seat: dict[int, int] = field(default_factory=dict)
    #: Sum over tables of seat / (size - 1): 0 for first to move, 1 for last.
    lateness: defaultdict[int, Fraction] = field(default_factory=lambda: defaultdict(Fraction))
    tables: Counter[int] = field(default_factory=Counter)
    last_round: int = 0


def _read_history(history: Sequence[Result]) -> _History:
    facts = _History()
    # Stable sort: within a round the caller's order stands; "latest" needs rounds in order.
    for result in sorted(history, key=lambda result: result.round):
        facts.last_round = max(facts.last_round, result.round)
        if result.is_bye:
            facts.byes[result.seats[0]] += 1
            continue
        size = len(result.seats)
        for seat, player in enumerate(result.seats):
            facts.met[player].update(other for other in result.seats if other != player)
            facts.lateness[player] += Fraction(seat, size - 1)
            facts.tables[player] += 1
            if size == 2:
                facts.balance[player] += 1 if seat == 0 else -1
                facts.last_seat[player] = seat
    return facts


def _ranking(
    players: Sequence[Player], history: Sequence[Result], scoring: Scoring
) -> tuple[list[int], dict[int, Fraction]]:
    """Active players best first, and their points."""
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    active = set(ids)
    rows = standings(players, history, scoring)
    order = [row.player for row in rows if row.player in active]
    points = {row.player: Fraction(row.points) for row in rows if row.player in active}
    return order, points


# --- Swiss ------------------------------------------------------------------------------


@dataclass
class _SwissContext:
    rank: dict[int, int]
    group: dict[int, int]
    facts: _History
    bye_eligible: frozenset[int]
    groups: int
    max_balance: int


def _seat_conflict(context: _SwissContext, a: int, b: int) -> int:
    """How much two players want the same seat (0 when their wishes differ)."""
    balance_a = context.facts.balance[a]
    balance_b = context.facts.balance[b]
    conflict = 0
    if balance_a * balance_b > 0:
        conflict += 2 * min(abs(balance_a), abs(balance_b))
    last_a = context.facts.last_seat.get(a)
    if last_a is not None and last_a == context.facts.last_seat.get(b):
        conflict += 1
    return conflict


#: Matching nodes are tagged tuples, ("p", id) for a player, so no player id can be the bye.
_BYE_NODE = ("bye", 0)


def _match_block(
    block: Sequence[int], context: _SwissContext, *, bye: bool, rematches: bool
) -> tuple[list[tuple[int, int]], list[int], int | None]:
    """Pair ``block`` (ranked best first) with one maximum-weight matching.

    Returns the pairs (higher-ranked first), the unpaired players (best first)
    and the bye, if ``bye`` asked for one and an eligible player took it.
    The weights are lexicographic tiers, each unit larger than everything
    below it can add up to over the block, so a lower concern never outweighs
    a higher one.
    """
    size = len(block) + 1
    value = {player: size - index for index, player in enumerate(block)}
    # Position within the block's share of each score group, for the fold (rule 7).
    position: dict[int, int] = {}
    group_size: Counter[int] = Counter()
    for player in block:
        group = context.group[player]
        position[player] = group_size[group]
        group_size[group] += 1

    fold_unit = 1
    seat_unit = fold_unit * (size * size + 1)
    seat_max = 2 * context.max_balance + 1
    score_unit = seat_unit * (size * seat_max + 1)
    score_max = (context.groups - 1) ** 2
    node_unit = score_unit * (size * (score_max + 1) + 1)
    rematch_unit = node_unit * (2 * size * size + 1)

    graph = nx.Graph()
    graph.add_nodes_from(("p", player) for player in block)
    for i, a in enumerate(block):
        for b in block[i + 1 :]:
            rematch = b in context.facts.met[a]
            if rematch and not rematches:
                continue
            distance = context.group[b] - context.group[a]
            if distance == 0:
                fold = abs(position[b] - position[a] - group_size[context.group[a]] // 2)
            else:
                # A floater meets the top of the group below.
                fold = position[b]
            penalty = (
                rematch * rematch_unit
                + distance * distance * score_unit
                + _seat_conflict(context, a, b) * seat_unit
                + fold * fold_unit
            )
            graph.add_edge(("p", a), ("p", b), weight=node_unit * (value[a] + value[b]) - penalty)
    if bye:
        for player in block:
            if player in context.bye_eligible:
                # No node value: the matching keeps the most value by giving
                # the bye to the lowest-ranked eligible player (rule 4).
                graph.add_edge(_BYE_NODE, ("p", player), weight=0)

    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int]] = []
    bye_player: int | None = None
    matched: set[int] = set()
    for left, right in matching:
        if left[0] == "bye" or right[0] == "bye":
            bye_player = right[1] if left[0] == "bye" else left[1]
            matched.add(bye_player)
            continue
        a, b = sorted((left[1], right[1]), key=context.rank.__getitem__)
        pairs.append((a, b))
        matched.update((a, b))
    pairs.sort(key=lambda pair: context.rank[pair[0]])
    unpaired = [player for player in block if player not in matched]
    return pairs, unpaired, bye_player


def _pair_brackets(
    order: Sequence[int], context: _SwissContext, need_bye: bool, bracket_limit: int
) -> tuple[list[tuple[int, int]], list[int], int | None]:
    """Slices of the ranking, top down; returns pairs, leftovers and the bye.

    Slices follow rank, not score-group boundaries: the weights already keep
    score groups together inside a slice, and whoever a slice cannot pair
    floats down into the next one, as a floater to the group below would.
    """
    pairs: list[tuple[int, int]] = []
    queue = list(order)
    stuck = 0
    while True:
        # Grow the slice past players nobody could pair, so every slice makes progress.
        take = max(bracket_limit, stuck + 2)
        chunk, rest = queue[:take], queue[take:]
        if len(rest) == 1:
            chunk, rest = queue, []
        got, unpaired, bye_player = _match_block(
            chunk, context, bye=need_bye and not rest, rematches=False
        )
        pairs.extend(got)
        if not rest:
            return pairs, unpaired, bye_player
        queue = unpaired + rest
        stuck = len(unpaired)


def pair_swiss(
    players: Sequence[Player],
    history: Sequence[Result],
    *,
    scoring: Scoring | None = None,
    bracket_limit: int = SWISS_BRACKET_LIMIT,
) -> Round:
    """The next Swiss round of a two-sided game (rules in the module docstring).

    ``players`` are the active players (dropped ones left out); ``history``
    holds every result so far, byes included, dropped players' too.
    """
    if bracket_limit < 2:
        raise ValueError(f"a bracket holds at least two players, not {bracket_limit}")
    scoring = scoring or Scoring(table_size=2)
    facts = _read_history(history)
    order, points = _ranking(players, history, scoring)
    number = facts.last_round + 1
    if not order:
        return Round(number, ())
    scores = sorted(set(points.values()), reverse=True)
    group_of = {score: index for index, score in enumerate(scores)}
    unbyed = frozenset(player for player in order if facts.byes[player] == 0)
    context = _SwissContext(
        rank={player: index for index, player in enumerate(order)},
        group={player: group_of[points[player]] for player in order},
        facts=facts,
        bye_eligible=unbyed or frozenset(order),
        groups=len(scores),
        max_balance=max((abs(facts.balance[player]) for player in order), default=0),
    )
    need_bye = len(order) % 2 == 1

    pairs, leftover, bye_player = _pair_brackets(order, context, need_bye, bracket_limit)
    undo = 1
    while leftover or (need_bye and bye_player is None):
        # The bottom did not pair without a rematch: undo the last pairs and pair them
        # again with the leftovers, doubling until the block is the whole field.
        undo = min(undo, len(pairs))
        kept, undone = pairs[: len(pairs) - undo], pairs[len(pairs) - undo :]
        block = sorted(
            [*leftover, *(player for pair in undone for player in pair)],
            key=context.rank.__getitem__,
        )
        if len(kept) == 0:
            block = list(order)
        got, unpaired, taken = _match_block(block, context, bye=need_bye, rematches=False)
        if not unpaired and (taken is not None or not need_bye):
            pairs, leftover, bye_player = kept + got, [], taken
            break
        if len(kept) == 0:
            # No rematch-free pairing exists: allow the fewest rematches.
            pairs, leftover, bye_player = _match_block(order, context, bye=need_bye, rematches=True)
            break
        undo *= 2
    if leftover:  # pragma: no cover - a complete graph always pairs
        raise AssertionError(f"players left unpaired: {leftover}")

    pairs.sort(key=lambda pair: (context.rank[pair[0]], context.rank[pair[1]]))
    tables = tuple(
        Table(_duel_seats(a, b, facts, board)) for board, (a, b) in enumerate(pairs, start=1)
    )
    return Round(number, tables, () if bye_player is None else (bye_player,))


def _duel_seats(higher: int, lower: int, facts: _History, board: int) -> tuple[int, int]:
    """Seat order for a duel (rules in the module docstring)."""
    if facts.balance[higher] != facts.balance[lower]:
        first = higher if facts.balance[higher] < facts.balance[lower] else lower
    elif (
        higher in facts.last_seat
        and lower in facts.last_seat
        and facts.last_seat[higher] != facts.last_seat[lower]
    ):
        first = higher if facts.last_seat[higher] == 1 else lower
    else:
        first = higher if board % 2 == 1 else lower
    return (first, lower if first == higher else higher)


# --- round robin ------------------------------------------------------------------------


def seeded(players: Sequence[Player]) -> list[int]:
    """Ids in seed order: by rating, highest first; equal ratings by id."""
    return _seeded(players)


def _seeded(players: Sequence[Player]) -> list[int]:
    """Ids by rating, highest first; equal ratings by id."""
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    return [player.id for player in sorted(players, key=lambda p: (-p.rating, p.id))]


def round_robin_schedule(players: Sequence[Player]) -> tuple[Round, ...]:
    """Every round of a round robin, by the circle method.

    Players are seeded by rating; with an odd count an empty place makes the
    count even and whoever meets it has the bye. Seats: seat 0 to whoever has
    had it less often so far, then to whoever had seat 1 last, then by board
    parity; over the whole schedule nobody has seat 0 more than once more (or
    less) than seat 1.
    """
    seeds: list[int | None] = list(_seeded(players))
    if len(seeds) < 2:
        return ()
    if len(seeds) % 2 == 1:
        seeds.append(None)
    count = len(seeds)
    balance: Counter[int] = Counter()
    last_seat: dict[int, int] = {}
    rounds: list[Round] = []
    circle = list(seeds)
    for number in range(1, count):
        tables: list[Table] = []
        byes: list[int] = []
        for board in range(count // 2):
            a, b = circle[board], circle[count - 1 - board]
            if a is None or b is None:
                byes.extend(player for player in (a, b) if player is not None)
                continue
            if balance[a] != balance[b]:
                first = a if balance[a] < balance[b] else b
            elif a in last_seat and b in last_seat and last_seat[a] != last_seat[b]:
                first = a if last_seat[a] == 1 else b
            else:
                first = a if (number + board) % 2 == 1 else b
            second = b if first == a else a
            balance[first] += 1
            balance[second] -= 1
            last_seat[first], last_seat[second] = 0, 1
            tables.append(Table((first, second)))
        rounds.append(Round(number, tuple(tables), tuple(byes)))
        # The first place stays; everyone else moves one place round the circle.
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return tuple(rounds)


def pair_round_robin(players: Sequence[Player], number: int) -> Round:
    """Round ``number`` (from 1) of :func:`round_robin_schedule`."""
    schedule = round_robin_schedule(players)
    if not 1 <= number <= len(schedule):
        raise ValueError(f"a round robin of {len(players)} has no round {number}")
    return schedule[number - 1]


# --- single elimination -----------------------------------------------------------------


def bracket_order(size: int) -> tuple[int, ...]:
    """Seeds (from 1) in bracket order for a power-of-two ``size``: 1, 8, 4, 5, 2, 7, 3, 6.

    Adjacent pairs meet in the first round; seeds 1 and 2 can only meet in the final.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two, not {size}")
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, doubled - top)]
    return tuple(order)


def pair_single_elimination(players: Sequence[Player], history: Sequence[Result]) -> Round | None:
    """The round of a single-elimination bracket still to be played, or None when decided.

    Seeds by rating (highest first, then id). The bracket is the next power of
    two; the empty places are the lowest seeds', so byes go to the top seeds.
    The bracket is replayed from ``history`` (a result is found by who played,
    so round numbers need not match), and the first round with a game still
    missing its result is returned whole. A drawn game advances the better seed.
    Seats: in round 1 the better seed has seat 0; later, whoever has had seat 0
    less often in this bracket, then the better seed.
    """
    seeds = _seeded(players)
    if len(seeds) < 2:
        return None
    seed_of = {player: index for index, player in enumerate(seeds)}
    size = 1
    while size < len(seeds):
        size *= 2
    slots: list[int | None] = [
        seeds[seed - 1] if seed <= len(seeds) else None for seed in bracket_order(size)
    ]
    by_players = {frozenset(result.seats): result for result in history if not result.is_bye}
    first_seats: Counter[int] = Counter()
    number = 1
    while len(slots) > 1:
        tables: list[Table] = []
        byes: list[int] = []
        winners: list[int | None] = []
        unfinished = False
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            if a is None or b is None:
                # Only round 1 has empty places, never two side by side.
                through = a if b is None else b
                winners.append(through)
                if through is not None:
                    byes.append(through)
                continue
            better, worse = sorted((a, b), key=seed_of.__getitem__)
            first, second = better, worse
            if number > 1 and first_seats[worse] < first_seats[better]:
                first, second = worse, better
            tables.append(Table((first, second)))
            result = by_players.get(frozenset((a, b)))
            if result is None:
                unfinished = True
                winners.append(None)
            elif result.place_of(a) == result.place_of(b):
                winners.append(better)
            else:
                winners.append(a if result.place_of(a) < result.place_of(b) else b)
        if unfinished:
            return Round(number, tuple(tables), tuple(byes))
        for table in tables:
            first_seats[table.seats[0]] += 1
        slots = winners
        number += 1
    return None


# --- pods -------------------------------------------------------------------------------


def pod_table_sizes(
    count: int, table_size: int, min_players: int = 2
) -> tuple[tuple[int, ...], int]:
    """Table sizes for ``count`` players, largest first, and how many byes.

    The rule: the fewest byes that let everyone else sit; then the fewest
    tables of at most ``table_size``; then sizes as even as possible (they
    differ by at most one). So 10 at tables of 4 sit 4+3+3, 9 sit 3+3+3,
    and at tables of 5, 6 sit 3+3 rather than 5 and a bye. Byes happen only
    when fewer than ``min_players`` would be left at a table whatever the
    split (5 players, tables of 3, min 3: one table of 3 and two byes).
    """
    if not 2 <= min_players <= table_size:
        raise ValueError(f"need 2 <= min_players ({min_players}) <= table_size ({table_size})")
    if count < 0:
        raise ValueError(f"negative player count: {count}")
    for byes in range(count + 1):
        seated = count - byes
        if seated == 0:
            return (), byes
        tables = -(-seated // table_size)
        if seated // tables >= min_players:
            small, extra = divmod(seated, tables)
            return (small + 1,) * extra + (small,) * (tables - extra), byes
    raise AssertionError("unreachable: zero seated always fits")  # pragma: no cover


class _BudgetSpent(Exception):
    """The exact pod search used up its steps."""


def _pod_search(
    order: Sequence[int], sizes: Sequence[int], met: defaultdict[int, set[int]], budget: int
) -> list[tuple[int, ...]] | None:
    """Tables with no two players who met before, by standing; None if there are none.

    Depth-first and complete: the best-standing unseated player anchors the
    next table, for each table size still to fill, with the nearest-standing
    companions first. Raises _BudgetSpent when the step budget runs out.
    """
    steps = 0
    seated = [False] * len(order)
    remaining: Counter[int] = Counter(sizes)
    tables: list[tuple[int, ...]] = []

    def companions(start: int, chosen: list[int], needed: int) -> Iterator[list[int]]:
        nonlocal steps
        if needed == 0:
            yield list(chosen)
            return
        for index in range(start, len(order)):
            steps += 1
            if steps > budget:
                raise _BudgetSpent
            if seated[index]:
                continue
            player = order[index]
            if any(player in met[other] for other in chosen):
                continue
            chosen.append(player)
            yield from companions(index + 1, chosen, needed - 1)
            chosen.pop()

    def options() -> Iterator[tuple[int, ...]]:
        anchor = seated.index(False)
        for size in sorted(remaining, reverse=True):
            if remaining[size] == 0:
                continue
            for table in companions(anchor + 1, [order[anchor]], size - 1):
                yield tuple(table)

    position = {player: index for index, player in enumerate(order)}
    stack: list[Iterator[tuple[int, ...]]] = [options()] if order else []
    while stack:
        table = next(stack[-1], None)
        if table is None:
            stack.pop()
            if tables:
                undone = tables.pop()
                remaining[len(undone)] += 1
                for player in undone:
                    seated[position[player]] = False
            continue
        tables.append(table)
        remaining[len(table)] -= 1
        for player in table:
            seated[position[player]] = True
        if all(seated):
            return tables
        stack.append(options())
    return [] if not order else None


def _pod_local_search(
    order: Sequence[int], sizes: Sequence[int], met: defaultdict[int, set[int]]
) -> list[tuple[int, ...]]:
    """Few repeated opponents when none is impossible (or the search ran out).

    Greedy by standing, each seat to the nearest unseated player who has met
    the fewest already seated there; then swaps between tables while a swap
    lowers the number of repeated pairs.
    """
    unseated = list(order)
    tables: list[list[int]] = []
    for size in sizes:
        table = [unseated.pop(0)]
        while len(table) < size:
            window = unseated[: 4 * size]
            best = min(
                range(len(window)),
                key=lambda i: (sum(window[i] in met[other] for other in table), i),
            )
            table.append(unseated.pop(best))
        tables.append(table)

    def repeats(table: Sequence[int]) -> int:
        return sum(b in met[a] for a, b in itertools.combinations(table, 2))

    improved = True
    passes = 0
    while improved and passes < 20:
        improved = False
        passes += 1
        for t, table in enumerate(tables):
            if repeats(table) == 0:
                continue
            for u, other in enumerate(tables):
                if u == t:
                    continue
                for i, j in itertools.product(range(len(table)), range(len(other))):
                    before = repeats(table) + repeats(other)
                    table[i], other[j] = other[j], table[i]
                    if repeats(table) + repeats(other) < before:
                        improved = True
                    else:
                        table[i], other[j] = other[j], table[i]
    return [tuple(table) for table in tables]


def pair_pods(
    players: Sequence[Player],
    history: Sequence[Result],
    *,
    table_size: int,
    min_players: int = 2,
    scoring: Scoring | None = None,
    search_budget: int = POD_SEARCH_BUDGET,
) -> Round:
    """The next round of a pod tournament (tables of 3 to 5, or any size >= 2).

    - Table sizes and byes follow :func:`pod_table_sizes`.
    - Byes, when unavoidable, go to the lowest-ranked players with the fewest byes.
    - Tables are filled by standing: the best unseated player with the next
      best who have not shared a table with anyone already there. No two
      players who met before share a table while any grouping with these
      table sizes avoids it (an exact search, complete on small fields and
      bounded by ``search_budget`` steps on large ones); otherwise a local
      search keeps the repeats few.
    - Larger tables (when sizes differ) go to the top of the standings.
    - Seat order: whoever has sat latest on average (0 = first, 1 = last
      seat, 1/2 for no tables yet) moves first; ties by standing.
    """
    scoring = scoring or Scoring(table_size=table_size)
    facts = _read_history(history)
    order, _points = _ranking(players, history, scoring)
    number = facts.last_round + 1
    sizes, bye_count = pod_table_sizes(len(order), table_size, min_players)
    by_fewest_byes = sorted(range(len(order)), key=lambda index: (facts.byes[order[index]], -index))
    bye_indices = set(by_fewest_byes[:bye_count])
    byes = tuple(order[index] for index in sorted(bye_indices, reverse=True))
    seated = [player for index, player in enumerate(order) if index not in bye_indices]

    try:
        grouped = _pod_search(seated, sizes, facts.met, search_budget)
    except _BudgetSpent:
        grouped = None
    if grouped is None:
        grouped = _pod_local_search(seated, sizes, facts.met)

    rank = {player: index for index, player in enumerate(order)}

    def seat_key(player: int) -> tuple[Fraction, int]:
        played = facts.tables[player]
        mean = facts.lateness[player] / played if played else Fraction(1, 2)
        return (-mean, rank[player])

    grouped.sort(key=lambda table: (-len(table), min(rank[player] for player in table)))
    tables = tuple(Table(tuple(sorted(table, key=seat_key))) for table in grouped)
    return Round(number, tables, byes)
