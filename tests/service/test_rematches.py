"""Rematches: the finished game offered again with its settings, colours swapped except
in a handicap game; one rematch per game whatever is pressed, and by whom."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.db import Database
from bot.services import GameService, GameSnapshot, NotAPlayer, NotFound, ServiceError
from rules import Handicap

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    FakeClock,
    before_next_write,
    play_all,
    start_game,
)

SHORT_MATE = ["7g7f", "6a7b", "8h3c+", "4a4b", "3c4b", "5a6a", "G*5b"]  # alice mates as sente
SET_UP = "4k4/9/9/9/9/9/9/9/4K2R1 b G 1"


async def finished(service: GameService, **options: object) -> GameSnapshot:
    game = await start_game(service, **options)  # type: ignore[arg-type]
    return await service.endings.resign(game.id, BOB.user_id)


async def rematches(db: Database, game_id: int) -> list[tuple[int, str]]:
    """The challenges that rematch `game_id`: (id, status), oldest first."""
    async with db.read() as tx:
        found = []
        challenge_id = 1
        while (record := await tx.challenges.get(challenge_id)) is not None:
            if record.rematch_of == game_id:
                found.append((record.id, record.status))
            challenge_id += 1
    return found


async def test_a_rematch_swaps_colours_and_keeps_the_settings(service: GameService) -> None:
    game = await start_game(service, time_control="7d+1d", impasse_rule="24", takebacks="never")
    over = (await play_all(service, game.id, SHORT_MATE)).game
    asked = await service.rematches.ask(over.id, BOB.user_id, guild_id=GUILD)
    offer = asked.challenge
    assert asked.game is None and offer.status == "open" and offer.rematch_of == over.id
    assert (offer.challenger, offer.opponent, offer.color) == (BOB, ALICE, "sente")
    assert offer.time_control == over.time_control and offer.impasse_rule == over.impasse_rule
    assert offer.takebacks == over.takebacks and offer.handicap is Handicap.EVEN
    assert offer.channel_id == over.channel_id and offer.start_sfen is None
    again = await service.challenges.accept(offer.id, ALICE.user_id)
    assert (again.sente, again.gote) == (BOB, ALICE)
    assert again.time_control == over.time_control and again.takebacks == over.takebacks
    assert again.impasse_rule == over.impasse_rule and again.row.start_sfen == over.row.start_sfen


@pytest.mark.parametrize("rated", [True, False])
async def test_a_rematch_is_rated_as_the_game_was(service: GameService, rated: bool) -> None:
    game = await finished(service, rated=rated)
    assert game.rated is rated
    asked = await service.rematches.ask(game.id, ALICE.user_id)
    assert asked.challenge.rated is rated
    again = await service.challenges.accept(asked.challenge.id, BOB)
    assert again.rated is rated


async def test_in_a_handicap_game_the_giver_keeps_the_handicap(service: GameService) -> None:
    """Alice gave two pieces as gote; whoever asks, she gives them again."""
    game = await finished(service, color="gote", handicap="two_piece")
    assert game.gote == ALICE
    for asker in (ALICE, BOB):
        asked = await service.rematches.ask(game.id, asker.user_id)
        assert asked.challenge.handicap is Handicap.TWO_PIECE
        again = await service.challenges.accept(asked.challenge.id, asked.challenge.opponent)  # type: ignore[arg-type]
        assert (again.sente, again.gote) == (BOB, ALICE)
        assert again.game.start.sfen() == Handicap.TWO_PIECE.sfen
        await service.endings.resign(again.id, BOB.user_id)
        game = again


async def test_a_set_up_position_is_played_again_with_colours_swapped(
    service: GameService,
) -> None:
    game = await finished(service, start_sfen=SET_UP)
    asked = await service.rematches.ask(game.id, ALICE.user_id)
    assert asked.challenge.start_sfen == game.row.start_sfen
    again = await service.challenges.accept(asked.challenge.id, BOB.user_id)
    assert (again.sente, again.gote) == (BOB, ALICE)
    assert again.game.start.sfen() == game.game.start.sfen()


async def test_only_the_players_of_a_finished_game_ask(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(ServiceError, match="still going on"):
        await service.rematches.ask(game.id, ALICE.user_id)
    await service.endings.abort(game.id, ALICE.user_id)  # aborted games get one too
    with pytest.raises(NotAPlayer, match="not a player"):
        await service.rematches.ask(game.id, CAROL.user_id)
    with pytest.raises(NotFound, match="no game #"):
        await service.rematches.ask(game.id, ALICE.user_id, guild_id=GUILD + 1)
    assert (await service.rematches.ask(game.id, ALICE.user_id)).challenge.opponent == BOB


async def test_a_second_press_offers_nothing_more_and_the_other_press_accepts(
    service: GameService, db: Database
) -> None:
    game = await finished(service)
    first = await service.rematches.ask(game.id, ALICE.user_id)
    with pytest.raises(ServiceError, match="already offered Bob a rematch"):
        await service.rematches.ask(game.id, ALICE.user_id)
    taken = await service.rematches.ask(game.id, BOB.user_id)
    assert taken.game is not None and taken.challenge.id == first.challenge.id
    assert taken.challenge.status == "accepted" and taken.challenge.game_id == taken.game.id
    assert (taken.game.sente, taken.game.gote) == (BOB, ALICE)
    for player in (ALICE, BOB):
        with pytest.raises(ServiceError, match="already started"):
            await service.rematches.ask(game.id, player.user_id)
    assert await rematches(db, game.id) == [(first.challenge.id, "accepted")]


async def test_both_pressing_at_once_make_one_rematch_and_start_it(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's offer is stored between Alice's checks and her write: her offer would be a
    second one, so her press accepts his instead."""
    game = await finished(service)
    offered = []

    async def bob_first() -> None:
        offered.append(await service.rematches.ask(game.id, BOB.user_id))

    before_next_write(db, monkeypatch, bob_first)
    mine = await service.rematches.ask(game.id, ALICE.user_id)
    assert offered[0].game is None and offered[0].challenge.challenger == BOB
    assert mine.game is not None and mine.challenge.id == offered[0].challenge.id
    assert await rematches(db, game.id) == [(mine.challenge.id, "accepted")]


async def test_a_declined_or_expired_rematch_may_be_offered_again(
    service: GameService, db: Database, clock: FakeClock
) -> None:
    game = await finished(service)
    first = await service.rematches.ask(game.id, ALICE.user_id)
    await service.challenges.decline(first.challenge.id, BOB.user_id)
    second = await service.rematches.ask(game.id, BOB.user_id)
    clock.advance(days=7, seconds=1)
    third = await service.rematches.ask(game.id, BOB.user_id)  # the second lapsed
    assert third.game is None and third.challenge.challenger == BOB
    assert await rematches(db, game.id) == [
        (first.challenge.id, "declined"),
        (second.challenge.id, "expired"),
        (third.challenge.id, "open"),
    ]
    assert third.challenge.expires_at == clock.now + timedelta(days=7)


async def test_a_rematch_waits_behind_another_open_challenge_of_the_pair(
    service: GameService,
) -> None:
    game = await finished(service)
    await service.challenges.offer(guild_id=GUILD, channel_id=1, challenger=BOB, opponent=ALICE)
    with pytest.raises(ServiceError, match="already an open challenge"):
        await service.rematches.ask(game.id, ALICE.user_id)
