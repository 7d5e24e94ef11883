"""Accepting unrated: a game is rated only when both players chose so. The challenger
chooses with the challenge's `rated` option, the taker by accepting with `rated=False`;
either saying no gives an unrated game, whose ending leaves every rating as it was."""

from __future__ import annotations

import pytest

from bot.services import GameService, PlayerRef

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, play_all


async def offer(
    service: GameService, *, opponent: PlayerRef | None = BOB, rated: bool = True
) -> int:
    challenge = await service.challenges.offer(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=opponent,
        color="sente",
        rated=rated,
    )
    assert challenge.rated is rated
    return challenge.id


async def ratings_table(service: GameService) -> list[tuple[int, int, int]]:
    """Every rated member of the server: (user id, rating points, rated games)."""
    lines = await service.ratings.leaderboard(GUILD)
    return [(line.user_id, line.rating.points, line.games) for line in lines]


@pytest.mark.parametrize("opponent", [BOB, None], ids=["named", "open"])
async def test_a_rated_challenge_accepted_unrated_gives_an_unrated_game(
    service: GameService, opponent: PlayerRef | None
) -> None:
    taker = opponent or CAROL
    game = await service.challenges.accept(
        await offer(service, opponent=opponent), taker, rated=False
    )
    assert not game.rated and not game.row.terms.rated
    assert (await service.games.get(game.id)).rated is False  # stored so, not only returned
    await play_all(service, game.id, ["7g7f", "3c3d"])  # both moved
    ended = await service.endings.resign(game.id, ALICE.user_id)
    assert ended.rating_changes == ()
    assert await service.ratings.changes(game.id) == ()
    assert await ratings_table(service) == []
    assert (await service.ratings.of(GUILD, taker.user_id)).games == 0


async def test_accepting_as_offered_keeps_a_rated_challenge_rated(service: GameService) -> None:
    game = await service.challenges.accept(await offer(service), BOB.user_id)
    assert game.rated
    await play_all(service, game.id, ["7g7f", "3c3d"])  # both moved
    ended = await service.endings.resign(game.id, ALICE.user_id)
    assert [change.user_id for change in ended.rating_changes] == [ALICE.user_id, BOB.user_id]


async def test_the_taker_cannot_make_an_unrated_challenge_rated(service: GameService) -> None:
    """Both must choose rated: the challenger's no stands whatever the taker presses."""
    for rated in (True, False):
        game = await service.challenges.accept(await offer(service, rated=False), BOB, rated=rated)
        assert not game.rated
        await play_all(service, game.id, ["7g7f", "3c3d"])  # both moved
        await service.endings.resign(game.id, BOB.user_id)
    assert await ratings_table(service) == []


async def test_an_unrated_game_between_rated_ones_leaves_the_ratings_alone(
    service: GameService,
) -> None:
    rated = await service.challenges.accept(await offer(service), BOB)
    await play_all(service, rated.id, ["7g7f", "3c3d"])  # both moved
    await service.endings.resign(rated.id, BOB.user_id)
    before = await ratings_table(service)
    assert len(before) == 2
    unrated = await service.challenges.accept(await offer(service), BOB, rated=False)
    await play_all(service, unrated.id, ["7g7f", "3c3d"])  # both moved
    await service.endings.resign(unrated.id, ALICE.user_id)
    assert await ratings_table(service) == before


async def test_a_rematch_of_a_game_accepted_unrated_is_unrated(service: GameService) -> None:
    game = await service.challenges.accept(await offer(service), BOB, rated=False)
    await play_all(service, game.id, ["7g7f", "3c3d"])  # both moved
    await service.endings.resign(game.id, BOB.user_id)
    asked = await service.rematches.ask(game.id, ALICE.user_id)
    assert not asked.challenge.rated
    again = await service.challenges.accept(asked.challenge.id, BOB)
    assert not again.rated


async def test_a_rated_rematch_may_be_accepted_unrated(service: GameService) -> None:
    game = await service.challenges.accept(await offer(service), BOB)
    await play_all(service, game.id, ["7g7f", "3c3d"])  # both moved
    await service.endings.resign(game.id, BOB.user_id)
    asked = await service.rematches.ask(game.id, ALICE.user_id)
    assert asked.challenge.rated
    again = await service.challenges.accept(asked.challenge.id, BOB, rated=False)
    assert not again.rated
