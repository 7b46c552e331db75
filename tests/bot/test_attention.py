"""Issue 30: what Chaupal costs its players in attention.

Whole games are played through discord.py's real dispatch, with default
settings, only with the buttons and menus the bot sent (``bot/tools/attention/``,
which ``python -m bot.bench`` reports too), and the issue's targets are held
against what the fake Discord received: a ping Discord delivers and every
new DM are notifications, edits are silent.

A target missed raises :class:`TargetMissed`, which says what was
measured (the figures before issue 30 are listed above the targets' tests).
The measure itself is checked first, on
made-up messages (an edit, a silent DM, a mention that is not let through)
and on the games (played to the end, from menus already sent).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.tools.attention.figures import GameFigures, count, measure
from bot.tools.attention.play import SCENARIOS
from bot.tools.attention.recorded import SUPPRESS_NOTIFICATIONS, Outgoing, Place, source_of

pytestmark = pytest.mark.timeout(300)

GAMES = {scenario.name: scenario for scenario in SCENARIOS}
SOLO = [name for name, scenario in GAMES.items() if scenario.solo]
MEASURED: dict[str, GameFigures] = {}
"""Each game is played once per run, by the first test that needs it."""

MAX_NOTIFICATIONS_PER_DECISION = 1.0
MAX_DMS_WITHOUT_DECISION_PER_DECISION = 0.1
MAX_LOBBY_EDITS = 10
MAX_LOBBY_CHARS = 600
MAX_SOLO_WAIT_P95 = 6.0


class TargetMissed(AssertionError):
    """An issue-30 target the game does not meet (what ``xfail`` expects)."""


async def figures(name: str) -> GameFigures:
    if name not in MEASURED:
        MEASURED[name] = await measure(GAMES[name])
    return MEASURED[name]


def target(met: bool, what: str) -> None:
    if not met:
        raise TargetMissed(what)


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the module: each game's figures, one line each."""
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is None or capture is None or not MEASURED:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        for name, game in sorted(MEASURED.items()):
            waits = (
                f", solo waits p50/p95/max {game.wait_p50:.1f}/{game.wait_p95:.1f}/"
                f"{game.wait_max:.1f} s"
                if game.waits
                else ""
            )
            reporter.write_line(
                f"attention, {name}: {game.decisions} decisions; notifications per decision "
                f"mean {game.mean('notifications_per_decision'):.2f} max "
                f"{game.worst('notifications_per_decision'):.2f}; DMs without a decision "
                f"max {game.worst('dms_without_decision_per_decision'):.2f}; lobby "
                f"{game.lobby_chars} chars, {game.lobby_edits} edits; boards with choices "
                f"while only automatic seats act {game.auto_boards_with_choices}{waits}"
            )


# -- the measure, on made-up messages ----------------------------------------------------------

ASHA, BHIMA = 101, 102
PEOPLE = {ASHA: (0, "Asha"), BHIMA: (1, "Bhima")}


def sent(
    place: Place,
    content: str = "",
    *,
    new: bool = True,
    user: int | None = None,
    allowed: frozenset[int] | None = frozenset(),
    flags: int = 0,
    nonce: str | None = None,
    select: bool = False,
    files: tuple[str, ...] = (),
) -> Outgoing:
    return Outgoing(
        seq=0,
        new=new,
        place=place,
        message_id=1,
        channel_id=2,
        user_id=user,
        content=content,
        custom_ids=("chaupal:choose:1:5::0",) if select else (),
        has_select=select,
        files=files,
        allowed_users=allowed,
        flags=flags,
        nonce=nonce,
        at=0.0,
    )


def test_a_ping_is_a_mention_let_through_in_a_new_message() -> None:
    both = frozenset({ASHA, BHIMA})
    assert sent("channel", f"<@{ASHA}> to play", allowed=both).notified() == {ASHA}
    # Mentioned but not let through: named, not pinged.
    assert sent("channel", f"<@{ASHA}> to play", allowed=frozenset()).notified() == set()
    # Let through but not mentioned: nobody.
    assert sent("channel", "Asha to play", allowed=both).notified() == set()
    # Without allowed_mentions Discord pings every mention.
    assert sent("channel", f"<@{ASHA}> <@!{BHIMA}>", allowed=None).notified() == both
    # An edit, or an ephemeral reply, never notifies.
    assert sent("channel", f"<@{ASHA}>", allowed=both, new=False).notified() == set()
    assert sent("ephemeral", f"<@{ASHA}>", allowed=both, user=ASHA).notified() == set()


def test_every_new_dm_notifies_unless_silent() -> None:
    assert sent("dm", "Your view of Sangram #1", user=ASHA).notified() == {ASHA}
    assert sent("dm", "Your view", user=ASHA, flags=SUPPRESS_NOTIFICATIONS).notified() == set()
    assert sent("dm", "Played: …", user=ASHA, new=False).notified() == set()


def test_a_dm_without_a_menu_belongs_to_a_decision_only_while_one_is_owed() -> None:
    messages = [
        sent("dm", "Your view … choose below.", user=ASHA, nonce="s1.0v5", select=True),
        sent("dm", "Your view of Sangram #1", user=ASHA, nonce="s1.0v6"),  # owed at v6
        sent("dm", "Your view of Sangram #1", user=ASHA, nonce="s1.0v7"),  # not owed
        sent("dm", "Your view of Sangram #1", user=BHIMA, nonce="s1.1v7"),  # owed
        sent(
            "dm",
            "Your view of Sangram #1",
            user=BHIMA,
            nonce="s1.1v8",
            flags=SUPPRESS_NOTIFICATIONS,
        ),
        sent(
            "channel", f"<@{BHIMA}> to play", allowed=frozenset({BHIMA}), files=("chaupal-1-8.png",)
        ),
    ]
    owed_at = {(6, 0), (7, 1)}
    asha, bhima = count(
        messages,
        seats=PEOPLE,
        owed={0: 4, 1: 2},
        owing_at=lambda version, seat: (version, seat) in owed_at,
    )
    assert (asha.dms, asha.dms_without_decision, asha.notifications) == (3, 1, 3)
    assert asha.notifications_per_decision == 0.75
    assert asha.dms_without_decision_per_decision == 0.25
    # A silent DM is a DM, without a notification.
    assert (bhima.dms, bhima.dms_without_decision, bhima.notifications) == (2, 1, 2)
    assert bhima.by_source == {"DM view (no menu)": 1, "board ping": 1}


def test_what_each_message_is_called() -> None:
    assert source_of(sent("dm", "Your view … choose below.", select=True)).startswith("DM menu")
    assert source_of(sent("dm", "Your turn in Sangram #1: https://…")) == "turn DM"
    assert source_of(sent("dm", "Reminder: Sangram #1 is waiting for your move")) == "reminder DM"
    nudge = f"<@{ASHA}> everyone else in Sangram #1 has chosen: the game is waiting for you."
    assert source_of(sent("channel", nudge)) == "last-one nudge"
    last = sent("channel", "… Everyone else is waiting for you.", files=("chaupal-1-9.png",))
    assert source_of(last) == "board ping (last one of a phase)"


# -- the games are played through, from what the bot sent ---------------------------------------


@pytest.mark.parametrize("name", GAMES)
async def test_the_game_is_played_to_its_end_from_what_the_bot_sent(name: str) -> None:
    game = await figures(name)
    scenario = GAMES[name]
    assert game.finished
    assert len(game.seats) == scenario.people
    assert all(seat.owed > 0 for seat in game.seats), [s.to_json() for s in game.seats]
    assert game.decisions == sum(seat.owed - seat.timed_out for seat in game.seats)
    # Every decision from a board or a menu already sent, none refused.
    assert game.reopens == 0 and game.refusals == 0
    assert game.boards_posted > 0 and game.lobby_chars > 0
    # What people were told was seen: every person was pinged or DMed.
    assert all(seat.notifications > 0 for seat in game.seats)
    if scenario.solo:
        assert len(game.waits) == game.decisions - 1
        assert game.waits_for_others and min(game.waits_for_others) > 0


# -- issue 30's targets ----------------------------------------------------------------------
# Before issue 30's changes (seeded, so the same run gives the same figures):
# notifications per owed decision up to 2.04 (Sangram 3p), 2.17
# (Mahabharata 3p), 1.33 (Sangram solo); DMs without a decision up to 0.69,
# 0.92, 0.48 and 0.11 (Chaturaji 4p); 40-263 lobby edits a game; lobbies of
# 1,019-1,383 characters (a rematch 1,233); solo waits p95 27 s; 191 and 129
# boards with choices while only automatic seats acted.


@pytest.mark.parametrize(
    "name",
    [
        "sangram-3p",
        "chaturaji-4p",
        "mahabharata-3p",
        "chaturaji-solo",
        "sangram-solo",
    ],
)
async def test_at_most_one_notification_per_decision_owed(name: str) -> None:
    game = await figures(name)
    over = {
        s.name: round(s.notifications_per_decision, 3)
        for s in game.seats
        if s.notifications_per_decision > MAX_NOTIFICATIONS_PER_DECISION
    }
    target(not over, f"notifications per owed decision above 1: {over}")


@pytest.mark.parametrize(
    "name",
    [
        "sangram-3p",
        "chaturaji-4p",
        "mahabharata-3p",
        "chaturaji-solo",
        "sangram-solo",
    ],
)
async def test_few_dms_without_a_decision(name: str) -> None:
    game = await figures(name)
    over = {
        s.name: round(s.dms_without_decision_per_decision, 3)
        for s in game.seats
        if s.dms_without_decision_per_decision > MAX_DMS_WITHOUT_DECISION_PER_DECISION
    }
    target(not over, f"DMs without a decision per owed decision above 0.1: {over}")


@pytest.mark.parametrize(
    "name",
    [
        "sangram-3p",
        "chaturaji-4p",
        "mahabharata-3p",
        "chaturaji-solo",
        "sangram-solo",
    ],
)
async def test_the_lobby_message_is_edited_a_few_times_a_game(name: str) -> None:
    game = await figures(name)
    target(game.lobby_edits <= MAX_LOBBY_EDITS, f"{game.lobby_edits} lobby edits")


@pytest.mark.parametrize(
    "name",
    [
        "sangram-3p",
        "chaturaji-4p",
        "mahabharata-3p",
        "chaturaji-solo",
        "sangram-solo",
    ],
)
async def test_the_lobby_is_short(name: str) -> None:
    game = await figures(name)
    target(game.lobby_chars <= MAX_LOBBY_CHARS, f"the lobby has {game.lobby_chars} characters")


async def test_the_rematch_lobby_is_short() -> None:
    game = await figures("sangram-3p")
    assert game.rematch_chars is not None, "the final board offered no rematch"
    target(
        game.rematch_chars <= MAX_LOBBY_CHARS,
        f"the rematch's lobby has {game.rematch_chars} characters",
    )


@pytest.mark.parametrize(
    "name",
    [
        "chaturaji-solo",
        "sangram-solo",
    ],
)
async def test_one_person_waits_little_for_the_automatic_players(name: str) -> None:
    game = await figures(name)
    target(
        game.wait_p95 <= MAX_SOLO_WAIT_P95,
        f"solo waits p50 {game.wait_p50:.1f} s, p95 {game.wait_p95:.1f} s, "
        f"max {game.wait_max:.1f} s",
    )


@pytest.mark.parametrize(
    "name",
    [
        "chaturaji-solo",
        "sangram-solo",
    ],
)
async def test_no_board_offers_choices_while_only_automatic_seats_act(name: str) -> None:
    game = await figures(name)
    target(
        game.auto_boards_with_choices == 0,
        f"{game.auto_boards_with_choices} boards posted or edited with choices",
    )
