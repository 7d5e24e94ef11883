"""`/next` and `/games` through the real bot: the game where the member is to move with the
nearest deadline, privately, with its board, deadline, link and a Next button that goes on
through every server's games (and keeps working after a restart); one sentence for a press
by someone else or under a game that moved; `/games` with the member's own moves first, by
deadline, each line saying whose colour it shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.fakediscord import (
    BotRunner,
    E2EGuard,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    InteractionResult,
)
from tests.support.checks import assert_board
from tests.support.club import JAPANESE, Club, Table
from tests.support.japanese import assert_japanese


async def game_in(
    club: Club, channel: FakeChannel, sente: FakeMember, gote: FakeMember, **options: Any
) -> Table:
    """A game challenged by `sente` and accepted by `gote` in `channel` (any server's)."""
    challenge = await club.fake.slash(
        "challenge", {"opponent": gote, "color": "sente", **options}, user=sente, channel=channel
    )
    assert challenge.reply is not None and not challenge.ephemeral, challenge.content
    accept = next(c for c in challenge.reply.custom_ids if c.startswith("ch:accept:"))
    before = {t.id for t in club.fake.threads(channel)}
    await club.fake.click(challenge.reply, accept, user=gote)
    await club.fake.wait_for(
        lambda: any(t.id not in before for t in club.fake.threads(channel)), what="the thread"
    )
    [thread] = [t for t in club.fake.threads(channel) if t.id not in before]
    await club.fake.wait_for(
        lambda: any(m.attachments for m in club.fake.channel_history(thread)), what="its board"
    )
    game_id = int(accept.rsplit(":", 1)[1])
    found = await club.service.challenges.get(game_id)
    assert found.game_id is not None
    return Table(found.game_id, thread, club.fake.last_message(thread))


def link(guild_id: int, table: Table) -> str:
    return f"https://discord.com/channels/{guild_id}/{table.thread.id}"


async def test_next_goes_through_every_server_by_deadline_and_survives_a_restart(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = Club(fake_discord, bot_runner, e2e_guard, tmp_path)
    other = club.fake.add_guild("Other Club", channels=("shogi",))
    alice_there = club.fake.add_member(other, "alice", same_as=club.alice)
    dave = club.fake.add_member(other, "dave")
    await club.start()
    alice, bob, carol = club.alice, club.bob, club.carol

    week = await club.new_game(alice, bob, time="7d")
    untimed = await game_in(
        club, club.fake.channel("shogi", other), alice_there, dave, time="unlimited"
    )
    day = await club.new_game(alice, carol, time="1d")
    waiting = await club.new_game(alice, bob, time="1d")
    await club.play(waiting, [(alice, "7g7f")])  # bob's move there

    first = await club.fake.slash("next", user=alice, channel=club.channel)
    assert first.ephemeral, first.content
    assert_board(first.files)
    lines = first.content.splitlines()
    assert lines[0] == "Game 1 of 3 where it is your move, nearest deadline first:"
    assert lines[1].startswith(f"Game #{day.game_id} (☗alice vs ☖carol), move 0; deadline <t:")
    assert lines[-1] == f"The game: {link(club.guild.id, day)}"
    assert first.custom_ids == [f"nx:{alice.user.id}:{day.game_id}:0"]
    assert first.reply is not None and first.reply.labels == ["Next"]
    assert first.reply.mentioned_user_ids == []

    second = await club.fake.click(first, first.custom_ids[0], user=alice)
    assert second.ephemeral and second.content.startswith("Game 2 of 3")
    assert f"Game #{week.game_id} (☗alice vs ☖bob)" in second.content
    assert second.content.endswith(link(club.guild.id, week))
    assert_board(second.files)
    third = await club.fake.click(second, f"nx:{alice.user.id}:{week.game_id}:0", user=alice)
    assert f"Game #{untimed.game_id} (☗alice vs ☖dave)" in third.content
    assert "no deadline" in third.content and "<t:" not in third.content
    assert third.content.endswith(link(other.id, untimed))  # another server's game
    again = await club.fake.click(third, third.custom_ids[0], user=alice)
    assert again.content.startswith("Game 1 of 3") and f"Game #{day.game_id} " in again.content

    # Someone else pressing alice's button is told it is hers, and sees none of her games.
    stranger = await forged(club, again, carol)
    assert stranger.ephemeral and stranger.files == []
    assert stranger.content == (
        "These buttons are for the member who ran `/next`; run it yourself for your own games."
    )

    # Each press edits the same private message. Its button carries what it needs: it
    # still works after a restart.
    await club.restart()
    after = await click(club, again, alice)
    assert after.content.startswith("Game 2 of 3") and f"Game #{week.game_id} " in after.content

    # Under a game that moved since, Next says so instead of guessing where the list went.
    await club.play(week, [(alice, "7g7f")])
    moved = await click(club, after, alice)
    assert moved.ephemeral and moved.files == []
    assert moved.content == (
        f"Game #{week.game_id} has moved since; run `/next` again to see where it is your move."
    )

    two = await club.fake.slash("next", user=bob, channel=club.channel)
    assert two.content.startswith("Game 1 of 2 where it is your move")
    assert two.custom_ids == [f"nx:{bob.user.id}:{waiting.game_id}:1"]
    assert "Last move: ☗７六歩 (P-7f)" in two.content
    await club.play(waiting, [(bob, "3c3d")])
    one = await club.fake.slash("next", user=bob, channel=club.channel)
    assert one.content.startswith("Game 1 of 1") and one.custom_ids == []  # no other game
    assert f"Game #{week.game_id} " in one.content

    nothing = await club.fake.slash("next", user=dave, channel=club.fake.channel("shogi", other))
    assert nothing.ephemeral and nothing.files == [] and nothing.custom_ids == []
    assert nothing.content == "No game is waiting for your move right now. Enjoy the calm!"


async def test_next_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    later = await club.new_game(yamada, hanako, time="3d")
    sooner = await club.new_game(yamada, club.carol, time="1d")
    await club.play(later, [(yamada, "7g7f"), (hanako, "3c3d")])

    shown = await club.fake.slash("next", user=yamada, channel=club.channel)
    assert shown.ephemeral and shown.files
    lines = shown.content.splitlines()
    assert lines[0] == "あなたの手番の対局2局のうち1局目（期限の近い順）："
    assert lines[1].startswith(f"対局#{sooner.game_id}（☗山田太郎 対 ☖観戦者）、0手目。期限は<t:")
    assert lines[-1].startswith("対局のスレッド：https://discord.com/channels/")
    assert shown.reply is not None and shown.reply.labels == ["次へ"]
    assert_japanese(shown)

    following = await click(club, shown, yamada)
    assert following.content.startswith("あなたの手番の対局2局のうち2局目")
    assert f"対局#{later.game_id}（☗山田太郎 対 ☖はなこ🌸）、2手目" in following.content
    assert "最終手：☖３四歩" in following.content and "P-3d" not in following.content

    stranger = await forged(club, following, hanako)
    assert stranger.content.startswith("このボタンは `/次の対局` を使ったメンバー専用です。")
    await club.play(later, [(yamada, "2g2f")])
    moved = await click(club, following, yamada)
    assert moved.content == (
        f"対局#{later.game_id}はその後に局面が進みました。もう一度 `/次の対局` を使ってください。"
    )
    none = await club.fake.slash("next", user=club.carol, channel=club.channel)
    assert none.content == "いまあなたの手番の対局はありません。ひと息つけますね。"


async def click(club: Club, result: InteractionResult, user: FakeMember) -> InteractionResult:
    [button] = result.custom_ids
    return await club.fake.click(result, button, user=user)


async def forged(club: Club, result: InteractionResult, user: FakeMember) -> InteractionResult:
    """`user` presses the button of someone else's private answer, which Discord shows
    nobody else: only a modified client can send that."""
    [button] = result.custom_ids
    assert result.reply is not None
    channel = club.fake.channels[result.reply.channel_id]
    pressed = await club.fake.forge_click(result.reply, button, user=user, channel=channel)
    return await pressed.wait_final()


async def test_games_lists_your_moves_first_by_deadline_saying_whose_colour(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    untimed = await club.new_game(alice, bob, time="unlimited")
    week = await club.new_game(bob, alice, time="7d")
    await club.play(week, [(bob, "7g7f")])  # alice (gote) to move, seven days
    day = await club.new_game(alice, carol, time="1d")
    theirs = await club.new_game(carol, alice, time="1h")  # carol's move first

    mine = await club.fake.slash("games", user=alice, channel=club.channel)
    lines = mine.content.splitlines()[1:]
    order = [untimed, week, day, theirs]
    assert [next(t.game_id for t in order if f"#{t.game_id} " in line) for line in lines] == [
        day.game_id,
        week.game_id,
        untimed.game_id,
        theirs.game_id,
    ]
    assert "You (☗) vs carol, move 0, **your turn**, <t:" in lines[0]
    assert "You (☖) vs bob, move 1, **your turn**, <t:" in lines[1]
    assert "You (☗) vs bob, move 0, **your turn**" in lines[2] and "<t:" not in lines[2]
    assert "You (☖) vs carol, move 0, waiting, <t:" in lines[3]

    hers = await club.fake.slash("games", {"member": alice}, user=bob, channel=club.channel)
    assert "playing ☗ against carol, move 0, **to move**" in hers.content
    assert "You (" not in hers.content

    await club.play(day, [(alice, "7g7f"), (carol, "3c3d")])
    await club.resign(day, carol)
    await club.fake.slash("abort", user=carol, channel=theirs.thread)
    finished = await club.fake.slash(
        "games", {"status": "finished"}, user=alice, channel=club.channel
    )
    assert "You (☗) vs carol, **won** after move 2" in finished.content, finished.content
    assert "You (☖) vs carol, **aborted** after move 0" in finished.content
    carols = await club.fake.slash(
        "games", {"member": carol, "status": "finished"}, user=bob, channel=club.channel
    )
    assert "played ☖ against alice, **lost** after move 2" in carols.content, carols.content
    assert "You (" not in carols.content


async def test_games_in_japanese_says_whose_colour(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = Club(fake_discord, bot_runner, e2e_guard, tmp_path, **JAPANESE)
    await club.start()
    table = await club.new_game(club.alice, club.bob, time="1d")
    await club.play(table, [(club.alice, "7g7f")])
    mine = await club.fake.slash("games", user=club.bob, channel=club.channel)
    mine_line = "あなた（☖）対 山田太郎さん、1手目、**あなたの手番**"
    assert f"#{table.game_id} <#{table.thread.id}>：{mine_line}" in mine.content
    theirs = await club.fake.slash(
        "games", {"member": club.bob}, user=club.alice, channel=club.channel
    )
    assert "：☖を持って山田太郎さんと対局中、1手目、**手番**" in theirs.content
