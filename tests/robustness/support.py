"""Helpers shared by the robustness tests: a bot against the fake, games started through it,
and the checks every test makes (replays legally, one answer per interaction)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot import create_bot
from bot.client import ShogiBot
from bot.config import Settings
from bot.services import GameSnapshot
from rules import Game
from tests.e2e.fake_discord import FakeChannel, FakeGuild, FakeMember
from tests.e2e.harness import BotRunner, FakeDiscord

TOKEN = "fake-token-for-robustness"


def settings_for(tmp_path: Path, token: str = TOKEN) -> Settings:
    return Settings(discord_token=token, database_path=tmp_path / "shogi.db")


async def start_bot(bot_runner: BotRunner, tmp_path: Path, **options: object) -> ShogiBot:
    return await bot_runner.start(
        lambda: create_bot(settings_for(tmp_path), **options), sync_commands=True
    )


@dataclass
class Table:
    """A server with a channel and members, and the bot connected to it."""

    fake: FakeDiscord
    bot: ShogiBot
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeMember
    bob: FakeMember
    carol: FakeMember  # a member who plays in no game: the stranger and spectator

    def member(self, user_id: int) -> FakeMember:
        return self.guild.members[user_id]


async def open_table(
    fake: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, *, names: tuple[str, ...] = ()
) -> Table:
    guild = fake.add_guild("Shogi Club", channels=("shogi",))
    alice, bob, carol = (
        fake.add_member(guild, name) for name in (names or ("alice", "bob", "carol"))
    )
    bot = await start_bot(bot_runner, tmp_path)
    return Table(fake, bot, guild, fake.channel("shogi", guild), alice, bob, carol)


@dataclass
class BotGame:
    id: int
    thread: FakeChannel
    sente: FakeMember
    gote: FakeMember


async def start_game(
    table: Table,
    challenger: FakeMember | None = None,
    opponent: FakeMember | None = None,
    *,
    time: str = "3d",
    impasse: str = "27",
) -> BotGame:
    """/challenge, Accept, and the thread with the start board: a game as players start one."""
    fake = table.fake
    challenger = challenger or table.alice
    opponent = opponent or table.bob
    before = {t.id for t in fake.threads(table.channel)}
    challenge = await fake.slash(
        "challenge",
        {"opponent": opponent, "color": "sente", "time": time, "impasse": impasse},
        user=challenger,
        channel=table.channel,
    )
    accept = next(c for c in challenge.custom_ids if c.startswith("ch:accept"))
    await fake.click(challenge, accept, user=opponent)
    await fake.wait_for(
        lambda: any(t.id not in before for t in fake.threads(table.channel)), what="a thread"
    )
    thread = next(t for t in fake.threads(table.channel) if t.id not in before)
    await fake.wait_for(
        lambda: any(m.attachments for m in fake.channel_history(thread)),
        what="the start board",
    )
    game = await table.bot.service.games.resolve(
        challenger.id, guild_id=table.guild.id, thread_id=thread.id
    )
    return BotGame(game.id, thread, challenger, opponent)


def assert_replays(view: GameSnapshot) -> None:
    """The stored move list replays legally to the stored position."""
    replayed = Game(view.game.start.sfen(), [m.usi() for m in view.game.moves])
    assert replayed.position.sfen() == view.game.position.sfen()
    assert len(replayed.moves) == view.ply
