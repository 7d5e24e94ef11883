"""Turn messages through the real bot: a player who asked for them gets a direct message when
their turn comes (the opponent moved, the game started, they were given time), in the
language they chose them in, with the link to the game's thread; one who did not gets none;
and a player whose direct messages are closed (403, code 50007) still gets the move, and is
not written to again, after a restart too, until they change their preferences.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest

from tests.fakediscord import (
    OPEN_DM,
    BotRunner,
    E2EGuard,
    ErrorCode,
    FakeDiscord,
    FakeMember,
    FakeMessage,
)
from tests.support.checks import assert_board
from tests.support.club import Club, Table, open_club
from tests.support.japanese import assert_japanese


async def direct_messages(club: Club, member: FakeMember, count: int) -> list[FakeMessage]:
    """The bot's direct messages to ``member``, once there are ``count`` of them."""
    await club.fake.wait_for(
        lambda: len(club.fake.direct_messages(member)) >= count,
        what=f"{count} direct message(s) to {member.user.username}",
    )
    return club.fake.direct_messages(member)


def link(club: Club, table: Table) -> str:
    return f"https://discord.com/channels/{club.guild.id}/{table.thread.id}"


async def test_the_player_to_move_is_told_in_a_direct_message(club: Club) -> None:
    alice, bob = club.alice, club.bob
    await club.prefer(bob, notifications="each")
    table = await club.new_game()  # alice moves first: bob, who accepted, is not told
    [challenged] = club.fake.direct_messages(bob)  # only that he was challenged
    assert challenged.content.startswith("bob, alice challenges you to shogi.")

    played = await club.move(alice, "P-7f", table)
    assert played.reply is not None and not played.ephemeral
    message = (await direct_messages(club, bob, 2))[-1]
    assert message.content.startswith(f"Your move in game #{table.game_id} (☗alice vs ☖bob)")
    assert "deadline <t:" in message.content
    assert "Last move: ☗７六歩 (P-7f)" in message.content
    assert message.content.endswith(f"The game: {link(club, table)}")
    assert message.id > played.reply.id, "the message came before the thread's post"
    assert message.mentions == []

    # Alice did not ask for messages: bob's move tells her in the thread only.
    await club.move(bob, "3c3d", table)
    await club.fake.wait_quiet()
    assert club.fake.direct_messages(alice) == []
    assert club.fake.dm_channels.keys() == {bob.user.id}

    # More time given to bob: his turn begins again, and he is told.
    await club.move(alice, "P-2f", table)
    await direct_messages(club, bob, 3)
    club.clock.advance(timedelta(days=2, hours=12))
    club.wake_deadlines()
    [reminder] = await club.posts(table.thread, "your move is due")
    await club.fake.click(reminder, reminder.custom_ids[0], user=alice)
    *_, reminded, third = await direct_messages(club, bob, 5)
    assert reminded.content.startswith(f"Game #{table.game_id} (☗alice vs ☖bob):\nbob, your move")
    assert third.content.startswith(f"Your move in game #{table.game_id}")
    assert "Last move: ☗２六歩 (P-2f)" in third.content


async def test_a_player_who_moves_first_is_told_at_the_start(club: Club) -> None:
    await club.prefer(club.alice, notifications="each")
    table = await club.new_game()  # alice challenged, bob accepted: alice moves first
    [message] = await direct_messages(club, club.alice, 1)  # one message says both
    assert message.content.startswith(
        f"Game #{table.game_id} (☗alice vs ☖bob):\n"
        "Challenge accepted: have a good game!\nalice to move"
    )
    assert message.content.endswith(link(club, table))
    assert message.id > table.start.id

    # Who accepts and moves first is looking at the game already: no message for them.
    await club.prefer(club.bob, notifications="each")
    challenge = await club.challenge(club.alice, club.bob, color="gote")
    second = await club.accept(challenge, club.bob)
    assert (await club.game(second.game_id)).to_move == (await club.game(second.game_id)).sente
    await club.fake.wait_quiet()
    [challenged] = club.fake.direct_messages(club.bob)  # that he was challenged, no more
    assert challenged.content.startswith("bob, alice challenges you to shogi.")


async def test_closed_direct_messages_do_not_stop_the_game(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.ui.notify")
    alice, bob, fake = club.alice, club.bob, club.fake
    await club.prefer(bob, notifications="each")
    fake.close_dms(bob)
    fake.expect_rejections(ErrorCode.CANNOT_MESSAGE_USER)
    table = await club.new_game()

    played = await club.move(alice, "P-7f", table)
    assert played.reply is not None and not played.ephemeral
    assert_board(played.files)
    assert played.reply.mentioned_user_ids == [bob.user.id]  # the thread still tells him
    await fake.wait_for(lambda: bool(fake.rejections), what="the refused direct message")
    assert [(r.status, r.code) for r in fake.rejections] == [(403, 50007)]

    await club.play(table, [(bob, "3c3d"), (alice, "P-2f")])
    await fake.wait_quiet()
    assert len(fake.rejections) == 1, "the bot kept writing to a closed inbox"
    refused = [r for r in caplog.records if "does not accept direct messages" in r.message]
    assert [r.levelno for r in refused] == [logging.INFO]
    assert (await club.game(table.game_id)).ply == 3

    # The database remembers his closed inbox: a restarted bot (or another process)
    # does not write to it again, nor does his looking at his settings reopen it.
    await club.restart()
    await club.play(table, [(bob, "8c8d"), (alice, "P-2e")])
    await club.prefer(bob)
    await club.play(table, [(bob, "1c1d"), (alice, "P-1f")])
    await fake.wait_quiet()
    assert len(fake.rejections) == 1, "a restarted bot wrote to a closed inbox again"
    assert (await club.game(table.game_id)).ply == 7

    # Bob opens his messages and changes his preferences: he is told again.
    bob.user.accepts_dms = True
    await club.prefer(bob, notifications="each")
    await club.play(table, [(bob, "9c9d"), (alice, "P-9f")])
    [message] = await direct_messages(club, bob, 1)
    assert "Last move: ☗９六歩 (P-9f)" in message.content
    assert len([r for r in fake.requests if r.route == OPEN_DM]) == 2  # once by each process


async def test_a_japanese_member_confirms_and_is_told_in_japanese(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """In an English server, はなこ's Discord is in Japanese: her preferences, her
    confirmations and her turn messages are in Japanese."""
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path,
        names=("山田太郎", "はなこ", "観戦者"), locales=("en-US", "ja", "ja"),
    )  # fmt: skip
    yamada, hanako = club.alice, club.bob
    chosen = await club.prefer(hanako, confirm="on", notifications="each")
    assert chosen.content.startswith("設定を保存しました。")
    assert "指す前に、指した後の盤面で確認する：オン" in chosen.content
    assert "ダイレクトメッセージ：手番ごと" in chosen.content
    table = await club.new_game()

    await club.move(yamada, "P-7f", table)
    challenged, message = await direct_messages(club, hanako, 2)
    assert challenged.content.startswith("はなこさん、山田太郎さんから対局の申し込みです。")
    assert message.content.startswith(
        f"対局#{table.game_id}（☗山田太郎 対 ☖はなこ）はあなたの手番です。"
    )
    assert "最終手：☗７六歩" in message.content
    assert message.content.endswith(f"対局のスレッド：{link(club, table)}")

    question = await club.move(hanako, "３四歩", table)
    assert question.ephemeral and question.labels == ["確定", "取り消す"]
    assert question.content.startswith("３四歩と指しますか？")
    assert "手数＝2・先手番" in (question.files[-1].description or "")
    cancelled = await club.fake.click(question, question.custom_ids[1], user=hanako)
    assert cancelled.content == "取り消しました。手は指されていません。"
    again = await club.move(hanako, "３四歩", table)
    confirmed = await club.fake.click(again, again.custom_ids[0], user=hanako)
    assert confirmed.content == "３四歩と指しました。"
    assert (await club.game(table.game_id)).ply == 2
    assert_japanese(chosen, challenged, message, question, cancelled, confirmed)
