"""A tiny discord.py bot whose every command exercises one thing the fake Discord does.

Why a toy bot: each behaviour the fake enforces (one initial response, the 3-second limit,
payload limits, RESUME, threads on messages ...) is easiest to show with a bot that does
exactly one thing per command, and the fake must work for any discord.py bot, not only ours.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

COLOURS = [f"{base}-{shade}" for base in ("red", "green", "blue") for shade in range(12)]


def make_png(size: int) -> bytes:
    image = Image.new("RGB", (size * 8, size * 4), (200, 160, 90))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


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


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(n))
    return view


class LaterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"later"):
    """A button that acknowledges at once and edits its message afterwards."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Later", custom_id="later"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> LaterButton:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="Done later", view=None)


class NameModal(discord.ui.Modal, title="Name your game"):
    """A modal with one text input: the fake shows it and the member submits it."""

    game_name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"Named {self.game_name.value}", ephemeral=True)


class ToyBot(commands.Bot):
    """Registers and syncs its commands itself; errors it catches are kept in ``errors``."""

    def __init__(self, guild_id: int, *, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents(guilds=True),
            help_command=None,
        )
        self.guild_id = guild_id
        self.errors: list[BaseException] = []
        self.slow_delay = 0.0
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton, LaterButton)
        await self.tree.sync()
        await self.tree.sync(guild=discord.Object(self.guild_id))

    def _add_commands(self) -> None:
        tree = self.tree
        errors = self.errors

        @tree.command(description="Check that the bot answers")
        async def ping(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("pong")

        @tree.command(description="Greet a member")
        @app_commands.describe(member="Who to greet", style="How")
        @app_commands.choices(
            style=[
                app_commands.Choice(name="plain", value="plain"),
                app_commands.Choice(name="loud", value="loud"),
            ]
        )
        async def greet(
            interaction: discord.Interaction[Any],
            member: discord.Member,
            style: str = "plain",
            whisper: bool = False,
        ) -> None:
            assert isinstance(member, discord.Member), type(member)
            await interaction.response.send_message(
                f"Hello {member.mention}" + ("!!!" if style == "loud" else "."),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, users=[member], roles=False
                ),
                ephemeral=whisper,
            )

        @tree.command(description="Draw a picture (slowly)")
        async def draw(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(thinking=True)
            png = make_png(5)
            await interaction.followup.send(
                "Here it is", file=discord.File(io.BytesIO(png), "board.png", description="A")
            )
            await interaction.followup.send("And a second follow-up", ephemeral=True)
            original = await interaction.original_response()
            assert original.content == "Here it is"

        @tree.command(description="Greet a member after thinking")
        async def greet_later(
            interaction: discord.Interaction[Any], member: discord.Member
        ) -> None:
            await interaction.response.defer(thinking=True)
            only = discord.AllowedMentions(everyone=False, users=[member], roles=False)
            await interaction.followup.send(f"Hello {member.mention}", allowed_mentions=only)
            await interaction.followup.send(f"Hello again {member.mention}", allowed_mentions=only)

        @tree.command(description="Think in public, then answer privately")
        async def think(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.delete_original_response()
            await interaction.followup.send("Only you see this", ephemeral=True)

        @tree.command(description="Post a button that answers later")
        async def later(interaction: discord.Interaction[Any]) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(LaterButton())
            await interaction.response.send_message("Press it", view=view)

        @tree.command(description="Pick a colour")
        async def colour(interaction: discord.Interaction[Any], name: str) -> None:
            await interaction.response.send_message(f"You picked {name}", ephemeral=True)

        @colour.autocomplete("name")
        async def colour_names(
            interaction: discord.Interaction[Any], current: str
        ) -> list[app_commands.Choice[str]]:
            found = [c for c in COLOURS if c.startswith(current)]
            return [app_commands.Choice(name=c, value=c) for c in found][:25]

        @tree.command(description="Offer too many colours (a bug on purpose)")
        async def shade(interaction: discord.Interaction[Any], name: str) -> None:
            await interaction.response.send_message(name)

        @shade.autocomplete("name")
        async def all_shades(
            interaction: discord.Interaction[Any], current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=c, value=c) for c in COLOURS]

        @tree.command(description="Post a counter")
        async def counter(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("Count: 0", view=counter_view(0))

        @tree.command(description="Post a private counter")
        async def secret(interaction: discord.Interaction[Any]) -> None:
            view = counter_view(0)
            await interaction.response.send_message("Count: 0", view=view, ephemeral=True)
            # discord.py times an ephemeral view out after 15 minutes, with a task that
            # outlives the client; the button is dispatched by its custom_id alone.
            view.stop()

        @tree.command(description="Open a thread on the answer")
        async def room(interaction: discord.Interaction[Any], topic: str) -> None:
            await interaction.response.send_message(f"Opening {topic}")
            message = await interaction.original_response()
            thread = await message.create_thread(name=topic)
            await thread.send(f"Welcome to {topic}, {interaction.user.mention}")
            try:
                await message.create_thread(name=topic + " again")
            except discord.HTTPException as exc:
                errors.append(exc)

        @tree.command(description="Post, fetch, list and edit a channel message")
        async def note(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("Noted", ephemeral=True)
            channel = await self.fetch_channel(interaction.channel_id or 0)
            assert isinstance(channel, discord.TextChannel)
            posted = await channel.send("a note")
            fetched = await channel.fetch_message(posted.id)
            history = [m async for m in channel.history(limit=10)]
            assert history[0].id == fetched.id
            await fetched.edit(content=f"a note ({len(history)} messages)")

        @tree.command(description="Read back a file you attach")
        @app_commands.describe(file="The file to read")
        async def upload(interaction: discord.Interaction[Any], file: discord.Attachment) -> None:
            data = await file.read()
            await interaction.response.send_message(
                f"{file.filename}: {file.size} bytes, {data.decode()!r}", ephemeral=True
            )

        @tree.command(description="Send yourself a direct message")
        async def dm(interaction: discord.Interaction[Any], text: str) -> None:
            channel = await self.create_dm(discord.Object(interaction.user.id))
            try:
                await channel.send(text)
            except discord.HTTPException as exc:
                errors.append(exc)
                await interaction.response.send_message("Your DMs are closed", ephemeral=True)
                return
            await interaction.response.send_message(f"Sent in {channel.id}", ephemeral=True)

        @tree.command(description="Answer twice (a bug on purpose)")
        async def twice(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("first answer")
            interaction.response._response_type = None  # pretend another code path answers
            try:
                await interaction.response.send_message("second answer")
            except discord.HTTPException as exc:
                errors.append(exc)

        @tree.command(description="Follow up before answering (a bug on purpose)")
        async def eager(interaction: discord.Interaction[Any]) -> None:
            try:
                await interaction.followup.send("too early")
            except discord.NotFound as exc:
                errors.append(exc)
            await interaction.response.send_message("answered properly")

        @tree.command(description="Answer too late")
        async def slow(interaction: discord.Interaction[Any]) -> None:
            await asyncio.sleep(self.slow_delay)
            try:
                await interaction.response.send_message("sorry, late")
            except discord.NotFound as exc:
                errors.append(exc)
                channel = interaction.channel
                assert isinstance(channel, discord.TextChannel)
                await channel.send(f"{interaction.user.mention}, that took too long.")

        @tree.command(description="Say something too long, then something short")
        async def long(interaction: discord.Interaction[Any]) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                errors.append(exc)
                await interaction.response.send_message("(shortened)")

        @tree.command(description="Show a modal")
        async def rename(interaction: discord.Interaction[Any]) -> None:
            try:
                await interaction.response.send_modal(NameModal())
            except discord.HTTPException as exc:
                errors.append(exc)
                await interaction.response.send_message("no modal")

        @tree.command(description="Name a role's members, as cached and as listed")
        async def roster(interaction: discord.Interaction[Any], role: discord.Role) -> None:
            assert isinstance(role, discord.Role), type(role)
            cached = sorted(m.name for m in role.members)
            assert interaction.guild is not None
            try:  # through the REST route: discord.py's own helper insists on the intent
                page = await interaction.client.http.get_members(interaction.guild.id, 1000, None)
                listed = sorted(m["user"]["username"] for m in page if str(role.id) in m["roles"])
            except discord.Forbidden as exc:
                errors.append(exc)
                listed = ["(no access)"]
            await interaction.response.send_message(
                f"{role.name}: cached {', '.join(cached) or '-'}; listed {', '.join(listed) or '-'}"
            )

        @tree.command(description="Say whether a mention is a member or a role")
        async def whois(
            interaction: discord.Interaction[Any], target: discord.Member | discord.Role
        ) -> None:
            kind = "role" if isinstance(target, discord.Role) else "member"
            await interaction.response.send_message(f"{kind} {target.name}")

        @app_commands.command(description="Only in the test guild")
        async def local(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("local")

        tree.add_command(local, guild=discord.Object(self.guild_id))
