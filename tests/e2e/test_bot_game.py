"""Whole games through the real bot, discord.py and a fake Discord on 127.0.0.1.

This module also holds :class:`Club`, the few steps every bot test repeats (a server with three
members, a bot on a temporary database with a hand-driven clock, a game from /challenge through
Accept to its thread), which the other ``test_bot_*`` modules import.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import create_bot
from bot.client import ShogiBot
from bot.config import Settings
from bot.services import GameSnapshot
from rules import Color, Move, Termination
from rules.notation import format_move, read_record
from tests.e2e.fake_discord import FakeAttachment, FakeChannel, FakeMember, FakeMessage
from tests.e2e.harness import BotRunner, E2EGuard, FakeDiscord, InteractionResult

# --- shared helpers ------------------------------------------------------------------------------


class FakeClock:
    """The bot's clock, moved by hand: deadlines and reminders without waiting."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


def png_width(attachment: FakeAttachment) -> int:
    """Decode the attachment with Pillow (fails unless it is a PNG) and return its width."""
    with Image.open(io.BytesIO(attachment.data)) as image:
        assert image.format == "PNG", f"{attachment.filename} is {image.format}, not a PNG"
        image.load()
        return image.width


def assert_board(attachments: list[FakeAttachment], min_width: int = 720) -> None:
    assert attachments, "expected a board image"
    assert png_width(attachments[-1]) >= min_width


@dataclass
class Table:
    """One game as the players see it: its id and its thread."""

    game_id: int
    thread: FakeChannel
    start: FakeMessage


@dataclass
class Club:
    """A server with alice, bob and carol (a spectator), and the bot that serves it."""

    fake: FakeDiscord
    runner: BotRunner
    guard: E2EGuard
    tmp_path: Path
    clock: FakeClock = field(default_factory=FakeClock)
    bot: ShogiBot | None = None

    def __post_init__(self) -> None:
        self.guild = self.fake.add_guild("Shogi Club", channels=("shogi",))
        self.alice = self.fake.add_member(self.guild, "alice")
        self.bob = self.fake.add_member(self.guild, "bob")
        self.carol = self.fake.add_member(self.guild, "carol")
        self.channel = self.fake.channel("shogi", self.guild)
        # The bot's own errors ("unexpected error in /move" ...) fail the test like discord's.
        self.guard.watch_logger("bot")

    def bot_posts(self, channel: FakeChannel, text: str) -> list[FakeMessage]:
        """What the bot posted publicly in ``channel`` containing ``text``."""
        return [
            m
            for m in self.fake.channel_history(channel)
            if m.author.id == self.fake.bot_user.id and text in m.content
        ]

    async def posts(self, channel: FakeChannel, text: str) -> list[FakeMessage]:
        """`bot_posts`, once there is one. A post that follows an interaction's answer (an
        ending with its board to render) may come after the harness's quiet period when
        the machine is busy; waiting for it keeps such tests from flaking."""
        await self.fake.wait_for(
            lambda: bool(self.bot_posts(channel, text)), what=f"a post with {text!r}"
        )
        return self.bot_posts(channel, text)

    @property
    def settings(self) -> Settings:
        return Settings(
            discord_token="fake-token-for-e2e", database_path=self.tmp_path / "shogi.db"
        )

    @property
    def service(self) -> Any:
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

    async def game(self, view_id: int) -> GameSnapshot:
        view: GameSnapshot = await self.service.games.get(view_id)
        return view

    async def challenge(
        self, challenger: FakeMember, opponent: FakeMember, **options: Any
    ) -> InteractionResult:
        result = await self.fake.slash(
            "challenge", {"opponent": opponent, **options}, user=challenger, channel=self.channel
        )
        assert not result.ephemeral, result.content
        return result

    async def accept(self, challenge: InteractionResult | FakeMessage, user: FakeMember) -> Table:
        """Click Accept and wait for the thread and its start board."""
        message = challenge.reply if isinstance(challenge, InteractionResult) else challenge
        assert message is not None
        accept_id = next(c for c in message.custom_ids if c.startswith("ch:accept:"))
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
        challenge_id = int(accept_id.rsplit(":", 1)[1])
        challenge_view = await self.service.challenges.get(challenge_id)
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
        """/move in the game's thread. ``fast``: return once the initial response is written
        (enough for a reply sent as the response itself) instead of after the bot goes quiet."""
        result = await self.fake.slash(
            "move", {"move": text}, user=user, channel=table.thread, wait=not fast
        )
        if fast:
            await result.wait_response()
        return result

    async def play(self, table: Table, moves: Iterable[tuple[FakeMember, str]]) -> None:
        for user, text in moves:
            result = await self.move(user, text, table, fast=True)
            assert not result.ephemeral, f"{text!r} by {user.user.username}: {result.content}"


async def open_club(fake: FakeDiscord, runner: BotRunner, guard: E2EGuard, tmp_path: Path) -> Club:
    club = Club(fake, runner, guard, tmp_path)
    await club.start()
    return club


@pytest.fixture
async def club(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> Club:
    return await open_club(fake_discord, bot_runner, e2e_guard, tmp_path)


# --- the tests -----------------------------------------------------------------------------------


RECORDS = Path(__file__).parents[1] / "data" / "records"


async def snapshot(club: Club, table: Table) -> tuple[int, str, datetime | None, int]:
    """What a rejected move must not change: ply, position, deadline, and the thread."""
    game = await club.game(table.game_id)
    posted = len(club.fake.channel_history(table.thread))
    return game.ply, game.game.position.sfen(), game.deadline, posted


def assert_public_move(
    message: FakeMessage | None, japanese: str, western: str, next_player: FakeMember | None
) -> None:
    """A move's public answer: a PNG board, the move in both notations, the right ping."""
    assert message is not None, "no public answer"
    assert not message.ephemeral, message.content
    assert_board(message.attachments)
    alt = message.attachments[-1].description
    assert alt and "Last move" in alt and f"({western})" in alt, f"alt text: {alt!r}"
    assert japanese.lstrip("☗☖▲△") in alt, f"alt text: {alt!r}"
    assert japanese in message.content and f"({western})" in message.content, message.content
    if next_player is None:
        assert message.mentioned_user_ids == [], message.content
    else:
        assert message.mentioned_user_ids == [next_player.user.id], message.content
        assert f"<@{next_player.user.id}>" in message.content


async def test_whole_game_in_three_notations_with_every_rejection(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    challenge = await club.challenge(alice, bob, color="sente")
    assert challenge.reply is not None
    assert challenge.reply.mentioned_user_ids == [bob.user.id]
    accept_id = next(c for c in challenge.custom_ids if c.startswith("ch:accept:"))
    wrong_member = await club.fake.click(challenge, accept_id, user=carol)
    assert wrong_member.ephemeral and "bob" in wrong_member.content

    table = await club.accept(challenge, bob)
    assert table.thread.name == "☗alice vs ☖bob"
    assert_board(table.start.attachments)
    assert table.start.mentioned_user_ids == [alice.user.id]

    async def rejected(user: FakeMember, text: str, *expected: str) -> InteractionResult:
        before = await snapshot(club, table)
        result = await club.move(user, text, table)
        assert result.ephemeral, f"{text!r} by {user.user.username} was answered publicly"
        assert result.files == []
        for part in expected:
            assert part in result.content, f"{text!r}: {result.content!r} lacks {part!r}"
        assert await snapshot(club, table) == before, f"{text!r} changed the game"
        return result

    # 1. Western notation.
    await rejected(bob, "3c3d", "alice's move")  # wrong turn
    reply = await club.move(alice, "P-7f", table)
    assert_public_move(reply.reply, "７六歩", "P-76", bob)

    await rejected(alice, "3c3d", "bob's move")
    await rejected(carol, "3c3d", "not a player")
    await rejected(bob, "hello", "Could not read", "７六歩")  # unreadable, with examples

    # 2. Japanese.
    reply = await club.move(bob, "３四歩", table)
    assert_public_move(reply.reply, "３四歩", "P-34", alice)

    await rejected(alice, "５八金", "５八金右", "５八金左")  # ambiguous: candidates written out
    await rejected(alice, "7i7g", "cannot move")  # illegal, with the reason
    await rejected(alice, "P*5e", "no pawn in hand")

    # 3. The bishop exchange leaves the promotion open: two buttons, then Promote.
    question = await rejected(alice, "Bx2b", "promot")
    assert sorted(question.custom_ids) == sorted(
        [f"pr:{table.game_id}:2:8h2b+", f"pr:{table.game_id}:2:8h2b"]
    )
    chosen = await club.fake.click(question, f"pr:{table.game_id}:2:8h2b+", user=alice)
    assert chosen.ephemeral and "２二角成" in chosen.content
    assert chosen.custom_ids == [], "the question's buttons should be gone"
    [posted] = await club.posts(table.thread, "２二角成")
    assert posted.id > chosen.interaction.id, "the board came after the click"
    assert_public_move(posted, "２二角成", "Bx22+", bob)
    assert (await club.game(table.game_id)).ply == 3

    # 4. USI, Japanese, Western, and USI for mate.
    reply = await club.move(bob, "4a5b", table)
    assert_public_move(reply.reply, "５二金左", "G41-52", alice)
    reply = await club.move(alice, "４二角", table)
    assert_public_move(reply.reply, "４二角", "B*42", bob)
    assert "Check" in reply.content
    reply = await club.move(bob, "K-4a", table)
    assert_public_move(reply.reply, "４一玉", "K-41", alice)
    reply = await club.move(alice, "2b3a", table)
    assert_public_move(reply.reply, "３一馬", "+Bx31", None)
    assert "Checkmate" in reply.content and "alice wins" in reply.content

    final = await club.game(table.game_id)
    assert final.status == "finished" and final.ply == 7
    over = await rejected(bob, "5b5a", "ended", "checkmate")
    assert over.ephemeral


@pytest.mark.parametrize("name", ["kfjs_20091203.ki2u", "bioshogi_sample.ki2u"])
async def test_professional_game_typed_in_japanese_exports_the_same_moves(
    club: Club, name: str
) -> None:
    original = read_record((RECORDS / name).read_bytes())
    moves = original.game.moves
    assert len(moves) > 100
    table = await club.new_game()
    players = (club.alice, club.bob)
    position = original.game.position_at(0)
    last: Move | None = None
    for index, move in enumerate(moves):
        text = format_move(position, move, "japanese", last_move=last)
        result = await club.move(players[index % 2], text, table, fast=True)
        assert not result.ephemeral, f"move {index + 1} {text!r}: {result.content}"
        symbol = "☗" if index % 2 == 0 else "☖"
        assert result.content.startswith(f"{index + 1}. {symbol}"), result.content
        assert_board(result.files)
        position.push(move)
        last = move
    assert (await club.game(table.game_id)).ply == len(moves)

    # The side to move resigns, as in the original record.
    loser = players[len(moves) % 2]
    ask = await club.fake.slash("resign", user=loser, channel=table.thread)
    await club.fake.click(ask, f"rs:{table.game_id}", user=loser)

    for fmt in ("kif", "csa"):
        export = await club.fake.slash(
            "export", {"format": fmt}, user=club.carol, channel=table.thread
        )
        [file] = export.files
        assert file.filename.endswith(f".{fmt}")
        record = read_record(file.data, fmt)
        assert [m.usi() for m in record.game.moves] == [m.usi() for m in moves], fmt
        assert record.game.outcome is not None
        assert record.game.outcome.termination is Termination.RESIGNATION
        assert record.game.outcome.winner is loser_color(len(moves)).opponent
        assert "lishogi.org/analysis/" in export.content


def loser_color(ply: int) -> Color:
    return Color.SENTE if ply % 2 == 0 else Color.GOTE
