"""Forecasts (予約手) through the real bot: /forecast stores, lists and clears lines, always
privately; a matching move gets the reply at once, posted after the move's own board as a
conditional move; a forecast the game no longer fits (a takeback) plays nothing; bad lines
are refused with the move that fails; and a Japanese club reads it all in Japanese."""

from __future__ import annotations

from typing import Any

from tests.fakediscord import FakeMember, InteractionResult
from tests.support.checks import assert_board
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese


async def forecast(club: Club, user: FakeMember, table: Table, **options: Any) -> InteractionResult:
    result = await club.fake.slash("forecast", options, user=user, channel=table.thread)
    assert result.ephemeral, result.content
    return result


async def test_add_list_and_clear_privately(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f")])
    before = len(club.fake.channel_history(table.thread))

    added = await forecast(club, alice, table, line="3c3d, P-26 8c8d 2f2e")
    assert added.content.startswith("Forecast stored.\nYour forecasts in game")
    assert "1. ☖３四歩 (P-3d) → ☗２六歩 (P-2f), ☖８四歩 (P-8d) → ☗２五歩 (P-2e)" in (added.content)
    await forecast(club, alice, table, line="8c8d 2g2f")
    listed = await forecast(club, alice, table)
    assert "\n2. ☖８四歩 (P-8d) → ☗２六歩 (P-2f)" in listed.content
    theirs = await forecast(club, bob, table)
    assert theirs.content.startswith("You have no forecasts in game"), "lines are private"

    bad = await forecast(club, alice, table, line="3c3d 2g2f 8c8d 2g2f")
    assert bad.content.startswith("Move 4 of the line (2g2f): ")
    own_turn = await club.fake.slash(
        "forecast", {"line": "7g7f 3c3d"}, user=bob, channel=table.thread
    )
    assert own_turn.ephemeral and own_turn.content.startswith("It is your move: play it")

    cleared = await forecast(club, alice, table, clear=True)
    assert cleared.content.startswith("Cleared your forecasts in game")
    assert "(2)" in cleared.content and "You have no forecasts" in cleared.content
    assert len(club.fake.channel_history(table.thread)) == before, "nothing posted"


async def test_a_matching_move_is_answered_by_forecast_in_the_thread(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f")])
    await forecast(club, alice, table, line="3c3d 2g2f 8c8d 2f2e")

    moved = await club.move(bob, "3c3d", table)
    assert moved.content.startswith("2. ☖３四歩 (P-3d) by bob.")
    assert f"<@{alice.user.id}>" not in moved.content, "alice has already answered"
    [reply] = await club.posts(table.thread, "played by forecast")
    assert reply.content.startswith("3. ☗２六歩 (P-2f) by alice, played by forecast.")
    assert f"<@{bob.user.id}> to move" in reply.content
    assert reply.mentioned_user_ids == [bob.user.id]
    assert_board(reply.attachments)
    history = club.fake.channel_history(table.thread)
    assert history.index(reply) > max(
        i for i, m in enumerate(history) if m.content.startswith("2. ☖３四歩")
    ), "the move first, then the reply"
    game = await club.game(table.game_id)
    assert [m.usi() for m in game.game.moves] == ["7g7f", "3c3d", "2g2f"]
    left = await forecast(club, alice, table)
    assert "1. ☖８四歩 (P-8d) → ☗２五歩 (P-2e)" in left.content

    await club.restart()  # the rest of the line survives a restart
    await club.move(bob, "8c8d", table)
    replies = await club.posts(table.thread, "played by forecast")
    assert len(replies) == 2 and replies[-1].content.startswith("5. ☗２五歩 (P-2e)")


async def test_a_forecast_the_game_no_longer_fits_plays_nothing(club: Club) -> None:
    """Alice stores a reply, then takes her move back: the position the line was checked
    from is gone, so the line goes and bob's move is answered by nobody."""
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f")])
    await forecast(club, alice, table, line="3c3d 2g2f")
    await club.fake.slash("takeback", user=alice, channel=table.thread)
    [question] = await club.posts(table.thread, "asks to take back")
    accept = next(c for c in question.custom_ids if c.startswith("tb:accept:"))
    await club.fake.click(question, accept, user=bob)
    gone = await forecast(club, alice, table)
    assert gone.content.startswith("You have no forecasts in game")

    await club.play(table, [(alice, "2g2f")])
    await club.move(bob, "3c3d", table)
    assert club.bot_posts(table.thread, "played by forecast") == []
    game = await club.game(table.game_id)
    assert game.to_move is not None and game.to_move.user_id == alice.user.id


async def test_forecasts_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(yamada, "７六歩")])
    added = await forecast(club, yamada, table, line="３四歩 ２六歩")
    assert added.content.startswith("予約手を登録しました。")
    assert "1. ☖３四歩 → ☗２六歩" in added.content
    bad = await forecast(club, yamada, table, line="３四歩 ２五歩")
    assert bad.content.startswith("手順の2手目（２五歩）：")
    await club.move(hanako, "３四歩", table)
    [reply] = await club.posts(table.thread, "予約手")
    assert reply.content.startswith("3手目 ☗２六歩（山田太郎さん・予約手）")
    assert_japanese(added, bad, *club.fake.channel_history(table.thread))
