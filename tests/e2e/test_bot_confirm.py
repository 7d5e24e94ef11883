"""Move confirmation through the real bot: `/preferences`, then `/move` shows the board after
the move privately with Confirm / Cancel, and only Confirm stores it; a stale confirmation,
one pressed after a restart, a promotion answered before confirming, and two presses at once.
"""

from __future__ import annotations

import asyncio

from tests.fakediscord import FakeMember, InteractionResult
from tests.support.checks import assert_board, assert_replays, button_id, without_mark
from tests.support.club import Club, Table


async def stored(club: Club, table: Table) -> tuple[int, list[str]]:
    """The game's ply and moves as the database has them."""
    game = await club.game(table.game_id)
    return game.ply, [move.usi() for move in game.game.moves]


async def ask(club: Club, user: FakeMember, text: str, table: Table) -> InteractionResult:
    """/move by a player who confirms: the private board and its two buttons, nothing stored."""
    before = await stored(club, table)
    posted = len(club.fake.channel_history(table.thread))
    question = await club.move(user, text, table)
    assert question.ephemeral, question.content
    assert len(question.labels) == 2 and question.custom_ids[0].startswith("cf:play:")
    assert_board(question.files)
    assert await stored(club, table) == before, "a move awaiting confirmation was stored"
    assert len(club.fake.channel_history(table.thread)) == posted, "the thread heard of it"
    return question


async def test_preferences_are_shown_and_changed_privately(club: Club) -> None:
    shown = await club.prefer(club.alice)
    assert "Your preferences:" in shown.content
    assert "before it is played: off" in shown.content and "Direct messages: none" in shown.content
    assert "/preferences" in shown.content
    changed = await club.prefer(club.alice, confirm="on")
    assert "saved" in changed.content and "before it is played: on" in changed.content
    assert "Direct messages: none" in changed.content  # left as it was
    both = await club.prefer(club.alice, notifications="each")
    assert "before it is played: on" in both.content
    assert "Direct messages: at each turn" in both.content
    assert "privacy settings" in both.content
    assert club.fake.channel_history(club.channel) == []  # nothing public
    await club.restart()
    again = await club.prefer(club.alice)
    assert "before it is played: on" in again.content
    assert "Direct messages: at each turn" in again.content


async def test_only_confirm_stores_the_move(club: Club) -> None:
    await club.prefer(club.alice, confirm="on")
    table = await club.new_game()
    game_id = table.game_id

    question = await ask(club, club.alice, "P-7f", table)
    assert "Play ７六歩 (P-7f)?" in question.content and "until you confirm" in question.content
    assert question.labels == ["Confirm move", "Cancel move"]
    assert [without_mark(c) for c in question.custom_ids] == [
        f"cf:play:{game_id}:0:7g7f",
        f"cf:cancel:{game_id}:0:7g7f",
    ]
    alt = question.files[-1].description or ""
    assert "Last move: ☗７六歩 (P-7f)" in alt and "Move 1 · Gote to move" in alt, alt

    cancelled = await club.fake.click(
        question, button_id(question.custom_ids, f"cf:cancel:{game_id}:0:7g7f"), user=club.alice
    )
    assert cancelled.content == "Cancelled: the move was not played."
    assert cancelled.custom_ids == [] and cancelled.files == []
    assert await stored(club, table) == (0, [])

    question = await ask(club, club.alice, "２六歩", table)
    confirmed = await club.fake.click(
        question, button_id(question.custom_ids, f"cf:play:{game_id}:0:2g2f"), user=club.alice
    )
    assert confirmed.ephemeral and confirmed.content == "Played ２六歩 (P-2f)."
    assert confirmed.custom_ids == [] and confirmed.files == [], "the question should be gone"
    assert await stored(club, table) == (1, ["2g2f"])
    [posted] = await club.posts(table.thread, "２六歩")
    assert posted.mentioned_user_ids == [club.bob.user.id]
    assert_board(posted.attachments)

    # Bob did not ask for confirmation: his move is played at once.
    answered = await club.move(club.bob, "3c3d", table)
    assert not answered.ephemeral and "３四歩" in answered.content
    assert await stored(club, table) == (2, ["2g2f", "3c3d"])

    # Turned off, alice plays at once again.
    await club.prefer(club.alice, confirm="off")
    direct = await club.move(club.alice, "P-7f", table)
    assert not direct.ephemeral and "７六歩" in direct.content


async def test_a_stale_confirmation_is_refused(club: Club) -> None:
    await club.prefer(club.alice, confirm="on")
    table = await club.new_game()
    first = await ask(club, club.alice, "7g7f", table)
    second = await ask(club, club.alice, "2g2f", table)
    await club.fake.click(
        second, button_id(second.custom_ids, f"cf:play:{table.game_id}:0:2g2f"), user=club.alice
    )
    late = await club.fake.click(
        first, button_id(first.custom_ids, f"cf:play:{table.game_id}:0:7g7f"), user=club.alice
    )
    assert late.ephemeral and "The position changed" in late.content, late.content
    assert await stored(club, table) == (1, ["2g2f"])
    assert len(club.bot_posts(table.thread, "☗２六歩")) == 1
    assert club.bot_posts(table.thread, "☗７六歩") == []


async def test_a_confirmation_pressed_after_a_restart_plays(club: Club) -> None:
    await club.prefer(club.alice, confirm="on")
    table = await club.new_game()
    question = await ask(club, club.alice, "P-7f", table)
    await club.restart()
    confirmed = await club.fake.click(
        question, button_id(question.custom_ids, f"cf:play:{table.game_id}:0:7g7f"), user=club.alice
    )
    assert confirmed.content == "Played ７六歩 (P-7f)."
    assert await stored(club, table) == (1, ["7g7f"])
    assert await club.posts(table.thread, "７六歩")


async def test_two_presses_of_confirm_store_one_move(club: Club) -> None:
    await club.prefer(club.alice, confirm="on")
    table = await club.new_game()
    question = await ask(club, club.alice, "P-7f", table)
    confirm = button_id(question.custom_ids, f"cf:play:{table.game_id}:0:7g7f")
    # Both presses reach the bot before it answers either (a double tap, or two devices).
    presses = [
        await club.fake.click(question, confirm, user=club.alice, wait=False) for _ in range(2)
    ]
    await asyncio.gather(*(press.wait_final() for press in presses))
    assert await stored(club, table) == (1, ["7g7f"])
    answers = sorted(press.content for press in presses)
    assert answers[0] == "Played ７六歩 (P-7f).", answers
    assert "The position changed" in answers[1], answers
    assert len(club.bot_posts(table.thread, "☗７六歩")) == 1
    assert_replays(await club.game(table.game_id))


async def test_a_promotion_is_chosen_then_confirmed(club: Club) -> None:
    await club.prefer(club.alice, confirm="on")
    table = await club.new_game()
    game_id = table.game_id
    first = await ask(club, club.alice, "7g7f", table)
    await club.fake.click(
        first, button_id(first.custom_ids, f"cf:play:{game_id}:0:7g7f"), user=club.alice
    )
    await club.play(table, [(club.bob, "3c3d")])

    promotion = await club.move(club.alice, "Bx2b", table)
    assert promotion.labels == ["Promote", "Don't promote"]
    chosen = await club.fake.click(
        promotion, button_id(promotion.custom_ids, f"pr:{game_id}:2:8h2b+"), user=club.alice
    )
    # The question became the confirmation of the move chosen, on its board.
    assert chosen.ephemeral and "Play ２二角成 (Bx2b+)?" in chosen.content, chosen.content
    assert [without_mark(c) for c in chosen.custom_ids] == [
        f"cf:play:{game_id}:2:8h2b+",
        f"cf:cancel:{game_id}:2:8h2b+",
    ]
    assert_board(chosen.files)
    assert await stored(club, table) == (2, ["7g7f", "3c3d"])

    confirmed = await club.fake.click(
        chosen, button_id(chosen.custom_ids, f"cf:play:{game_id}:2:8h2b+"), user=club.alice
    )
    assert confirmed.content == "Played ２二角成 (Bx2b+)." and confirmed.files == []
    assert await stored(club, table) == (3, ["7g7f", "3c3d", "8h2b+"])
    assert await club.posts(table.thread, "２二角成")


async def test_a_confirmation_outside_the_thread_says_where_the_board_went(club: Club) -> None:
    await club.prefer(club.alice, confirm="on")
    table = await club.new_game()
    question = await club.fake.slash(
        "move", {"move": "P-7f", "game": str(table.game_id)}, user=club.alice, channel=club.channel
    )
    assert question.ephemeral and question.custom_ids
    confirmed = await club.fake.click(question, question.custom_ids[0], user=club.alice)
    assert confirmed.content == f"Played ７六歩 (P-7f) in <#{table.thread.id}>."
    assert await club.posts(table.thread, "７六歩")
