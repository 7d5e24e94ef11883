"""The commands around the games: /games, /board, /help, /move outside the thread, autocomplete,
and answers that had to be deferred."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import discord
import pytest

from bot.ui import replies, text
from rules import Position
from tests.fakediscord import CREATE_MESSAGE, Choice
from tests.support.checks import assert_board
from tests.support.club import Club, Table
from tests.support.japanese import embed_texts


async def legal_usi(club: Club, table: Table) -> set[str]:
    """The legal moves of the game's position, from the rules library directly."""
    game = await club.game(table.game_id)
    return {m.usi() for m in Position.from_sfen(game.game.position.sfen()).legal_moves()}


def assert_valid_choices(choices: list[Choice], legal: set[str]) -> None:
    assert 0 < len(choices) <= 25
    values = [str(c.value) for c in choices]
    assert len(set(values)) == len(values), "a move is offered twice"
    assert set(values) <= legal, set(values) - legal
    for choice in choices:
        assert len(choice.name) <= 100
        assert str(choice.value) in choice.name  # USI, next to the Japanese and Western forms


async def test_games_lists_yours_to_move_first_with_links_and_deadlines(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    waiting = await club.new_game(alice, bob)
    await club.play(waiting, [(alice, "7g7f")])
    to_move = await club.new_game(alice, carol, time="1d")
    finished = await club.new_game(bob, alice)
    await club.fake.slash("abort", user=bob, channel=finished.thread)

    mine = await club.fake.slash("games", user=alice, channel=club.channel)
    assert mine.ephemeral
    lines = mine.content.splitlines()
    assert len(lines) == 3, mine.content  # a heading and the two active games
    assert f"<#{to_move.thread.id}>" in lines[1] and "carol" in lines[1]
    assert "your turn" in lines[1] and "move 0" in lines[1] and "<t:" in lines[1]
    assert f"<#{waiting.thread.id}>" in lines[2] and "bob" in lines[2]
    assert "waiting" in lines[2] and "move 1" in lines[2]
    assert f"<#{finished.thread.id}>" not in mine.content
    assert mine.reply is not None and mine.reply.mentioned_user_ids == []

    bobs = await club.fake.slash("games", {"member": bob}, user=carol, channel=club.channel)
    [heading, line] = bobs.content.splitlines()
    assert "bob" in heading and f"<#{waiting.thread.id}>" in line and "to move" in line
    assert "your turn" not in line  # carol reads bob's list: it is bob's turn, not hers

    carols = await club.fake.slash("games", {"member": carol}, user=bob, channel=club.channel)
    [heading, line] = carols.content.splitlines()
    assert "carol" in heading and "alice" in line and "waiting" in line
    aborted = await club.fake.slash("abort", user=alice, channel=to_move.thread)
    assert aborted.ephemeral
    empty = await club.fake.slash("games", {"member": carol}, user=bob, channel=club.channel)
    assert "no active games" in empty.content


async def test_board_from_both_perspectives(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game(time="3d")
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])

    async def board(user: Any, **options: str | bool) -> bytes:
        shown = await club.fake.slash("board", options, user=user, channel=table.thread)
        public = options.get("public", user is not carol)  # players' boards are public
        assert shown.ephemeral is not public, shown.content
        assert_board(shown.files)
        content = shown.content
        assert "☗alice" in content and "☖bob" in content and "move 2" in content, content
        assert "３四歩" in content and "P-3d" in content  # the last move
        assert "alice to move" in content and "<t:" in content
        assert shown.reply is not None and shown.reply.mentioned_user_ids == []
        return shown.files[-1].data

    sente_view = await board(alice)
    gote_view = await board(bob)
    assert sente_view != gote_view, "gote's board should be turned around"
    assert await board(carol) == sente_view, "a spectator sees sente's side, privately"
    assert await board(carol, public=True) == sente_view, "unless they ask for a public post"
    assert await board(alice, public=False) == sente_view, "a player may look privately"
    assert await board(alice, perspective="gote") == gote_view
    assert await board(bob, perspective="sente") == sente_view

    # From the channel, with the game option (and refused for a game that does not exist).
    elsewhere = await club.fake.slash(
        "board", {"game": str(table.game_id)}, user=carol, channel=club.channel
    )
    assert elsewhere.files and elsewhere.files[-1].data == sente_view
    missing = await club.fake.slash("board", {"game": "999"}, user=carol, channel=club.channel)
    assert missing.ephemeral and "999" in missing.content


async def test_help_explains_notations_commands_and_rules(club: Club) -> None:
    shown = await club.fake.slash("help", user=club.carol, channel=club.channel)
    assert shown.ephemeral and shown.reply is not None
    [embed] = shown.reply.embeds
    headings = [field["name"] for field in embed["fields"]]
    assert embed["title"] == "Correspondence shogi: how to play"
    assert headings[:2] == ["Starting a game", "Writing moves"] and "Rules in brief" in headings
    text = "\n".join(embed_texts(shown.reply))
    for example in ("P-7f", "７六歩", "7g7f", "同", "打", "成"):
        assert example in text, example
    for command in ("/challenge", "/move", "/board", "/resign", "/jishogi", "/games", "/export"):
        assert command in text, command
    for rule in ("checkmate", "sennichite", "pawn drop"):
        assert rule in text.lower(), rule


async def test_move_autocomplete_offers_legal_moves_matching_what_was_typed(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    legal = await legal_usi(club, table)

    async def suggest(typed: str, **options: str) -> list[Choice]:
        return await club.fake.autocomplete(
            "move", {"move": typed, **options}, focused="move", user=alice, channel=table.thread
        )

    everything = await suggest("")
    assert len(everything) == 25 < len(legal)
    assert_valid_choices(everything, legal)
    assert not any(str(c.value).startswith("5i") for c in everything), "no king shuffles first"

    # Western, Japanese (full-width and kanji numerals) and USI prefixes all find ７六歩.
    for typed in ("P-7", "p76", "７六", "7六歩", "7g7", "７g"):
        choices = await suggest(typed)
        assert_valid_choices(choices, legal)
        assert choices[0].value == "7g7f", (typed, choices[:3])
        assert "７六歩" in choices[0].name and "P-7f" in choices[0].name

    golds = await suggest("G")
    assert_valid_choices(golds, legal)
    assert sorted(str(c.value) for c in golds) == sorted(m for m in legal if m[:2] in ("6i", "4i"))
    assert all("金" in c.name for c in golds)

    assert await suggest("zz") == []

    # Only the player to move is offered moves: not a spectator, nor the waiting player.
    for other in (bob, club.carol):
        assert (
            await club.fake.autocomplete(
                "move", {"move": ""}, focused="move", user=other, channel=table.thread
            )
            == []
        )

    # In the middle of a game, with more than 25 legal moves, from the channel with `game`.
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d"), (alice, "8h2b+"), (bob, "3a2b")])
    legal = await legal_usi(club, table)
    drops = await club.fake.autocomplete(
        "move",
        {"move": "B*", "game": str(table.game_id)},
        focused="move",
        user=alice,
        channel=club.channel,
    )
    assert_valid_choices(drops, legal)
    assert all(str(c.value).startswith("B*") for c in drops)
    assert len(drops) == 25 < len([m for m in legal if m.startswith("B*")])


async def test_game_autocomplete_lists_your_active_games(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    first = await club.new_game(alice, bob)
    second = await club.new_game(alice, carol)
    done = await club.new_game(carol, alice)
    await club.fake.slash("abort", user=carol, channel=done.thread)

    async def games(user: Any, typed: str, command: str = "move") -> list[Choice]:
        options = {"move": "7g7f"} if command == "move" else {}
        return await club.fake.autocomplete(
            command, {**options, "game": typed}, focused="game", user=user, channel=club.channel
        )

    mine = await games(alice, "")
    assert sorted(str(c.value) for c in mine) == sorted([str(first.game_id), str(second.game_id)])
    assert all("your turn" in c.name for c in mine)
    assert [c.value for c in await games(alice, "carol")] == [str(second.game_id)]
    assert [c.value for c in await games(alice, f"#{first.game_id}")] == [str(first.game_id)]
    assert [c.value for c in await games(bob, "", "board")] == [str(first.game_id)]
    for command in ("resign", "abort", "jishogi", "export"):
        assert [c.value for c in await games(bob, "", command)] == [str(first.game_id)], command
    assert await games(club.fake.add_member(club.guild, "dave"), "") == []

    # The chosen value is what /move takes.
    played = await club.fake.slash(
        "move", {"move": "P-7f", "game": str(second.game_id)}, user=alice, channel=club.channel
    )
    assert played.ephemeral and f"<#{second.thread.id}>" in played.content
    board = club.fake.last_message(second.thread)
    assert board.content.startswith("1. ☗７六歩") and board.mentioned_user_ids == [carol.user.id]
    assert_board(board.attachments)


async def test_move_outside_the_thread_finds_the_game_or_asks(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    first = await club.new_game(alice, bob)
    second = await club.new_game(alice, carol)

    asked = await club.fake.slash("move", {"move": "7g7f"}, user=alice, channel=club.channel)
    assert asked.ephemeral
    assert f"<#{first.thread.id}>" in asked.content and f"<#{second.thread.id}>" in asked.content
    assert (await club.game(first.game_id)).ply == 0 and (await club.game(second.game_id)).ply == 0

    await club.play(first, [(alice, "7g7f")])
    # Now only the second game is alice's to move: /move in the channel goes there.
    played = await club.fake.slash("move", {"move": "２六歩"}, user=alice, channel=club.channel)
    assert played.ephemeral and f"<#{second.thread.id}>" in played.content
    assert (await club.game(second.game_id)).ply == 1
    board = club.fake.last_message(second.thread)
    assert board.content.startswith("1. ☗２六歩") and board.mentioned_user_ids == [carol.user.id]


async def test_slow_rendering_still_answers_every_interaction_in_time(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord drops an interaction not answered in 3 s; the bot must defer when a board is
    slow to render.  Scaled down: 0.4 s allowed, boards take 0.6 s, the bot defers at 0.1 s."""
    alice, bob = club.alice, club.bob
    first = await club.new_game(alice, bob)
    second = await club.new_game(alice, club.carol)
    bot = club.bot
    assert bot is not None
    real_board_file = bot.boards.file

    async def slow_board_file(*args: Any, **kwargs: Any) -> discord.File:
        await asyncio.sleep(0.6)
        return await real_board_file(*args, **kwargs)

    monkeypatch.setattr(bot.boards, "file", slow_board_file)
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.1)
    club.fake.interaction_timeout = 0.4

    # A deferred answer is private; the board comes as a new post in the thread, because
    # the edit that replaces "thinking..." would not notify bob, whom it mentions.
    in_thread = await club.fake.slash("move", {"move": "7g7f"}, user=alice, channel=first.thread)
    assert in_thread.deferred and in_thread.ephemeral and "７六歩" in in_thread.content
    [posted] = await club.posts(first.thread, "1. ☗７六歩")
    assert_board(posted.attachments)
    assert posted.mentioned_user_ids == [bob.user.id]
    shown = await club.fake.slash("board", user=bob, channel=first.thread)
    assert shown.deferred and shown.files
    elsewhere = await club.fake.slash(
        "move", {"move": "7g7f", "game": str(second.game_id)}, user=alice, channel=club.channel
    )
    assert elsewhere.ephemeral and "７六歩" in elsewhere.content
    await club.fake.wait_for(
        lambda: club.fake.last_message(second.thread).content.startswith("1. ☗７六歩"),
        what="the board in the second game's thread",
    )


async def test_a_challenge_slow_to_read_its_start_still_pings_its_member(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start read after the bot had to defer: the challenge cannot be the follow-up that
    replaces "thinking..." (an edit, which would not notify bob), so it is a message of its
    own and the public note goes. Scaled down as above: reading takes 0.3 s, the bot
    defers at 0.05 s."""
    alice, bob = club.alice, club.bob
    assert club.bot is not None
    readers = club.bot.readers
    real_run = readers.run

    async def slow_run(function: Any, *args: Any) -> Any:
        await asyncio.sleep(0.3)  # the reading worker's time, as a long record would take
        return await real_run(function, *args)

    monkeypatch.setattr(readers, "run", slow_run)
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    start = "4k4/9/4G4/9/9/9/9/9/9 b G 1"
    asked = await club.fake.slash(
        "challenge", {"opponent": bob, "start": start}, user=alice, channel=club.channel
    )
    assert asked.deferred and asked.original is None  # the public "thinking" is gone
    [posted] = club.bot_posts(club.channel, "alice challenges you")
    assert f"`{start}`" in posted.content
    assert posted.mentioned_user_ids == [bob.user.id]
    table = await club.accept(posted, bob)
    assert (await club.game(table.game_id)).game.start.sfen() == start

    opened = await club.fake.slash("challenge", {"start": start}, user=bob, channel=club.channel)
    assert opened.deferred and opened.original is None
    [anyone] = club.bot_posts(club.channel, "bob challenges anyone")
    assert anyone.mentioned_user_ids == [] and anyone.custom_ids

    # Discord refuses the post: the challenge, which nobody could answer, is withdrawn.
    club.fake.inject_fault(CREATE_MESSAGE, status=403)
    refused = await club.fake.slash(
        "challenge", {"opponent": club.carol, "start": start}, user=alice, channel=club.channel
    )
    await refused.wait_followups(1)
    assert refused.original is None
    [note] = refused.followups
    assert note.ephemeral and note.content == str(text.CHALLENGE_NOT_POSTED)
    again = await club.challenge(alice, club.carol)  # none stands open between them
    assert again.reply is not None and again.reply.mentioned_user_ids == [club.carol.user.id]


async def test_challenge_buttons_belong_to_their_members(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    robot = club.fake.add_member(club.guild, "robot", bot=True)
    for opponent, refusal in ((alice, "yourself"), (robot, "Bots")):
        refused = await club.fake.slash(
            "challenge", {"opponent": opponent}, user=alice, channel=club.channel
        )
        assert refused.ephemeral and refusal in refused.content, refused.content

    challenge = await club.challenge(alice, bob, time="7d+1d", impasse="24")
    assert "7 days, then 1 day per move" in challenge.content and "24-point" in challenge.content
    assert "<t:" in challenge.content  # when it expires
    twice = await club.fake.slash("challenge", {"opponent": bob}, user=alice, channel=club.channel)
    assert twice.ephemeral and "already an open challenge" in twice.content
    [challenge_id] = {c.rsplit(":", 1)[1] for c in challenge.custom_ids}
    for action, user, owner in (("decline", carol, "bob"), ("cancel", bob, "alice")):
        wrong = await club.fake.click(challenge, f"ch:{action}:{challenge_id}", user=user)
        assert wrong.ephemeral and f"Only {owner}" in wrong.content, wrong.content

    declined = await club.fake.click(challenge, f"ch:decline:{challenge_id}", user=bob)
    assert declined.reply is not None and "bob declined the challenge" in declined.content
    assert declined.reply.custom_ids == [] and declined.reply.mentions == []  # none allowed
    assert club.fake.threads(club.channel) == []

    soon = await club.fake.slash("challenge", {"opponent": bob}, user=alice, channel=club.channel)
    assert soon.ephemeral and "bob declined your challenge" in soon.content, soon.content
    club.clock.advance(timedelta(hours=1))  # the wait after a decline
    again = await club.challenge(alice, bob)
    [again_id] = {c.rsplit(":", 1)[1] for c in again.custom_ids}
    cancelled = await club.fake.click(again, f"ch:cancel:{again_id}", user=alice)
    assert "alice cancelled the challenge" in cancelled.content
    assert cancelled.custom_ids == []
    assert club.fake.threads(club.channel) == []
