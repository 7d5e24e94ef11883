"""The club every bot test plays in: a server with a #shogi channel, three members (alice and
bob play, carol watches) and the real bot on a temporary database with a hand-driven clock,
and the steps every game test repeats (/challenge, Accept, the thread with its start board).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import create_bot
from bot.client import ShogiBot
from bot.config import Settings
from bot.services import GameService, GameSnapshot
from tests.fakediscord import (
    BotRunner,
    E2EGuard,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
)
from tests.fakediscord.constants import Perm
from tests.fakediscord.runner import settle

from .clock import FakeClock


@dataclass
class Table:
    """One game as the players see it: its id, its thread and the start board there."""

    game_id: int
    thread: FakeChannel
    start: FakeMessage


@dataclass
class Club:
    """A server with alice, bob and carol (a spectator), and the bot that serves it.

    ``names`` renames the three members (e.g. to names that look like markdown);
    ``locales`` are their Discord languages and ``server_locale`` the server's (e.g.
    ``"ja"``), ``engine_path`` the engine the bot runs.  The bot's own ERROR logs
    ("unexpected error in /move" ...) fail the test, as discord.py's do.
    """

    fake: FakeDiscord
    runner: BotRunner
    guard: E2EGuard
    tmp_path: Path
    clock: FakeClock = field(default_factory=FakeClock)
    names: tuple[str, str, str] = ("alice", "bob", "carol")
    locales: tuple[str, str, str] = ("en-US", "en-US", "en-US")
    server_locale: str = "en-US"
    #: The USI engine the bot runs (`ENGINE_PATH`); None: the bot has none.
    engine_path: str | None = None
    #: Budgets other than the defaults, as settings (`{"LIMIT_NOTES": "3"}`).
    limits: dict[str, str] = field(default_factory=dict)
    #: The outbox's sends a second (`OUTBOX_RATE`).
    outbox_rate: float = 30.0
    bot: ShogiBot | None = None

    def __post_init__(self) -> None:
        self.guild = self.fake.add_guild("Shogi Club", channels=("shogi",))
        self.guild.locale = self.server_locale
        self.alice, self.bob, self.carol = (
            self.fake.add_member(self.guild, name) for name in self.names
        )
        for member, locale in zip((self.alice, self.bob, self.carol), self.locales, strict=True):
            member.user.locale = locale
        self.channel = self.fake.channel("shogi", self.guild)
        self.guard.watch_logger("bot")

    def member(self, user_id: int) -> FakeMember:
        return self.guild.members[user_id]

    @property
    def settings(self) -> Settings:
        return Settings(
            discord_token="fake-token-for-e2e",
            database_path=self.tmp_path / "shogi.db",
            engine_path=self.engine_path,
            limits=self.limits,
            outbox_rate=self.outbox_rate,
        )

    @property
    def service(self) -> GameService:
        assert self.bot is not None, "start the bot first"
        return self.bot.service

    async def start(self) -> ShogiBot:
        self.bot = await self.runner.start(
            lambda: create_bot(self.settings, clock=self.clock), sync_commands=True
        )
        return self.bot

    async def restart(self) -> ShogiBot:
        """Stop the bot and start a new one on the same database file."""
        assert self.bot is not None
        await self.runner.stop(self.bot)
        self.bot = None
        return await self.start()

    def wake_deadlines(self) -> None:
        """Have the bot's deadline and digest tasks check now (after the clock was moved
        on)."""
        assert self.bot is not None and self.bot._scheduler is not None
        self.bot._scheduler.wake()
        assert self.bot.digest_scheduler is not None
        self.bot.digest_scheduler.wake()

    async def game(self, game_id: int) -> GameSnapshot:
        return await self.service.games.get(game_id)

    # -- what the players see -------------------------------------------------------------------

    def bot_posts(self, channel: FakeChannel, text: str) -> list[FakeMessage]:
        """What the bot posted publicly in ``channel`` containing ``text``."""
        return [
            m
            for m in self.fake.channel_history(channel)
            if m.author.id == self.fake.bot_user.id and text in m.content
        ]

    async def posts(self, channel: FakeChannel, text: str) -> list[FakeMessage]:
        """:meth:`bot_posts`, once there is one.  A post that follows an interaction's answer
        (an ending with its board to render) may come after the harness's quiet period when
        the machine is busy; waiting for it keeps such tests from flaking."""
        await self.fake.wait_for(
            lambda: bool(self.bot_posts(channel, text)), what=f"a post with {text!r}"
        )
        return self.bot_posts(channel, text)

    # -- what the players do --------------------------------------------------------------------

    async def challenge(
        self, challenger: FakeMember, opponent: FakeMember, **options: Any
    ) -> InteractionResult:
        result = await self.fake.slash(
            "challenge", {"opponent": opponent, **options}, user=challenger, channel=self.channel
        )
        assert not result.ephemeral, result.content
        return result

    async def accept(
        self, challenge: InteractionResult | FakeMessage, user: FakeMember, *, unrated: bool = False
    ) -> Table:
        """Click Accept (or Accept unrated) and wait for the thread and its start board."""
        message = challenge.reply if isinstance(challenge, InteractionResult) else challenge
        assert message is not None
        button = "ch:accept_unrated:" if unrated else "ch:accept:"
        accept_id = next(c for c in message.custom_ids if c.startswith(button))
        before = {t.id for t in self.fake.threads(self.channel)}
        await self.fake.click(message, accept_id, user=user)

        def new_threads() -> list[FakeChannel]:
            return [t for t in self.fake.threads(self.channel) if t.id not in before]

        await self.fake.wait_for(lambda: bool(new_threads()), what="the game's thread")
        [thread] = new_threads()
        await self.fake.wait_for(
            lambda: any(m.attachments for m in self.fake.channel_history(thread)),
            what="the start board in the thread",
        )
        start = self.fake.last_message(thread)
        challenge_view = await self.service.challenges.get(int(accept_id.rsplit(":", 1)[1]))
        assert challenge_view.game_id is not None
        return Table(challenge_view.game_id, thread, start)

    async def new_game(
        self, sente: FakeMember | None = None, gote: FakeMember | None = None, **options: Any
    ) -> Table:
        """/challenge by ``sente`` (who takes sente) and Accept by ``gote``."""
        sente = sente or self.alice
        gote = gote or self.bob
        challenge = await self.challenge(sente, gote, color="sente", **options)
        return await self.accept(challenge, gote)

    async def move(
        self, user: FakeMember, text: str, table: Table, *, fast: bool = False
    ) -> InteractionResult:
        """/move in the game's thread.  ``fast``: return once the initial response is written
        (enough for a reply sent as the response itself) instead of after the bot goes quiet."""
        result = await self.fake.slash(
            "move", {"move": text}, user=user, channel=table.thread, wait=not fast
        )
        if fast:
            await result.wait_response()
        return result

    async def say(
        self,
        user: FakeMember,
        words: str,
        channel: FakeChannel,
        *,
        reply_to: FakeMessage | None = None,
        mention: bool = True,
    ) -> list[FakeMessage]:
        """``user`` posts ``words`` in ``channel``, after a mention of the bot unless
        ``mention`` is False (a reply to ``reply_to`` pings its author all the same), and
        waits until the bot has done with it: what the bot then posted there, in order."""
        assert self.bot is not None, "start the bot first"
        before = {m.id for m in self.fake.channel_history(channel)}
        content = f"<@{self.fake.bot_user.id}> {words}" if mention else words
        received = asyncio.ensure_future(
            self.bot.wait_for("message", check=lambda m: m.author.id == user.id, timeout=10)
        )
        await self.fake.say(channel, user, content, reply_to=reply_to)
        await received  # dispatched: the features' listeners are running now
        await settle(timeout=self.fake.default_timeout)
        return [
            m
            for m in self.fake.channel_history(channel)
            if m.id not in before and m.author.id == self.fake.bot_user.id
        ]

    def make_manager(self, member: FakeMember) -> None:
        """Give ``member`` a role that may manage the server (as its owner would)."""
        managers = self.fake.add_role(
            self.guild, "Managers", permissions=self.guild.everyone.permissions | Perm.MANAGE_GUILD
        )
        member.roles.append(managers.id)

    def space_role_lookups(self, clock: Callable[[], float]) -> None:
        """Count the spacing between a server's lookups of role members on ``clock`` (one
        that moves ahead by a minute at each reading lets every lookup through)."""
        assert self.bot is not None, "start the bot first"
        # (the bot loads its features by name: their classes are not this module's imports)
        lookups = getattr(self.bot.get_cog("TeamMatchesFeature"), "lookups")  # noqa: B009
        lookups.clock = clock

    async def prefer(self, member: FakeMember, **options: str | int) -> InteractionResult:
        """/preferences as ``member`` in #shogi, e.g. ``confirm="on", notifications="each"``."""
        result = await self.fake.slash("preferences", options, user=member, channel=self.channel)
        assert result.ephemeral, result.content
        return result

    async def play(self, table: Table, moves: Iterable[tuple[FakeMember, str]]) -> None:
        for user, text in moves:
            result = await self.move(user, text, table, fast=True)
            assert not result.ephemeral, f"{text!r} by {user.user.username}: {result.content}"

    async def resign(self, table: Table, member: FakeMember) -> None:
        """``member`` resigns the table's game: /resign in its thread, then the button that
        confirms it."""
        ask = await self.fake.slash("resign", user=member, channel=table.thread)
        await self.fake.click(ask, f"rs:{table.game_id}", user=member)


JAPANESE: dict[str, Any] = {
    "names": ("山田太郎", "はなこ🌸", "観戦者"),
    "locales": ("ja", "ja", "ja"),
    "server_locale": "ja",
}
"""The options of a club whose server and members are in Japanese, with Japanese names
(one with an emoji): one club, whichever fixture or test opens it."""


async def open_club(
    fake: FakeDiscord, runner: BotRunner, guard: E2EGuard, tmp_path: Path, **options: Any
) -> Club:
    """A :class:`Club` with its bot started."""
    club = Club(fake, runner, guard, tmp_path, **options)
    await club.start()
    return club
