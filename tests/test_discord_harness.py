"""Proves tests/discord_harness.py against a tiny toy bot (no network)."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.discord_harness import (
    BotError,
    CommandUnavailable,
    FakeDiscord,
    HarnessError,
    HarnessTimeout,
    NotAcknowledged,
)

PIECES = ["raja", "mantri", "ratha", "ashva", "gaja", "padati"]


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"toy:counter:(?P<n>\d+)",
):
    """A persistent button whose state (the count) lives in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}",
                style=discord.ButtonStyle.primary,
                custom_id=f"toy:counter:{n}",
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.n >= 99:
            raise RuntimeError("counter overflow")
        await interaction.response.edit_message(
            content=f"count={self.n + 1}", view=counter_view(self.n + 1)
        )


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(n))
    return view


class ToyModal(discord.ui.Modal, title="Name your game"):
    name: discord.ui.TextInput[ToyModal] = discord.ui.TextInput(
        label="Name", custom_id="toy:form:name", max_length=20
    )

    def __init__(self) -> None:
        super().__init__(custom_id="toy:form")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"named {self.name.value}")


class PieceSelect(discord.ui.Select[discord.ui.View]):
    def __init__(self) -> None:
        super().__init__(
            custom_id="toy:piece",
            options=[discord.SelectOption(label=p, value=p) for p in PIECES],
            max_values=2,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"picked {','.join(self.values)}", ephemeral=True)


def render_png() -> bytes:
    image = Image.new("RGB", (32, 16), (200, 30, 30))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class ToyCog(commands.GroupCog, group_name="toy"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="pong")
    async def ping(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong")

    @app_commands.command(description="only you see it")
    async def secret(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("for your eyes only", ephemeral=True)

    @app_commands.command(description="a picture")
    async def pic(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        data = await asyncio.to_thread(render_png)
        await interaction.followup.send("here", file=discord.File(io.BytesIO(data), "board.png"))

    @app_commands.command(description="post a counter")
    async def post(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("posted", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("count=0", view=counter_view(0))

    @app_commands.command(description="DM me")
    async def dm(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.user.send("psst, your hand")
        except discord.Forbidden:
            await interaction.response.send_message("DMs closed", ephemeral=True)
        else:
            await interaction.response.send_message("check your DMs", ephemeral=True)

    @app_commands.command(description="pick a piece")
    async def pick(self, interaction: discord.Interaction[Any], piece: str, count: int = 1) -> None:
        await interaction.response.send_message(f"{piece} x{count}")

    @pick.autocomplete("piece")
    async def pick_piece(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=p, value=p) for p in PIECES if p.startswith(current)]

    @app_commands.command(description="rank")
    async def rank(
        self, interaction: discord.Interaction[Any], n: app_commands.Range[int, 1, 5]
    ) -> None:
        await interaction.response.send_message(f"rank {n}")

    @app_commands.command(description="boom")
    async def boom(self, interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("kaboom")

    @app_commands.command(description="forgets to answer")
    async def silent(self, interaction: discord.Interaction[Any]) -> None:
        return None

    @app_commands.command(description="who am I")
    async def whoami(self, interaction: discord.Interaction[Any]) -> None:
        user = interaction.user
        assert isinstance(user, discord.Member)
        assert interaction.guild is not None
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.response.send_message(
            f"{type(user).__name__} {user.name} guild={interaction.guild.name} "
            f"channel={interaction.channel.name} "
            f"mod={user.guild_permissions.manage_guild}/{interaction.permissions.manage_guild} "
            f"cached={self.bot.get_channel(interaction.channel.id) is interaction.channel} "
            f"me={interaction.guild.me is not None}"
        )

    @app_commands.command(description="a modal")
    async def form(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(ToyModal())

    @app_commands.command(description="a select")
    async def choose(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View()
        view.add_item(PieceSelect())
        await interaction.response.send_message("choose", view=view)

    @app_commands.command(description="bad custom id")
    async def toolong(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="x", custom_id="x" * 101))
        await interaction.response.send_message("too long", view=view)

    @app_commands.command(description="defer then edit")
    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.edit_original_response(content="done")
        message = await interaction.original_response()
        await interaction.followup.send(f"original was {message.id}", ephemeral=True)

    @app_commands.command(description="resolved options")
    async def invite(
        self,
        interaction: discord.Interaction[Any],
        who: discord.Member,
        where: discord.TextChannel,
        rules: discord.Attachment,
    ) -> None:
        data = await rules.read()
        await interaction.response.send_message(
            f"{type(who).__name__} {who.display_name} to #{where.name}: {data.decode()}"
        )

    @app_commands.command(description="leaves a task running")
    async def hang(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("clock started")
        self.clock = asyncio.create_task(asyncio.sleep(3600), name="toy-clock")

    @app_commands.command(description="background task that crashes")
    async def fire(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("fired")

        async def crash() -> None:
            await asyncio.sleep(0)
            raise ValueError("background crash")

        self.crasher = asyncio.create_task(crash())

    @app_commands.command(description="uses a REST route the fake lacks")
    async def newrole(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild is not None
        await interaction.guild.create_role(name="winner")


class ModCog(commands.Cog):
    @app_commands.command(description="moderators only")
    @app_commands.default_permissions(manage_guild=True)
    async def reset(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"reset by {interaction.user.name} "
            f"(manage_guild={interaction.permissions.manage_guild})"
        )


class ToyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        await self.add_cog(ToyCog(self))
        await self.add_cog(ModCog())
        self.add_dynamic_items(CounterButton)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord.start(ToyBot())
    try:
        yield fake
    finally:
        await fake.close()


async def test_ping_records_content(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    out = await fake.slash(alice, "toy ping")
    assert len(out) == 1
    sent = out[0]
    assert sent.route == "interaction.response"
    assert sent.type == 4
    assert sent.content == "pong"
    assert not sent.ephemeral
    assert sent.channel_id == fake.channel_id
    assert sent.user_id == alice.id
    assert fake.channel_posts() == [sent]
    assert fake.message(sent)["interaction_metadata"]["user"]["id"] == str(alice.id)


async def test_secret_is_ephemeral(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    out = await fake.slash(alice, "toy secret")
    assert [s.content for s in out] == ["for your eyes only"]
    assert out[0].ephemeral
    assert fake.ephemerals(alice) == out
    assert fake.channel_posts() == []


async def test_pic_defers_then_sends_png(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    out = await fake.slash(alice, "toy pic")
    assert [(s.route, s.type) for s in out] == [("interaction.response", 5), ("followup", None)]
    followup = out[1]
    assert followup.created and not followup.ephemeral
    # the first followup after defer() fills the "thinking" message
    assert followup.message_id == out[0].message_id
    (name, data), *_ = followup.files
    assert name == "board.png"
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(data)).size == (32, 16)
    assert fake.current(followup).files == [("board.png", data)]
    assert fake.channel_posts() == [followup]


async def test_defer_edit_original_and_original_response(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    out = await fake.slash(alice, "toy slow")
    assert [s.route for s in out] == ["interaction.response", "edit_original", "followup"]
    assert all(s.ephemeral for s in out)
    assert out[1].content == "done"
    assert out[2].content == f"original was {out[0].message_id}"
    assert out[2].message_id != out[0].message_id


async def test_post_sends_dynamic_button_and_click_updates(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    out = await fake.slash(alice, "toy post")
    assert [s.route for s in out] == ["interaction.response", "channel.send"]
    post = out[1]
    assert post.content == "count=0"
    button = fake.find_button(post, custom_id_prefix="toy:counter:")
    assert button["custom_id"] == "toy:counter:0"
    assert button["label"] == "Count 0"
    assert fake.channel_posts() == [post]

    clicked = await fake.click(alice, post, "toy:counter:0")
    assert [(s.route, s.type) for s in clicked] == [("interaction.response", 7)]
    assert clicked[0].message_id == post.message_id
    assert clicked[0].content == "count=1"
    assert fake.buttons(post.message_id or 0)[0]["custom_id"] == "toy:counter:1"
    # the old button is gone from the message, as in the client
    with pytest.raises(HarnessError, match="no component"):
        await fake.click(alice, post, "toy:counter:0")
    await fake.click(alice, post, "toy:counter:1")
    assert fake.current(post).content == "count=2"


async def test_restart_keeps_dynamic_item_working(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    post = (await fake.slash(alice, "toy post"))[1]
    old_bot = fake.bot
    new_bot = ToyBot()
    fake2 = await fake.restart(new_bot)
    try:
        assert old_bot.is_closed()
        assert fake2.bot is new_bot
        assert (fake2.guild_id, fake2.channel_id) == (fake.guild_id, fake.channel_id)
        assert fake2.sent is fake.sent
        clicked = await fake2.click(alice, post, "toy:counter:0")
        assert clicked[0].type == 7
        assert clicked[0].content == "count=1"
        assert fake2.find_button(post.message_id or 0)["custom_id"] == "toy:counter:1"
    finally:
        await fake2.close()


async def test_non_persistent_view_dies_with_restart(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    menu = (await fake.slash(alice, "toy choose"))[0]
    fake2 = await fake.restart(ToyBot())
    try:
        with pytest.raises(NotAcknowledged):
            await fake2.select(alice, menu, "toy:piece", ["raja"])
    finally:
        await fake2.close()


async def test_dm_and_blocked_dm(fake: FakeDiscord) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    out = await fake.slash(alice, "toy dm")
    assert [s.route for s in out] == ["dm.send", "interaction.response"]
    assert fake.dms(alice)[0].content == "psst, your hand"
    assert fake.dms(alice)[0].user_id == alice.id
    assert out[1].ephemeral and out[1].content == "check your DMs"

    fake.block_dms(bob)
    out = await fake.slash(bob, "toy dm")
    assert [s.content for s in out] == ["DMs closed"]
    assert out[0].ephemeral
    assert fake.dms(bob) == []


async def test_exception_in_command_is_surfaced(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    with pytest.raises(BotError, match="kaboom"):
        await fake.slash(alice, "toy boom")
    assert any(isinstance(e.exception, app_commands.CommandInvokeError) for e in fake.errors)
    # expect_error=True returns normally and leaves the errors inspectable
    before = len(fake.errors)
    await fake.slash(alice, "toy boom", expect_error=True)
    assert len(fake.errors) == before + 1
    with pytest.raises(HarnessError, match="expected the bot to hit an error"):
        await fake.slash(alice, "toy ping", expect_error=True)


async def test_exception_in_dynamic_item_is_surfaced(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    await fake.slash(alice, "toy post")
    channel = fake.bot.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("count=99", view=counter_view(99))  # outside any interaction
    assert fake.sent[-1].route == "channel.send" and fake.sent[-1].interaction_id is None
    with pytest.raises(BotError, match="counter overflow"):
        await fake.click(alice, message.id, "toy:counter:99")


async def test_unanswered_interaction_fails(fake: FakeDiscord) -> None:
    with pytest.raises(NotAcknowledged):
        await fake.slash(fake.user("alice"), "toy silent")


async def test_autocomplete_returns_choices(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    choices = await fake.autocomplete(alice, "toy pick", focused="piece", piece="ra")
    assert choices == [{"name": "raja", "value": "raja"}, {"name": "ratha", "value": "ratha"}]
    assert len(await fake.autocomplete(alice, "toy pick", focused="piece")) == len(PIECES)
    out = await fake.slash(alice, "toy pick", piece="raja", count=2)
    assert out[0].content == "raja x2"


async def test_members_guild_and_channel_look_like_production(fake: FakeDiscord) -> None:
    out = await fake.slash(fake.user("alice"), "toy whoami")
    assert out[0].content == (
        "Member alice guild=Chaupal Test Guild channel=games mod=False/False cached=True me=True"
    )
    out = await fake.slash(fake.moderator("mia"), "toy whoami")
    assert "mod=True/True" in (out[0].content or "")
    other = fake.add_channel("lobby")
    out = await fake.slash(fake.user("carl"), "toy whoami", channel_id=other)
    assert "channel=lobby" in (out[0].content or "")
    assert out[0].channel_id == other
    assert fake.channel_posts(other) == out


async def test_default_permissions_and_moderator(fake: FakeDiscord) -> None:
    with pytest.raises(CommandUnavailable):
        await fake.slash(fake.user("alice"), "reset")
    out = await fake.slash(fake.moderator("mia"), "reset")
    assert out[0].content == "reset by mia (manage_guild=True)"


async def test_option_validation_like_the_client(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    assert (await fake.slash(alice, "toy rank", n=3))[0].content == "rank 3"
    with pytest.raises(HarnessError, match="max 5"):
        await fake.slash(alice, "toy rank", n=9)
    with pytest.raises(HarnessError, match="required"):
        await fake.slash(alice, "toy pick")
    with pytest.raises(HarnessError, match="no option"):
        await fake.slash(alice, "toy pick", piece="raja", colour="red")
    # validate=False sends what a modified client could send: Range is not enforced locally
    assert (await fake.slash(alice, "toy rank", n=9, validate=False))[0].content == "rank 9"


async def test_discord_side_message_validation(fake: FakeDiscord) -> None:
    with pytest.raises(BotError, match="custom_id must be 1-100"):
        await fake.slash(fake.user("alice"), "toy toolong")


async def test_modal_round_trip(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    out = await fake.slash(alice, "toy form")
    assert out[0].type == 9
    assert out[0].modal == {"custom_id": "toy:form", "title": "Name your game"}
    result = await fake.submit_modal(alice, "toy:form", {"toy:form:name": "Friday game"})
    assert [s.content for s in result] == ["named Friday game"]
    with pytest.raises(HarnessError, match="characters"):
        await fake.submit_modal(alice, "toy:form", {"toy:form:name": "x" * 30})


async def test_select_menu(fake: FakeDiscord) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    menu = (await fake.slash(alice, "toy choose"))[0]
    assert fake.selects(menu)[0]["custom_id"] == "toy:piece"
    out = await fake.select(bob, menu, "toy:piece", ["gaja", "raja"])
    assert out[0].content == "picked gaja,raja"
    assert out[0].ephemeral and out[0].user_id == bob.id
    with pytest.raises(HarnessError, match="not options"):
        await fake.select(bob, menu, "toy:piece", ["queen"])


async def test_ephemeral_message_belongs_to_its_user(fake: FakeDiscord) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    out = await fake.slash(alice, "toy choose")
    picked = await fake.select(alice, out[0], "toy:piece", ["raja"])
    assert picked[0].ephemeral
    with pytest.raises(HarnessError, match="ephemeral for another user"):
        await fake.click(bob, picked[0], "anything")


async def test_concurrent_interactions_get_their_own_records(fake: FakeDiscord) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    a, b = await asyncio.gather(fake.slash(alice, "toy ping"), fake.slash(bob, "toy secret"))
    assert [(s.user_id, s.content) for s in a] == [(alice.id, "pong")]
    assert [(s.user_id, s.content) for s in b] == [(bob.id, "for your eyes only")]


async def test_running_context_manager_closes_bot() -> None:
    bot = ToyBot()
    async with FakeDiscord.running(bot) as fake:
        await fake.slash(fake.user("alice"), "toy ping")
    assert bot.is_closed()


async def test_member_channel_and_attachment_options(fake: FakeDiscord) -> None:
    alice, bob = fake.user("alice"), fake.user("bob", nick="Bobby")
    lobby = fake.add_channel("lobby")
    out = await fake.slash(
        alice, "toy invite", who=bob, where=lobby, rules=("rules.txt", b"be nice")
    )
    assert out[0].content == "Member Bobby to #lobby: be nice"


async def test_leftover_task_times_out_with_its_name() -> None:
    async with FakeDiscord.running(ToyBot(), task_timeout=0.2) as fake:
        with pytest.raises(HarnessTimeout, match="toy-clock"):
            await fake.slash(fake.user("alice"), "toy hang")
    clock_ignored = FakeDiscord.running(
        ToyBot(), ignore_tasks=lambda task: task.get_name() == "toy-clock"
    )
    async with clock_ignored as fake:
        out = await fake.slash(fake.user("alice"), "toy hang")
        assert out[0].content == "clock started"


async def test_unimplemented_rest_route_fails_loudly(fake: FakeDiscord) -> None:
    with pytest.raises(BotError, match="does not implement POST /guilds/"):
        await fake.slash(fake.user("alice"), "toy newrole")


async def test_commands_from_a_dm(fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    dm_channel = fake.world.dm_channel_for(alice.id)
    out = await fake.slash(alice, "toy ping", channel_id=dm_channel)
    assert out[0].content == "pong" and out[0].channel_id == dm_channel
    with pytest.raises(BotError, match="AssertionError"):  # whoami asserts a guild Member
        await fake.slash(alice, "toy whoami", channel_id=dm_channel)


async def test_unretrieved_task_exception_is_surfaced(fake: FakeDiscord) -> None:
    with pytest.raises(BotError, match="background crash"):
        await fake.slash(fake.user("alice"), "toy fire")
