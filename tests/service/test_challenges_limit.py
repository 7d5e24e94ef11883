"""The limit on open challenges: a member keeps at most `MAX_OPEN_CHALLENGES` challenges to
anyone open in a server; the next is refused until one is taken, cancelled or expired.
Challenges to a named member and rematches do not count. Offers made at the same instant,
in one process or two, store exactly the limit."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.db import Database, PlayerRow, Session, open_database
from bot.services import MAX_OPEN_CHALLENGES, GameService, PlayerRef, ServiceError

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    START,
    FakeClock,
    new_challenge,
    second_during_first,
)

LIMIT = f"You already have {MAX_OPEN_CHALLENGES} open challenges here"


async def post(service: GameService, *, author: PlayerRef = ALICE, guild_id: int = GUILD) -> int:
    """A challenge to anyone by `author`."""
    challenge = await service.challenges.offer(
        guild_id=guild_id, channel_id=CHANNEL, challenger=author
    )
    return challenge.id


async def stored(db: Database, author: PlayerRef = ALICE) -> list[tuple[int, str]]:
    """The challenges to anyone `author` ever posted: (id, status), oldest first."""
    found = []
    async with db.read() as tx:
        for challenge_id in range(1, 100):
            record = await tx.challenges.get(challenge_id)
            if record is None or record.opponent is not None:
                continue
            if record.challenger.user_id == author.user_id:
                found.append((record.id, record.status))
    return found


async def test_one_more_than_the_limit_is_refused_and_not_stored(
    service: GameService, db: Database
) -> None:
    assert MAX_OPEN_CHALLENGES == 3
    posted = [await post(service) for _ in range(MAX_OPEN_CHALLENGES)]
    with pytest.raises(ServiceError) as refused:
        await post(service)
    assert str(refused.value) == (
        "You already have 3 open challenges here, the most one member may have; "
        "cancel one, or wait until one is taken or expires, before posting another."
    )
    assert await stored(db) == [(number, "open") for number in posted]


async def test_a_cancelled_or_taken_challenge_frees_its_place(service: GameService) -> None:
    posted = [await post(service) for _ in range(MAX_OPEN_CHALLENGES)]
    await service.challenges.cancel(posted[0], ALICE.user_id)
    fourth = await post(service)
    with pytest.raises(ServiceError, match=LIMIT):
        await post(service)
    await service.challenges.accept(fourth, CAROL)
    await post(service)
    with pytest.raises(ServiceError, match=LIMIT):
        await post(service)


async def test_expired_challenges_stop_counting_at_once(
    service: GameService, clock: FakeClock, db: Database
) -> None:
    """Past its week a challenge no longer counts, even before the deadline task marks it."""
    for _ in range(MAX_OPEN_CHALLENGES):
        await post(service)
    clock.advance(days=7)
    await post(service)
    assert [status for _, status in await stored(db)] == ["open"] * (MAX_OPEN_CHALLENGES + 1)


async def test_named_challenges_rematches_other_members_and_servers_are_not_counted(
    service: GameService,
) -> None:
    for _ in range(MAX_OPEN_CHALLENGES):
        await post(service)
    named = await service.challenges.offer(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB
    )
    game = await service.challenges.accept(named.id, BOB.user_id)
    await service.endings.resign(game.id, BOB.user_id)
    rematch = await service.rematches.ask(game.id, ALICE.user_id)
    assert rematch.challenge.status == "open"
    await service.challenges.offer(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=CAROL
    )
    await post(service, author=BOB)
    await post(service, guild_id=GUILD + 1)
    with pytest.raises(ServiceError, match=LIMIT):
        await post(service)


async def test_offers_at_the_same_instant_store_exactly_the_limit(
    db: Database, clock: FakeClock
) -> None:
    """Many offers by one member at once, each on a connection of its own on PostgreSQL:
    exactly the limit goes in, and every other offer is told why."""
    service = GameService(db, clock=clock)
    results = await asyncio.gather(
        *(post(service) for _ in range(4 * MAX_OPEN_CHALLENGES)), return_exceptions=True
    )
    posted = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if not isinstance(r, int)]
    assert len(posted) == MAX_OPEN_CHALLENGES, results
    assert all(isinstance(r, ServiceError) and LIMIT in str(r) for r in refused), refused
    assert sorted(posted) == [number for number, _ in await stored(db)]


async def test_offers_from_two_processes_at_once_store_exactly_the_limit(
    shared_location: str | Path, clock: FakeClock
) -> None:
    one = await open_database(shared_location)
    two = await open_database(shared_location)
    try:
        first, second = GameService(one, clock=clock), GameService(two, clock=clock)
        results = await asyncio.gather(
            *(post(service) for _ in range(3 * MAX_OPEN_CHALLENGES) for service in (first, second)),
            return_exceptions=True,
        )
        posted = [r for r in results if isinstance(r, int)]
        assert len(posted) == MAX_OPEN_CHALLENGES, results
        assert all(isinstance(r, ServiceError) for r in results if not isinstance(r, int))
        assert len(await stored(one)) == MAX_OPEN_CHALLENGES
    finally:
        await one.close()
        await two.close()


async def test_a_second_offer_waits_for_the_first_to_commit(db: Database) -> None:
    """The storage's own guard, without the service around it: the first offer to the
    limit stays uncommitted while the second counts. Unguarded, PostgreSQL's second count
    misses the first's row and both go in."""
    new = new_challenge()
    async with db.transaction() as tx:
        await tx.players.upsert(PlayerRow(ALICE.user_id, ALICE.name, False), START)
        for _ in range(MAX_OPEN_CHALLENGES - 1):
            assert await tx.challenges.create_open(new, limit=MAX_OPEN_CHALLENGES) is not None

    async def offer(tx: Session) -> int | None:
        return await tx.challenges.create_open(new, limit=MAX_OPEN_CHALLENGES)

    results = await second_during_first(db, offer, offer)
    assert results[0] is not None and results[1] is None, results
    assert len(await stored(db)) == MAX_OPEN_CHALLENGES
