"""Issue 17 item 4: help and onboarding, through discord.py's dispatch.

``/help`` is one ephemeral page whose buttons give each game's rules and
open a lobby; a lobby has **Rules** and **Options** buttons (the latter
explains every option, with the lobby's values);
``/game new``'s ``options:`` suggests each game's options; ``/game rules``
gives the summary and, on a button, the complete rules as a file.  Every
button is a DynamicItem: it still answers after a restart.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.edge.lobby.lobby import complete_rules, rules_summary
from bot.engines import ENGINES
from bot.timekeeping import TABLE_OPTIONS
from tests.bot.driver import CUSTOM_ID, boards, bot_of, make_bot, open_lobby, start
from tests.discord_harness import FakeDiscord, FakeUser, Sent

ROOT = Path(__file__).resolve().parents[2]
HELP_ID = re.compile(r"^chaupal:help:[a-z_]+:(rules|full|new|options(:\d+)?)$")
r"""The addition this change needs in tests/bot/driver.py's ``CUSTOM_ID``:
``|help:[a-z_]+:(rules|full|new|options(:\d+)?)`` (a game's name, a verb
and, for a lobby's **Options**, its public game number, nothing else)."""
REPOSITORY_PATH = re.compile(r"\b(docs|bot|tests)/|\.md\b|repository")
MY_GLOSSARIES = ("mahabharata", "chaturaji", "artaban", "kauda_baji")


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    running = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 1))
    yield running
    await running.close()


def reply_of(out: list[Sent]) -> Sent:
    """The interaction's answer (its first response or followup)."""
    return next(s for s in out if s.route in ("interaction.response", "followup") and s.created)


def custom_ids(sent: Sent) -> list[str]:
    ids: list[str] = []
    for row in sent.components:
        ids += [item["custom_id"] for item in row.get("components", []) if "custom_id" in item]
    return ids


def assert_ids_allowed(fake: FakeDiscord) -> None:
    """Every custom_id sent is the driver's kind or the help button's."""
    for sent in fake.sent:
        for custom_id in custom_ids(sent):
            assert CUSTOM_ID.match(custom_id) or HELP_ID.match(custom_id), custom_id
            assert len(custom_id) <= 100


async def help_page(fake: FakeDiscord, user: FakeUser) -> Sent:
    page = reply_of(await fake.slash(user, "help"))
    assert page.ephemeral
    return page


# -- /help --------------------------------------------------------------------------


async def test_help_is_one_page_with_how_to_start_and_every_game(fake: FakeDiscord) -> None:
    page = await help_page(fake, fake.user("asha"))
    text = page.content or ""
    assert len(text) <= 2000
    assert "Chaupal" in text
    for step in ("`/game new`", "**Join**", "**Start**", "buttons under the board"):
        assert step in text, step
    for engine in ENGINES.values():
        line = next(li for li in text.splitlines() if li.startswith(f"- **{engine.title}**"))
        assert len(line) > len(engine.title) + 30, line  # a line of its own, not just a name
    # One row per game: its rules and a new lobby; within Discord's 5 x 5.
    assert 0 < len(page.components) <= 5
    assert all(len(row["components"]) <= 5 for row in page.components)
    labels = [b["label"] for b in fake.buttons(page)]
    for engine in ENGINES.values():
        assert f"{engine.title} rules" in labels and f"Play {engine.title}" in labels
    assert all(len(label) <= 80 for label in labels)
    assert_ids_allowed(fake)


async def test_help_tells_a_newcomer_what_to_do_first_and_where_things_are(
    fake: FakeDiscord,
) -> None:
    """Issue 31: ``/help`` never mentioned ``/chaupal me``, ``/leaderboard``
    or tournaments, and spent its room on export and follow.  Now: what to
    do first, then the everyday commands, your settings, ratings,
    tournaments and the moderators' commands; every command it names is one
    the bot has."""
    text = (await help_page(fake, fake.user("asha"))).content or ""
    assert len(text) <= 2000
    for command in (
        "/chaupal me",
        "/leaderboard",
        "/rating",
        "/profile",
        "/tournament join",
        "/tournament standings",
        "/game mine",
        "/game next",
        "/chaupal settings show",
    ):
        assert f"`{command}" in text, command
    # What to do first comes first, before any other command.
    assert text.index("Start here") < text.index("`/game new`") < text.index("`/game mine`")
    assert "/game export" not in text and "/game follow" not in text
    named = set(re.findall(r"`/([a-z_]+(?: [a-z_]+)*)`", text))
    known = {command.qualified_name for command in bot_of(fake).tree.walk_commands()}
    assert named and named <= known, named - known


@pytest.mark.parametrize("name", sorted(ENGINES))
async def test_a_rules_button_gives_the_summary_then_the_complete_rules(
    fake: FakeDiscord, name: str
) -> None:
    asha = fake.user("asha")
    page = await help_page(fake, asha)
    title = ENGINES[name].title
    button = fake.find_button(page, label=f"{title} rules")
    summary = reply_of(await fake.click(asha, page, button["custom_id"]))
    assert summary.ephemeral and summary.content == rules_summary(name)
    assert not REPOSITORY_PATH.search(summary.content or "")
    full = fake.find_button(summary, label="Complete rules")
    out = await fake.click(asha, summary, full["custom_id"])
    rules = reply_of(out)
    assert rules.ephemeral and title in (rules.content or "")
    ((filename, data),) = rules.files
    assert filename == f"{name}-rules.md"
    assert data.decode("utf-8") == complete_rules(name)
    if name in MY_GLOSSARIES:  # the source of truth, glossary included
        source = (ROOT / "docs" / "rules" / f"{name}.md").read_bytes()
        assert data == source and b"\n## Glossary\n" in data
    assert not any(s.route == "channel.send" for s in out), "rules are only for the asker"
    assert_ids_allowed(fake)


async def test_a_play_button_opens_a_lobby_in_the_channel(fake: FakeDiscord) -> None:
    asha, bhima = fake.user("asha"), fake.user("bhima")
    page = await help_page(fake, asha)
    out = await fake.click(asha, page, fake.find_button(page, label="Play Artaban")["custom_id"])
    lobby = reply_of(out)
    assert not lobby.ephemeral and lobby.channel_id == fake.channel_id
    found = re.search(r"game #(\d+)", lobby.content or "")
    assert found and "**Artaban**" in (lobby.content or "")
    game = await bot_of(fake).service.get(int(found[1]))
    assert game.record.creator_id == asha.id and game.record.status == "lobby"
    # The lobby it opened works like /game new's: join, start, a board.
    await fake.click(bhima, lobby, fake.find_button(lobby, label="Join")["custom_id"])
    await start(fake, asha, lobby)
    assert boards(fake) and (await bot_of(fake).service.get(game.id)).record.status == "active"
    assert_ids_allowed(fake)


async def test_the_help_buttons_work_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "chaupal.sqlite3"
    fake = await FakeDiscord.start(make_bot(path, 1))
    try:
        asha = fake.user("asha")
        page = await help_page(fake, asha)
        summary = reply_of(
            await fake.click(asha, page, fake.find_button(page, label="Sangram rules")["custom_id"])
        )
        _, lobby = await open_lobby(fake, "kauda_baji", asha)
        fake = await fake.restart(make_bot(path, 2))
        # /help's buttons, the summary's button and the lobby's Rules all answer.
        again = reply_of(
            await fake.click(asha, page, fake.find_button(page, label="Artaban rules")["custom_id"])
        )
        assert again.content == rules_summary("artaban")
        rules = reply_of(
            await fake.click(
                asha, summary, fake.find_button(summary, label="Complete rules")["custom_id"]
            )
        )
        assert rules.files[0][0] == "sangram-rules.md"
        shown = reply_of(
            await fake.click(asha, lobby, fake.find_button(lobby, label="Rules")["custom_id"])
        )
        assert shown.content == rules_summary("kauda_baji")
        opened = reply_of(
            await fake.click(asha, page, fake.find_button(page, label="Play Sangram")["custom_id"])
        )
        assert not opened.ephemeral and "**Sangram**" in (opened.content or "")
        assert_ids_allowed(fake)
    finally:
        await fake.close()


# -- the lobby ------------------------------------------------------------------------


async def test_the_lobby_has_rules_and_its_options_one_tap_away(fake: FakeDiscord) -> None:
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id, lobby = await open_lobby(fake, "kauda_baji", asha, options="pieces=4")
    text = lobby.content or ""
    engine = ENGINES["kauda_baji"]
    # The lobby names the option changed; what each option does is under
    # **Options** (issue 30: a lobby is short).
    assert "Options: `pieces=4`" in text and "R4: pieces per player" not in text
    assert [b["label"] for b in fake.buttons(lobby)] == [
        "Join",
        "Leave",
        "Start",
        "Options",
        "Rules",
    ]
    options = reply_of(
        await fake.click(bhima, lobby, fake.find_button(lobby, label="Options")["custom_id"])
    )
    said = options.content or ""
    assert options.ephemeral
    assert "`pieces=4` (1-6): R4: pieces per player" in said
    assert "`markut=yes` (yes or no): " in said
    assert "`multi_opponent_combat=none` (none or pairwise): " in said
    for name, option in engine.options.items():
        assert f"`{name}=" in said and option.help in said, name
    for name in TABLE_OPTIONS:
        assert f"`{name}=" in said, name
    shown = reply_of(
        await fake.click(bhima, lobby, fake.find_button(lobby, label="Rules")["custom_id"])
    )
    assert shown.ephemeral and shown.content == rules_summary("kauda_baji")
    assert fake.find_button(shown, label="Complete rules")
    # Joining redraws the lobby: Options and Rules stay.
    await fake.click(bhima, lobby, fake.find_button(lobby, label="Join")["custom_id"])
    current = fake.current(lobby)
    assert "bhima" in (current.content or "") and "`pieces=4`" in (current.content or "")
    assert {"Options", "Rules"} <= {b["label"] for b in fake.buttons(current)}
    # Once started, the lobby message keeps the game, its seats and its options.
    await start(fake, asha, lobby)
    started = fake.current(lobby).content or ""
    assert "`pieces=4`" in started and f"#{game_id}" in started
    assert_ids_allowed(fake)


@pytest.mark.parametrize("name", sorted(ENGINES))
async def test_every_lobby_explains_its_options_within_one_message(
    fake: FakeDiscord, name: str
) -> None:
    _, lobby = await open_lobby(fake, name, fake.user("asha"))
    assert "**Rules**" in (lobby.content or "") and "**Options**" in (lobby.content or "")
    button = fake.find_button(lobby, label="Options")
    text = reply_of(await fake.click(fake.user("bhima"), lobby, button["custom_id"])).content
    assert text is not None and len(text) <= 2000
    engine = ENGINES[name]
    if engine.options:
        assert all(option.help in text for option in engine.options.values())
    else:
        assert f"**{engine.title}** has no game options" in text


# -- /game new options: autocomplete ----------------------------------------------------


async def suggest(fake: FakeDiscord, typed: str, game: str | None = "kauda_baji") -> list[dict]:
    kwargs = {"game": game} if game else {}
    choices = await fake.autocomplete(
        fake.user("asha"), "game new", focused="options", options=typed, **kwargs
    )
    assert len(choices) <= 25
    for choice in choices:
        assert 0 < len(choice["name"]) <= 100 and 0 < len(choice["value"]) <= 100, choice
    return choices


async def test_options_autocomplete_offers_the_chosen_games_options(fake: FakeDiscord) -> None:
    values = [c["value"] for c in await suggest(fake, "")]
    assert "pieces=6" in values and "markut=no" in values and len(values) == 25
    # Prefix matching on what is typed.
    assert [c["value"] for c in await suggest(fake, "multi")] == [
        "multi_opponent_combat=none",
        "multi_opponent_combat=pairwise",
    ]
    pieces = await suggest(fake, "pieces=")
    assert [c["value"] for c in pieces] == [f"pieces={n}" for n in (6, 1, 2, 3, 4, 5)]
    assert pieces[0]["name"] == "pieces=6 — R4: pieces per player"
    # The table's options, for any game.
    assert [c["value"] for c in await suggest(fake, "timeout=s")] == [
        "timeout=substitute",
        "timeout=skip",
    ]
    assert {c["value"] for c in await suggest(fake, "rated")} == {"rated=yes", "rated=no"}
    # Another game, its own options; no game chosen yet, only the table's.
    assert [c["value"] for c in await suggest(fake, "diag", "artaban")] == [
        "diagonal_captures=no",
        "diagonal_captures=yes",
    ]
    assert await suggest(fake, "diag", "chaturaji") == []
    assert {c["value"].partition("=")[0] for c in await suggest(fake, "", None)} == set(
        TABLE_OPTIONS
    )


async def test_options_autocomplete_completes_the_last_of_several(fake: FakeDiscord) -> None:
    choices = await suggest(fake, "pieces=4, ma")
    assert [c["value"] for c in choices] == ["pieces=4, markut=yes", "pieces=4, markut=no"]
    assert choices[0]["name"].startswith("… markut=yes — R15")
    # Separated by a space too; an option already given is not offered again.
    values = [c["value"] for c in await suggest(fake, "pieces=4 markut=no ")]
    assert values and all(v.startswith("pieces=4 markut=no, ") for v in values)
    assert not any("pieces=" in v.partition(", ")[2] or "markut=" in v[18:] for v in values)
    # A value typed that is not suggested is offered when the lobby takes it.
    assert [c["value"] for c in await suggest(fake, "quiet_rounds=40", "chaturaji")] == [
        "quiet_rounds=40"
    ]
    assert await suggest(fake, "quiet_rounds=5000", "chaturaji") == []
    assert [c["value"] for c in await suggest(fake, "clock=5d")] == ["clock=5d"]
    # Nothing longer than Discord takes back: a long text gets no completion.
    assert len(await suggest(fake, "clock=1d, " * 9 + "pie")) == 6  # 98 characters
    assert await suggest(fake, "clock=12h, " * 9 + "pie") == []  # 107


async def test_a_completion_opens_the_lobby_it_says(fake: FakeDiscord) -> None:
    (choice,) = [c for c in await suggest(fake, "pieces=2, play") if "=no" in c["value"]]
    game_id, _ = await open_lobby(fake, "kauda_baji", fake.user("asha"), options=choice["value"])
    record = (await bot_of(fake).service.get(game_id)).record
    assert record.options["pieces"] == 2 and record.options["play_to_end"] is False


# -- /game rules ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(ENGINES))
async def test_game_rules_gives_the_summary_and_the_complete_rules(
    fake: FakeDiscord, name: str
) -> None:
    asha = fake.user("asha")
    summary = reply_of(await fake.slash(asha, "game rules", game=name))
    text = summary.content or ""
    assert summary.ephemeral and text == rules_summary(name)
    assert not REPOSITORY_PATH.search(text), "the summary points at the repository"
    assert "glossary" in text
    out = await fake.click(
        asha, summary, fake.find_button(summary, label="Complete rules")["custom_id"]
    )
    ((filename, data),) = reply_of(out).files
    assert filename == f"{name}-rules.md"
    assert data.decode("utf-8").startswith(f"# {ENGINES[name].title}: the rules")
    assert data == (ROOT / "bot" / "engines" / "data" / "rules" / f"{name}.md").read_bytes()
    assert_ids_allowed(fake)


def test_help_offers_every_game_within_five_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sixth game (and more) still gets its buttons: Discord allows five
    rows, so past five games two share a row."""
    import bot.edge.help.cog as help_cog

    engines = list(ENGINES.values())
    for count in (len(engines), 6, 10):
        fake = {f"game{n}": engines[n % len(engines)] for n in range(count)}
        monkeypatch.setattr(help_cog, "ENGINES", fake)
        view = help_cog.help_view()
        assert len(view.children) == 2 * count
        rows = {item.row for item in view.children}
        assert rows <= set(range(5))
        for row in rows:
            assert sum(item.row == row for item in view.children) <= 5
