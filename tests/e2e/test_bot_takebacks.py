"""Takebacks by consent through the real bot: /takeback posts the question with Accept /
Decline in the game's thread, pinging the opponent; the bad cases are refused privately
with a sentence and change nothing; the buttons work after a restart; and a Japanese club
reads it all in Japanese (待った)."""

from __future__ import annotations

from tests.fakediscord import FakeMember, FakeMessage, InteractionResult
from tests.support.checks import assert_board
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese


async def ask(club: Club, user: FakeMember, table: Table) -> InteractionResult:
    return await club.fake.slash("takeback", user=user, channel=table.thread)


async def question(club: Club, table: Table, text: str = "asks to take back") -> FakeMessage:
    """The newest takeback question in the thread."""
    return (await club.posts(table.thread, text))[-1]


def button(message: FakeMessage, action: str) -> str:
    return next(c for c in message.custom_ids if c.startswith(f"tb:{action}:"))


async def test_ask_and_accept_takes_the_move_back(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f")])

    asked = await ask(club, alice, table)
    assert asked.ephemeral and asked.content == (
        "Takeback requested: bob can accept or decline it in the game's thread."
    )
    posted = await question(club, table)
    assert posted.content.startswith(f"<@{bob.user.id}>, alice asks to take back their move")
    assert "☗７六歩 (P-7f)" in posted.content
    assert posted.mentioned_user_ids == [bob.user.id]
    assert posted.labels == ["Accept takeback", "Decline takeback"]
    [request] = await club.service.takebacks.history(table.game_id)
    assert posted.custom_ids == [
        f"tb:accept:{table.game_id}:1:{request.id}",
        f"tb:decline:{table.game_id}:1:{request.id}",
    ]

    watcher = await club.fake.click(posted, button(posted, "accept"), user=carol)
    assert watcher.ephemeral and "not a player" in watcher.content
    own = await club.fake.click(posted, button(posted, "accept"), user=alice)
    assert own.ephemeral and own.content == (
        "You asked for this takeback; only bob can accept or decline it."
    )
    assert (await club.game(table.game_id)).ply == 1

    accepted = await club.fake.click(posted, button(posted, "accept"), user=bob)
    assert not accepted.ephemeral and "bob accepted the takeback." in accepted.content
    assert posted.custom_ids == [], "the answered question keeps no buttons"
    [done] = await club.posts(table.thread, "taken back")
    assert done.content.startswith("Takeback: ☗７六歩 (P-7f) taken back with bob's consent.")
    assert f"<@{alice.user.id}> to move" in done.content
    assert done.mentioned_user_ids == [alice.user.id]
    assert_board(done.attachments)
    game = await club.game(table.game_id)
    assert game.ply == 0 and game.to_move is not None and game.to_move.user_id == alice.user.id

    again = await club.move(alice, "2g2f", table)
    assert again.content.startswith("1. ☗２六歩")
    export = await club.fake.slash("export", {"format": "usi"}, user=bob, channel=table.thread)
    [record] = export.files
    assert record.data.decode().split("moves ")[1].split() == ["2g2f"]


async def test_two_plies_back_on_your_own_turn_and_a_declined_request(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])

    await ask(club, alice, table)  # alice to move: her move and bob's reply
    posted = await question(club, table)
    assert "their move ☗７六歩 (P-7f) and your reply ☖３四歩 (P-3d)" in posted.content
    declined = await club.fake.click(posted, button(posted, "decline"), user=bob)
    assert "bob declined the takeback." in declined.content and posted.custom_ids == []
    [note] = await club.posts(table.thread, "declined your takeback")
    assert note.mentioned_user_ids == [alice.user.id]
    assert (await club.game(table.game_id)).ply == 2

    await ask(club, alice, table)  # asked again after the decline
    again = await question(club, table)
    accepted = await club.fake.click(again, button(again, "accept"), user=bob)
    assert "bob accepted the takeback." in accepted.content
    [done] = await club.posts(table.thread, "taken back")
    assert "☗７六歩 (P-7f), ☖３四歩 (P-3d) taken back" in done.content
    assert (await club.game(table.game_id)).ply == 0
    statuses = [r.status for r in await club.service.takebacks.history(table.game_id)]
    assert statuses == ["declined", "accepted"]


async def test_decline_and_accept_pressed_at_once(club: Club) -> None:
    """Both buttons of one question, pressed together (a double tap): one answer lands,
    the other is told the request was already answered."""
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f")])
    await ask(club, alice, table)
    posted = await question(club, table)
    clicks = [
        await club.fake.click(posted, button(posted, action), user=bob, wait=False)
        for action in ("decline", "accept")
    ]
    for click in clicks:
        await click.wait_final()
    refused = [c for c in clicks if c.ephemeral]
    answered = [c for c in clicks if not c.ephemeral]
    assert len(refused) == 1 and len(answered) == 1, clicks
    [request] = await club.service.takebacks.history(table.game_id)
    assert (
        refused[0].content
        == {
            "declined": "This takeback request was already declined.",
            "accepted": "This takeback was already accepted.",
        }[request.status]
    )
    assert (await club.game(table.game_id)).ply == (0 if request.status == "accepted" else 1)


async def test_bad_requests_are_refused_and_store_nothing(club: Club) -> None:
    alice, carol = club.alice, club.carol
    table = await club.new_game()
    early = await ask(club, alice, table)
    assert early.ephemeral and early.content == "You have not played a move to take back yet."
    await club.play(table, [(alice, "7g7f")])

    spectator = await ask(club, carol, table)
    assert spectator.ephemeral and "not a player" in spectator.content
    await ask(club, alice, table)
    twice = await ask(club, alice, table)
    assert twice.ephemeral and twice.content == (
        "You have already asked for a takeback; wait for bob's answer."
    )
    assert len(club.bot_posts(table.thread, "asks to take back")) == 1
    assert len(await club.service.takebacks.history(table.game_id)) == 1


async def test_a_move_voids_the_request(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f")])
    await ask(club, alice, table)
    posted = await question(club, table)
    accept = button(posted, "accept")
    await club.play(table, [(bob, "3c3d")])  # bob plays on instead of answering

    await club.fake.wait_for(lambda: posted.custom_ids == [], what="the buttons taken away")
    assert posted.content.endswith("\nWithdrawn: a move was played before this was answered.")
    assert "alice asks to take back" in posted.content  # the question itself stays
    late = await club.fake.forge_click(posted, accept, user=bob, channel=table.thread)
    await late.wait_final()
    assert late.ephemeral and "This button no longer works" in late.content
    game = await club.game(table.game_id)
    assert game.ply == 2 and [m.usi() for m in game.game.moves] == ["7g7f", "3c3d"]
    [request] = await club.service.takebacks.history(table.game_id)
    assert request.status == "lapsed"


async def test_a_game_agreed_without_takebacks(club: Club) -> None:
    alice, bob = club.alice, club.bob
    challenge = await club.challenge(alice, bob, color="sente", takebacks="never")
    assert "no takebacks" in challenge.content
    table = await club.accept(challenge, bob)
    assert "No takebacks in this game." in table.start.content
    await club.play(table, [(alice, "7g7f")])
    refused = await ask(club, alice, table)
    assert refused.ephemeral and refused.content == (
        "This game was agreed without takebacks, so none can be asked."
    )
    assert club.bot_posts(table.thread, "asks to take back") == []


async def test_accept_pressed_after_a_restart(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d"), (alice, "2g2f")])
    await ask(club, alice, table)
    posted = await question(club, table)

    await club.restart()
    accepted = await club.fake.click(posted, button(posted, "accept"), user=bob)
    assert "bob accepted the takeback." in accepted.content
    [done] = await club.posts(table.thread, "taken back")
    assert "☗２六歩 (P-2f) taken back" in done.content
    game = await club.game(table.game_id)
    assert [m.usi() for m in game.game.moves] == ["7g7f", "3c3d"]


async def test_takebacks_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(yamada, "７六歩"), (hanako, "３四歩")])
    asked = await ask(club, yamada, table)
    assert (
        asked.content
        == "待ったを申し込みました。はなこ🌸さんが対局のスレッドで受けるか断るかを選びます。"
    )
    posted = await question(club, table, "待ったの申し込み")
    assert posted.labels == ["待ったを受ける", "待ったを断る"]
    assert "☗７六歩と、あなたの応手☖３四歩を取り消したいそうです。ボタンで" in posted.content
    twice = await ask(club, yamada, table)
    assert twice.content == "すでに待ったを申し込んでいます。はなこ🌸さんの返事をお待ちください。"
    accepted = await club.fake.click(posted, button(posted, "accept"), user=hanako)
    assert "はなこ🌸さんが待ったを受けました。" in accepted.content
    [done] = await club.posts(table.thread, "を取り消しました")
    assert "☗７六歩、☖３四歩を取り消しました" in done.content
    assert_japanese(asked, twice, accepted, *club.fake.channel_history(table.thread))


async def test_a_request_the_game_ended_before_answering_is_withdrawn(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    await ask(club, bob, table)
    posted = await question(club, table)
    await club.resign(table, alice)
    await club.posts(table.thread, "resigned")
    await club.fake.wait_for(lambda: posted.custom_ids == [], what="the buttons taken away")
    assert posted.content.endswith("\nWithdrawn: the game ended before this was answered.")


async def test_a_withdrawn_request_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(yamada, "７六歩")])
    await ask(club, yamada, table)
    posted = await question(club, table, "待ったの申し込み")
    assert posted.custom_ids
    await club.play(table, [(hanako, "３四歩")])
    await club.fake.wait_for(lambda: posted.custom_ids == [], what="the buttons taken away")
    assert posted.content.endswith("回答の前に次の手が指されたため、取り下げられました。")
    assert_japanese(posted)
