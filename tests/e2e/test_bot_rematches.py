"""Rematches through the real bot: a Rematch button under every ending; either player's
press posts a challenge to the other with the same settings, colours swapped (a handicap
giver keeps the handicap); the other player accepts it there or with their own Rematch; a
spectator, a second press and a restart change nothing of that."""

from __future__ import annotations

from tests.fakediscord import FakeChannel, FakeMember, FakeMessage
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese

MATE = ["7g7f", "6a7b", "8h3c+", "4a4b", "3c4b", "5a6a", "G*5b"]  # sente mates


async def resign(
    club: Club, member: FakeMember, table: Table, said: str = "resigned"
) -> FakeMessage:
    """`member` resigns; the ending post (the one that says `said`)."""
    await club.resign(table, member)
    [ending] = await club.posts(table.thread, said)
    return ending


async def rematch_offer(club: Club, ending: FakeMessage, member: FakeMember) -> FakeMessage:
    """`member` presses Rematch under `ending`; the challenge it posts in #shogi."""
    before = len(club.bot_posts(club.channel, "rematch"))
    game_id = next(c for c in ending.custom_ids if c.startswith("rm:"))
    answer = await club.fake.click(ending, game_id, user=member)
    assert answer.ephemeral and "Rematch offered" in answer.content, answer.content
    posted = club.bot_posts(club.channel, "rematch")
    assert len(posted) == before + 1
    return posted[-1]


def new_thread(club: Club, known: set[int]) -> list[FakeChannel]:
    return [t for t in club.fake.threads(club.channel) if t.id not in known]


async def test_a_rematch_after_checkmate_swaps_the_colours(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game(time="5d", takebacks="never")
    players = {0: alice, 1: bob}
    await club.play(table, [(players[n % 2], move) for n, move in enumerate(MATE[:-1])])
    mate = await club.move(alice, MATE[-1], table)
    assert mate.reply is not None and "Checkmate" in mate.reply.content
    assert mate.reply.custom_ids == [f"rm:{table.game_id}"] and mate.reply.labels == ["Rematch"]
    ending = mate.reply

    spectator = await club.fake.click(ending, f"rm:{table.game_id}", user=carol)
    assert spectator.ephemeral and "not a player" in spectator.content
    offer = await rematch_offer(club, ending, bob)
    assert f"<@{alice.user.id}>, bob offers you a rematch." in offer.content
    assert "5 days per move, bob plays ☗ Sente" in offer.content and "no takebacks" in offer.content
    assert offer.mentioned_user_ids == [alice.user.id]
    again = await club.fake.click(ending, f"rm:{table.game_id}", user=bob)
    assert again.ephemeral and "already offered alice a rematch" in again.content
    assert len(club.bot_posts(club.channel, "rematch")) == 1

    second = await club.accept(offer, alice)
    game = await club.game(second.game_id)
    assert (game.sente.user_id, game.gote.user_id) == (bob.user.id, alice.user.id)
    assert game.time_control == (await club.game(table.game_id)).time_control
    assert "No takebacks" in second.start.content
    late = await club.fake.click(ending, f"rm:{table.game_id}", user=alice)
    assert late.ephemeral and "already started" in late.content


async def test_a_rematch_of_a_handicap_game_keeps_the_giver(club: Club) -> None:
    alice, bob = club.alice, club.bob
    challenge = await club.challenge(alice, bob, color="gote", handicap="two_piece")
    table = await club.accept(challenge, bob)
    await club.play(table, [(alice, "5a4b"), (bob, "7g7f")])
    ending = await resign(club, bob, table)
    assert ending.custom_ids == [f"rm:{table.game_id}"]

    offer = await rematch_offer(club, ending, bob)  # the taker asks; alice gives again
    assert "2-piece handicap, received by bob (Shitate)" in offer.content  # alice gives
    second = await club.accept(offer, alice)
    game = await club.game(second.game_id)
    assert game.handicap.id == "two_piece"
    assert (game.sente.user_id, game.gote.user_id) == (bob.user.id, alice.user.id)
    # alice, the giver, accepted and moves first; bob, who offered, hears it began
    assert f"<@{alice.user.id}>" in second.start.content  # named as the one to move
    assert second.start.mentioned_user_ids == [bob.user.id]


async def test_the_other_players_rematch_starts_it_also_after_a_restart(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    aborted = await club.fake.slash("abort", user=alice, channel=table.thread)
    assert aborted.ephemeral
    [ending] = await club.posts(table.thread, "aborted")
    offer = await rematch_offer(club, ending, alice)
    [accept] = [c for c in offer.custom_ids if c.startswith("ch:accept:")]
    await club.restart()
    known = {t.id for t in club.fake.threads(club.channel)}
    taken = await club.fake.click(ending, f"rm:{table.game_id}", user=bob)
    assert taken.ephemeral and "You accepted alice's rematch" in taken.content
    await club.fake.wait_for(lambda: bool(new_thread(club, known)), what="the rematch's thread")
    [thread] = new_thread(club, known)
    assert thread.id == offer.id  # opened on the rematch's challenge
    await club.fake.wait_for(
        lambda: any(m.attachments for m in club.fake.channel_history(thread)),
        what="the start board",
    )
    closed = club.fake.messages[offer.id]
    assert "Challenge accepted" in closed.content and closed.custom_ids == []
    record = await club.service.challenges.get(int(accept.rsplit(":", 1)[1]))
    game = await club.game(record.game_id or 0)
    assert (game.sente.user_id, game.gote.user_id) == (bob.user.id, alice.user.id)


async def test_a_rematch_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    table = await club.new_game()
    await club.play(table, [(club.alice, "7g7f"), (club.bob, "3c3d")])
    ending = await resign(club, club.bob, table, "投了")
    assert ending.labels == ["再戦"]
    rm = f"rm:{table.game_id}"
    offered = await club.fake.click(ending, rm, user=club.alice)
    twice = await club.fake.click(ending, rm, user=club.alice)
    spectator = await club.fake.click(ending, rm, user=club.carol)
    [offer] = club.bot_posts(club.channel, "再戦")
    assert "山田太郎さんから再戦の申し込みです" in offer.content
    assert "再戦を申し込みました" in offered.content and "すでに" in twice.content
    assert_japanese(ending, offered, twice, spectator, offer)
