"""Finished games: listed with their result for the member asked about (from the stored row,
never replayed), suggested after the active ones, pointed to when a command that takes them
has no game to go on; and any game shown at an earlier ply for `/replay`."""

from __future__ import annotations

import pytest

from bot.db import Database
from bot.services import GameService, ListedStatus, NotFound, Result
from rules import Game, Position

from .conftest import ALICE, BOB, CAROL, GUILD, FakeClock, play_all, start_game

FOOLS_MATE = ["7g7f", "6a7b", "8h3c+", "4a4b", "3c4b", "5a6a", "G*5b"]  # sente mates


async def finished_three(service: GameService, clock: FakeClock) -> list[int]:
    """Alice's three finished games, in this order: a win by mate, a loss by resignation
    and an abort; and one active game."""
    won = await start_game(service)
    await play_all(service, won.id, FOOLS_MATE)
    clock.advance(hours=1)
    lost = await start_game(service, challenger=BOB, opponent=ALICE)
    await play_all(service, lost.id, ["7g7f", "3c3d"])
    await service.endings.resign(lost.id, ALICE.user_id)
    clock.advance(hours=1)
    aborted = await start_game(service)
    await service.endings.abort(aborted.id, ALICE.user_id)
    await start_game(service, opponent=CAROL)
    return [won.id, lost.id, aborted.id]


async def test_finished_games_are_listed_latest_first_with_the_members_result(
    service: GameService, clock: FakeClock
) -> None:
    won, lost, aborted = await finished_three(service, clock)
    listed = await service.games.listed(ALICE.user_id, guild_id=GUILD, status=ListedStatus.FINISHED)
    assert [(g.id, g.result) for g in listed.games] == [
        (aborted, Result.ABORTED),
        (lost, Result.LOST),
        (won, Result.WON),
    ]
    assert listed.more == 0
    assert [g.ply for g in listed.games] == [0, 2, 7]
    assert all(g.finished_at is not None and not g.your_turn for g in listed.games)
    bobs = await service.games.listed(BOB.user_id, guild_id=GUILD, status=ListedStatus.FINISHED)
    assert [g.result for g in bobs.games] == [Result.ABORTED, Result.WON, Result.LOST]


async def test_all_lists_active_games_first_and_counts_what_does_not_fit(
    service: GameService, clock: FakeClock
) -> None:
    *_, aborted = await finished_three(service, clock)
    everything = await service.games.listed(ALICE.user_id, guild_id=GUILD, status=ListedStatus.ALL)
    assert [g.is_active for g in everything.games] == [True, False, False, False]
    cut = await service.games.listed(
        ALICE.user_id, guild_id=GUILD, status=ListedStatus.ALL, limit=2
    )
    assert [g.id for g in cut.games][1:] == [aborted] and cut.more == 2
    active = await service.games.listed(ALICE.user_id, guild_id=GUILD, status=ListedStatus.ACTIVE)
    assert len(active.games) == 1 and active.more == 0
    elsewhere = await service.games.listed(
        ALICE.user_id, guild_id=GUILD + 1, status=ListedStatus.ALL
    )
    assert elsewhere.games == [] and elsewhere.more == 0


async def test_listing_finished_games_does_not_replay_them(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await finished_three(service, clock)

    def no_replay(*args: object, **kwargs: object) -> Game:
        raise AssertionError("a finished game was replayed to be listed")

    monkeypatch.setattr(Game, "replay", no_replay)
    listed = await service.games.listed(ALICE.user_id, guild_id=GUILD, status=ListedStatus.ALL)
    assert len(listed.games) == 4


async def test_suggestions_put_active_games_before_finished_ones(
    service: GameService, clock: FakeClock
) -> None:
    _, lost, aborted = await finished_three(service, clock)
    only_active = await service.games.choices(
        ALICE.user_id, guild_id=GUILD, finished=False, limit=25
    )
    assert [g.is_active for g in only_active] == [True]
    both = await service.games.choices(ALICE.user_id, guild_id=GUILD, finished=True, limit=3)
    assert [g.is_active for g in both] == [True, False, False]
    assert [g.id for g in both[1:]] == [aborted, lost]


async def test_without_an_active_game_a_command_for_finished_games_says_how_to_find_them(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, FOOLS_MATE)
    with pytest.raises(NotFound) as for_moves:
        await service.games.resolve_id(ALICE.user_id, guild_id=GUILD)
    assert "/challenge" in str(for_moves.value.sentence)
    with pytest.raises(NotFound) as for_records:
        await service.games.resolve_id(ALICE.user_id, guild_id=GUILD, finished=True)
    assert "/games status:finished" in str(for_records.value.sentence)
    # In the finished game's thread, the thread says which game.
    await service.games.set_thread(game.id, 777)
    assert await service.games.resolve_id(CAROL.user_id, guild_id=GUILD, thread_id=777) == game.id


async def test_a_replay_step_shows_the_position_then_and_the_moves_around_it(
    service: GameService,
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, FOOLS_MATE)
    start = await service.games.at_ply(game.id, 0, guild_id=GUILD)
    assert start.board.game.position.sfen() == Position.initial().sfen()
    assert start.board.last_move is None and start.board.outcome is None
    assert (start.ply, start.last, start.first) == (0, 7, 1)
    assert [m.usi for m in start.moves] == FOOLS_MATE
    third = await service.games.at_ply(game.id, 3, guild_id=GUILD)
    assert third.board.game.position.sfen() == Game(moves=FOOLS_MATE[:3]).position.sfen()
    assert third.board.last_move_text is not None
    assert third.board.last_move_text.usi == "8h3c+" and third.board.ply == 3
    assert third.board.outcome is None and third.board.to_move is None
    end = await service.games.at_ply(game.id, 99, guild_id=GUILD)  # kept within the game
    assert end.ply == 7 and end.board.outcome is not None
    assert end.moves[-1].japanese.startswith("５二金")


async def test_a_long_game_lists_seven_moves_around_the_ply(service: GameService) -> None:
    game = await start_game(service)
    kings = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3  # ends in sennichite at move 12
    await play_all(service, game.id, kings)
    middle = await service.games.at_ply(game.id, 6, guild_id=GUILD)
    assert (middle.first, len(middle.moves)) == (3, 7)
    assert [m.usi for m in middle.moves] == kings[2:9]
    last = await service.games.at_ply(game.id, 12, guild_id=GUILD)
    assert (last.first, len(last.moves)) == (6, 7)


async def test_an_active_games_replay_stops_at_its_current_move(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    latest = await service.games.at_ply(game.id, 10, guild_id=GUILD)
    assert latest.ply == latest.last == 2 and latest.board.to_move == ALICE


async def test_another_servers_game_cannot_be_replayed(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(NotFound):
        await service.games.at_ply(game.id, 0, guild_id=GUILD + 1)


async def test_finished_listing_reads_one_row_per_game(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    await service.endings.resign(game.id, BOB.user_id)
    async with db.query() as q:
        assert await q.games.count_for(ALICE.user_id, GUILD, "finished") == 1
        [row] = await q.games.finished_for(ALICE.user_id, GUILD, limit=5)
    assert (row.id, row.termination, row.winner) == (game.id, "resignation", "sente")
