"""After the end, through the real bot: the thread carries the game's number from the start
and, once the ending is posted, its result, and is archived (a post reopens it); the
finished game is found with `/games status:finished` and its `game` suggestions, exported
from outside its thread, and replayed privately move by move with the buttons."""

from __future__ import annotations

import io

import discord
from PIL import Image

from bot.services.play.store import ENDING_LEASE
from bot.ui.threads import post_to_game
from tests.fakediscord import MODIFY_CHANNEL, FakeAttachment, FakeMember, InteractionResult, Perm
from tests.support.checks import assert_board
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese, english_in

FOOLS_MATE = ["7g7f", "6a7b", "8h3c+", "4a4b", "3c4b", "5a6a", "G*5b"]  # sente mates


async def mate(club: Club, table: Table) -> None:
    """Alice (sente) mates Bob in seven moves, and the ending is posted."""
    players = [club.alice, club.bob]
    await club.play(table, [(players[i % 2], move) for i, move in enumerate(FOOLS_MATE)])
    await club.posts(table.thread, "☗alice wins" if club.server_locale == "en-US" else "勝ち")


async def archived(club: Club, table: Table) -> None:
    await club.fake.wait_for(lambda: table.thread.archived, what="the thread archived")


def pixels(attachment: FakeAttachment) -> bytes:
    return Image.open(io.BytesIO(attachment.data)).convert("RGB").tobytes()


async def test_the_thread_is_named_with_the_result_and_archived_and_a_post_reopens_it(
    club: Club,
) -> None:
    for role in club.guild.roles.values():  # as the invite link makes the bot: it only
        role.permissions &= ~Perm.MANAGE_THREADS  # owns the threads it opens
    table = await club.new_game()
    assert table.thread.name == f"#{table.game_id} ☗alice vs ☖bob"
    assert table.start.content.startswith(f"**Game #{table.game_id}**")
    await mate(club, table)
    await archived(club, table)
    assert table.thread.name == f"#{table.game_id} ☗alice vs ☖bob · ☗ wins"
    assert not table.thread.locked
    [ending] = club.bot_posts(table.thread, "Checkmate")
    await club.fake.say(table.thread, club.bob, "Thank you for the game!")
    assert not table.thread.archived  # a member's post reopens it, as on Discord

    # A later post by the bot reaches an archived thread too, and reopens it.
    bot = club.bot
    assert bot is not None
    thread = await bot.fetch_channel(table.thread.id)
    assert isinstance(thread, discord.Thread)
    await thread.edit(archived=True)
    await archived(club, table)
    game = await club.game(table.game_id)
    await post_to_game(bot, game, lambda lang: "A late word.")
    assert not table.thread.archived and club.bot_posts(table.thread, "A late word.")
    assert club.bot_posts(table.thread, "Checkmate") == [ending]


async def test_a_refused_rename_leaves_the_ending_posted_once(club: Club) -> None:
    table = await club.new_game()
    club.fake.inject_fault(MODIFY_CHANNEL, status=403)
    await mate(club, table)
    await club.fake.wait_quiet()
    assert not table.thread.archived and table.thread.name == f"#{table.game_id} ☗alice vs ☖bob"
    assert len(club.bot_posts(table.thread, "Checkmate")) == 1
    async with club.service.store.db.query() as q:
        # What the deadline task asks: no process, however late, would post it again.
        later = club.clock.now + 100 * ENDING_LEASE
        assert await q.ending_claims.unposted(later, "another process") == []
    await club.restart()
    await club.fake.wait_quiet()
    assert len(club.bot_posts(table.thread, "Checkmate")) == 1


async def test_a_restart_posts_a_left_over_ending_then_renames_and_archives(club: Club) -> None:
    table = await club.new_game()
    await club.play(table, [(club.alice, "7g7f"), (club.bob, "3c3d")])
    bot = club.bot
    assert bot is not None
    # Stored behind the bot's back: as if it stopped before posting the ending.
    await bot.service.endings.resign(table.game_id, club.bob.user.id)
    assert club.bot_posts(table.thread, "resigned") == []
    await club.restart()
    # The stopped bot held the ending's post for a while (it might have been posting it);
    # once that lease has run out, the new one posts it.
    await club.fake.wait_quiet(0.2)
    assert club.bot_posts(table.thread, "resigned") == []
    club.clock.advance(ENDING_LEASE)
    club.wake_deadlines()
    await club.posts(table.thread, "resigned")
    await archived(club, table)
    assert table.thread.name == f"#{table.game_id} ☗alice vs ☖bob · ☗ wins"


async def test_a_finished_game_is_found_exported_and_replayed(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game()
    await mate(club, table)
    game_id = str(table.game_id)

    nowhere = await club.fake.slash("export", user=alice, channel=club.channel)
    assert nowhere.ephemeral and "/games status:finished" in nowhere.content
    assert (
        "no active games"
        in (await club.fake.slash("games", user=alice, channel=club.channel)).content
    )

    found = await club.fake.slash("games", {"status": "finished"}, user=alice, channel=club.channel)
    [heading, line] = found.content.splitlines()
    assert found.ephemeral and "Finished games of alice" in heading
    assert f"#{game_id} <#{table.thread.id}>" in line and "bob" in line
    assert "**won** after move 7" in line and ":d>" in line
    bobs = await club.fake.slash(
        "games", {"status": "all", "member": bob}, user=carol, channel=club.channel
    )
    assert "**lost** after move 7" in bobs.content

    for command, offered in (("export", True), ("replay", True), ("note", True), ("move", False)):
        options = (
            {"move": "7g7f"} if command == "move" else {"text": "x"} if command == "note" else {}
        )
        choices = await club.fake.autocomplete(
            command, {**options, "game": ""}, focused="game", user=alice, channel=club.channel
        )
        assert ([c.value for c in choices] == [game_id]) is offered, command
        if offered:
            assert "won after move 7" in choices[0].name

    exported = await club.fake.slash("export", {"game": game_id}, user=alice, channel=club.channel)
    [record] = exported.files
    assert "まで7手で先手の勝ち" in record.data.decode("cp932")  # a .kif: Shift_JIS
    in_thread = await club.fake.slash("export", user=carol, channel=table.thread)
    assert in_thread.ephemeral and len(in_thread.files) == 1  # the thread says which game

    posted = len(club.fake.channel_history(table.thread))
    replay = await club.fake.slash("replay", {"game": game_id}, user=carol, channel=club.channel)
    assert replay.ephemeral and "start position" in replay.content
    assert_board(replay.files)
    start = pixels(replay.files[-1])
    assert replay.custom_ids == [
        f"rp:first:{game_id}:0",
        f"rp:back10:{game_id}:0",
        f"rp:back:{game_id}:0",
        f"rp:next:{game_id}:1",
        f"rp:next10:{game_id}:7",
        f"rp:last:{game_id}:7",
    ]
    reply = replay.reply
    assert reply is not None
    assert [bool(reply.component(c).get("disabled")) for c in replay.custom_ids] == [  # type: ignore[union-attr]
        True, True, True, False, False, False,
    ]  # fmt: skip

    step = await club.fake.click(replay, f"rp:next:{game_id}:1", user=carol)
    assert step.ephemeral and "move 1 of 7" in step.content
    assert "`▶  1` ☗７六歩 (P-7f)" in step.content and "☖７二金" in step.content
    first_move = pixels(step.files[-1])
    assert first_move != start
    end = await click_through(club, step, [f"rp:next10:{game_id}:7"], carol)
    assert "move 7 of 7" in end.content and "Checkmate after move 7" in end.content
    back = await click_through(club, end, [f"rp:back:{game_id}:6", f"rp:first:{game_id}:0"], carol)
    assert "start position" in back.content and pixels(back.files[-1]) == start
    assert len(club.fake.channel_history(table.thread)) == posted  # nothing public
    await club.restart()  # the buttons carry the game and the move: they still work
    after = await club.fake.click(back, f"rp:next:{game_id}:1", user=carol)
    assert "move 1 of 7" in after.content and pixels(after.files[-1]) == first_move

    elsewhere = club.fake.add_guild("Other Club", channels=("shogi",))
    stranger = club.fake.add_member(elsewhere, "dave")
    refused = await club.fake.slash(
        "replay", {"game": game_id}, user=stranger, channel=club.fake.channel("shogi", elsewhere)
    )
    assert refused.ephemeral and f"no game #{game_id}" in refused.content


async def click_through(
    club: Club, result: InteractionResult, custom_ids: list[str], user: FakeMember
) -> InteractionResult:
    for custom_id in custom_ids:
        result = await club.fake.click(result, custom_id, user=user)
        assert result.ephemeral, result.content
    return result


async def test_replay_and_the_renamed_thread_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    table = await club.new_game()
    assert table.start.content.startswith(f"**対局#{table.game_id}**")
    await mate(club, table)
    await archived(club, table)
    assert table.thread.name == f"#{table.game_id} ☗山田太郎 対 ☖はなこ🌸 · ☗の勝ち"
    game_id = str(table.game_id)
    replay = await club.fake.slash(
        "replay", {"game": game_id, "from_move": 3}, user=club.carol, channel=club.channel
    )
    assert "3手目（7手まで）" in replay.content and "▶" in replay.content
    assert "P-7f" not in replay.content  # Japanese notation only
    step = await club.fake.click(replay, f"rp:last:{game_id}:7", user=club.carol)
    assert "まで7手で☗山田太郎の勝ち" in step.content
    found = await club.fake.slash(
        "games", {"status": "finished"}, user=club.bob, channel=club.channel
    )
    assert "7手で**負け**" in found.content
    nowhere = await club.fake.slash("export", user=club.bob, channel=club.channel)
    assert "/対局一覧 状態:終局済み" in nowhere.content
    choices = await club.fake.autocomplete(
        "export", {"game": ""}, focused="game", user=club.bob, channel=club.channel
    )
    assert choices[0].name == f"#{game_id} 対 山田太郎・7手で負け"
    assert_japanese(table.start, replay, step, found, nowhere)
    assert english_in(table.thread.name) == []
