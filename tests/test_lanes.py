"""The lanes (issue 32): the markers tests/conftest.py gives each test, which
``make test-fast`` (``-m "not slow"``) and a developer's ``-m engines`` rely on.

A lane that silently empties would pass for ever: a slow test renamed would
land in the fast lane, a test moved out of tests/engines would leave the
engines lane, a PostgreSQL test would stop being told apart.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SLOW

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


@pytest.mark.parametrize("entry", sorted(SLOW))
def test_every_slow_entry_names_a_test(entry: str) -> None:
    path, _, name = entry.partition("::")
    source = (TESTS / path).read_text(encoding="utf-8")
    if name:
        function = name.split("[")[0]
        assert f"def {function}(" in source, f"{entry}: no such test (renamed?)"


PROBE = """
import sys

import pytest

LANES = {"engines", "service", "dispatch", "postgres", "slow"}


class Probe:
    def pytest_collection_finish(self, session):
        for item in session.items:
            marks = sorted({m.name for m in item.iter_markers()} & LANES)
            print("LANES", item.nodeid, ",".join(marks))


sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[1:]],
                     plugins=[Probe()]))
"""


def lanes(*files: str) -> dict[str, set[str]]:
    """Each test's lanes, as ``pytest --collect-only`` marks them in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *files],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    found: dict[str, set[str]] = {}
    for line in run.stdout.splitlines():
        if line.startswith("LANES "):
            _, test, marks = (line + " ").split(" ", 2)
            found[test] = set(marks.strip().split(",")) - {""}
    return found


def test_the_markers_follow_folders_fixtures_and_imports() -> None:
    found = lanes(
        "tests/engines/test_compiled.py",
        "tests/storage/test_database.py",
        "tests/bot/test_takeback.py",
        "tests/bot/test_discord_artaban.py",
    )

    def having(lane: str) -> set[str]:
        return {t for t, marks in found.items() if lane in marks}

    assert having("engines") == {t for t in found if t.startswith("tests/engines/")} != set()
    # database_target's PostgreSQL half, and only it, is on the server.
    database = {t for t in found if t.startswith("tests/storage/test_database.py")}
    assert having("postgres") & database
    assert all("[postgresql" in t or "postgres" in t for t in having("postgres") & database)
    assert any("[sqlite" in t for t in database - having("postgres"))
    assert having("dispatch") == {t for t in found if "test_discord_" in t} != set()
    assert having("service") == {t for t in found if "test_takeback" in t} != set()
    artaban = {t for t in found if t.startswith("tests/bot/test_discord_artaban.py")}
    assert having("slow") & artaban == {t for t in artaban if "test_whole_artaban_game" in t}
    assert "tests/engines/test_compiled.py::test_the_pure_engines_give_the_same_games" in having(
        "slow"
    )
