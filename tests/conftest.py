"""Session-wide safety net: a thread a test leaves running must not hang the run.

pytest-timeout bounds each test, but not the interpreter's exit, which waits
for every non-daemon thread.  aiosqlite runs each connection on one; a test
that fails before closing its database leaves that thread blocked for ever,
and the run never ends after printing its results (seen: "1 failed, 567
passed in 74.88s", then no exit for 45 minutes).  So after the session,
lingering threads get a short grace period, then their stacks are printed and
the process exits with the session's status (1 if the tests passed: the leak
itself is a bug).

Also the storage backends (issue 20): ``database_target`` is a parametrised
fixture, ``sqlite`` (a file in the test's folder) and ``postgresql`` (a fresh
database on a throwaway server the run starts itself, tests/postgres.py), so
one test covers both.  When the server cannot be started, the PostgreSQL
tests fail, and the run ends with one banner saying why and what to install.

And the lanes (issue 32): every test gets its markers here, from its folder,
its fixtures and what its module imports (``pytest_collection_modifyitems``),
never by hand, so a new test lands in the right lane by where it stands and
what it uses (docs/ARCHITECTURE.md, Testing: the lanes).
"""

from __future__ import annotations

import faulthandler
import os
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import OPT_OUT, PostgresServer, PostgresUnavailable

# The shared helpers assert too: give their failures pytest's full report.
pytest.register_assert_rewrite(
    "tests.bot.driver", "tests.renderers.images", "tests.engines.components"
)

#: Seconds lingering threads get to end after the session.
EXIT_GRACE = float(os.environ.get("CHAUPAL_TESTS_EXIT_GRACE", "10"))

_status: list[int] = []


def _lingering() -> list[threading.Thread]:
    return [
        t
        for t in threading.enumerate()
        if t is not threading.main_thread()
        and t.is_alive()
        and not t.daemon
        # Executor threads are stopped by the interpreter itself at exit.
        and not t.name.startswith(("ThreadPoolExecutor", "asyncio_"))
        and type(t).__name__ != "_ExecutorManagerThread"
    ]


#: Why the PostgreSQL test server could not be started (for the final banner).
_postgres_failure: list[str] = []


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The run's throwaway PostgreSQL server, started by the first test that
    needs it (in a parallel run, each worker's first: one server a worker)."""
    if os.environ.get(OPT_OUT, "").strip() == "0":
        pytest.skip(f"{OPT_OUT}=0: the PostgreSQL tests are skipped on purpose")
    for attempt in (1, 2):
        try:
            server = PostgresServer.start()
            break
        except PostgresUnavailable as exc:
            # In a parallel run each worker starts its own server, on a port
            # found free a few seconds before pg_ctl binds it: another process
            # may take it in between.  A second port, once.
            if attempt == 1 and "pg_ctl start" in str(exc):
                continue
            _postgres_failure.append(str(exc))
            break
    if _postgres_failure:
        pytest.fail(
            _POSTGRES_FAILED + _postgres_failure[0],
            pytrace=False,
        )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database, dropped after the test."""
    name = postgres_server.create_database()
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What CHAUPAL_DATABASE would hold: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "chaupal.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


TESTS = Path(__file__).resolve().parent

#: The harness that feeds interactions through discord.py's real dispatch,
#: and the helpers that play through it.
DISPATCH_HELPERS = frozenset(
    {
        "tests.discord_harness",
        "tests.bot.driver",
        "tests.bot.menu_player",
        "tests.bot.week",
        "tests.i18n.whole_games",
    }
)

#: The slow lane: whole games through dispatch, weeks of a server, long
#: playouts and measures, each several seconds to minutes (measured with
#: ``pytest --durations``; docs/ARCHITECTURE.md, Testing: the lanes).  A file
#: here is slow as a whole; a ``file::test`` entry names one test (every
#: parametrisation of it), ``file::test[params]`` one parametrisation (the
#: longest games' playouts, where the others take a second).  ``make
#: test-fast`` leaves them out.
SLOW = frozenset(
    {
        # A server's weeks, and what whole games cost in attention.
        "bot/test_server_week.py",
        "bot/test_attention.py",
        # The demo's seeded games, drawn (a module fixture plays them).
        "bot/test_demo.py",
        # Whole games through dispatch.
        "i18n/test_whole_games.py",
        "bot/test_menus_stay_usable.py::test_whole_game_from_menus_already_sent",
        "bot/test_discord_sangram.py::test_whole_sangram_game",
        "bot/test_discord_artaban.py::test_whole_artaban_game",
        "bot/test_discord_chaturaji.py::test_whole_4_player_game",
        "bot/test_discord_chaturaji.py::test_whole_2_player_game",
        "bot/test_discord_kauda_baji.py::test_whole_2_player_game",
        "bot/test_discord_kauda_baji.py::test_whole_4_player_game",
        "bot/test_discord_mahabharata.py::test_full_game_through_dispatch",
        "bot/test_discord_alt_text.py::test_every_image_of_a_whole_game_is_described_in_its"
        "_messages_language",
        "bot/test_discord_bots.py::test_one_person_plays_a_whole_game_against_the_automatic_players",
        "bot/test_discord_bots.py::test_a_whole_game_against_two_hard_automatic_players",
        "bot/test_discord_async_play.py::test_four_players_play_on_after_a_resignation_and_a_forfeit",
        "bot/test_names_and_words.py::test_whole_game_names_and_words",
        "bot/test_pings.py::test_no_ping_storm_over_a_whole_game",
        "bot/test_discord_replay.py::test_a_long_game_is_sampled_to_fit_and_says_so",
        "bot/test_discord_replay.py::test_a_long_game_shows_every_kth_move_and_says_why",
        # Whole tournaments, through dispatch and through the director.
        "bot/test_discord_tournaments.py::test_a_seven_player_swiss_artaban_tournament_over_three_rounds",
        "bot/test_discord_tournaments.py::test_an_eight_player_single_elimination_mahabharata_tournament",
        "bot/test_discord_tournaments.py::test_a_nine_player_sangram_pod_tournament_over_two_rounds",
        "bot/test_director.py::test_a_seven_player_swiss_artaban_tournament_over_three_rounds",
        "bot/test_director.py::test_an_eight_player_elimination_and_a_restart_mid_round",
        # Whole games through the service: every game, twins, restarts, PostgreSQL.
        "bot/test_public_artefacts.py::test_public_artefacts_ignore_hidden_information",
        "bot/test_public_artefacts.py::test_board_descriptions_ignore_hidden_information",
        "i18n/test_alt_text.py::test_twins_read_the_same_in_public_and_differently_in_private",
        "bot/test_service.py::test_restart_mid_game_finishes_identically",
        "bot/test_service_on_postgres.py::test_every_game_plays_the_same_on_postgresql_as_on_sqlite",
        # The tools run whole: the bench's replays and JSON, the demo's every move.
        "bot/test_entrypoints.py::test_bench_replays_times_each_seeded_games_replay",
        "bot/test_entrypoints.py::test_bench_prints_json_on_stdout_and_progress_on_stderr",
        "bot/test_entrypoints.py::test_demo_all_writes_boards_private_views_and_a_log",
        "bot/test_discord_bots.py::test_no_reminder_or_clock_for_an_automatic_player",
        "bot/test_short_lobbies.py::test_the_lobby_message_is_edited_at_most_ten_times_over_a_game",
        "bot/test_discord_follow.py::test_a_follower_sees_only_the_public_view",
        "bot/test_menus_stay_usable.py::test_dms_closed_for_one_player",
        "bot/test_tournament_deadlines.py::test_two_games_lost_on_time_in_a_row_drop_a_player",
        "bot/test_discord_replay.py::test_replay_and_review_never_show_another_seats_secrets",
        "bot/test_discord_replay.py::test_replay_posts_the_whole_game_once_drawn_then_from_the_cache",
        "bot/test_discord_replay.py::test_review_and_replay_buttons_work_after_a_restart",
        "bot/test_discord_replay.py::test_the_final_board_and_the_history_offer_the_replay",
        "bot/test_log_and_mine.py::test_the_log_shows_narrations_and_never_a_secret",
        "bot/test_one_interaction.py::test_the_board_offers_every_move_of_a_public_decision",
        # Long playouts of the engines (the longest games: Sangram, Kauda Baji).
        "engines/test_compiled.py::test_the_pure_engines_give_the_same_games",
        "engines/test_conformance.py::test_public_view_ignores_hidden_information[sangram]",
        "engines/test_conformance.py::test_public_view_ignores_hidden_information[mahabharata]",
        "engines/test_conformance.py::test_public_choices_ignore_hidden_information[sangram]",
        "engines/test_conformance.py::test_public_choices_ignore_hidden_information[mahabharata]",
        "engines/test_conformance.py::test_a_game_that_hides_nothing_shows_everyone_everything"
        "[kauda_baji]",
        "engines/test_conformance.py::test_a_determinized_state_depends_only_on_what_the_seat_may"
        "_see[sangram]",
        "engines/test_conformance.py::test_a_determinized_state_looks_the_same_to_the_seat[sangram]",
        "engines/test_conformance.py::test_apply_never_mutates_its_input[kauda_baji]",
        "engines/test_conformance.py::test_legal_actions_are_stable_and_distinct[kauda_baji]",
        "engines/test_conformance.py::test_illegal_actions_raise_and_leave_the_state_unchanged"
        "[kauda_baji]",
        "engines/test_conformance.py::test_random_playouts_end_with_an_outcome[kauda_baji]",
        "engines/test_conformance.py::test_parse_describe_round_trip[kauda_baji]",
        "engines/test_conformance.py::test_json_round_trip[sangram]",
        "engines/test_conformance.py::test_json_round_trip[kauda_baji]",
        "engines/test_conformance.py::test_chance_outcomes_are_a_distribution[kauda_baji]",
        "engines/test_conformance.py::test_a_game_that_hides_nothing_shows_everyone_everything"
        "[chaturaji]",
        "engines/test_conformance.py::test_narration_is_formattable[kauda_baji]",
        "engines/test_conformance.py::test_legal_actions_are_stable_and_distinct[sangram]",
        "engines/test_conformance.py::test_views_are_built_for_every_seat[kauda_baji]",
        "engines/test_conformance.py::test_a_determinized_state_depends_only_on_what_the_seat_may"
        "_see[mahabharata]",
        "engines/test_conformance.py::test_illegal_actions_raise_and_leave_the_state_unchanged"
        "[sangram]",
        "engines/test_conformance.py::test_parse_describe_round_trip[sangram]",
        "engines/test_conformance.py::test_apply_never_mutates_its_input[sangram]",
        "engines/test_chaturaji.py::test_property_move_generation_equals_the_reference_in_played_games",
        # The automatic players' searches over whole games.
        "players/test_players.py::test_search_sees_only_what_its_seat_may_see",
        "players/test_players.py::test_the_levels_round_robin_command_covers_each_player_count",
        "players/test_players.py::test_baseline_beats_random_players",
        # Every image of seeded games drawn, and replays of the longest games.
        "renderers/test_sangram_render.py::test_every_image_of_a_seeded_game_fits_the_chat",
        "renderers/test_phone_text.py::test_every_image_of_a_game_reads_on_a_phone",
        "renderers/test_text_size.py::test_playout_text_is_readable_at_phone_width",
        "renderers/test_phone_text.py::test_replay_frames_read_on_a_phone",
        "renderers/test_kauda_baji_render.py::test_every_image_of_a_game_fits_the_chat",
        "renderers/test_kauda_baji_render.py::test_bank_throws_are_cowrie_shells",
        "renderers/test_chaturaji_render.py::test_every_image_of_a_game_fits_the_chat",
        "renderers/test_mahabharata_render.py::test_every_image_of_a_game_fits_the_chat",
        "renderers/test_artaban_render.py::test_every_image_of_a_game_fits_the_chat",
        "renderers/test_sangram_replay_frames.py::test_frames_between_rounds_fill_the_canvas",
        "renderers/test_kauda_baji_render.py::test_playout_states_render_readably[4]",
        "renderers/test_chaturaji_render.py::test_playout_states_render_readably[4]",
        "renderers/test_scripts.py::test_every_board_private_image_and_result",
        "test_replay.py::test_the_last_frame_is_held_longer_than_the_others",
        "test_replay.py::test_each_gif_frame_is_its_frames_picture_while_the_canvas_grows",
        "test_replay.py::test_the_longest_replay_keeps_at_most_max_frames_and_draws_each_board_once",
        "test_replay.py::test_a_tiny_budget_samples_and_then_shrinks_but_never_fails",
        "test_replay.py::test_the_longest_kauda_baji_game_fits_discords_upload_limit",
        # The heaviest of the rest, each a long playout or a process of its own.
        "engines/test_conformance.py::test_waiting_on_is_a_subset_of_to_move[kauda_baji]",
        "engines/test_conformance.py::test_resolve_options_survives_any_input[kauda_baji]",
        "players/test_players.py::test_the_twin_check_catches_a_player_that_peeks[sangram]",
        "players/test_players.py::test_choose_returns_a_legal_action_for_every_seat_to_move"
        "[kauda_baji]",
        "engines/test_conformance.py::test_apply_never_mutates_its_input[chaturaji]",
        "engines/test_conformance.py::test_json_round_trip[chaturaji]",
        "players/test_players.py::test_choose_returns_a_legal_action_for_every_seat_to_move"
        "[chaturaji]",
        "test_lanes.py::test_the_markers_follow_folders_fixtures_and_imports",
        "bot/test_tools_apart.py::test_the_running_bot_imports_no_tool",
        # Names on every image of whole games: each game at its most players
        # (the most cramped panels) in the fast lane, the smaller tables here.
        *(
            f"renderers/test_names_whole.py::test_ordinary_names_are_never_cut[{kind}-{game}-{n}]"
            for kind in ("ordinary", "solo")
            for game, sizes in {
                "chaturaji": (2, 3),
                "kauda_baji": (2, 3),
                "mahabharata": (2, 3),
                "sangram": (2, 3, 4),
            }.items()
            for n in sizes
        ),
    }
)


def _imports_from(module: types.ModuleType, prefixes: frozenset[str] | tuple[str, ...]) -> bool:
    """Whether the test module holds anything (a module, a class, a function)
    that comes from one of the modules named, or from below them."""

    def within(name: object) -> bool:
        return isinstance(name, str) and any(
            name == p or name.startswith(p + ".") for p in prefixes
        )

    for value in vars(module).values():
        name = value.__name__ if isinstance(value, types.ModuleType) else None
        if within(name) or within(getattr(value, "__module__", None)):
            return True
    return False


def _is_slow(path: str, name: str) -> bool:
    """In :data:`SLOW` as its file, its test (every parametrisation), or
    itself (``file::test[params]``)."""
    return path in SLOW or f"{path}::{name.split('[')[0]}" in SLOW or f"{path}::{name}" in SLOW


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The lanes: ``engines`` (tests/engines), ``postgres`` (a test on the
    throwaway PostgreSQL server, through ``postgres_server`` or as
    ``database_target``'s ``postgresql``), ``dispatch`` (a module that plays
    through the harness), ``service`` (a module that drives ``bot.service``
    without the harness), ``slow`` (:data:`SLOW`)."""
    kinds: dict[str, set[str]] = {}
    for item in items:
        if not item.path.is_relative_to(TESTS):
            continue  # a test of the tests' own machinery, written to a temporary folder
        path = item.path.relative_to(TESTS).as_posix()
        if path not in kinds:
            module = getattr(item, "module", None)
            found: set[str] = set()
            if path.startswith("engines/"):
                found.add("engines")
            if module is not None and _imports_from(module, DISPATCH_HELPERS):
                found.add("dispatch")
            elif module is not None and _imports_from(module, ("bot.service",)):
                found.add("service")
            kinds[path] = found
        marks = set(kinds[path])
        params = getattr(item, "callspec", None)
        if "postgres_server" in getattr(item, "fixturenames", ()) or (
            params is not None and params.params.get("database_target") == "postgresql"
        ):
            marks.add("postgres")
        if _is_slow(path, item.name):
            marks.add("slow")
        for mark in sorted(marks):
            item.add_marker(mark)


_POSTGRES_FAILED = "The PostgreSQL test server could not be started. "


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """In a parallel run the server is each worker's, and so is its failure:
    the controller learns it from a failed test's report, for the banner."""
    text = str(report.longrepr) if report.failed else ""
    if _POSTGRES_FAILED in text and not _postgres_failure:
        _postgres_failure.append(text.split(_POSTGRES_FAILED, 1)[1].strip())


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _postgres_failure:
        terminalreporter.write_sep("!", "PostgreSQL tests could not run", red=True, bold=True)
        terminalreporter.write_line(_postgres_failure[0], red=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _status.append(int(exitstatus))


def pytest_unconfigure(config: pytest.Config) -> None:
    deadline = time.monotonic() + EXIT_GRACE
    for thread in _lingering():
        thread.join(max(0.0, deadline - time.monotonic()))
    left = _lingering()
    if not left:
        return
    names = ", ".join(t.name for t in left)
    sys.stdout.flush()
    sys.stderr.write(
        f"\n{len(left)} thread(s) still running after the tests ({names}); the process "
        "would never exit. Most often a test failed before closing its Database (an "
        "aiosqlite connection). Stacks:\n"
    )
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    status = _status[-1] if _status else 1
    os._exit(status or 1)
