"""``/game replay``, the **Replay** buttons (final board, history), the
follower's end-of-game replay and ``/game review`` (issue 21 §1 and §2),
through discord.py's real dispatch.

Hidden information: every board a replay or a review draws is checked
against public views rebuilt here from the stored log (never through
:mod:`bot.replay`'s frames), and the one private image a review may attach
against the reviewing seat's own view of that moment, never another's."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import bot.rendering as rendering
from bot.edge.archive.texts import ordinal
from bot.edge.client import ChaupalBot
from bot.engines import get_engine
from bot.engines.core import progress_seat
from bot.outgoing import safe_name
from bot.replay import (
    GameRecord,
    HiddenActions,
    frames,
    load_record,
    public_record,
    states,
)
from tests.bot.driver import (
    PNG_MAGIC,
    assert_no_secret_ids,
    boards,
    bot_of,
    make_bot,
    open_lobby,
    start,
)
from tests.bot.driver import resign as resign_game
from tests.discord_harness import ATTACHMENT_SIZE_LIMIT, FakeDiscord, FakeUser, Sent
from tests.test_replay import states_by_version

GIF_MAGIC = b"GIF89a"
EVIL = "@everyone **Bhima** <@&1>"


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[FakeDiscord]:
    running = await FakeDiscord.start(make_bot(tmp_path / "chaupal.sqlite3", 11))
    try:
        yield running
    finally:
        await running.close()


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the replays actually drawn (not served from the cache)."""
    calls: list[int] = []
    real = rendering.draw_replay

    def counted(record: Any, budget: int | None = None) -> rendering.Replay:
        calls.append(record.game_id)
        return real(record, budget)

    monkeypatch.setattr(rendering, "draw_replay", counted)
    return calls


async def play(bot: ChaupalBot, game_id: int, rng: random.Random, moves: int) -> int:
    """Up to ``moves`` random players' moves (chance follows by itself),
    delivered once at the end; how many were played."""
    played = 0
    for _ in range(moves):
        game = await bot.service.get(game_id)
        if game.is_over:
            break
        engine, state = game.engine, game.state
        seat = progress_seat(engine, state)
        action = rng.choice(engine.legal_actions(state, seat))
        await bot.service.play(game_id, game.user_of(seat), engine.describe(state, seat, action))
        played += 1
    assert await bot.delivery.catch_up(game_id)
    return played


async def new_game(
    fake: FakeDiscord, game: str, players: list[FakeUser], options: str | None = None
) -> int:
    game_id, lobby = await open_lobby(fake, game, players[0], *players[1:], options=options)
    await start(fake, players[0], lobby)
    return game_id


def gif_frames(data: bytes) -> int:
    assert data.startswith(GIF_MAGIC)
    with Image.open(BytesIO(data)) as image:
        return int(getattr(image, "n_frames", 1))


def answer(out: list[Sent]) -> Sent:
    """The message an interaction left (its reply, or the deferred one filled)."""
    found = [s for s in out if s.message_id and (s.content or s.files)]
    assert found, out
    return found[-1]


def replay_of(out: list[Sent]) -> tuple[Sent, bytes]:
    message = answer(out)
    [(name, data)] = message.files
    assert name.endswith("-replay.gif"), name
    return message, data


# -- /game replay and the Replay buttons ---------------------------------------------------


@pytest.fixture
async def kauda(fake: FakeDiscord) -> dict[str, Any]:
    """A finished two-player Kauda Baji game (one piece each): 60 moves,
    then Bhima resigns, so that its replay shows every move."""
    asha, bhima = fake.user("asha"), fake.user("bhima", nick=EVIL)
    game_id = await new_game(fake, "kauda_baji", [asha, bhima], "pieces=1")
    await play(bot_of(fake), game_id, random.Random(3), 60)
    game = await bot_of(fake).service.get(game_id)
    if not game.is_over:
        await resign_game(fake, bhima, game=game_id)
    await fake.settle()
    return {"asha": asha, "bhima": bhima, "id": game_id}


async def test_replay_posts_the_whole_game_once_drawn_then_from_the_cache(
    fake: FakeDiscord, kauda: dict[str, Any], draws: list[int]
) -> None:
    game_id, viewer = kauda["id"], fake.user("viewer")
    out = await fake.slash(viewer, "game replay", game=game_id)
    # Deferred first (drawing takes time), then the file as the follow-up.
    assert out[0].route == "interaction.response" and out[0].type == 5
    message, gif = replay_of(out)
    assert not message.ephemeral and message.channel_id == fake.channel_id
    record = await load_record(bot_of(fake).store, game_id)
    shown = frames(record)
    assert gif_frames(gif) == len(shown)  # the start and one frame per move
    text = message.content or ""
    assert f"Replay of Kauda Baji #{game_id}" in text
    assert f"{shown[-1].move} moves, every one shown" in text
    assert safe_name(EVIL) in text and "@everyone" not in text.replace(safe_name(EVIL), "")
    assert f"Kauda Baji #{game_id} is over" in text
    assert draws == [game_id]
    # A second request (another member, the same game) is not drawn again.
    out = await fake.slash(fake.user("other"), "game replay", game=game_id)
    assert replay_of(out)[1] == gif and draws == [game_id]
    assert_no_secret_ids(fake)


async def test_the_final_board_and_the_history_offer_the_replay(
    fake: FakeDiscord, kauda: dict[str, Any], draws: list[int]
) -> None:
    game_id, asha = kauda["id"], kauda["asha"]
    final = boards(fake)[-1]
    assert [b["label"] for b in fake.buttons(final)] == ["Rematch", "Replay"]
    viewer = fake.user("viewer")
    out = await fake.click(viewer, final, fake.find_button(final, label="Replay")["custom_id"])
    message, gif = replay_of(out)
    # Posted where the board is (the game's thread), for everyone.
    assert not message.ephemeral and message.channel_id == final.channel_id
    assert gif_frames(gif) > 2

    # The history's Replay #n: the same replay, from the cache; only to the
    # reader under their own (ephemeral) page, in the channel under a shared one.
    page = answer(await fake.slash(asha, "game history"))
    assert page.ephemeral
    button = fake.find_button(page, label=f"Replay #{game_id}")["custom_id"]
    assert button == fake.find_button(final, label="Replay")["custom_id"]  # one item
    mine, again = replay_of(await fake.click(asha, page, button))
    assert mine.ephemeral and mine.user_id == asha.id and again == gif
    shared = answer(await fake.slash(asha, "game history", share=True))
    public, again = replay_of(await fake.click(viewer, shared, button))
    assert not public.ephemeral and again == gif
    assert draws == [game_id]


async def test_refusals_are_clear_and_private(fake: FakeDiscord, kauda: dict[str, Any]) -> None:
    viewer = fake.user("viewer")
    for command in ("game replay", "game review"):
        out = await fake.slash(viewer, command, game=999)
        assert answer(out).ephemeral and "no game #999 on this server" in (
            answer(out).content or ""
        )
    _, lobby = await open_lobby(fake, "artaban", viewer)
    lobby_id = int(re.findall(r"game #(\d+)", lobby.content or "")[0])
    for command in ("game replay", "game review"):
        refusal = answer(await fake.slash(viewer, command, game=lobby_id))
        assert refusal.ephemeral and "has not started yet" in (refusal.content or "")
    # A game of another server is none of this one's.
    store = bot_of(fake).store
    async with store.db.transaction() as conn:
        await conn.execute("UPDATE games SET guild_id = ? WHERE id = ?", (4242, kauda["id"]))
    for command in ("game replay", "game review"):
        refusal = answer(await fake.slash(viewer, command, game=kauda["id"]))
        assert refusal.ephemeral and f"no game #{kauda['id']} on this server" in (
            refusal.content or ""
        )
    assert not any(s.files for s in fake.sent if s.user_id == viewer.id)


async def test_a_game_in_progress_is_replayed_up_to_now(
    fake: FakeDiscord, draws: list[int]
) -> None:
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id = await new_game(fake, "kauda_baji", [asha, bhima], "pieces=1")
    played = await play(bot_of(fake), game_id, random.Random(5), 6)
    message, gif = replay_of(await fake.slash(asha, "game replay", game=game_id))
    text = message.content or ""
    assert "still being played" in text and "up to the current move" in text
    assert gif_frames(gif) == played + 1
    # One more move is a new replay (drawn again), longer by a frame.
    await play(bot_of(fake), game_id, random.Random(6), 1)
    _, longer = replay_of(await fake.slash(asha, "game replay", game=game_id))
    assert gif_frames(longer) == played + 2 and draws == [game_id, game_id]


async def test_a_long_game_is_sampled_to_fit_and_says_so(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budget made small, so a game of a few hundred moves must be
    sampled the way the longest one is at 8 MB."""
    import renderers.replay

    monkeypatch.setattr(renderers.replay, "BUDGET", 400_000)
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id = await new_game(fake, "kauda_baji", [asha, bhima])
    played = await play(bot_of(fake), game_id, random.Random(8), 300)
    assert played >= 200
    message, gif = replay_of(await fake.slash(asha, "game replay", game=game_id))
    assert len(gif) <= 400_000
    shown = gif_frames(gif)
    moves = frames(await load_record(bot_of(fake).store, game_id))[-1].move
    assert shown < moves + 1
    step = int(re.findall(r"shown every (\d+)(?:st|nd|rd|th) move", message.content or "")[0])
    assert step == round(moves / (shown - 1))
    assert f"{moves} moves" in (message.content or "")


async def test_a_long_game_shows_every_kth_move_and_says_why(fake: FakeDiscord) -> None:
    """Issue 31: a replay keeps at most ``MAX_FRAMES`` pictures (about two
    minutes, and seconds to draw), whatever the upload limit allows, and
    its message says so."""
    from renderers.replay import MAX_FRAMES

    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id = await new_game(fake, "kauda_baji", [asha, bhima])
    await play(bot_of(fake), game_id, random.Random(8), 300)
    moves = frames(await load_record(bot_of(fake).store, game_id))[-1].move
    assert moves >= 2 * MAX_FRAMES
    message, gif = replay_of(await fake.slash(asha, "game replay", game=game_id))
    assert gif_frames(gif) == MAX_FRAMES
    step = ordinal(round(moves / (MAX_FRAMES - 1)))
    assert (
        f"{moves} moves, shown every {step} move ({MAX_FRAMES} pictures: a replay keeps "
        f"at most {MAX_FRAMES})." in (message.content or "")
    )


async def test_the_followers_end_dm_carries_the_final_board_and_the_replay(
    fake: FakeDiscord, draws: list[int]
) -> None:
    asha, bhima, chitra = fake.user("asha"), fake.user("bhima"), fake.user("chitra")
    game_id = await new_game(fake, "artaban", [asha, bhima])
    await fake.slash(chitra, "game follow", game=game_id)
    await play(bot_of(fake), game_id, random.Random(1), 6)
    await resign_game(fake, bhima, game=game_id)
    await fake.settle()
    [dm] = fake.dms(chitra)
    [(_, png), (gif_name, gif)] = dm.files
    assert png.startswith(PNG_MAGIC) and gif_name.endswith("-replay.gif")
    assert [data for _, data in boards(fake)[-1].files] == [png]  # the channel's last board
    assert sum(len(data) for _, data in dm.files) <= ATTACHMENT_SIZE_LIMIT
    assert "replay" in (dm.content or "")
    # Asked for afterwards, the same replay comes from the cache.
    _, again = replay_of(await fake.slash(chitra, "game replay", game=game_id))
    assert again == gif and draws == [game_id]
    # When both would not fit one message, the replay goes alone.
    game = await bot_of(fake).service.get(game_id)
    alone = await bot_of(fake).delivery.final_files(game, limit=len(gif) + len(png) - 1)
    assert alone == [(gif_name, gif)]


# -- /game review ---------------------------------------------------------------------------


def review_move(message: Sent) -> int:
    text = message.content or ""
    if ", the start (" in text:
        return 0
    found = re.search(r", move (\d+) of (\d+) \(", text)
    assert found, text
    return int(found[1])


def nav(fake: FakeDiscord, message: Sent, label: str) -> str:
    return str(fake.find_button(message, label=label)["custom_id"])


def disabled(fake: FakeDiscord, message: Sent) -> set[str]:
    return {b["label"] for b in fake.buttons(message) if b.get("disabled")}


async def test_review_steps_through_the_game_editing_one_message(
    fake: FakeDiscord, kauda: dict[str, Any]
) -> None:
    game_id, asha = kauda["id"], kauda["asha"]
    last = frames(await load_record(bot_of(fake).store, game_id))[-1].move
    out = await fake.slash(asha, "game review", game=game_id)
    review = answer(out)
    assert review.ephemeral and review.user_id == asha.id
    assert review_move(review) == last
    assert disabled(fake, review) == {"▶", "⏭"}  # at the end
    [(_, png)] = review.files  # Kauda Baji hides nothing: the board alone
    assert png.startswith(PNG_MAGIC)
    # Ranges of 25 moves, then the moves of the range shown.
    ranges, moves = fake.selects(review)
    assert [o["label"] for o in ranges["options"]][:2] == ["Start to move 24", "Moves 25–49"]
    assert [int(o["value"]) for o in moves["options"]] == list(range(last // 25 * 25, last + 1))

    await fake.click(asha, review, nav(fake, review, "◀"))
    now = fake.current(review)
    assert review_move(now) == last - 1 and not disabled(fake, now)
    await fake.click(asha, review, nav(fake, now, "⏮"))
    now = fake.current(review)
    assert review_move(now) == 0 and disabled(fake, now) == {"⏮", "◀"}
    # What happened at that moment, names escaped (the opening throws).
    assert "throws" in (now.content or "") and safe_name(EVIL) in (now.content or "")
    await fake.click(asha, review, nav(fake, now, "▶"))
    now = fake.current(review)
    assert review_move(now) == 1
    select = fake.selects(now)[-1]
    target = [o["value"] for o in select["options"]][-2]
    await fake.select(asha, review, select["custom_id"], [target])
    now = fake.current(review)
    assert review_move(now) == int(target)
    await fake.click(asha, review, nav(fake, now, "⏭"))
    now = fake.current(review)
    assert review_move(now) == last
    # Every step edited the same message: no other message was posted.
    assert [s for s in fake.sent if s.user_id == asha.id and s.created][-1].message_id == (
        review.message_id
    )
    assert_no_secret_ids(fake)


async def test_any_move_of_a_long_game_is_two_picks_away(fake: FakeDiscord) -> None:
    """Issue 31: "Go to a move" offered 25 sampled moves of hundreds, the
    rest one ◀/▶ at a time, labels cut mid-word.  Now a select of ranges of
    25 moves, then one of the moves of that range: any move in two picks."""
    asha, bhima = fake.user("asha"), fake.user("bhima")
    game_id = await new_game(fake, "kauda_baji", [asha, bhima])
    played = await play(bot_of(fake), game_id, random.Random(8), 300)
    headlines = [
        f.headline(("asha", "bhima"))
        for f in frames(await load_record(bot_of(fake).store, game_id))
    ]
    review = answer(await fake.slash(asha, "game review", game=game_id))
    for target in (137, 3, played - 30):
        ranges, _ = fake.selects(fake.current(review))
        assert len(ranges["options"]) == played // 25 + 1 <= 25
        [wanted] = [
            o for o in ranges["options"] if int(o["value"]) <= target < int(o["value"]) + 25
        ]
        await fake.select(asha, review, ranges["custom_id"], [wanted["value"]])
        shown = fake.current(review)
        assert review_move(shown) == int(wanted["value"])  # a range shows its first move
        _, moves = fake.selects(shown)
        assert moves["options"][0]["default"] is True
        await fake.select(asha, review, moves["custom_id"], [str(target)])
        assert review_move(fake.current(review)) == target
    # Every label within Discord's 100 characters, cut only between words.
    for select in fake.selects(fake.current(review)):
        for option in select["options"]:
            label = option["label"]
            assert len(label) <= 100
            if label.endswith("…"):
                move = int(option["value"])
                full = f"Move {move}: {headlines[move]}"
                assert full.startswith(label[:-1]) and full[len(label) - 1] in " ,.;:", label


async def test_a_review_select_sent_before_levels_still_goes_to_its_move(
    fake: FakeDiscord, kauda: dict[str, Any]
) -> None:
    """``chaupal:review-move:<owner>:<game>:<frame>`` without a level (one
    select of sampled moves): its value is a frame, as every level's is."""
    game_id, asha = kauda["id"], kauda["asha"]
    review = answer(await fake.slash(asha, "game review", game=game_id))
    old_id = f"chaupal:review-move:{asha.id}:{game_id}:{review_move(review)}"
    raw = dict(fake.world.messages[review.message_id or 0])
    raw["components"] = [
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": old_id,
                    "options": [{"label": "Move 7: …", "value": "7"}],
                }
            ],
        }
    ]
    await fake._component_interaction(
        asha,
        raw,
        {"custom_id": old_id, "component_type": 3, "values": ["7"]},
        expect_error=False,
        expect_ack=True,
    )
    now = fake.current(review)
    assert review_move(now) == 7 and len(fake.selects(now)) == 2


async def test_commits_fold_into_the_reveal_they_lead_to(fake: FakeDiscord) -> None:
    """Issue 31: stepping back through a Sangram game, no move is only
    "Chitra committed a card": a round's commits are one step, the reveal."""
    users = [fake.user(n) for n in ("asha", "bhima", "dev")]
    game_id = await new_game(fake, "sangram", users)
    await play(bot_of(fake), game_id, random.Random(7), 24)
    review = answer(await fake.slash(users[0], "game review", game=game_id))
    said: list[str] = []
    while True:
        shown = fake.current(review)
        said.append((shown.content or "").splitlines()[1])
        if review_move(shown) == 0:
            break
        await fake.click(users[0], review, nav(fake, shown, "◀"))
    reveals = [line for line in said if "Reveal:" in line]
    assert reveals and all("committed a card." in line for line in reveals)
    # Only the move shown last may be a round's commits still under way.
    for line in said[1:]:
        assert "Reveal:" in line or "committed a card." not in line, line


async def test_a_foreign_or_stale_press_is_refused(
    fake: FakeDiscord, kauda: dict[str, Any]
) -> None:
    game_id, asha, bhima = kauda["id"], kauda["asha"], kauda["bhima"]
    review = answer(await fake.slash(asha, "game review", game=game_id))
    before = fake.current(review).content
    # Discord shows an ephemeral message to its owner only; a forged press
    # by someone else is still refused by the bot.
    del fake.world.ephemeral_owner[review.message_id or 0]
    out = await fake.click(bhima, review, nav(fake, review, "◀"))
    refusal = answer(out)
    assert refusal.ephemeral and "someone else's" in (refusal.content or "")
    assert fake.current(review).content == before
    await bot_of(fake).store.delete_game(game_id)
    refusal = answer(await fake.click(asha, review, nav(fake, review, "◀")))
    assert refusal.ephemeral and "is not there any more" in (refusal.content or "")
    assert fake.current(review).content == before


# -- hidden information ---------------------------------------------------------------------


class Drawn:
    """Every image the render pool's workers draw, by its bytes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_bytes: dict[bytes, list[tuple[str, Any]]] = defaultdict(list)
        self.replay_views: list[Any] = []
        real_png = rendering.render_png
        real_renderer = rendering.get_renderer

        def png(engine: str, kind: str, view: Any, names: Any, lang: str = "en") -> bytes:
            data = real_png(engine, kind, view, names, lang)
            self.by_bytes[data].append((kind, view))
            return data

        drawn = self

        class Recording:
            def __init__(self, inner: Any) -> None:
                self.inner = inner

            def board(self, view: Any, **kw: Any) -> Any:
                drawn.replay_views.append(view)
                return self.inner.board(view, **kw)

            def private(self, view: Any, **kw: Any) -> Any:
                return self.inner.private(view, **kw)

        monkeypatch.setattr(rendering, "render_png", png)
        monkeypatch.setattr(rendering, "get_renderer", lambda name: Recording(real_renderer(name)))

    def kinds(self, data: bytes) -> Iterator[tuple[str, Any]]:
        assert data in self.by_bytes, "an attachment that was never drawn"
        yield from self.by_bytes[data]


@pytest.mark.parametrize(("game", "players"), [("sangram", 3), ("mahabharata", 2)])
async def test_replay_and_review_never_show_another_seats_secrets(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, game: str, players: int
) -> None:
    users = [fake.user(n) for n in ("asha", "bhima", "dev")[:players]]
    bot = bot_of(fake)
    drawn = Drawn(monkeypatch)
    game_id = await new_game(fake, game, users)
    await play(bot, game_id, random.Random(7), 14)

    # While the game is played: the public board only, also to a player.
    review = answer(await fake.slash(users[0], "game review", game=game_id))
    assert len(review.files) == 1 and "still being played" in (review.content or "")
    await fake.click(users[0], review, nav(fake, review, "◀"))
    assert len(fake.current(review).files) == 1
    for _, data in fake.current(review).files:
        assert all(kind == "board" and view.me is None for kind, view in drawn.kinds(data))

    # A moderator ends it (a resignation in a three-player game goes on).
    await resign_game(fake, fake.moderator(), game_id, command="moderate game end")
    await fake.settle()
    assert (await bot.service.get(game_id)).is_over
    # The states after each stored log entry, replayed with the engine alone.
    record = await load_record(bot.store, game_id)
    engine = get_engine(game)
    states = states_by_version(record)
    publics = [engine.view(s, None) for s in states]
    names = list(record.names)

    # The replay: every board it drew is the public view at some version.
    viewer = fake.user("viewer")
    _, gif = replay_of(await fake.slash(viewer, "game replay", game=game_id))
    assert gif_frames(gif) >= 3 and drawn.replay_views
    for view in drawn.replay_views:
        assert view.me is None and view in publics

    # The review of a player: at every move the public board of that moment,
    # and their own view of it, never another seat's.
    seat = 1
    reviewer = users[seat]
    review = answer(await fake.slash(reviewer, "game review", game=game_id))
    private_seen = 0
    by_move = {f.move: f for f in frames(await load_record(bot.store, game_id))}
    for _ in range(len(by_move) + 1):
        shown = fake.current(review)
        move = review_move(shown)
        version = by_move[move].version
        board, *own = shown.files
        assert board[1] == rendering.render_png(game, "board", publics[version], names)
        for _, data in own:
            private_seen += 1
            mine = engine.view(states[version], seat)
            assert mine.me is not None
            assert data == rendering.render_png(game, "private", mine, names)
            # (Other moments of the same seat may draw the same picture.)
            assert all(kind == "private" for kind, _ in drawn.kinds(data))
            for other in range(players):
                if other != seat:
                    theirs = engine.view(states[version], other)
                    assert data != rendering.render_png(game, "private", theirs, names)
        if move == 0:
            break
        await fake.click(reviewer, review, nav(fake, shown, "◀"))
    assert move == 0 and private_seen >= 3
    # A member who did not play sees the public board only.
    spectator = answer(await fake.slash(viewer, "game review", game=game_id))
    assert len(spectator.files) == 1


async def test_review_and_replay_buttons_work_after_a_restart(
    fake: FakeDiscord, kauda: dict[str, Any], tmp_path: Path
) -> None:
    game_id, asha = kauda["id"], kauda["asha"]
    review = answer(await fake.slash(asha, "game review", game=game_id))
    final = boards(fake)[-1]
    fake = await fake.restart(make_bot(tmp_path / "chaupal.sqlite3", 12))
    try:
        last = review_move(review)
        await fake.click(asha, review, nav(fake, review, "◀"))
        assert review_move(fake.current(review)) == last - 1
        _, gif = replay_of(await fake.click(asha, final, nav(fake, final, "Replay")))
        assert gif_frames(gif) == last + 1
    finally:
        await fake.close()


# -- /game export (issue 21 §3) --------------------------------------------------------------


async def test_export_gives_a_player_the_moves_with_only_their_own_secrets(
    fake: FakeDiscord,
) -> None:
    """Sangram hides the hands: the export a player gets keeps their own
    secret moves and writes every other seat's as ``?``, and says it cannot
    be replayed offline; Kauda Baji has no secrets, so its export is
    complete and replays to the same frames as the stored game."""
    users = [fake.user(n) for n in ("asha", "bhima", "dev")]
    bot = bot_of(fake)
    game_id = await new_game(fake, "sangram", users)
    await play(bot, game_id, random.Random(5), 20)
    seat = 1
    message = answer(await fake.slash(users[seat], "game export", game=game_id))
    [(name, data)] = message.files
    assert name == f"chaupal-{game_id}.txt" and message.ephemeral
    exported = GameRecord.parse(data.decode("utf-8"))
    complete = await load_record(bot.store, game_id)
    engine = get_engine("sangram")
    assert exported == public_record(complete, seat)
    kept = set(exported.actions)
    mine = others = 0
    for line, action, before, _ in states(complete):
        private = None if action is None else engine.private_to(before, line.actor, action)
        if private == seat:
            mine += 1
            assert line in kept  # their own secret move, kept
        elif private is not None:
            others += 1
            assert line not in kept  # another seat's secret, never written
    assert mine and others and exported.hidden_actions
    assert "written `?`" in (message.content or "")
    with pytest.raises(HiddenActions):
        frames(exported)

    asha, bhima = fake.user("asha2"), fake.user("bhima2")
    kauda_id = await new_game(fake, "kauda_baji", [asha, bhima], "pieces=1")
    await play(bot, kauda_id, random.Random(3), 60)
    message = answer(await fake.slash(bhima, "game export", game=kauda_id))
    [(_, data)] = message.files
    exported = GameRecord.parse(data.decode("utf-8"))
    assert exported.hidden_actions == 0 and "python -m bot replay" in (message.content or "")
    assert frames(exported) == frames(await load_record(bot.store, kauda_id))
