"""Moves typed as messages that mention the bot in a game's thread, through the real bot,
discord.py and the fake Discord, which (as Discord does for a bot without the message
content intent) delivers the text of a message only when it mentions the bot."""

from __future__ import annotations

from bot.ui import text
from tests.fakediscord import FakeMember, FakeMessage
from tests.support.checks import assert_board
from tests.support.club import Club, Table

from .test_bot_game import assert_public_move, snapshot

POST = "POST /channels/{channel_id}/messages"


def one_sentence(posted: list[FakeMessage], *expected: str) -> FakeMessage:
    """The bot answered with one message of one sentence, without a board or a ping."""
    assert len(posted) == 1, [m.content for m in posted]
    [answer] = posted
    assert answer.attachments == [] and answer.mentioned_user_ids == [], answer.content
    assert "\n" not in answer.content, answer.content
    for part in expected:
        assert part in answer.content, f"{answer.content!r} lacks {part!r}"
    return answer


async def test_moves_by_mention_and_by_a_reply_to_the_board(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game(alice, bob)
    requests = len(club.fake.requests)
    [board] = await club.say(alice, "P-7f", table.thread)
    assert_public_move(board, "７六歩", "P-7f", bob)
    posts = [r for r in club.fake.requests[requests:] if r.route == POST]
    assert len(posts) == 1, "a move by mention costs one post: its board"
    # A reply to that board pings the bot, its author: no need to name it.
    [answer] = await club.say(bob, "３四歩", table.thread, reply_to=board, mention=False)
    assert_public_move(answer, "３四歩", "P-3d", alice)
    assert (await club.game(table.game_id)).ply == 2


async def test_a_reply_to_a_commands_answer_must_name_the_bot(club: Club) -> None:
    """Discord does not count a reply to an interaction's answer as a mention: such a
    reply reaches the bot empty, and only naming the bot plays the move."""
    alice, bob = club.alice, club.bob
    table = await club.new_game(alice, bob)
    typed = await club.move(alice, "P-7f", table)
    assert typed.reply is not None and typed.reply.interaction_id is not None
    before = await snapshot(club, table)
    posted = await club.say(bob, "P-3d", table.thread, reply_to=typed.reply, mention=False)
    assert posted == [] and await snapshot(club, table) == (*before[:3], before[3] + 1)
    [answer] = await club.say(bob, "P-3d", table.thread, reply_to=typed.reply)
    assert_public_move(answer, "３四歩", "P-3d", alice)


async def test_refusals_are_one_sentence_and_change_nothing(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game(alice, bob)

    async def refused(member: FakeMember, words: str, *expected: str) -> FakeMessage:
        before = await snapshot(club, table)
        answer = one_sentence(await club.say(member, words, table.thread), *expected)
        assert answer.reference_id is not None  # a reply to the member's message
        after = await snapshot(club, table)
        assert after[:3] == before[:3] and after[3] == before[3] + 2  # the message, the reply
        return answer

    await refused(carol, "P-7f", "not a player")  # a spectator
    await refused(alice, "P-5e", "5e")  # illegal: no pawn can go there
    await refused(bob, "P-3d", "alice's move")  # not their turn
    # Nothing but the mention: no move meant, nothing answered.
    assert await club.say(alice, "", table.thread) == []


async def test_without_a_mention_nothing_reaches_the_bot(club: Club) -> None:
    table = await club.new_game(club.alice, club.bob)
    assert await club.say(club.alice, "P-7f", table.thread, mention=False) == []
    assert (await club.game(table.game_id)).ply == 0


async def test_outside_a_game_thread_a_move_gets_one_sentence_and_talk_none(club: Club) -> None:
    await club.new_game(club.alice, club.bob)
    one_sentence(await club.say(club.alice, "P-7f", club.channel), "`/move`")
    assert await club.say(club.bob, "what a nice bot you are", club.channel) == []


async def test_a_player_who_confirms_moves_is_sent_to_the_command(club: Club) -> None:
    table = await club.new_game(club.alice, club.bob)
    await club.prefer(club.alice, confirm="on")
    one_sentence(await club.say(club.alice, "P-7f", table.thread), "`/move`")
    assert (await club.game(table.game_id)).ply == 0


async def test_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    sente, gote, watcher = club.alice, club.bob, club.carol
    table: Table = await club.new_game(sente, gote)
    [board] = await club.say(sente, "７六歩", table.thread)
    assert_board(board.attachments)
    assert "７六歩" in board.content and board.mentioned_user_ids == [gote.user.id]
    one_sentence(await club.say(watcher, "３四歩", table.thread), "対局者ではありません")
    one_sentence(
        await club.say(gote, "３四歩", club.channel), text.say("ja", text.MENTION_OUTSIDE_GAME)
    )
    # Sente names the bot in a reply to their own board: not their turn.
    one_sentence(await club.say(sente, "３四歩", table.thread, reply_to=board), "さんの手番です")


async def test_a_move_several_pieces_fit_is_answered_with_what_to_write(club: Club) -> None:
    """A message has no private buttons: the rules' sentence says what to write instead,
    and the move written so is played."""
    table = await club.new_game(club.alice, club.bob)
    one_sentence(await club.say(club.alice, "G-5h", table.thread), "write the one you mean")
    assert (await club.game(table.game_id)).ply == 0
    [board] = await club.say(club.alice, "6i5h", table.thread)
    assert_public_move(board, "５八金左", "G6i-5h", club.bob)
