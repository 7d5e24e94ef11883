"""Open challenges through the real bot: `/challenge` without an opponent posts a challenge
anyone here may accept; its author and bots are refused privately, in their language; the
member who takes it plays, and the message says who did."""

from __future__ import annotations

from tests.fakediscord import FakeMember, InteractionResult
from tests.support.club import Club
from tests.support.japanese import assert_japanese


async def open_challenge(club: Club, author: FakeMember, **options: object) -> InteractionResult:
    posted = await club.fake.slash("challenge", dict(options), user=author, channel=club.channel)
    assert not posted.ephemeral, posted.content
    return posted


def challenge_id(posted: InteractionResult) -> int:
    return int(next(c for c in posted.custom_ids if c.startswith("ch:accept:")).rsplit(":", 1)[1])


async def test_an_open_challenge_is_taken_by_a_third_member(club: Club) -> None:
    alice, carol = club.alice, club.carol
    robot = club.fake.add_member(club.guild, "robo", bot=True)
    posted = await open_challenge(club, alice, color="sente", time="2d")
    assert "alice challenges anyone here to shogi" in posted.content
    assert "2 days per move, alice plays ☗ Sente" in posted.content
    assert posted.reply is not None and posted.reply.mentioned_user_ids == []  # nobody pinged
    number = challenge_id(posted)
    assert posted.custom_ids == [  # no Decline
        f"ch:accept:{number}",
        f"ch:accept_unrated:{number}",
        f"ch:cancel:{number}",
    ]

    own = await club.fake.click(posted, f"ch:accept:{number}", user=alice)
    assert own.ephemeral and "your own open challenge" in own.content
    bot = await club.fake.click(posted, f"ch:accept:{number}", user=robot)
    assert bot.ephemeral and "Bots cannot play shogi" in bot.content
    assert club.fake.threads(club.channel) == []
    assert (await club.service.challenges.get(number)).status == "open"

    table = await club.accept(posted, carol)
    game = await club.game(table.game_id)
    assert (game.sente.user_id, game.gote.user_id) == (alice.user.id, carol.user.id)
    assert table.start.mentioned_user_ids == [alice.user.id]
    message = club.fake.messages[posted.reply.id]
    assert "carol took up the challenge: have a good game!" in message.content
    assert message.custom_ids == []
    await club.play(table, [(alice, "7g7f"), (carol, "3c3d")])


async def test_only_its_author_cancels_an_open_challenge(club: Club) -> None:
    posted = await open_challenge(club, club.alice)
    number = challenge_id(posted)
    refused = await club.fake.click(posted, f"ch:cancel:{number}", user=club.bob)
    assert refused.ephemeral and "Only alice can cancel" in refused.content
    done = await club.fake.click(posted, f"ch:cancel:{number}", user=club.alice)
    assert "alice cancelled the challenge." in done.content and done.custom_ids == []


async def test_an_open_challenge_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    robot = club.fake.add_member(club.guild, "ロボ", bot=True)
    robot.user.locale = "ja"
    posted = await open_challenge(club, club.alice)
    assert "山田太郎さんが対局相手を募集しています" in posted.content
    number = challenge_id(posted)
    own = await club.fake.click(posted, f"ch:accept:{number}", user=club.alice)
    bot = await club.fake.click(posted, f"ch:accept:{number}", user=robot)
    assert own.ephemeral and bot.ephemeral
    assert "ボット" in bot.content
    table = await club.accept(posted, club.carol)
    assert posted.reply is not None
    taken = club.fake.messages[posted.reply.id]
    assert "観戦者さんが受けました" in taken.content
    assert_japanese(posted, own, bot, taken, table.start)
