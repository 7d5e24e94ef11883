"""Both players choose whether a game is rated, and open challenges are limited, through
the real bot: under a rated challenge (named, open or a rematch) Accept unrated starts the
same game unrated, which the challenge message and the start post say and whose ending
changes no rating; an unrated or handicap challenge has no such button; the button works
after a restart; a member's fourth open challenge is refused in their language."""

from __future__ import annotations

from bot.services import MAX_OPEN_CHALLENGES
from tests.fakediscord import FakeMember, FakeMessage, InteractionResult
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese


def buttons_of(challenge: InteractionResult | FakeMessage) -> list[str]:
    """The challenge's buttons by action (`ch:accept_unrated:12` -> `accept_unrated`)."""
    return [c.split(":")[1] for c in challenge.custom_ids]


async def ending_of(club: Club, table: Table, loser: FakeMember) -> FakeMessage:
    await club.play(table, [(club.alice, "7g7f"), (club.bob, "3c3d")])
    await club.resign(table, loser)
    [ending] = await club.posts(table.thread, "resigned")
    return ending


async def open_challenge(club: Club, author: FakeMember, **options: object) -> InteractionResult:
    return await club.fake.slash("challenge", dict(options), user=author, channel=club.channel)


async def test_accept_unrated_gives_a_game_that_changes_no_rating(club: Club) -> None:
    alice, bob = club.alice, club.bob
    challenge = await club.challenge(alice, bob, color="sente")
    assert "rated" in challenge.content and "unrated" not in challenge.content
    assert challenge.reply is not None
    assert challenge.reply.labels == ["Accept", "Accept unrated", "Decline", "Cancel"]
    table = await club.accept(challenge, bob, unrated=True)
    assert not (await club.game(table.game_id)).rated
    assert "This game is unrated." in table.start.content
    closed = club.fake.messages[challenge.reply.id]
    assert "Challenge accepted as an unrated game: have a good game!" in closed.content
    assert closed.custom_ids == []

    ending = await ending_of(club, table, alice)
    assert "Ratings:" not in ending.content and "→" not in ending.content
    board = await club.fake.slash("leaderboard", {}, user=alice, channel=club.channel)
    assert board.content == "Nobody in this server has played a rated game yet."


async def test_accept_keeps_a_rated_challenge_rated(club: Club) -> None:
    table = await club.accept(await club.challenge(club.alice, club.bob, color="sente"), club.bob)
    assert "This game is rated." in table.start.content
    ending = await ending_of(club, table, club.alice)
    assert "Ratings: ☗alice 1500? → 1338? (-162), ☖bob 1500? → 1662? (+162)" in ending.content


async def test_no_accept_unrated_under_an_unrated_or_handicap_challenge(club: Club) -> None:
    alice, bob = club.alice, club.bob
    for options in ({"rated": False}, {"handicap": "two_piece"}):
        challenge = await club.challenge(alice, bob, color="gote", **options)
        assert buttons_of(challenge) == ["accept", "decline", "cancel"]
        table = await club.accept(challenge, bob)
        assert "This game is unrated." in table.start.content
        await club.resign(table, alice)
    unrated_open = await open_challenge(club, alice, rated=False)
    assert buttons_of(unrated_open) == ["accept", "cancel"]


async def test_an_open_challenge_taken_unrated_after_a_restart(club: Club) -> None:
    alice, carol = club.alice, club.carol
    posted = await open_challenge(club, alice, color="sente")
    assert buttons_of(posted) == ["accept", "accept_unrated", "cancel"]
    await club.restart()
    table = await club.accept(posted, carol, unrated=True)
    assert not (await club.game(table.game_id)).rated
    assert posted.reply is not None
    taken = club.fake.messages[posted.reply.id]
    assert "carol took up the challenge as an unrated game: have a good game!" in taken.content


async def test_a_rated_rematch_can_be_accepted_unrated_and_then_stays_so(club: Club) -> None:
    alice, bob = club.alice, club.bob
    first = await club.new_game(alice, bob)
    ending = await ending_of(club, first, bob)
    assert "Ratings:" in ending.content
    await club.fake.click(ending, f"rm:{first.game_id}", user=alice)
    [offer] = club.bot_posts(club.channel, "rematch")
    assert buttons_of(offer) == ["accept", "accept_unrated", "decline", "cancel"]
    second = await club.accept(offer, bob, unrated=True)
    assert not (await club.game(second.game_id)).rated

    await club.play(second, [(bob, "7g7f"), (alice, "3c3d")])
    await club.resign(second, alice)
    [again] = await club.posts(second.thread, "resigned")
    assert "Ratings:" not in again.content
    await club.fake.click(again, f"rm:{second.game_id}", user=alice)
    offers = club.bot_posts(club.channel, "rematch")
    assert len(offers) == 2 and "unrated" in offers[-1].content
    assert buttons_of(offers[-1]) == ["accept", "decline", "cancel"]


async def test_a_fourth_open_challenge_is_refused(club: Club) -> None:
    alice = club.alice
    posted = [await open_challenge(club, alice) for _ in range(MAX_OPEN_CHALLENGES)]
    assert not any(p.ephemeral for p in posted)
    refused = await open_challenge(club, alice)
    assert refused.ephemeral
    assert refused.content == (
        "You already have 3 open challenges here, the most one member may have; "
        "cancel one, or wait until one is taken or expires, before posting another."
    )
    named = await club.challenge(alice, club.bob)  # a challenge to a member still goes
    assert not named.ephemeral
    cancel = next(c for c in posted[0].custom_ids if c.startswith("ch:cancel:"))
    await club.fake.click(posted[0], cancel, user=alice)
    assert not (await open_challenge(club, alice)).ephemeral


async def test_unrated_and_the_limit_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    challenge = await club.challenge(yamada, hanako, color="sente")
    assert challenge.reply is not None
    assert challenge.reply.labels == ["受ける", "非レーティングで受ける", "断る", "取り下げる"]
    table = await club.accept(challenge, hanako, unrated=True)
    assert "この対局は非レーティング対局です。" in table.start.content
    closed = club.fake.messages[challenge.reply.id]
    assert "非レーティング対局として成立しました。" in closed.content
    await club.play(table, [(yamada, "7g7f"), (hanako, "3c3d")])
    await club.resign(table, yamada)
    [ending] = await club.posts(table.thread, "投了")
    assert "レーティング" not in ending.content

    for _ in range(MAX_OPEN_CHALLENGES):
        assert not (await open_challenge(club, yamada)).ephemeral
    refused = await open_challenge(club, yamada)
    assert refused.ephemeral
    assert refused.content == (
        "このサーバーでの相手を指定しない募集は一人3件までで、すでに上限に達しています。"
        "新しく募集するには、どれかを取り下げるか、誰かが受けるか期限が切れるまでお待ちください。"
    )
    assert_japanese(challenge, table.start, closed, ending, refused)
