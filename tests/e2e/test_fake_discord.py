"""Proves the end-to-end harness with a tiny discord.py bot defined here.

Why a toy bot: the harness must work for *any* discord.py bot before the real one exists, and
each Discord behaviour the fake enforces (one initial response, the 3-second limit, unknown
routes, payload limits, RESUME) is easiest to show with a bot that does exactly one thing
per command.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.e2e.fake_discord import (
    CALLBACK,
    ChannelType,
    DiscordHTTPError,
    ErrorCode,
    FakeDiscordServer,
    ResponseType,
    UserCannotDoThat,
    compute_mentions,
    validate_allowed_mentions,
    validate_choices,
    validate_components,
)
from tests.e2e.harness import (
    BotRunner,
    DiscordPointer,
    E2EGuard,
    FakeDiscord,
    InteractionRejected,
)

COLOURS = [f"{base}-{shade}" for base in ("red", "green", "blue") for shade in range(12)]


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    """A persistent button: its state lives in the custom_id, so it survives a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"+1 ({n})", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.n >= 2:
            await interaction.response.send_message("That is enough counting.", ephemeral=True)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"Count: {self.n + 1}", view=view)


class NameModal(discord.ui.Modal, title="Name your game"):
    game_name: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Name", custom_id="game-name", max_length=40
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"Game named {self.game_name.value}", ephemeral=True
        )


class SideView(discord.ui.View):
    """A non-persistent view (with a timeout): teardown must not leave its timer running."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="side",
        options=[
            discord.SelectOption(label="Sente", value="sente"),
            discord.SelectOption(label="Gote", value="gote"),
        ],
    )
    async def choose(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"You play {select.values[0]}", view=None)


def make_png(size: int) -> bytes:
    image = Image.new("RGB", (size * 8, size * 4), (200, 160, 90))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class ToyBot(commands.Bot):
    """Registers and syncs its commands itself, as the real bot will."""

    def __init__(
        self,
        guild_id: int | None = None,
        *,
        intents: discord.Intents | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            help_command=None,
            **options,
        )
        self.guild_id = guild_id
        self.events: list[str] = []
        self.errors: list[BaseException] = []
        self.slow_delay = 0.0
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton)
        await self.tree.sync()
        if self.guild_id is not None:
            await self.tree.sync(guild=discord.Object(self.guild_id))

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Check that the bot answers")
        async def ping(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("pong")

        @tree.command(description="Greet a member")
        @app_commands.describe(member="Who to greet", times="How many times")
        async def greet(
            interaction: discord.Interaction[Any],
            member: discord.Member,
            times: app_commands.Range[int, 1, 3] = 1,
        ) -> None:
            assert isinstance(member, discord.Member), type(member)
            await interaction.response.send_message(
                f"Hello {member.mention}" + "!" * times,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, users=[member], roles=False
                ),
            )

        @tree.command(description="Draw a picture (slowly)")
        async def draw(
            interaction: discord.Interaction[Any], size: app_commands.Range[int, 1, 32] = 4
        ) -> None:
            await interaction.response.defer(thinking=True)
            png = make_png(size)
            await interaction.followup.send(
                "Here it is", file=discord.File(io.BytesIO(png), "board.png")
            )
            await interaction.followup.send("And a second follow-up", ephemeral=True)

        @tree.command(description="Pick a colour")
        async def colour(interaction: discord.Interaction[Any], name: str) -> None:
            await interaction.response.send_message(f"You picked {name}", ephemeral=True)

        @colour.autocomplete("name")
        async def colour_names(
            interaction: discord.Interaction[Any], current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=c, value=c) for c in COLOURS if c.startswith(current)][
                :25
            ]

        @tree.command(description="Post a counter")
        async def counter(interaction: discord.Interaction[Any]) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(CounterButton(0))
            await interaction.response.send_message("Count: 0", view=view)

        @tree.command(description="Open a thread")
        @app_commands.choices(
            kind=[
                app_commands.Choice(name="from message", value="message"),
                app_commands.Choice(name="private", value="private"),
            ]
        )
        async def room(
            interaction: discord.Interaction[Any], topic: str, kind: str = "message"
        ) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            if kind == "message":
                await interaction.response.send_message(f"Opening {topic}")
                message = await interaction.original_response()
                thread = await message.create_thread(name=topic)
            else:
                await interaction.response.send_message(
                    f"Opening {topic} privately", ephemeral=True
                )
                thread = await channel.create_thread(
                    name=topic, type=discord.ChannelType.private_thread
                )
                await thread.add_user(interaction.user)
            await thread.send(f"Welcome to {topic}, {interaction.user.mention}")

        @tree.command(description="Answer twice (a bug on purpose)")
        async def twice(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("first answer")
            interaction.response._response_type = None  # pretend another code path answers too
            try:
                await interaction.response.send_message("second answer")
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @tree.command(description="Follow up before answering (a bug on purpose)")
        async def eager(interaction: discord.Interaction[Any]) -> None:
            try:
                await interaction.followup.send("too early")
            except discord.NotFound as exc:
                self.errors.append(exc)
            await interaction.response.send_message("answered properly")

        @tree.command(description="Answer too late")
        async def slow(interaction: discord.Interaction[Any]) -> None:
            await asyncio.sleep(self.slow_delay)
            try:
                await interaction.response.send_message("sorry, late")
            except discord.NotFound as exc:
                self.errors.append(exc)
                assert interaction.channel is not None
                await interaction.channel.send(f"{interaction.user.mention}, that took too long.")  # type: ignore[union-attr]

        @tree.command(description="Say something too long, then something short")
        async def long(interaction: discord.Interaction[Any]) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                self.errors.append(exc)
                await interaction.response.send_message("(shortened)")

        @tree.command(description="Name a game")
        async def rename(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_modal(NameModal())

        @tree.command(description="Choose a side")
        async def side(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message(
                "Choose a side", view=SideView(), ephemeral=True
            )

        @tree.command(description="Remind me by DM")
        async def remind(interaction: discord.Interaction[Any]) -> None:
            await interaction.user.send("Your move!")
            await interaction.response.send_message("Reminder sent", ephemeral=True)

        @commands.command()
        async def hello(ctx: commands.Context[Any]) -> None:
            await ctx.reply("Hello!")

        self.add_command(hello)

        if self.guild_id is not None:

            @app_commands.command(description="Only in the test guild")
            async def local(interaction: discord.Interaction[Any]) -> None:
                await interaction.response.send_message("local")

            tree.add_command(local, guild=discord.Object(self.guild_id))


@pytest.fixture
def club(fake_discord: FakeDiscord) -> FakeDiscord:
    """One guild with #general, and Alice and Bob."""
    guild = fake_discord.add_guild("Shogi Club", channels=("general", "games"))
    fake_discord.add_member(guild, "alice")
    fake_discord.add_member(guild, "bob")
    return fake_discord


async def start_toy(bot_runner: BotRunner, fake: FakeDiscord, **options: Any) -> ToyBot:
    guild_id = next(iter(fake.guilds))
    return await bot_runner.start(lambda: ToyBot(guild_id, **options))


def member(fake: FakeDiscord, name: str) -> Any:
    return next(
        m for g in fake.guilds.values() for m in g.members.values() if m.user.username == name
    )


# --- the harness end to end -----------------------------------------------------------------------


async def test_ready_and_command_sync_land(club: FakeDiscord, bot_runner: BotRunner) -> None:
    bot = await start_toy(bot_runner, club)
    guild = next(iter(club.guilds.values()))
    assert bot.is_ready()
    assert [g.id for g in bot.guilds] == [guild.id]
    discord_guild = bot.get_guild(guild.id)
    assert discord_guild is not None and discord_guild.member_count == len(discord_guild.members)
    assert {c.name for c in club.registered_commands()} == {
        "ping",
        "greet",
        "draw",
        "colour",
        "counter",
        "room",
        "twice",
        "slow",
        "long",
        "rename",
        "side",
        "remind",
        "eager",
    }
    assert [c.name for c in club.registered_commands(guild)] == ["local"]
    ids = {c.name: c.id for c in club.registered_commands()}
    await bot.tree.sync()  # a second bulk overwrite keeps the ids, like Discord
    assert {c.name: c.id for c in club.registered_commands()} == ids
    assert all(r.route and "commands" in r.route for r in club.command_puts)
    assert club.session is not None and bot.ws is not None
    assert bot.ws.sequence == club.session.seq  # every dispatch arrived, in order
    async with aiohttp.ClientSession() as http:  # exactly application/json, no charset
        headers = {"Authorization": f"Bot {club.token}"}
        async with http.get(club.api_base + "/users/@me", headers=headers) as reply:
            assert reply.headers["Content-Type"] == "application/json"
        async with http.get(club.api_base + "/users/@me") as reply:
            assert reply.status == 401


async def test_slash_command_reply(club: FakeDiscord, bot_runner: BotRunner) -> None:
    await start_toy(bot_runner, club)
    result = await club.slash("ping")
    assert result.response_type == ResponseType.CHANNEL_MESSAGE
    assert result.content == "pong" and not result.ephemeral
    assert club.last_message(club.default_channel).content == "pong"
    local = await club.slash("local")
    assert local.content == "local"


async def test_user_option_resolves_to_member_and_mentions(
    club: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start_toy(bot_runner, club)
    alice, bob = member(club, "alice"), member(club, "bob")
    result = await club.slash("greet", {"member": bob, "times": 3}, user=alice)
    assert result.content == f"Hello {bob.mention}!!!"
    assert result.reply is not None and result.reply.mentioned_user_ids == [bob.id]
    assert result.reply.allowed_mentions is not None
    assert result.reply.allowed_mentions["users"] == [bob.id]
    with pytest.raises(UserCannotDoThat):  # Range[int, 1, 3]: Discord's UI refuses 4
        await club.slash("greet", {"member": bob, "times": 4}, user=alice)


async def test_defer_then_followups_with_a_png(club: FakeDiscord, bot_runner: BotRunner) -> None:
    bot = await start_toy(bot_runner, club)
    result = await club.slash("draw", {"size": 5})
    await result.wait_followups(1)
    assert result.response_type == ResponseType.DEFERRED_CHANNEL_MESSAGE
    # The first follow-up replaces the "thinking" message; the second is a new message.
    assert result.original is not None and not result.original.loading
    assert result.content == "Here it is"
    [png] = result.files
    assert png.filename == "board.png" and png.content_type == "image/png"
    with Image.open(io.BytesIO(png.data)) as image:
        assert image.size == (40, 20)
    assert await bot.http.get_from_cdn(png.url) == png.data  # served back by the fake CDN
    assert [m.content for m in result.followups] == ["And a second follow-up"]
    assert result.followups[0].ephemeral
    assert club.files(club.default_channel) == [png]


async def test_autocomplete_choices(club: FakeDiscord, bot_runner: BotRunner) -> None:
    await start_toy(bot_runner, club)
    choices = await club.autocomplete("colour", {"name": "blue-1"}, focused="name")
    assert [c.value for c in choices] == ["blue-1", "blue-10", "blue-11"]
    everything = await club.autocomplete("colour", {"name": ""}, focused="name")
    assert len(everything) == 25
    picked = await club.slash("colour", {"name": choices[0].value})
    assert picked.ephemeral and picked.content == "You picked blue-1"
    assert club.ephemeral_messages(club.default_user) == [picked.reply]
    assert club.ephemeral_messages(member(club, "bob")) == []


async def test_persistent_button_edits_then_replies_ephemerally_and_survives_restart(
    club: FakeDiscord, bot_runner: BotRunner
) -> None:
    bot = await start_toy(bot_runner, club)
    posted = await club.slash("counter")
    board = posted.reply
    assert board is not None and board.custom_ids == ["counter:0"]
    bob = member(club, "bob")
    first = await club.click(board, "counter:0", user=bob)
    assert first.response_type == ResponseType.UPDATE_MESSAGE
    assert board.content == "Count: 1" and board.custom_ids == ["counter:1"]
    assert [h["content"] for h in board.history] == ["Count: 0"]

    await bot_runner.stop(bot)  # restart: a new bot, same message, the button still works
    await start_toy(bot_runner, club)
    second = await club.click(board, "counter:1", user=bob)
    assert board.content == "Count: 2"
    assert second.reply is board
    third = await club.click(board, "counter:2", user=bob)
    assert third.ephemeral and third.content == "That is enough counting."
    assert board.content == "Count: 2"
    with pytest.raises(UserCannotDoThat):
        await club.click(board, "counter:9", user=bob)


async def test_threads_from_a_message_and_private(club: FakeDiscord, bot_runner: BotRunner) -> None:
    bot = await start_toy(bot_runner, club)
    alice = member(club, "alice")
    result = await club.slash("room", {"topic": "Game 1"}, user=alice)
    [thread] = result.threads
    assert thread.name == "Game 1" and thread.type == ChannelType.PUBLIC_THREAD
    assert result.reply is not None and thread.id == result.reply.id == result.reply.thread_id
    [welcome] = club.sent_messages(thread)
    assert welcome.content == f"Welcome to Game 1, {alice.mention}"
    assert welcome.mentioned_user_ids == [alice.id]
    await club.wait_for(lambda: bot.get_channel(thread.id) is not None, what="THREAD_CREATE")

    private = await club.slash("room", {"topic": "Secret", "kind": "private"}, user=alice)
    [secret] = private.threads
    assert secret.type == ChannelType.PRIVATE_THREAD and alice.id in secret.thread_members
    assert private.ephemeral and club.last_message(secret).content.startswith("Welcome to Secret")
    with pytest.raises(UserCannotDoThat):  # Bob is not in Alice's private thread
        await club.slash("ping", user=member(club, "bob"), channel=secret)
    assert (await club.slash("ping", user=alice, channel=secret)).content == "pong"
    with pytest.raises(UserCannotDoThat):  # not one of the choices
        await club.slash("room", {"topic": "x", "kind": "public"}, user=alice)


async def test_modal_select_dm_and_a_typed_command(
    club: FakeDiscord, bot_runner: BotRunner
) -> None:
    await start_toy(bot_runner, club)
    alice = member(club, "alice")
    shown = await club.slash("rename", user=alice)
    assert shown.response_type == ResponseType.MODAL and shown.modal is not None
    assert shown.modal["title"] == "Name your game"
    named = await club.submit_modal(shown, {"game-name": "Kisen"})
    assert named.ephemeral and named.content == "Game named Kisen"

    menu = await club.slash("side", user=alice)
    with pytest.raises(UserCannotDoThat):  # only Alice sees her ephemeral menu
        await club.select(menu, "side", ["gote"], user=member(club, "bob"))
    picked = await club.select(menu, "side", ["gote"], user=alice)
    assert picked.reply is menu.reply and menu.content == "You play gote"
    assert menu.reply is not None and menu.reply.components == []

    reminded = await club.slash("remind", user=alice)
    assert reminded.content == "Reminder sent"
    [dm] = club.sent_messages(club.dm_channel(alice.user))
    assert dm.content == "Your move!"

    channel = club.default_channel
    await club.say(channel, alice, f"{club.bot_user.mention} hello")
    await club.wait_quiet()
    reply = club.last_message(channel)
    assert reply.content == "Hello!" and reply.type == 19
    assert reply.mentioned_user_ids == [alice.id]  # a reply pings its author by default


# --- Discord's rules, enforced -------------------------------------------------------------------


async def test_second_initial_response_is_refused(club: FakeDiscord, bot_runner: BotRunner) -> None:
    bot = await start_toy(bot_runner, club)
    club.expect_rejections(ErrorCode.ALREADY_ACKNOWLEDGED)
    result = await club.slash("twice")
    assert result.content == "first answer"
    [refused] = result.rejections
    assert refused.status == 400 and refused.code == ErrorCode.ALREADY_ACKNOWLEDGED
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException) and error.code == ErrorCode.ALREADY_ACKNOWLEDGED


async def test_followup_before_the_response_is_refused(
    club: FakeDiscord, bot_runner: BotRunner
) -> None:
    bot = await start_toy(bot_runner, club)
    club.expect_rejections(ErrorCode.UNKNOWN_WEBHOOK)
    result = await club.slash("eager")
    assert result.content == "answered properly" and result.followups == []
    [refused] = result.rejections
    assert refused.status == 404 and refused.code == ErrorCode.UNKNOWN_WEBHOOK
    assert isinstance(bot.errors[0], discord.NotFound)


async def test_three_second_limit_is_enforced(club: FakeDiscord, bot_runner: BotRunner) -> None:
    bot = await start_toy(bot_runner, club)
    club.interaction_timeout = 0.1  # stands in for Discord's 3 s
    bot.slow_delay = 0.15
    club.expect_rejections(ErrorCode.UNKNOWN_INTERACTION)
    result = await club.slash("slow", wait=False)
    refused = await result.wait_rejection()
    assert refused.status == 404 and refused.code == ErrorCode.UNKNOWN_INTERACTION
    await club.wait_quiet()
    assert result.response_type is None
    assert isinstance(bot.errors[0], discord.NotFound)
    assert "took too long" in club.last_message(club.default_channel).content


async def test_bad_payload_is_refused_with_discords_error(
    club: FakeDiscord, bot_runner: BotRunner
) -> None:
    bot = await start_toy(bot_runner, club)
    with pytest.raises(InteractionRejected) as undeclared:  # fails at once, saying why
        await club.slash("long")
    assert undeclared.value.record.code == ErrorCode.INVALID_FORM_BODY
    await club.wait_quiet()

    club.expect_rejections(ErrorCode.INVALID_FORM_BODY)  # declared: the bot may recover
    result = await club.slash("long")
    assert result.content == "(shortened)"
    [refused] = result.rejections
    assert refused.code == ErrorCode.INVALID_FORM_BODY
    error = bot.errors[-1]
    assert isinstance(error, discord.HTTPException)
    assert "2000 or fewer" in str(error)  # discord.py renders the fake's nested errors


async def test_unknown_route_is_detected(club: FakeDiscord, bot_runner: BotRunner) -> None:
    bot = await start_toy(bot_runner, club)
    guild = bot.get_guild(next(iter(club.guilds)))
    assert guild is not None
    with pytest.raises(discord.NotFound):
        await guild.fetch_emojis()
    [unknown] = club.unknown_requests
    assert unknown.method == "GET" and unknown.path.endswith("/emojis")
    assert any("does not know" in p for p in club.problems())
    club.unknown_requests.clear()  # detected; do not fail this test at teardown


async def test_faults_rate_limit_and_gateway_drop(
    club: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard
) -> None:
    await start_toy(bot_runner, club)
    club.inject_fault(CALLBACK, status=429, retry_after=0.05)
    limited = await club.slash("ping")
    assert limited.content == "pong"
    assert [r.status for r in club.requests if r.route == CALLBACK] == [429, 200]

    await club.drop_gateway()
    during = await club.slash("ping", wait=False)  # sent while the bot is disconnected
    await club.wait_resumed()
    await during.wait_final()  # replayed on RESUME, answered within the time limit
    assert during.content == "pong"
    assert club.identify_count == 1
    assert (await club.slash("ping")).content == "pong"


# --- the fake's own rules, without a bot ---------------------------------------------------------


def test_payload_validators() -> None:
    row = {
        "type": 1,
        "components": [{"type": 2, "style": 1, "label": "ok", "custom_id": "x" * 101}],
    }
    with pytest.raises(DiscordHTTPError) as too_long:
        validate_components([row], v2=False)
    assert too_long.value.code == ErrorCode.INVALID_FORM_BODY
    assert "custom_id" in str(too_long.value.errors)
    six_rows = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": str(i)}]}
        for i in range(6)
    ]
    with pytest.raises(DiscordHTTPError):
        validate_components(six_rows, v2=False)
    with pytest.raises(DiscordHTTPError):
        validate_components([{"type": 2, "style": 1, "label": "bare", "custom_id": "b"}], v2=False)
    with pytest.raises(DiscordHTTPError):
        validate_choices([{"name": str(i), "value": str(i)} for i in range(26)], 3)
    validate_choices([{"name": str(i), "value": str(i)} for i in range(25)], 3)
    with pytest.raises(DiscordHTTPError):
        validate_allowed_mentions({"parse": ["users"], "users": ["1"]})
    assert compute_mentions(
        "<@1> <@2> @everyone", {"parse": [], "users": ["2"]}, replied_user_id=None
    ) == ({2}, set(), False)
    assert compute_mentions("<@1> @here", None, replied_user_id=None) == ({1}, set(), True)


async def test_teardown_leaves_nothing_running() -> None:
    guard = E2EGuard()
    guard.install()
    fake = FakeDiscord()
    await fake.start()
    with fake.patched_discord():
        guild = fake.add_guild()
        fake.add_member(guild, "carol")
        runner = BotRunner(fake, guard)
        await runner.start(lambda: ToyBot(guild.id))
        assert (await fake.slash("ping")).content == "pong"
        await runner.close_all()
    await fake.stop()
    assert isinstance(fake, FakeDiscordServer) and fake.problems() == []
    assert await guard.finish() == []
    assert fake.api_base != discord.http.Route.BASE  # the pointer was restored
    pointer = DiscordPointer.from_url(fake.url)  # what a bot in another process would use
    expected = fake.patched_discord()
    assert (pointer.api_base, pointer.gateway_url, pointer.cdn_base) == (
        expected.api_base,
        expected.gateway_url,
        expected.cdn_base,
    )


async def test_guard_reports_leaks_and_error_logs() -> None:
    guard = E2EGuard()
    guard.install()
    forever = asyncio.get_running_loop().create_task(asyncio.Event().wait(), name="leaky")
    discord.client._log.error("something broke")
    problems = await guard.finish(task_timeout=0.01)
    assert forever.cancelled() or forever.done()
    assert any("leaky" in p for p in problems)
    assert any("something broke" in p for p in problems)
