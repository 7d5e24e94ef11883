"""Reading a move: rejections store nothing, ambiguity lists the candidates (or offers the
promotion choice), autocomplete is cheap; and finding the game a command means."""

from __future__ import annotations

import pytest

from bot.db import Database
from bot.services import (
    AmbiguousMove,
    ChooseGame,
    GameService,
    MoveRejected,
    MoveText,
    NotFound,
)
from bot.services.play import snapshots as loading_module

from .conftest import ALICE, BOB, CAROL, GUILD, FakeClock, play_all, start_game

OPENING = ["7g7f", "3c3d"]  # the bishops now face each other


async def state(db: Database, game_id: int) -> tuple[int, list[str]]:
    async with db.read() as tx:
        record = await tx.games.get(game_id)
        moves = await tx.moves.usi_list(game_id)
    assert record is not None
    return record.ply, moves


@pytest.mark.parametrize(
    ("sfen", "text", "reason"),
    [
        ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*55", "nifu"),
        ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "B*55", "not_in_hand"),
        ("4k4/9/4P4/9/9/9/9/9/4K4 b P 1", "P*53", "occupied"),
        ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*11", "dead_drop"),
        (None, "5i5f", "cannot_move_there"),
        (None, "R-55", None),  # the rook cannot get there: the notation says why
        (None, "hello", None),
    ],
)
async def test_rejected_moves_say_why_and_store_nothing(
    service: GameService, db: Database, sfen: str | None, text: str, reason: str | None
) -> None:
    game = await start_game(service, start_sfen=sfen)
    with pytest.raises(MoveRejected) as caught:
        await service.moves.play(game.id, ALICE.user_id, text)
    if reason is not None:
        assert caught.value.reason == reason
    assert caught.value.message and "\n" not in caught.value.message
    assert await state(db, game.id) == (0, [])
    assert (await service.games.get(game.id)).ply == 0


async def test_unreadable_text_has_no_reason_code_and_gives_examples(
    service: GameService,
) -> None:
    game = await start_game(service)
    with pytest.raises(MoveRejected) as caught:
        await service.moves.play(game.id, ALICE.user_id, "xyz")
    assert caught.value.reason is None
    assert "7g7f" in caught.value.message


async def test_open_promotion_offers_two_buttons(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, OPENING)
    with pytest.raises(AmbiguousMove) as caught:
        await service.moves.play(game.id, ALICE.user_id, "B-22")
    choice = caught.value.promotion_choice
    assert choice is not None
    assert [text.usi for text in choice] == ["8h2b+", "8h2b"]
    assert {text.usi for text in caught.value.candidates} == {"8h2b", "8h2b+"}
    assert await state(db, game.id) == (2, OPENING)
    result = await service.moves.play(game.id, ALICE.user_id, choice[0].usi, expected_ply=2)
    assert result.move == choice[0]


async def test_two_golds_list_both_candidates(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(AmbiguousMove) as caught:
        await service.moves.play(game.id, ALICE.user_id, "58金")
    assert caught.value.promotion_choice is None
    assert sorted(text.japanese for text in caught.value.candidates) == ["５八金右", "５八金左"]
    assert "５八金右" in caught.value.message


async def test_legal_moves_for_autocomplete_are_cached(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service)
    calls = 0
    original = loading_module.move_text

    def counting(*args: object) -> MoveText:
        nonlocal calls
        calls += 1
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(loading_module, "move_text", counting)
    first = await service.games.legal_moves(game.id)
    assert len(first) == 30 and calls == 30
    assert MoveText("7g7f", "７六歩", "P-7f") in first
    assert await service.games.legal_moves(game.id) == first
    assert calls == 30  # the second call formatted nothing
    await service.moves.play(game.id, ALICE.user_id, "7g7f")
    after = await service.games.legal_moves(game.id)
    assert calls == 30 + len(after) and all(text.usi != "7g7f" for text in after)


async def test_legal_moves_of_a_finished_game_are_empty(service: GameService) -> None:
    game = await start_game(service)
    await service.endings.resign(game.id, BOB.user_id)
    assert await service.games.legal_moves(game.id) == []


async def test_resolve_game_by_option_thread_turn_or_only_game(service: GameService) -> None:
    games = service.games
    with pytest.raises(NotFound, match="no active games"):
        await games.resolve_id(ALICE.user_id, guild_id=GUILD)
    first = await start_game(service)  # Alice to move
    assert await games.resolve_id(BOB.user_id, guild_id=GUILD) == first.id  # only game
    second = await start_game(service, opponent=CAROL, color="gote")  # Carol to move
    assert await games.resolve_id(ALICE.user_id, guild_id=GUILD) == first.id  # her turn
    await service.moves.play(first.id, ALICE.user_id, "7g7f")
    with pytest.raises(ChooseGame) as caught:  # neither game is hers to move
        await games.resolve_id(ALICE.user_id, guild_id=GUILD)
    assert {game.id for game in caught.value.games} == {first.id, second.id}
    await games.set_thread(second.id, 777)
    by_thread = await games.resolve_id(ALICE.user_id, guild_id=GUILD, thread_id=777)
    assert by_thread == second.id and (await games.get(by_thread)).thread_id == 777
    by_option = await games.resolve_id(ALICE.user_id, guild_id=GUILD, game_id=first.id)
    assert by_option == first.id
    with pytest.raises(NotFound):  # the game an option names, loaded in another server
        await games.get(first.id, guild_id=GUILD + 1)
    with pytest.raises(NotFound):
        await games.get(9999)


async def test_resolve_game_id_and_play_keep_to_their_server(service: GameService) -> None:
    first = await start_game(service)
    second = await start_game(service, opponent=CAROL)
    await service.games.set_thread(second.id, 778)
    # In the game's thread: that game, even where the user has another one to move.
    assert await service.games.resolve_id(ALICE.user_id, guild_id=GUILD, thread_id=778) == second.id
    # Elsewhere: as the user's games decide (both are Alice's to move, so she must choose).
    with pytest.raises(ChooseGame):
        await service.games.resolve_id(ALICE.user_id, guild_id=GUILD, thread_id=5)
    # A game id from another server (or a DM, guild 0) is not found there, and nothing moves.
    for guild in (GUILD + 1, 0):
        with pytest.raises(NotFound, match=f"no game #{first.id} in this server"):
            await service.moves.play(first.id, ALICE.user_id, "7g7f", guild_id=guild)
    assert (await service.games.get(first.id)).ply == 0
    played = await service.moves.play(first.id, ALICE.user_id, "7g7f", guild_id=GUILD)
    assert played.game.ply == 1


async def test_list_games_puts_your_turn_first_then_deadline(
    service: GameService, clock: FakeClock
) -> None:
    slow = await start_game(service, opponent=BOB, time_control="14d")  # Alice to move
    fast = await start_game(service, opponent=CAROL, time_control="1d", color="gote")
    clock.advance(hours=1)
    waiting = await start_game(service, opponent=PlayerRefs.dave, color="gote", time_control="2d")
    other_guild = await start_game(service, opponent=PlayerRefs.erin, guild_id=GUILD + 1)
    games = await service.games.active_for(ALICE.user_id, guild_id=GUILD)
    assert [game.id for game in games] == [slow.id, fast.id, waiting.id]
    assert [game.your_turn for game in games] == [True, False, False]
    assert games[0].opponent == BOB and games[0].deadline == slow.deadline
    everywhere = await service.games.active_for(ALICE.user_id)
    assert {game.id for game in everywhere} == {slow.id, fast.id, waiting.id, other_guild.id}


class PlayerRefs:
    from bot.services import PlayerRef

    dave = PlayerRef(4004, "Dave")
    erin = PlayerRef(5005, "Erin")


async def test_a_move_brings_the_players_display_name_up_to_date(service: GameService) -> None:
    first = await start_game(service)
    other = await start_game(service, opponent=CAROL)
    played = await service.moves.play(first.id, ALICE.user_id, "7g7f", name="Alice (away)")
    assert played.game.sente.name == "Alice (away)" and played.mover.name == "Alice (away)"
    assert (await service.games.get(first.id)).sente.name == "Alice (away)"
    assert (await service.games.get(other.id)).sente.name == "Alice (away)"  # one player, one name
    # No name, or the same one, changes nothing; a refused move stores no name.
    await service.moves.play(first.id, BOB.user_id, "3c3d")
    assert (await service.games.get(first.id)).gote.name == BOB.name
    with pytest.raises(MoveRejected):
        await service.moves.play(first.id, ALICE.user_id, "9a9b", name="Mallory")
    assert (await service.games.get(first.id)).sente.name == "Alice (away)"
