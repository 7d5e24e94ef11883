"""A handicap game as a club plays it, through the real bot and the fake Discord, in English
and in Japanese: the challenger gives the handicap unless they say otherwise, and every
post, caption, alt text, thread name, `/games` line, reminder and turn message calls the
players Uwate and Shitate (上手 and 下手), never sente and gote (先手, 後手, 先番)."""

from __future__ import annotations

import re
from datetime import timedelta

from tests.fakediscord import FakeChannel, FakeMessage, InteractionResult, UserFile
from tests.support.checks import png_width
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese

#: What a handicap game's texts must never say of its players.
EVEN_WORDS_EN = re.compile(r"\b(sente|gote)\b", re.IGNORECASE)
EVEN_WORDS_JA = re.compile(r"先手|後手|先番")


def texts_of(*messages: FakeMessage | InteractionResult) -> list[str]:
    """Everything a reader sees of `messages`: content, button labels, alt texts."""
    texts = []
    for message in messages:
        seen = message.messages if isinstance(message, InteractionResult) else [message]
        for shown in seen:
            texts += [shown.content, *shown.labels]
            texts += [a.description or "" for a in shown.attachments]
    return texts


def alt_text(message: FakeMessage | InteractionResult) -> str:
    """The board's alt text, once the board is checked to be a real PNG Pillow decodes."""
    shown = message.reply if isinstance(message, InteractionResult) else message
    assert shown is not None
    [board] = [a for a in shown.attachments if a.filename.endswith(".png")]
    assert png_width(board) >= 720
    return board.description or ""


def bot_messages(club: Club, *channels: FakeChannel) -> list[FakeMessage]:
    return [
        m
        for channel in channels
        for m in club.fake.channel_history(channel)
        if m.author.id == club.fake.bot_user.id
    ]


async def play_the_handicap_game(club: Club, reminder: str) -> tuple[Table, dict[str, object]]:
    """alice challenges bob to a lance handicap game without saying who gives it, bob
    (who asked for turn messages) accepts, three moves, a reminder, /board and /games,
    then bob resigns. What each step showed, by name; `reminder`, words of the reminder."""
    alice, bob = club.alice, club.bob
    await club.prefer(bob, notifications="each")
    seen: dict[str, object] = {}
    seen["challenge"] = challenge = await club.challenge(alice, bob, handicap="lance", time="1d")
    table = await club.accept(challenge, bob)
    seen["start"] = table.start
    seen["first"] = await club.move(alice, "3c3d", table)
    seen["second"] = await club.move(bob, "7g7f", table)
    club.clock.advance(timedelta(hours=20))
    club.wake_deadlines()
    seen["reminders"] = await club.posts(table.thread, reminder)
    seen["third"] = await club.move(alice, "8c8d", table)
    seen["board"] = await club.fake.slash("board", user=club.carol, channel=table.thread)
    seen["games"] = await club.fake.slash("games", user=alice, channel=club.channel)
    await club.fake.wait_for(lambda: len(club.fake.direct_messages(bob)) >= 2, what="2 DMs")
    seen["dms"] = club.fake.direct_messages(bob)
    await club.resign(table, bob)
    seen["thread"] = table.thread
    return table, seen


async def test_a_handicap_game_in_english_names_uwate_and_shitate(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table, seen = await play_the_handicap_game(club, "your move is due")
    game = await club.game(table.game_id)
    assert game.gote.user_id == alice.user.id, "the challenger who said nothing gives"

    challenge = seen["challenge"]
    assert isinstance(challenge, InteractionResult)
    assert "Lance handicap, given by alice (Uwate)" in challenge.content

    start = seen["start"]
    assert isinstance(start, FakeMessage)
    assert "☗ Shitate: bob   ☖ Uwate: alice" in start.content
    assert "Lance handicap: alice (Uwate) gives it and moves first." in start.content
    assert f"<@{alice.user.id}> (Uwate), you move first; deadline" in start.content
    assert start.mentioned_user_ids == [alice.user.id]
    start_alt = alt_text(start)
    assert "☗bob (Shitate) vs ☖alice (Uwate)" in start_alt
    assert "Move 0 · Uwate to move" in start_alt
    assert "Uwate: king 5a" in start_alt and "Shitate in hand: none" in start_alt

    first = seen["first"]
    assert isinstance(first, InteractionResult) and first.reply is not None
    assert first.reply.content.startswith("1. ☖３四歩 (P-3d) by alice.")
    assert f"<@{bob.user.id}> (Shitate) to move; deadline" in first.reply.content
    assert "Move 1 · Shitate to move" in alt_text(first)
    second = seen["second"]
    assert isinstance(second, InteractionResult) and second.reply is not None
    assert f"<@{alice.user.id}> (Uwate) to move" in second.reply.content

    reminders = seen["reminders"]
    assert isinstance(reminders, list)
    [reminder] = reminders
    assert reminder.content.startswith(f"<@{alice.user.id}> (Uwate), your move is due")

    board = seen["board"]
    assert isinstance(board, InteractionResult)
    assert "☗bob (Shitate) vs ☖alice (Uwate) · move 3" in board.content
    assert "bob (Shitate) to move" in board.content
    assert "Move 3 · Shitate to move" in alt_text(board)
    games = seen["games"]
    assert isinstance(games, InteractionResult)
    assert "You (☖Uwate) vs bob, move 3" in games.content

    dms = seen["dms"]
    assert isinstance(dms, list)
    turn = f"Your move in game #{table.game_id} (☗bob (Shitate) vs ☖alice (Uwate))"
    assert any(dm.content.startswith(turn) for dm in dms)  # after the challenge's own

    [ending] = await club.posts(table.thread, "resigned")
    assert "☗bob (Shitate) resigned after move 3: ☖alice (Uwate) wins." in ending.content
    assert "Move 3 · Uwate wins by resignation" in alt_text(ending)
    await club.fake.wait_for(lambda: "·" in table.thread.name, what="the thread's result")
    assert table.thread.name == f"#{table.game_id} ☗bob (Shitate) vs ☖alice (Uwate) · ☖Uwate wins"

    export = await club.fake.slash("export", {"format": "kif"}, user=bob, channel=table.thread)
    [kif] = export.files
    record = await club.fake.slash(
        "board", {"record": UserFile("game.kif", kif.data)}, user=bob, channel=club.channel
    )
    assert "☗bob (Shitate) vs ☖alice (Uwate) · move 3 of 3" in record.content
    assert "Uwate won by resignation at move 3." in record.content  # the record's result
    assert "Move 3 · Uwate wins by resignation" in alt_text(record)
    assert "Uwate: king 5a" in alt_text(record)

    everything = texts_of(
        *bot_messages(club, club.channel, table.thread), *dms, board, games, record
    )
    said = [t for t in everything if EVEN_WORDS_EN.search(t)]
    assert said == [], "a handicap game's texts call a player sente or gote"


async def test_a_handicap_game_in_japanese_names_uwate_and_shitate(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    table, seen = await play_the_handicap_game(club, "指す期限が近づいています")
    game = await club.game(table.game_id)
    assert game.gote.user_id == yamada.user.id

    challenge = seen["challenge"]
    assert isinstance(challenge, InteractionResult)
    assert "香落ち（山田太郎さんが上手）" in challenge.content

    start = seen["start"]
    assert isinstance(start, FakeMessage)
    assert "☗下手：はなこ🌸　☖上手：山田太郎" in start.content
    assert "香落ち：上手の山田太郎さんが駒を落とし、先に指します。" in start.content
    assert f"上手の<@{yamada.user.id}>さんから指します。期限は" in start.content
    start_alt = alt_text(start)
    assert "☗下手 はなこ🌸 対 ☖上手 山田太郎" in start_alt
    assert "手数＝0・上手番" in start_alt and "上手の駒：玉５一" in start_alt

    first = seen["first"]
    assert isinstance(first, InteractionResult) and first.reply is not None
    assert first.reply.content.startswith("1手目 ☖３四歩（山田太郎さん）")
    assert f"下手の<@{hanako.user.id}>さんの手番です。期限は" in first.reply.content
    assert "手数＝1・下手番" in alt_text(first)

    reminders = seen["reminders"]
    assert isinstance(reminders, list)
    [reminder] = reminders
    assert reminder.content.startswith(f"上手の<@{yamada.user.id}>さん、指す期限が近づいています。")

    board = seen["board"]
    assert isinstance(board, InteractionResult)
    assert "☗下手 はなこ🌸 対 ☖上手 山田太郎・3手目" in board.content
    assert "下手のはなこ🌸さんの手番です" in board.content and "手数＝3・下手番" in alt_text(board)
    games = seen["games"]
    assert isinstance(games, InteractionResult)
    assert "あなた（☖上手）対 はなこ🌸さん、3手目" in games.content

    dms = seen["dms"]
    assert isinstance(dms, list)
    assert any("☗下手 はなこ🌸 対 ☖上手 山田太郎" in dm.content for dm in dms)

    [ending] = await club.posts(table.thread, "投了")
    assert "まで3手で☗下手 はなこ🌸の投了、☖上手 山田太郎の勝ち。" in ending.content
    assert "まで3手で上手の勝ち（投了）" in alt_text(ending)
    await club.fake.wait_for(lambda: "·" in table.thread.name, what="the thread's result")
    assert table.thread.name.endswith("☗下手 はなこ🌸 対 ☖上手 山田太郎 · ☖上手の勝ち")

    messages = bot_messages(club, club.channel, table.thread)
    assert_japanese(*messages, *dms, board, games)
    everything = texts_of(*messages, *dms, board, games)
    said = [t for t in everything if EVEN_WORDS_JA.search(t)]
    assert said == [], "a handicap game's texts call a player 先手 or 後手"


async def test_a_challenger_may_receive_the_handicap_instead(club: Club) -> None:
    alice, bob = club.alice, club.bob
    challenge = await club.challenge(alice, bob, handicap="two_piece", color="sente")
    assert "2-piece handicap, received by alice (Shitate)" in challenge.content
    table = await club.accept(challenge, bob)
    assert (await club.game(table.game_id)).gote.user_id == bob.user.id
    # bob moves first but accepted it himself: the post tells alice, the challenger
    assert table.start.mentioned_user_ids == [alice.user.id]


async def test_a_handicap_by_lot_is_refused_in_one_sentence(club: Club) -> None:
    refused = await club.fake.slash(
        "challenge",
        {"opponent": club.bob, "handicap": "lance", "color": "random"},
        user=club.alice,
        channel=club.channel,
    )
    assert refused.ephemeral and "never drawn by lot" in refused.content
    assert refused.content.count(".") == 1


async def test_an_open_handicap_challenge_is_given_by_its_author(club: Club) -> None:
    alice, carol = club.alice, club.carol
    posted = await club.fake.slash(
        "challenge", {"handicap": "bishop"}, user=alice, channel=club.channel
    )
    assert "Bishop handicap, given by alice (Uwate)" in posted.content
    table = await club.accept(posted, carol)
    game = await club.game(table.game_id)
    assert (game.sente.user_id, game.gote.user_id) == (carol.user.id, alice.user.id)
