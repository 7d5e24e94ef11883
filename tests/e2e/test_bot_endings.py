"""How games start and end besides checkmate: handicap, resignation, abort, sennichite, impasse."""

from __future__ import annotations

import discord

from bot.cogs.club.challenges import challenge_buttons
from bot.services import PlayerRef
from bot.ui import text
from bot.ui.replies import pings
from rules.notation import read_record
from tests.fakediscord import FakeMember, FakeMessage
from tests.support.checks import assert_board, record_text
from tests.support.club import Club, Table


async def test_handicap_game_gote_gives_the_handicap_and_moves_first(club: Club) -> None:
    alice, bob = club.alice, club.bob
    challenge = await club.challenge(alice, bob, color="gote", handicap="two_piece", time="7d+1d")
    assert "2-piece handicap, given by alice (Uwate)" in challenge.content
    table = await club.accept(challenge, bob)
    game = await club.game(table.game_id)
    assert game.handicap.id == "two_piece"
    assert game.gote.user_id == alice.user.id
    assert game.game.position.sfen().startswith("lnsgkgsnl/9/ppppppppp/")
    assert "alice (Uwate) gives it and moves first" in table.start.content
    assert table.start.mentioned_user_ids == [alice.user.id]  # the handicap giver, gote

    early = await club.move(bob, "7g7f", table)
    assert early.ephemeral and "alice's move" in early.content
    first = await club.move(alice, "６二銀", table)
    assert not first.ephemeral and first.content.startswith("1. ☖６二銀")
    assert first.reply is not None and first.reply.mentioned_user_ids == [bob.user.id]
    assert_board(first.files)
    reply = await club.move(bob, "P-7f", table)
    assert reply.content.startswith("2. ☗７六歩")

    export = await club.fake.slash("export", {"format": "kif"}, user=bob, channel=table.thread)
    [file] = export.files
    kif = record_text(file)
    assert "手合割：二枚落ち" in kif
    record = read_record(file.data, "kif")
    assert [m.usi() for m in record.game.moves] == ["7a6b", "7g7f"]


async def test_resignation_asks_to_confirm_and_is_allowed_on_the_opponents_turn(
    club: Club,
) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d"), (alice, "2g2f")])

    spectator = await club.fake.slash("resign", user=carol, channel=table.thread)
    assert spectator.ephemeral and "not a player" in spectator.content
    assert spectator.custom_ids == []

    ask = await club.fake.slash("resign", user=alice, channel=table.thread)  # bob's turn
    assert ask.ephemeral and "bob" in ask.content
    assert ask.custom_ids == [f"rs:{table.game_id}"]
    assert (await club.game(table.game_id)).is_active, "asking must not resign yet"
    assert club.bot_posts(table.thread, "resigned") == []

    done = await club.fake.click(ask, f"rs:{table.game_id}", user=alice)
    assert done.ephemeral and done.content == "You resigned."
    [ending] = await club.posts(table.thread, "resigned")
    assert "☗alice resigned after move 3: ☖bob wins." in ending.content
    assert "/export" in ending.content
    assert_board(ending.attachments)
    game = await club.game(table.game_id)
    assert game.outcome is not None and game.outcome.winner is not None
    assert game.outcome.termination.value == "resignation"
    assert game.player(game.outcome.winner).user_id == bob.user.id

    late = await club.move(bob, "8c8d", table)
    assert late.ephemeral and "resignation" in late.content


async def test_abort_only_before_both_players_moved(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f")])
    stranger = await club.fake.slash("abort", user=carol, channel=table.thread)
    assert stranger.ephemeral and "not a player" in stranger.content
    aborted = await club.fake.slash("abort", user=bob, channel=table.thread)
    assert aborted.ephemeral and "aborted" in aborted.content
    [note] = await club.posts(table.thread, "aborted")
    assert "no result" in note.content
    game = await club.game(table.game_id)
    assert game.outcome is not None and game.outcome.winner is None
    assert game.outcome.termination.value == "abort"

    second = await club.new_game()
    await club.play(second, [(alice, "7g7f"), (bob, "3c3d")])
    refused = await club.fake.slash("abort", user=alice, channel=second.thread)
    assert refused.ephemeral and "before both players have moved" in refused.content
    assert (await club.game(second.game_id)).is_active


async def test_sennichite_is_a_draw_on_the_fourth_repetition(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    shuffle = [(alice, "5i5h"), (bob, "5a5b"), (alice, "5h5i"), (bob, "5b5a")]
    await club.play(table, shuffle * 2 + shuffle[:3])
    assert (await club.game(table.game_id)).is_active  # the start position has been seen 3 times

    last = await club.move(bob, "5b5a", table)
    assert not last.ephemeral
    assert "Sennichite" in last.content and "Draw" in last.content
    # bob made the repetition: alice is the one told of the draw
    assert last.reply is not None and last.reply.mentioned_user_ids == [alice.user.id]
    game = await club.game(table.game_id)
    assert game.ply == 12 and game.outcome is not None
    assert game.outcome.termination.value == "sennichite" and game.outcome.winner is None


# --- impasse -------------------------------------------------------------------------------------

#: Sente's king has entered with both rooks, both bishops and seven pawns (11 pieces in camp)
#: and a pawn in hand: 28 points.  Gote's king stands in sente's camp, 17 points in hand.
ENTERED = "RB5BR/4K4/1PPPPPPP1/9/9/9/9/4k4/9 b P2g2s2n2l9p 1"


async def set_up_game(club: Club, sfen: str, rule: str) -> Table:
    """A challenge from a set-up position (the service's ``start_sfen``), posted by the bot as
    /challenge would, then accepted with its button."""
    bot = club.bot
    assert bot is not None
    service = bot.service
    alice, bob = club.alice, club.bob
    challenge = await service.challenges.offer(
        guild_id=club.guild.id,
        channel_id=club.channel.id,
        challenger=PlayerRef(alice.user.id, alice.user.username),
        opponent=PlayerRef(bob.user.id, bob.user.username),
        color="sente",
        impasse_rule=rule,
        start_sfen=sfen,
    )
    channel = bot.get_channel(club.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send(
        text.challenge_text("en", challenge),
        view=challenge_buttons(challenge, "en"),
        allowed_mentions=pings(challenge.opponent),
    )
    await service.challenges.set_message(challenge.id, message.id)
    return await club.accept(club.fake.messages[message.id], bob)


async def jishogi(club: Club, user: FakeMember, table: Table) -> FakeMessage:
    """/jishogi posted for everyone (a spectator asks for it: theirs is private by default)."""
    shown = await club.fake.slash("jishogi", {"public": True}, user=user, channel=table.thread)
    assert shown.reply is not None and not shown.ephemeral, shown.content
    return shown.reply


async def test_impasse_declaration_under_the_27_point_rule(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await set_up_game(club, ENTERED, "27")
    report = await jishogi(club, bob, table)
    assert "27-point declaration" in report.content
    assert "11/10 pieces in camp" in report.content and "28/28" in report.content
    assert "alice can declare now and would win" in report.content
    assert report.custom_ids == [f"js:declare:{table.game_id}"]
    assert report.mentioned_user_ids == []

    # Not bob's to declare (it is alice's turn), and the game goes on.
    refused = await club.fake.click(report, f"js:declare:{table.game_id}", user=bob)
    assert refused.ephemeral and "It is alice's move" in refused.content

    # Alice takes a rook out of the camp: the old button now refuses, with the reason.
    await club.play(table, [(alice, "9a9d"), (bob, "5h5i")])
    short = await club.fake.click(report, f"js:declare:{table.game_id}", user=alice)
    assert short.ephemeral and "28 points" in short.content and "23" in short.content
    assert (await club.game(table.game_id)).is_active, "a failed declaration is not a loss"
    now = await jishogi(club, alice, table)
    assert "cannot declare yet" in now.content and now.custom_ids == []

    await club.play(table, [(alice, "9d9a"), (bob, "5i5h")])
    again = await jishogi(club, alice, table)
    declared = await club.fake.click(again, f"js:declare:{table.game_id}", user=alice)
    assert declared.ephemeral
    [ending] = await club.posts(table.thread, "declared an impasse")
    assert "☗alice declared an impasse win" in ending.content
    game = await club.game(table.game_id)
    assert game.outcome is not None and game.outcome.termination.value == "impasse27"


async def test_impasse_count_under_the_24_point_rule(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await set_up_game(club, ENTERED, "24")
    report = await jishogi(club, carol, table)
    assert "24-point count" in report.content
    assert "28/24" in report.content and "17/24" in report.content
    assert "either player may propose" in report.content
    assert report.custom_ids == [f"js:propose:{table.game_id}"]

    stranger = await club.fake.click(report, f"js:propose:{table.game_id}", user=carol)
    assert stranger.ephemeral and "not a player" in stranger.content
    proposed = await club.fake.click(report, f"js:propose:{table.game_id}", user=alice)
    assert proposed.ephemeral
    [offer] = await club.posts(table.thread, "proposes")
    assert offer.mentioned_user_ids == [bob.user.id]
    assert offer.custom_ids == [f"js:accept:{table.game_id}"]
    own = await club.fake.click(offer, f"js:accept:{table.game_id}", user=alice)
    assert own.ephemeral and (await club.game(table.game_id)).is_active

    accepted = await club.fake.click(offer, f"js:accept:{table.game_id}", user=bob)
    assert accepted.ephemeral
    [ending] = await club.posts(table.thread, "Impasse count after move")
    assert "☗alice wins" in ending.content
    await club.fake.wait_for(lambda: offer.custom_ids == [], what="Accept taken away")
    assert "Withdrawn" not in offer.content  # accepted, and the ending says so
    game = await club.game(table.game_id)
    assert game.outcome is not None and game.outcome.termination.value == "impasse24"
    assert game.outcome.winner is not None
    assert game.player(game.outcome.winner).user_id == alice.user.id


async def test_a_count_proposal_a_move_answers_loses_its_button(club: Club) -> None:
    alice = club.alice
    table = await set_up_game(club, ENTERED, "24")
    report = await jishogi(club, alice, table)
    await club.fake.click(report, f"js:propose:{table.game_id}", user=alice)
    [offer] = await club.posts(table.thread, "proposes")
    assert offer.custom_ids == [f"js:accept:{table.game_id}"]
    await club.play(table, [(alice, "9a9d")])  # alice plays on: the proposal lapses
    await club.fake.wait_for(lambda: offer.custom_ids == [], what="Accept taken away")
    assert offer.content.endswith("\nWithdrawn: a move was played before this was answered.")
    assert (await club.game(table.game_id)).pending_count_proposal is None
