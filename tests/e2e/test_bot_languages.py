"""The bot in Japanese and in English, through the real bot and the fake Discord.

A Japanese club (server and members in Japanese, players named 山田太郎 and はなこ🌸)
plays a whole game and must not meet an English word: every post, private answer,
button label and board alt text is checked. In a mixed club each member reads their
own private answers in their language while the thread follows the server. A member
who may manage the server can choose the language of its posts, and the choice
survives a restart.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord
from tests.support.checks import assert_board, without_mark
from tests.support.club import Club, open_club
from tests.support.japanese import assert_japanese, embed_texts


async def test_a_whole_game_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako, watcher = club.alice, club.bob, club.carol
    times = await club.fake.autocomplete(
        "challenge", {"opponent": hanako, "time": "3日"}, focused="time", user=yamada,
        channel=club.channel,
    )  # fmt: skip
    assert [(c.name, c.value) for c in times] == [("1手3日", "3d")]
    challenge = await club.challenge(yamada, hanako, color="sente", time="3日")
    assert "山田太郎さんから対局の申し込み" in challenge.content
    assert "1手3日" in challenge.content and "27点法" in challenge.content
    assert challenge.reply is not None and challenge.reply.labels == [
        "受ける",
        "非レーティングで受ける",
        "断る",
        "取り下げる",
    ]
    accept_id = next(c for c in challenge.custom_ids if c.startswith("ch:accept:"))
    not_for_you = await club.fake.click(challenge, accept_id, user=watcher)
    assert not_for_you.ephemeral and "はなこ🌸" in not_for_you.content

    table = await club.accept(challenge, hanako)
    closed = club.fake.messages[challenge.reply.id]
    assert closed.content.endswith("対局が成立しました。よろしくお願いします！")
    assert "☗先手：山田太郎" in table.start.content and "先番" in table.start.content
    assert_board(table.start.attachments)
    assert "手数＝0・先手番" in (table.start.attachments[-1].description or "")

    first = await club.move(yamada, "７六歩", table)
    assert first.reply is not None and "1手目 ☗７六歩（山田太郎さん）" in first.reply.content
    wrong_turn = await club.move(yamada, "２六歩", table)
    assert wrong_turn.ephemeral and "はなこ🌸さんの手番です" in wrong_turn.content
    unreadable = await club.move(hanako, "hello", table)
    assert unreadable.ephemeral and "７六歩" in unreadable.content
    second = await club.move(hanako, "３四歩", table)

    question = await club.move(yamada, "２二角", table)  # promotion left open: buttons
    assert question.ephemeral and question.labels == ["成る", "成らない"]
    promote = next(c for c in question.custom_ids if without_mark(c).endswith("+"))
    promoted = await club.fake.click(question, promote, user=yamada)
    assert "２二角成と指しました" in promoted.content
    assert await club.posts(table.thread, "☗２二角成")
    recapture = await club.move(hanako, "同　銀", table)

    board = await club.fake.slash("board", user=watcher, channel=table.thread)
    assert "最終手：☖同　銀" in board.content
    listing = await club.fake.slash("games", user=yamada, channel=club.channel)
    assert listing.ephemeral and "山田太郎さんの進行中の対局" in listing.content
    impasse = await club.fake.slash("jishogi", user=yamada, channel=table.thread)
    assert "未入玉" in impasse.content
    help_text = await club.fake.slash("help", user=watcher, channel=club.channel)
    assert help_text.reply is not None
    assert any("打ち歩詰め" in part for part in embed_texts(help_text.reply))

    asked = await club.fake.slash("resign", user=hanako, channel=table.thread)
    assert "山田太郎さんとの対局を投了しますか" in asked.content and asked.labels == ["投了する"]
    resigned = await club.fake.click(asked, asked.custom_ids[0], user=hanako)
    assert resigned.content == "投了しました。"
    [ending] = await club.posts(table.thread, "まで4手で☖はなこ🌸の投了、☗山田太郎の勝ち。")
    assert "まで4手で☗の勝ち".replace("☗", "先手") in (ending.attachments[-1].description or "")
    exported = await club.fake.slash("export", user=yamada, channel=table.thread)
    assert "の棋譜（KIF）" in exported.content

    results = [not_for_you, first, wrong_turn, unreadable, second, question, promoted]
    results += [recapture, board, listing, impasse, help_text, asked, resigned, exported]
    assert_japanese(challenge, *results, *club.fake.channel_history(table.thread))
    assert_japanese(*club.fake.channel_history(club.channel))


async def test_reminders_more_time_and_time_outs_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    table = await club.new_game(time="1d")
    await club.play(table, [(yamada, "７六歩"), (hanako, "３四歩")])
    club.clock.advance(timedelta(hours=20))  # 80 % of yamada's day
    club.wake_deadlines()
    [reminder] = await club.posts(table.thread, "さん、指す期限が近づいています。期限は")
    assert "はなこ🌸さんは下のボタンで期限を延ばせます" in reminder.content
    assert reminder.labels == ["期限を延ばす"] and "期限は<t:" in reminder.content
    own = await club.fake.click(reminder, reminder.custom_ids[0], user=yamada)
    assert own.ephemeral and "あなたの手番" in own.content
    given = await club.fake.click(reminder, reminder.custom_ids[0], user=hanako)
    assert given.content == "相手の期限を延ばしました（今から1手分の時間があります）。"
    [extended] = await club.posts(table.thread, "期限を延ばしてくれました")

    expired = await club.challenge(hanako, yamada)
    club.clock.advance(timedelta(days=8))
    club.wake_deadlines()
    [ending] = await club.posts(table.thread, "まで2手で☗山田太郎の時間切れ、☖はなこ🌸の勝ち。")
    late = await club.move(yamada, "２六歩", table)
    assert late.content == "この対局はすでに時間切れで終わっています。"
    message = expired.reply
    assert message is not None
    await club.fake.wait_for(lambda: "期限が切れました" in message.content, what="the expiry")
    assert_japanese(reminder, own, given, extended, ending, late, message)


async def test_the_same_game_in_english(club: Club) -> None:
    """The English club's texts, as a control: the check above does find English."""
    table = await club.new_game()
    first = await club.move(club.alice, "P-7f", table)
    assert first.reply is not None and "☗７六歩 (P-7f) by alice" in first.reply.content
    await club.play(table, [(club.bob, "P-3d"), (club.alice, "P-2f")])
    asked = await club.fake.slash("resign", user=club.bob, channel=table.thread)
    assert asked.labels == ["Yes, resign"]
    await club.fake.click(asked, asked.custom_ids[0], user=club.bob)
    [ending] = await club.posts(table.thread, "☖bob resigned after move 3: ☗alice wins.")
    assert "Move 3 · Sente wins" in (ending.attachments[-1].description or "")
    with pytest.raises(AssertionError, match="English in"):
        assert_japanese(ending)


async def test_a_mixed_club_reads_private_answers_in_each_members_language(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, locales=("ja", "en-US", "fr")
    )
    table = await club.new_game()
    japanese = await club.move(club.alice, "hello", table)
    english = await club.move(club.bob, "hello", table)
    french = await club.move(club.carol, "P-7f", table)  # no French catalog: English
    assert japanese.ephemeral and "読み取れませんでした" in japanese.content
    assert english.ephemeral and english.content == "It is alice's move."
    assert french.ephemeral and "not a player" in french.content
    played = await club.move(club.alice, "７六歩", table)
    assert played.reply is not None and "☗７六歩 (P-7f) by alice" in played.reply.content
    alice_help = await club.fake.slash("help", user=club.alice, channel=table.thread)
    assert alice_help.reply is not None
    assert "通信将棋の遊び方" in embed_texts(alice_help.reply)


async def test_a_server_manager_chooses_the_language_of_posts(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, locales=("ja", "en-US", "en-US")
    )
    club.make_manager(club.carol)

    refused = await club.fake.slash(
        "language", {"language": "ja"}, user=club.alice, channel=club.channel
    )
    assert refused.ephemeral and "サーバー管理の権限" in refused.content
    chosen = await club.fake.slash(
        "language", {"language": "ja"}, user=club.carol, channel=club.channel
    )
    assert chosen.ephemeral and "日本語にしました" in chosen.content

    await club.restart()  # the choice is stored, not only remembered
    table = await club.new_game()
    assert "☗先手：alice" in table.start.content
    played = await club.move(club.alice, "P-7f", table)
    assert played.reply is not None and "1手目 ☗７六歩（aliceさん）" in played.reply.content

    back = await club.fake.slash(
        "language", {"language": "server"}, user=club.carol, channel=club.channel
    )
    assert "Discord" in back.content and "server's language" in back.content
    answered = await club.move(club.bob, "P-3d", table)
    assert answered.reply is not None and "☖３四歩 (P-3d) by bob" in answered.reply.content
