"""A game whose thread a moderator deleted: Discord answers 404 (Unknown Channel) for it
once; the bot remembers that in the database, opens a new thread in the game's channel,
says there why, and the game goes on in it, after a restart too. A finished game's last
posts go to its channel instead."""

from __future__ import annotations

from tests.fakediscord import ErrorCode, FakeChannel
from tests.support.club import Club


def _other_threads(club: Club, known: FakeChannel) -> list[FakeChannel]:
    return [t for t in club.fake.threads(club.channel) if t.id != known.id]


async def test_a_game_whose_thread_was_deleted_goes_on_in_a_new_one(club: Club) -> None:
    fake, alice, bob = club.fake, club.alice, club.bob
    table = await club.new_game()
    lost_id = table.thread.id
    await fake.delete_thread(table.thread)
    fake.expect_rejections(ErrorCode.UNKNOWN_CHANNEL)

    moved = await fake.slash(
        "move", {"move": "P-7f", "game": str(table.game_id)}, user=alice, channel=club.channel
    )
    assert moved.content.startswith("Played"), moved.content
    await fake.wait_quiet()
    assert [(r.status, r.code) for r in fake.rejections] == [(404, 10003)]
    [home] = _other_threads(club, table.thread)
    assert (await club.game(table.game_id)).thread_id == home.id
    posts = [m.content for m in fake.channel_history(home)]
    assert posts[0].startswith(f"Game #{table.game_id}'s thread was deleted"), posts
    assert any("1. ☗７六歩 (P-7f) by alice." in p for p in posts[1:]), posts
    assert not club.bot_posts(club.channel, "(P-7f) by alice."), "posted beside the new thread"

    await club.restart()
    again = await fake.slash("move", {"move": "3c3d"}, user=bob, channel=home)  # no game option
    assert again.content.startswith("2. ☖３四歩 (P-3d) by bob."), again.content  # in its thread
    await fake.wait_quiet()
    assert len(fake.rejections) == 1, "the bot asked again for a thread Discord said is gone"
    asked = [r.route for r in fake.requests if str(lost_id) in r.path and r.status == 404]
    assert asked == ["GET /channels/{channel_id}"]
    assert _other_threads(club, table.thread) == [home], "a second new thread was opened"
    assert (await club.game(table.game_id)).ply == 2


async def test_the_new_thread_speaks_the_servers_language(japanese_club: Club) -> None:
    club = japanese_club
    table = await club.new_game()
    await club.fake.delete_thread(table.thread)
    club.fake.expect_rejections(ErrorCode.UNKNOWN_CHANNEL)
    moved = await club.fake.slash(
        "move",
        {"move": "P-7f", "game": str(table.game_id)},
        user=club.alice,
        channel=club.channel,
    )
    assert moved.content, "no answer"
    await club.fake.wait_quiet()
    [home] = _other_threads(club, table.thread)
    first = club.fake.channel_history(home)[0].content
    assert first.startswith(f"対局#{table.game_id}のスレッドが削除されたため"), first


async def test_a_game_that_ends_without_its_thread_is_told_in_its_channel(club: Club) -> None:
    fake, alice = club.fake, club.alice
    table = await club.new_game()
    await club.play(table, [(alice, "P-7f"), (club.bob, "P-3d")])
    await fake.delete_thread(table.thread)
    fake.expect_rejections(ErrorCode.UNKNOWN_CHANNEL)

    ask = await fake.slash("resign", {"game": str(table.game_id)}, user=alice, channel=club.channel)
    await fake.click(ask, f"rs:{table.game_id}", user=alice)
    await fake.wait_quiet()

    assert (await club.game(table.game_id)).outcome is not None
    assert _other_threads(club, table.thread) == [], "a finished game was given a new thread"
    posts = [m.content for m in fake.channel_history(club.channel)]
    assert any("resign" in p for p in posts), posts
