"""The tournament desk's pure texts (``bot/edge/tournament/texts.py``): a moderator's verdict
parsed, table lines, standings cut to one message, the announcement, and the
format's description with its planned rounds (``bot/director.py``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.director import MAX_NAME, planned_rounds
from bot.edge.tournament.texts import (
    NAMES_SHOWN,
    announcement_text,
    describe_format,
    name_list,
    ordinal,
    parse_places,
    standings_text,
    table_line,
)
from bot.engines.core import GameError
from bot.outgoing import MAX_CONTENT, plural, safe_name
from bot.tournament.standings import Standing, Tiebreak
from storage.tournaments import (
    TournamentFormat,
    TournamentPlayer,
    TournamentRecord,
    TournamentTable,
)

A, B, C, D = 11, 22, 33, 44
NAMES = {A: "Alice", B: "Bob", C: "Carol", D: "Dev"}
EVIL = "**x** <@1>"
"""A display name that would restyle and ping if it went out raw."""


def record(
    format: TournamentFormat = "swiss",
    *,
    rounds: int = 0,
    table_size: int = 2,
    engine: str = "artaban",
    status: Any = "open",
    options: dict[str, Any] | None = None,
    name: str = "",
) -> TournamentRecord:
    return TournamentRecord(
        id=5,
        guild_id=7,
        channel_id=70,
        engine=engine,
        format=format,
        rounds=rounds,
        table_size=table_size,
        options={"rated": "yes"} if options is None else options,
        status=status,
        round=0 if status == "open" else 1,
        creator_id=1,
        created_at=0.0,
        updated_at=0.0,
        name=name,
    )


def duel(places: tuple[int, ...] | None = None, *, adjudicated: bool = False) -> TournamentTable:
    return TournamentTable(1, 2, (A, B), 900, places, adjudicated)


def pod(places: tuple[int, ...] | None = None) -> TournamentTable:
    return TournamentTable(1, 3, (A, B, C), 901, places)


# -- ordinal and name_list ----------------------------------------------------------------


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
        "101st", "111th", "112th",
    ]  # fmt: skip


def test_name_list_escapes_and_cuts() -> None:
    assert name_list([]) == "nobody yet"
    assert name_list(["A", EVIL]) == f"**A**, **{safe_name(EVIL)}**"
    assert name_list([f"n{i}" for i in range(5)], limit=3) == "**n0**, **n1**, **n2** …and 2 more"


# -- parse_places -------------------------------------------------------------------------


@pytest.mark.parametrize("said", ["draw", "Draw", "  tie ", "TIE", "½-½", "1/2-1/2"])
def test_a_draw_gives_everyone_first_place(said: str) -> None:
    assert parse_places(said, duel(), NAMES) == (1, 1)
    assert parse_places(said, pod(), NAMES) == (1, 1, 1)


def test_places_per_seat_in_seat_order() -> None:
    assert parse_places("2 1 3", pod(), NAMES) == (2, 1, 3)
    assert parse_places("1, 1, 3", pod(), NAMES) == (1, 1, 3)
    assert parse_places("1-2", duel(), NAMES) == (1, 2)
    assert parse_places("2,1", duel(), NAMES) == (2, 1)
    assert parse_places(" 2 - 1 ", duel(), NAMES) == (2, 1)


def test_a_winner_by_name_or_id_at_two_seats() -> None:
    assert parse_places("Alice", duel(), NAMES) == (1, 2)
    assert parse_places("bOB", duel(), NAMES) == (2, 1)
    assert parse_places("@bob", duel(), NAMES) == (2, 1)
    assert parse_places(str(A), duel(), NAMES) == (1, 2)
    assert parse_places(str(B), duel(), NAMES) == (2, 1)
    assert parse_places(f"<@{B}>", duel(), NAMES) == (2, 1)
    assert parse_places(f"<@!{A}>", duel(), NAMES) == (1, 2)


@pytest.mark.parametrize(
    ("said", "table"),
    [
        ("1", "duel"),  # too few places
        ("1 2 3", "duel"),  # too many
        ("0 1", "duel"),  # places start at 1
        ("3 1", "duel"),  # no third place at two seats
        ("1 2 4", "pod"),
        ("1 2", "pod"),
        ("Zed", "duel"),  # nobody of that name
        (str(C), "duel"),  # not seated here
        ("", "duel"),
        ("Alice", "pod"),  # names only name a winner at two seats
        (f"<@{A}>", "pod"),
    ],
)
def test_bad_verdicts_are_refused_listing_the_seats(said: str, table: str) -> None:
    at = duel() if table == "duel" else pod()
    with pytest.raises(GameError) as caught:
        parse_places(said, at, NAMES)
    message = str(caught.value)
    seated = [NAMES[u] for u in at.seats]
    listed = [f"{i + 1}. {name}" for i, name in enumerate(seated)]
    positions = [message.find(item) for item in listed]
    assert all(p >= 0 for p in positions), message
    assert positions == sorted(positions)
    assert ("winner's name" in message) == (len(at.seats) == 2)
    assert "`1 2`" in message if len(at.seats) == 2 else "`1 2 3`" in message


def test_the_refusal_lists_every_seat_of_a_pod_with_long_names() -> None:
    names = {A: "Alexandra Konstantinova", B: "Bartholomew Fitzgerald", C: "Cassandra Oyelaran"}
    with pytest.raises(GameError) as caught:
        parse_places("1 2", pod(), names)
    message = str(caught.value)
    for i, user in enumerate(pod().seats):
        assert f"{i + 1}. {names[user]}" in message, message


def test_the_refusal_escapes_names() -> None:
    names = {A: EVIL, B: "Bob"}
    with pytest.raises(GameError) as caught:
        parse_places("nobody", duel(), names)
    message = str(caught.value)
    assert EVIL not in message
    assert "<@1>" not in message and "**x**" not in message
    assert safe_name(EVIL) in message


# -- table_line ---------------------------------------------------------------------------


def test_a_bye_line() -> None:
    bye = TournamentTable(1, 4, (C,), None, (1,))
    assert table_line(bye, NAMES) == "Bye: **Carol** (a win's points)"


def test_two_seat_results_in_either_seat_order() -> None:
    assert table_line(duel((1, 2)), NAMES) == "Table 2: **Alice** beat **Bob**"
    assert table_line(duel((2, 1)), NAMES) == "Table 2: **Bob** beat **Alice**"
    assert table_line(duel((1, 1)), NAMES) == "Table 2: **Alice** and **Bob** drew"
    assert (
        table_line(duel((2, 1), adjudicated=True), NAMES)
        == "Table 2: **Bob** beat **Alice** (adjudicated)"
    )
    assert table_line(duel((1, 1), adjudicated=True), NAMES).endswith("drew (adjudicated)")


def test_pod_results_in_place_order_with_shared_places() -> None:
    assert table_line(pod((1, 2, 2)), NAMES) == "Table 3: 1st **Alice**, 2nd **Bob**, 2nd **Carol**"
    assert table_line(pod((3, 1, 2)), NAMES) == "Table 3: 1st **Bob**, 2nd **Carol**, 3rd **Alice**"
    # Only the order matters: (1, 1, 2) means Carol had two players ahead.
    assert table_line(pod((1, 1, 2)), NAMES) == "Table 3: 1st **Alice**, 1st **Bob**, 3rd **Carol**"
    assert table_line(pod((2, 2, 1)), NAMES) == "Table 3: 1st **Carol**, 2nd **Alice**, 2nd **Bob**"
    four = TournamentTable(2, 1, (A, B, C, D), 5, (4, 1, 2, 2), True)
    assert (
        table_line(four, NAMES)
        == "Table 1: 1st **Bob**, 2nd **Carol**, 2nd **Dev**, 4th **Alice** (adjudicated)"
    )


def test_unfinished_tables() -> None:
    assert (
        table_line(duel(), NAMES, "in <#123>")
        == "Table 2: **Alice** vs **Bob** — playing in <#123>"
    )
    assert (
        table_line(pod(), NAMES, "in <#9>")
        == "Table 3: **Alice**, **Bob**, **Carol** — playing in <#9>"
    )
    assert table_line(duel(), NAMES) == "Table 2: **Alice** vs **Bob** — playing"
    assert (
        table_line(duel(), NAMES, "in <#123>", ended=True)
        == "Table 2: **Alice** vs **Bob** — ended without a result"
    )


def test_table_lines_escape_names() -> None:
    names = {A: EVIL, B: "_under_", C: "`tick` @everyone"}
    lines = [
        table_line(duel((1, 2)), names),
        table_line(duel((1, 1)), names),
        table_line(duel(), names, "in <#5>"),
        table_line(pod((1, 2, 3)), names),
        table_line(TournamentTable(1, 1, (A,), None, (1,)), names),
    ]
    for line in lines:
        assert EVIL not in line and "<@1>" not in line and "@everyone" not in line
        assert safe_name(EVIL) in line
    assert lines[0] == f"Table 2: **{safe_name(EVIL)}** beat **{safe_name('_under_')}**"
    assert f"**{safe_name('`tick` @everyone')}**" in lines[3]


# -- standings_text -----------------------------------------------------------------------


def row(rank: int, player: int, points: float, *breaks: float, kinds: Any = None) -> Standing:
    if kinds is None:
        kinds = (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER)
    return Standing(
        rank=rank,
        player=player,
        points=points,
        tiebreaks=tuple(zip(kinds, breaks, strict=True)),
        games=3,
        byes=0,
        rating=0.0,
    )


def test_standings_lines_with_halves_drops_and_no_average_place() -> None:
    players = {
        A: TournamentPlayer(A, "Alice", 0.0),
        B: TournamentPlayer(B, EVIL, 0.0, dropped_after=2),
        C: TournamentPlayer(C, "Carol", 0.0),
    }
    pods = (Tiebreak.OPPONENTS_POINTS, Tiebreak.AVERAGE_PLACE)
    table = [
        row(1, A, 2.5, 1.5, 1.0, kinds=pods),
        row(2, B, 0.5, 2.0, 2.5, kinds=pods),
        row(3, C, 0.0, 0.0, float("inf"), kinds=pods),
    ]
    text = standings_text("🏆 **Cup** — after round 3", table, players)
    assert text.splitlines() == [
        "🏆 **Cup** — after round 3",
        "1. **Alice** — 2½ points · opponents' points 1½ · average place 1",
        f"2. **{safe_name(EVIL)}** (dropped) — ½ point · opponents' points 2 · average place 2½",
        "3. **Carol** — 0 points · opponents' points 0 · average place –",
        "Equal points are split by opponents' points (the others' mean points at each of "
        "your tables, added up), then by average place (your mean place at a table, "
        "lower first).",
    ]
    assert EVIL not in text


def test_points_and_tiebreaks_are_written_one_way() -> None:
    """Issue 31: points and every tie-break made of them are written the
    same way (``11½``, ``7¼``), never ``3½`` beside ``11.5`` and ``7.25``;
    one point is "1 point"."""
    players = {A: TournamentPlayer(A, "Alice", 0.0), C: TournamentPlayer(C, "Carol", 0.0)}
    table = [row(1, A, 3.5, 11.5, 7.25), row(2, C, 1.0, 9.0, 2.75)]
    lines = standings_text("T", table, players).splitlines()
    assert lines[1:3] == [
        "1. **Alice** — 3½ points · Buchholz 11½ · Sonneborn-Berger 7¼",
        "2. **Carol** — 1 point · Buchholz 9 · Sonneborn-Berger 2¾",
    ]


def test_standings_of_a_player_unknown_to_the_table() -> None:
    text = standings_text("T", [row(1, 999, 1.0, 0.0, 0.0)], {})
    assert text.splitlines()[1] == "1. **?** — 1 point · Buchholz 0 · Sonneborn-Berger 0"
    # Issue 31: "Bh 0 · SB 0" needed words: each tie-break named, and said what it counts.
    assert text.splitlines()[2] == (
        "Equal points are split by Buchholz (the points of everyone you met, added up), "
        "then by Sonneborn-Berger (the points of each player you beat, and half of each "
        "you drew)."
    )


def test_standings_without_tiebreaks() -> None:
    players = {A: TournamentPlayer(A, "Alice", 0.0)}
    assert standings_text("T", [row(1, A, 1.0, kinds=())], players) == "T\n1. **Alice** — 1 point"


def test_five_hundred_players_fit_one_message() -> None:
    long = "*_~`|>#[]<@everyone>" * 3  # cut to 32 characters, then escaped
    players = {
        1000 + i: TournamentPlayer(1000 + i, f"{long}{i}", 1.0, 3 if i % 7 == 0 else None)
        for i in range(500)
    }
    table = [row(i + 1, 1000 + i, 10.5 - i / 50, 123.25, 45.5) for i in range(500)]
    title = "🏆 **A long tournament name of sixty characters, more or less** — after round 9"
    text = standings_text(title, table, players)
    assert len(text) <= MAX_CONTENT
    lines = text.splitlines()
    assert lines[0] == title
    shown = lines[1:-2]
    assert 0 < len(shown) < 500
    assert [int(line.split(".", 1)[0]) for line in shown] == list(range(1, len(shown) + 1))
    assert lines[-2] == f"…and {500 - len(shown)} more in the image."
    assert lines[-1].startswith("Equal points are split by Buchholz")
    assert "(dropped)" in shown[0]  # player 1000 dropped
    assert "(dropped)" not in shown[1]
    assert "<@everyone>" not in text and "@everyone" not in text


def test_standings_that_fit_have_no_more_line() -> None:
    players = {1000 + i: TournamentPlayer(1000 + i, f"p{i}", 0.0) for i in range(10)}
    table = [row(i + 1, 1000 + i, 1.0, 0.0, 0.0) for i in range(10)]
    lines = standings_text("T", table, players).splitlines()
    assert len(lines) == 12 and "more in the image" not in lines[-2]


# -- announcement_text --------------------------------------------------------------------


def players_named(count: int, *, dropped: int = 0) -> list[TournamentPlayer]:
    return [
        TournamentPlayer(100 + i, f"player{i}", 0.0, 1 if i < dropped else None)
        for i in range(count)
    ]


def test_an_open_tournament_invites_to_join() -> None:
    text = announcement_text(record(), players_named(3))
    lines = text.splitlines()
    assert lines[0] == "🏆 tournament #5 of **Artaban**"
    assert lines[1] == "Format: Swiss, 2 rounds with 3 players, two players a game."
    assert lines[2] == "Players (3): **player0**, **player1**, **player2**"
    assert "Press **Join**" in lines[3]
    assert "rated" not in text.replace("every game is rated", "")


def test_a_running_tournament_shows_its_status_not_join() -> None:
    text = announcement_text(
        record(status="running"), players_named(4, dropped=1), status="Round 1 of 2 is on."
    )
    assert "Join" not in text
    assert text.splitlines()[-1] == "Round 1 of 2 is on."
    # Dropped players are not listed.
    assert "Players (3): **player1**, **player2**, **player3**" in text
    assert "player0" not in text


def test_no_one_yet() -> None:
    assert "Players (0): nobody yet" in announcement_text(record(), [])


def test_the_player_list_is_cut_after_names_shown() -> None:
    count = NAMES_SHOWN + 7
    text = announcement_text(record(), players_named(count))
    line = next(li for li in text.splitlines() if li.startswith("Players"))
    assert line.startswith(f"Players ({count}): ")
    assert f"**player{NAMES_SHOWN - 1}**" in line and f"**player{NAMES_SHOWN}**" not in line
    assert line.endswith(" …and 7 more")


def test_an_announcement_never_passes_the_limit() -> None:
    heavy = [TournamentPlayer(100 + i, "*_~`|>#[]" * 4 + str(i), 0.0) for i in range(300)]
    for status in ("open", "running"):
        text = announcement_text(
            record(status=status, name="N" * MAX_NAME), heavy, status="x" * 3000
        )
        assert len(text) <= MAX_CONTENT


def test_options_are_shown_except_the_forced_rated() -> None:
    text = announcement_text(
        record(engine="sangram", options={"rated": "yes", "round_limit": 6, "clock": "3d"}), []
    )
    assert "Options: clock=3d, round_limit=6." in text.splitlines()
    assert "rated=" not in text
    assert "Options" not in announcement_text(record(options={"rated": "yes"}), [])


def test_a_named_tournament_is_escaped() -> None:
    text = announcement_text(record(name=EVIL), [])
    assert text.splitlines()[0] == f"🏆 **{safe_name(EVIL)}**, tournament #5 of **Artaban**"


def test_the_announcement_shows_the_whole_tournament_name() -> None:
    """The director keeps a name's first MAX_NAME characters: all are shown."""
    name = "Spring Championship 2025, Sangram Open Division"[:MAX_NAME].strip()
    text = announcement_text(record(name=name), [])
    assert f"**{name}**" in text.splitlines()[0]


# -- describe_format and planned_rounds ---------------------------------------------------


@pytest.mark.parametrize(("entrants", "rounds"), [(2, 1), (3, 2), (4, 2), (7, 3), (8, 3), (9, 4)])
def test_swiss_plays_ceil_log2_rounds_by_default(entrants: int, rounds: int) -> None:
    assert planned_rounds(record("swiss"), entrants) == rounds
    assert describe_format(record("swiss"), entrants) == (
        f"Swiss, {plural(rounds, 'round')} with {entrants} players, two players a game"
    )


def test_explicit_rounds_are_kept() -> None:
    assert planned_rounds(record("swiss", rounds=5), 4) == 5
    assert planned_rounds(record("swiss", rounds=2), 100) == 2
    assert describe_format(record("swiss", rounds=5), 4) == "Swiss, 5 rounds, two players a game"
    pods = record("pods", rounds=6, table_size=3, engine="sangram")
    assert planned_rounds(pods, 9) == 6
    assert describe_format(pods, 9) == "Pods, 6 rounds, tables of 3"


def test_rounds_as_needed_before_two_players() -> None:
    for count in (0, 1):
        assert describe_format(record("swiss"), count) == (
            "Swiss, rounds as needed, two players a game"
        )


@pytest.mark.parametrize(("entrants", "rounds"), [(2, 1), (3, 3), (4, 3), (5, 5), (6, 5), (7, 7)])
def test_round_robin_rounds(entrants: int, rounds: int) -> None:
    assert planned_rounds(record("round_robin"), entrants) == rounds
    assert describe_format(record("round_robin"), entrants) == (
        f"Round robin, {plural(rounds, 'round')} with {entrants} players, two players a game"
    )


@pytest.mark.parametrize(
    ("entrants", "rounds"), [(2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5)]
)
def test_elimination_rounds(entrants: int, rounds: int) -> None:
    assert planned_rounds(record("elimination"), entrants) == rounds
    assert describe_format(record("elimination"), entrants).startswith(
        f"Single elimination, {plural(rounds, 'round')} with {entrants} players"
    )


@pytest.mark.parametrize(
    ("entrants", "size", "rounds"),
    [
        (3, 3, 2),
        (4, 4, 2),
        (3, 4, 2),  # never below 2
        (2, 5, 2),
        (9, 3, 3),
        (10, 3, 4),
        (27, 3, 4),
        (28, 3, 5),
        (16, 4, 3),
        (17, 4, 4),
        (125, 5, 4),
        (25, 5, 3),
    ],
)
def test_pods_rounds(entrants: int, size: int, rounds: int) -> None:
    pods = record("pods", table_size=size, engine="sangram")
    assert planned_rounds(pods, entrants) == rounds
    assert describe_format(pods, entrants) == (
        f"Pods, {plural(rounds, 'round')} with {entrants} players, tables of {size}"
    )


def test_formats_ignore_a_number_of_rounds_they_decide_themselves() -> None:
    assert planned_rounds(record("round_robin", rounds=2), 6) == 5
    assert planned_rounds(record("elimination", rounds=7), 8) == 3


def test_the_description_has_no_markup() -> None:
    for fmt in ("swiss", "round_robin", "elimination"):
        assert not re.search(r"[*_`<@]", describe_format(record(fmt), 6))
