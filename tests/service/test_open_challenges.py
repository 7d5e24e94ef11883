"""Open challenges: offered to nobody in particular, taken by the first member who accepts
(never by their author or a bot), withdrawn by their author, expired after a week."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.db import Database
from bot.services import GameService, NotAPlayer, NotFound, PlayerRef, ServiceError

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    FakeClock,
    RecordingEvents,
    before_next_write,
    checked,
)

ROBOT = PlayerRef(9009, "Robot", is_bot=True)
DAVE = PlayerRef(4004, "Dave")


async def open_challenge(service: GameService, **options: object) -> int:
    challenge = await service.challenges.offer(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        **options,  # type: ignore[arg-type]
    )
    assert challenge.opponent is None and challenge.status == "open"
    return challenge.id


async def game_count(db: Database) -> int:
    async with db.read() as tx:
        return len(await tx.games.ids("active") + await tx.games.ids("finished"))


async def test_anyone_but_the_author_and_bots_may_accept(
    service: GameService, db: Database
) -> None:
    challenge = await open_challenge(service, color="gote", time_control="2d", handicap="bishop")
    with pytest.raises(NotAPlayer, match="your own open challenge"):
        await service.challenges.accept(challenge, ALICE)
    with pytest.raises(NotAPlayer, match="Bots cannot play"):
        await service.challenges.accept(challenge, ROBOT)
    assert await game_count(db) == 0
    game = await service.challenges.accept(challenge, CAROL)
    assert (game.sente, game.gote) == (CAROL, ALICE)  # alice gives the bishop as gote
    assert game.handicap.id == "bishop" and game.to_move == ALICE
    closed = await service.challenges.get(challenge)
    assert closed.status == "accepted" and closed.game_id == game.id and closed.opponent is None
    with pytest.raises(ServiceError, match="no longer open \\(it was accepted\\)"):
        await service.challenges.accept(challenge, BOB)


async def test_an_open_challenge_is_only_taken_in_its_server(service: GameService) -> None:
    challenge = await open_challenge(service)
    with pytest.raises(NotFound, match="no longer exists"):
        await service.challenges.accept(challenge, CAROL, guild_id=GUILD + 1)
    assert (await service.challenges.get(challenge)).status == "open"
    game = await service.challenges.accept(challenge, CAROL, guild_id=GUILD)
    assert game.guild_id == GUILD


async def test_the_taker_needs_no_earlier_game(service: GameService, db: Database) -> None:
    """A member the bot never saw becomes a player (the game refers to them)."""
    challenge = await open_challenge(service)
    game = await service.challenges.accept(challenge, DAVE)
    assert DAVE in (game.sente, game.gote)
    async with db.read() as tx:
        stored = await tx.players.get(DAVE.user_id)
    assert stored is not None and stored.name == "Dave"


async def test_an_open_challenge_is_cancelled_by_its_author_only(service: GameService) -> None:
    challenge = await open_challenge(service)
    with pytest.raises(NotAPlayer, match="can't be declined"):
        await service.challenges.decline(challenge, BOB.user_id)
    with pytest.raises(NotAPlayer, match="Only Alice can cancel"):
        await service.challenges.cancel(challenge, BOB.user_id)
    cancelled = await service.challenges.cancel(challenge, ALICE.user_id)
    assert cancelled.status == "cancelled"
    with pytest.raises(ServiceError, match="cancelled"):
        await service.challenges.accept(challenge, BOB)


async def test_open_challenges_do_not_block_others(service: GameService) -> None:
    """An open challenge is no challenge between two named players: both may still be
    challenged, and the author may post another open one."""
    await open_challenge(service)
    await open_challenge(service)
    await service.challenges.offer(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB
    )


async def test_a_second_accept_racing_in_is_told_it_was_taken(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carol's accept lands between Bob's checks and his write: she gets the game, he is
    told the challenge was accepted, and no second game is stored."""
    challenge = await open_challenge(service)
    taken: list[int] = []

    async def carol_first() -> None:
        taken.append((await service.challenges.accept(challenge, CAROL)).id)

    before_next_write(db, monkeypatch, carol_first)
    with pytest.raises(ServiceError, match="it was accepted"):
        await service.challenges.accept(challenge, BOB)
    assert await game_count(db) == 1
    game = await service.games.get(taken[0])
    assert CAROL in (game.sente, game.gote) and BOB not in (game.sente, game.gote)


async def test_many_members_accepting_at_once_make_one_game(db: Database, clock: FakeClock) -> None:
    service = GameService(db, clock=clock, rng=random.Random(3))
    challenge = await open_challenge(service)
    takers = [PlayerRef(5000 + n, f"m{n}") for n in range(8)]
    results = await asyncio.gather(
        *(service.challenges.accept(challenge, taker) for taker in takers), return_exceptions=True
    )
    games = [r for r in results if not isinstance(r, BaseException)]
    refusals = [r for r in results if isinstance(r, BaseException)]
    assert len(games) == 1 and await game_count(db) == 1
    assert all(isinstance(r, ServiceError) and "accepted" in str(r) for r in refusals)
    assert (await service.challenges.get(challenge)).game_id == games[0].id


async def test_an_open_challenge_expires_after_a_week(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    challenge = await open_challenge(service)
    clock.advance(days=7)
    with pytest.raises(ServiceError, match="expired"):
        await service.challenges.accept(challenge, BOB)
    await service.outbox.deliver_all()  # its message is closed from the outbox
    assert [c.id for c in events.expired] == [challenge]
    assert events.expired[0].opponent is None


async def test_the_deadline_task_expires_open_challenges(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    challenge = await open_challenge(service)
    clock.advance(days=7)
    await checked(service)
    assert [(c.id, c.status) for c in events.expired] == [(challenge, "expired")]
