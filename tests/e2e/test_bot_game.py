"""Whole games through the real bot, discord.py and a fake Discord on 127.0.0.1."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from rules import Color, Move, Termination
from rules.notation import format_move, read_record
from tests.fakediscord import FakeMember, FakeMessage, InteractionResult
from tests.support.checks import assert_board, button_id, without_mark
from tests.support.club import Club, Table

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
    assert table.thread.name == f"#{table.game_id} ☗alice vs ☖bob"
    assert table.start.content.startswith(f"**Game #{table.game_id}**")
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
    assert_public_move(reply.reply, "７六歩", "P-7f", bob)

    await rejected(alice, "3c3d", "bob's move")
    await rejected(carol, "3c3d", "not a player")
    await rejected(bob, "hello", "Could not read", "７六歩")  # unreadable, with examples

    # 2. Japanese.
    reply = await club.move(bob, "３四歩", table)
    assert_public_move(reply.reply, "３四歩", "P-3d", alice)

    ambiguous = await rejected(alice, "５八金", "which one")  # a button per piece
    assert sorted(ambiguous.labels) == ["５八金右", "５八金左"]
    await rejected(alice, "7i7g", "cannot move")  # illegal, with the reason
    await rejected(alice, "P*5e", "no pawn in hand")

    # 3. The bishop exchange leaves the promotion open: two buttons, then Promote.
    question = await rejected(alice, "Bx2b", "promot")
    assert sorted(without_mark(c) for c in question.custom_ids) == sorted(
        [f"pr:{table.game_id}:2:8h2b+", f"pr:{table.game_id}:2:8h2b"]
    )
    chosen = await club.fake.click(
        question, button_id(question.custom_ids, f"pr:{table.game_id}:2:8h2b+"), user=alice
    )
    assert chosen.ephemeral and "２二角成" in chosen.content
    assert chosen.custom_ids == [], "the question's buttons should be gone"
    [posted] = await club.posts(table.thread, "２二角成")
    assert posted.id > chosen.interaction.id, "the board came after the click"
    assert_public_move(posted, "２二角成", "Bx2b+", bob)
    assert (await club.game(table.game_id)).ply == 3

    # 4. USI, Japanese, Western, and USI for mate.
    reply = await club.move(bob, "4a5b", table)
    assert_public_move(reply.reply, "５二金左", "G4a-5b", alice)
    reply = await club.move(alice, "４二角", table)
    assert_public_move(reply.reply, "４二角", "B*4b", bob)
    assert "Check" in reply.content
    reply = await club.move(bob, "K-4a", table)
    assert_public_move(reply.reply, "４一玉", "K-4a", alice)
    reply = await club.move(alice, "2b3a", table)
    assert_public_move(reply.reply, "３一馬", "+Bx3a", bob)  # the mated is told
    assert "Checkmate" in reply.content and "alice wins" in reply.content

    final = await club.game(table.game_id)
    assert final.status == "finished" and final.ply == 7
    over = await rejected(bob, "5b5a", "ended", "checkmate")
    assert over.ephemeral


async def test_a_move_several_pieces_can_make_is_answered_with_a_button_each(
    club: Club,
) -> None:
    """Labelled as the player writes (Japanese for Japanese, Western for Western); the
    button plays that piece's move, once; a late press is refused."""
    table = await club.new_game()
    western = await club.move(club.alice, "G-58", table)
    assert western.ephemeral and sorted(western.labels) == ["G4i-5h", "G6i-5h"]
    japanese = await club.move(club.alice, "５八金", table)
    assert sorted(japanese.labels) == ["５八金右", "５八金左"]
    left = f"pr:{table.game_id}:0:6i5h"
    assert left in [without_mark(c) for c in japanese.custom_ids]
    chosen = await club.fake.click(japanese, button_id(japanese.custom_ids, left), user=club.alice)
    assert chosen.ephemeral and "５八金左" in chosen.content
    [posted] = await club.posts(table.thread, "５八金左")
    assert posted.mentioned_user_ids == [club.bob.user.id]
    late = await club.fake.click(
        western, button_id(western.custom_ids, f"pr:{table.game_id}:0:4i5h"), user=club.alice
    )
    assert late.ephemeral and (await club.game(table.game_id)).ply == 1


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
    # The ending comes after the click's answer, with the whole game's GIF to render.
    [ending] = await club.posts(table.thread, "resigned")
    assert [a.filename[-3:] for a in ending.attachments] == ["png", "gif"]

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
