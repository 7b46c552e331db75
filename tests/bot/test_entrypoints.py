"""``python -m bot``, ``python -m bot demo``, ``python -m bot.bench`` and settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.config import ConfigError, load_settings
from bot.tools.bench import main as bench_main
from bot.tools.demo import run_demo

ROOT = Path(__file__).resolve().parents[2]


def test_run_without_token_exits_2_and_says_what_to_set(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and ".env" in done.stderr


def test_run_with_a_corrupt_database_exits_3_before_connecting(tmp_path: Path) -> None:
    broken = tmp_path / "chaupal.sqlite3"
    broken.write_bytes(b"this is not a database, just some bytes" * 200)
    env = {k: v for k, v in os.environ.items()}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="not-a-real-token", CHAUPAL_DATABASE=str(broken))
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3, done.stderr
    assert str(broken) in done.stderr and "not a usable SQLite database" in done.stderr
    assert broken.read_bytes().startswith(b"this is not a database")


def test_run_with_a_read_only_database_exits_3_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It used to start, then fail every move with "Something went wrong"."""
    import asyncio
    import logging

    import aiosqlite

    from bot.__main__ import main
    from storage.opening import open_database

    path = tmp_path / "chaupal.sqlite3"

    async def create() -> None:
        await (await open_database(path)).close()

    asyncio.run(create())
    real_connect = aiosqlite.connect

    def read_only(database: str, **kwargs: object) -> aiosqlite.Connection:
        # Root ignores file permissions, so the read-only mode comes from SQLite's URI.
        return real_connect(f"{Path(database).as_uri()}?mode=ro", uri=True, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(aiosqlite, "connect", read_only)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("CHAUPAL_DATABASE", str(path))
    level = logging.getLogger().level
    try:
        code = main([])
    finally:
        logging.getLogger().setLevel(level)
        logging.getLogger("discord").setLevel(logging.NOTSET)
    err = capsys.readouterr().err
    assert code == 3, err
    assert str(path) in err and "read-only" in err


SIGTERM_CHILD = """
import asyncio, os, signal, sys
import bot.edge.client as client

async def start(self, token):
    # Stands in for logging in and connecting: runs until the bot is closed,
    # as discord.py's own start does; the service manager stops it meanwhile.
    os.kill(os.getpid(), signal.SIGTERM)
    while not self.is_closed():
        await asyncio.sleep(0.05)

client.ChaupalBot.start = start
from bot.__main__ import main
sys.exit(main([]))
"""


def test_sigterm_stops_the_bot_cleanly_with_status_0(tmp_path: Path) -> None:
    """systemd stops a service with SIGTERM (docs/deploy/chaupal.service):
    the bot closes as after Ctrl-C (timers given back, the database closed)
    and exits 0, instead of dying mid-write with -15."""
    env = {k: v for k, v in os.environ.items()}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN="not-a-real-token",
        CHAUPAL_DATABASE=str(tmp_path / "chaupal.sqlite3"),
        CHAUPAL_RENDER_WORKERS="0",
        CHAUPAL_THINK_WORKERS="0",
    )
    done = subprocess.run(
        [sys.executable, "-c", SIGTERM_CHILD],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Stopping (SIGTERM)" in done.stderr


def test_debug_logging_never_includes_discord_request_bodies() -> None:
    import logging

    from bot.__main__ import configure_logging

    configure_logging("DEBUG")
    try:
        assert logging.getLogger("bot").isEnabledFor(logging.DEBUG)
        for name in ("discord.http", "discord.gateway", "discord.webhook.async_"):
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
    finally:
        logging.getLogger("discord").setLevel(logging.NOTSET)
        logging.getLogger().setLevel(logging.WARNING)


def test_settings_defaults_and_errors() -> None:
    settings = load_settings({"DISCORD_TOKEN": " abc ", "DEV_GUILD_ID": "42"})
    assert settings.token == "abc" and settings.dev_guild_id == 42
    assert settings.database == Path("data/chaupal.sqlite3")
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_settings({"DEV_GUILD_ID": "my server"})
    with pytest.raises(ConfigError, match="SNAPSHOT"):
        load_settings({"CHAUPAL_SNAPSHOT_EVERY": "0"})
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load_settings({}).require_token()


def test_dotenv_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "CHAUPAL_DATABASE"):
        # setenv first: delenv of an unset name records nothing to restore, and
        # the values load_dotenv puts in os.environ would leak into later tests.
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nCHAUPAL_DATABASE=x/y.db\n")
    settings = load_settings(dotenv_path=tmp_path / ".env")
    assert settings.token == "from-file" and settings.database == Path("x/y.db")


def test_demo_all_writes_boards_private_views_and_a_log(tmp_path: Path) -> None:
    out = run_demo(tmp_path, seed=3, games=["mahabharata"], players=2, full=True)
    folder = out / "mahabharata"
    boards = sorted(folder.glob("*-board.png"))
    privates = sorted(folder.glob("*-private-*.png"))
    assert len(boards) > 20 and len(privates) >= 2
    with Image.open(boards[-1]) as image:
        assert image.format == "PNG" and image.width >= 800
    assert "Game over" in (folder / "log.txt").read_text()


def test_bench_prints_json_on_stdout_and_progress_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Tiny sizes: this checks the output, never the speed.
    args = ["--games", "mahabharata", "--seconds", "0.05", "--renders", "2", "--moves", "4"]
    args += ["--searches", "1"]
    assert bench_main([*args, "--counts", "1", "3"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)  # stdout is one JSON document and nothing else
    engine = report["engines"]["mahabharata"]["2p"]
    assert engine["games"] >= 1 and engine["games_per_s"] > 0
    board = report["renderers"]["mahabharata"]["board"]
    assert board["p95_ms"] > 0 and board["png_bytes_max"] > 0
    # Issue 19: the search levels' time per decision.
    search = report["search"]["mahabharata"]
    assert search["hard"]["iterations"] > search["medium"]["iterations"]
    assert search["medium"]["decisions"] == 1 and search["hard"]["p95_s"] > 0
    # Issue 18: interactions per decision, from the menus the bot draws.
    interactions = report["interactions"]["mahabharata"]["2p"]
    assert interactions["decisions"] > 0 and 1 <= interactions["mean"] <= interactions["max"] <= 2
    service = report["service"]["mahabharata"]
    assert sorted(service) == ["1", "3", "3_thread_render"]
    assert service["3"]["sequential"]["moves"] > 0 and service["3"]["sequential"]["move_p95_ms"] > 0
    # Issue 30: a whole game through dispatch, and what it cost its players
    # (the quick run's only Mahabharata game; not its figures, which its
    # own tests hold).
    assert sorted(report["attention"]) == ["mahabharata-3p"]
    attention = report["attention"]["mahabharata-3p"]
    assert attention["finished"] and attention["decisions"] > 0
    assert len(attention["players"]) == 3 and attention["lobby_chars"] > 0
    progress = captured.err.splitlines()
    assert any("mahabharata: random playouts" in line for line in progress), captured.err
    assert any("3 live games" in line for line in progress) and progress[-1].endswith("done")


def test_bench_replays_times_each_seeded_games_replay(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 31: ``--replays`` alone, the seeded games' replays (the output,
    never the speed)."""
    assert bench_main(["--replays", "--games", "chaturaji", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sorted(report["replays"]) == ["chaturaji-2p", "chaturaji-3p", "chaturaji-4p"]
    for figures in report["replays"].values():
        assert 0 < figures["kept"] <= figures["frames"] == figures["moves"] + 1
        assert figures["cpu_s"] > 0 and 0 < figures["bytes"] < 10 * 1024 * 1024


def test_bench_is_quick_unless_asked_for_the_full_run() -> None:
    from bot.tools.bench import FULL, QUICK, Profile, profile_for

    assert profile_for([]) == QUICK
    assert profile_for(["--full"]) == FULL
    assert profile_for(["--full", "--moves", "9"]) == Profile(
        FULL.seconds, FULL.renders, 9, FULL.counts, FULL.games, FULL.searches
    )
    # The quick run does less of everything.
    assert QUICK.seconds < FULL.seconds and QUICK.renders < FULL.renders
    assert QUICK.moves < FULL.moves and max(QUICK.counts) < max(FULL.counts)


def test_bench_playouts_end_in_sangram() -> None:
    """With random players a Sangram game can go on for ever: the bench caps its rounds."""
    import random

    from bot.engines import get_engine
    from bot.tools.bench import PLAYOUT_ROUND_LIMIT, playout_options, random_playout

    engine = get_engine("sangram")
    if "round_limit" not in engine.options:
        pytest.skip("this Sangram engine has no round_limit option yet")
    assert playout_options(engine)["round_limit"] == PLAYOUT_ROUND_LIMIT
    state, moves, _ = random_playout(engine, engine.max_players, random.Random(3))
    assert engine.outcome(state) is not None and moves > 0


def test_bench_measures_the_scheduler_with_many_games() -> None:
    import asyncio

    from bot.tools.bench import bench_timers

    report = asyncio.run(bench_timers(50, 10))
    assert report["timers"] == 100 and report["fired"] == 10
    assert report["startup_ms"] > 0 and report["fire_ms_per_timer"] > 0


def test_bench_measures_pairing_a_round() -> None:
    from bot.tools.pairing_bench import bench_pairing

    report = bench_pairing(40, prior_rounds=2)
    assert report["swiss_ms"] > 0 and report["pods_ms"] > 0
