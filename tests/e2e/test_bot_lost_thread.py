"""A game whose thread a moderator deleted: Discord answers 404 (Unknown Channel) for it,
the bot remembers it in the database and posts the game's moves in the channel it started
in, without asking Discord about the thread again, after a restart too."""

from __future__ import annotations

from tests.fakediscord import ErrorCode
from tests.support.club import Club


async def test_a_deleted_thread_is_asked_for_once(club: Club) -> None:
    fake, alice, bob = club.fake, club.alice, club.bob
    table = await club.new_game()
    thread_id = table.thread.id
    await fake.delete_thread(table.thread)
    fake.expect_rejections(ErrorCode.UNKNOWN_CHANNEL)

    moved = await fake.slash(
        "move", {"move": "P-7f", "game": str(table.game_id)}, user=alice, channel=club.channel
    )
    assert moved.content.startswith("Played"), moved.content
    await fake.wait_quiet()
    assert [(r.status, r.code) for r in fake.rejections] == [(404, 10003)]
    assert club.bot_posts(club.channel, "1. ☗７六歩 (P-7f) by alice.")  # where it began

    await club.restart()
    again = await fake.slash(
        "move", {"move": "3c3d", "game": str(table.game_id)}, user=bob, channel=club.channel
    )
    assert again.content.startswith("Played"), again.content
    await fake.wait_quiet()
    assert len(fake.rejections) == 1, "the bot asked again for a thread Discord said is gone"
    asked = [r.route for r in fake.requests if str(thread_id) in r.path and r.status == 404]
    assert asked == ["GET /channels/{channel_id}"]
    assert club.bot_posts(club.channel, "2. ☖３四歩 (P-3d) by bob.")
    assert (await club.game(table.game_id)).ply == 2
