"""Budgets per member and server (`Budgets`): each limit reached, its one sentence, the
moment it frees, and requests at the same instant stopping exactly at the limit, on a
real SQLite file, in memory and on PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.db import Database, PlayerRow, Session, open_database
from bot.db.challenges import NamedRefusal
from bot.engine import EnginePool
from bot.services import Budgets, Challenge, GameService, Note, PlayerRef, ServiceError
from bot.services.budgets import from_settings

from ..support.engines import fake_engine
from .conftest import (
    ALICE,
    BOB,
    BOT,
    CAROL,
    CHANNEL,
    GUILD,
    START,
    FakeClock,
    new_challenge,
    play_all,
    second_during_first,
    start_game,
    versus_computer,
)

#: Members to challenge: more than any budget below.
MEMBERS = [PlayerRef(5000 + i, f"Member {i}") for i in range(12)]
SMALL = Budgets(
    computer_games=2,
    analyses_per_member=1,
    analyses_per_server=2,
    named_challenges=3,
    rechallenge_after=timedelta(hours=1),
    vacation_starts=2,
    vacation_period=timedelta(days=30),
    notes=4,
)

#: The refusals of a budget full at 3 open challenges naming members, and at 2 computer games.
FULL_OF_THREE = r"open challenges to members here as one member may \(3\)"
TWO_COMPUTER_GAMES = r"games against the computer in progress as one member may \(2\)"


def budgeted(
    db: Database, clock: FakeClock, budgets: Budgets = SMALL, engine: EnginePool | None = None
) -> GameService:
    return GameService(
        db, clock=clock, rng=random.Random(7), budgets=budgets, engine=engine, analysis_ms=20
    )


async def challenge(
    service: GameService,
    opponent: PlayerRef,
    *,
    challenger: PlayerRef = ALICE,
    guild_id: int = GUILD,
) -> Challenge:
    return await service.challenges.offer(
        guild_id=guild_id, channel_id=CHANNEL, challenger=challenger, opponent=opponent
    )


# Open challenges naming a member.


async def test_the_default_budget_of_named_challenges_is_reached_and_said(
    db: Database, clock: FakeClock
) -> None:
    service = GameService(db, clock=clock)
    assert Budgets().named_challenges == 10
    for member in MEMBERS[:10]:
        await challenge(service, member)
    with pytest.raises(ServiceError) as refused:
        await challenge(service, MEMBERS[10])
    assert str(refused.value) == (
        "You already have as many open challenges to members here as one member may (10); "
        "cancel one, or wait until one is answered or expires, before challenging someone else."
    )


async def test_named_challenges_free_when_answered_withdrawn_or_expired(
    db: Database, clock: FakeClock
) -> None:
    service = budgeted(db, clock)
    offered = [await challenge(service, member) for member in MEMBERS[:3]]
    with pytest.raises(ServiceError, match=FULL_OF_THREE):
        await challenge(service, MEMBERS[3])
    await service.challenges.cancel(offered[0].id, ALICE.user_id)
    await challenge(service, MEMBERS[3])
    await service.challenges.accept(offered[1].id, MEMBERS[1].user_id)
    await challenge(service, MEMBERS[4])
    with pytest.raises(ServiceError, match=FULL_OF_THREE):
        await challenge(service, MEMBERS[5])
    clock.advance(days=7)  # every open one expired, before the deadline task marks them
    for member in MEMBERS[5:8]:
        await challenge(service, member)


async def test_named_challenges_count_per_server_and_beside_open_ones(
    db: Database, clock: FakeClock
) -> None:
    service = budgeted(db, clock)
    for member in MEMBERS[:3]:
        await challenge(service, member)
    await challenge(service, MEMBERS[3], guild_id=GUILD + 1)  # another server
    await challenge(service, ALICE, challenger=BOB)  # another member's
    await service.challenges.offer(guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE)
    with pytest.raises(ServiceError, match=FULL_OF_THREE):
        await challenge(service, MEMBERS[4])


async def test_named_challenges_sent_at_once_stop_exactly_at_the_limit(
    db: Database, clock: FakeClock
) -> None:
    """Many challenges by one member at once, each on a connection of its own on
    PostgreSQL: exactly the budget goes in, and every other is told why."""
    service = budgeted(db, clock)
    results = await asyncio.gather(
        *(challenge(service, member) for member in MEMBERS), return_exceptions=True
    )
    stored = [r for r in results if isinstance(r, Challenge)]
    refused = [r for r in results if not isinstance(r, Challenge)]
    assert len(stored) == SMALL.named_challenges, results
    assert all(
        isinstance(r, ServiceError) and "open challenges to members" in str(r) for r in refused
    ), refused


async def test_named_challenges_from_two_processes_at_once_stop_at_the_limit(
    shared_location: str | Path, clock: FakeClock
) -> None:
    one = await open_database(shared_location)
    two = await open_database(shared_location)
    try:
        first, second = budgeted(one, clock), budgeted(two, clock)
        results = await asyncio.gather(
            *(challenge(first if i % 2 else second, member) for i, member in enumerate(MEMBERS)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Challenge) for r in results) == SMALL.named_challenges, results
    finally:
        await one.close()
        await two.close()


async def test_a_second_named_challenge_waits_for_the_first_to_commit(db: Database) -> None:
    """The storage's own guard, without the service around it (whose upsert of the
    challenger's name happens to order two offers too): the first challenge to the limit
    stays uncommitted while the second counts. Unguarded, PostgreSQL's second count
    misses the first's row and both go in."""
    limit = SMALL.named_challenges
    room: dict[str, Any] = {"limit": limit, "per_member": 3, "since": START}

    async with db.transaction() as tx:
        for player in (ALICE, *MEMBERS):
            await tx.players.upsert(PlayerRow(player.user_id, player.name, False), START)
        for member in MEMBERS[: limit - 1]:
            created = await tx.challenges.create_named(new_challenge(member.user_id), **room)
            assert isinstance(created, int)

    def to(member: PlayerRef) -> Callable[[Session], Awaitable[int | NamedRefusal]]:
        async def offer(tx: Session) -> int | NamedRefusal:
            return await tx.challenges.create_named(new_challenge(member.user_id), **room)

        return offer

    results = await second_during_first(db, to(MEMBERS[limit]), to(MEMBERS[limit + 1]))
    assert isinstance(results[0], int) and results[1] == NamedRefusal("full"), results


# Challenging again after a decline.


async def test_a_declined_challenger_waits_and_hears_until_when(
    db: Database, clock: FakeClock
) -> None:
    service = budgeted(db, clock)
    first = await challenge(service, BOB)
    clock.advance(minutes=10)
    await service.challenges.decline(first.id, BOB.user_id)
    clock.advance(minutes=20)
    with pytest.raises(ServiceError) as refused:
        await challenge(service, BOB)
    sentence = refused.value.sentence
    assert sentence.template == (
        "{name} declined your challenge: you can challenge them again {when}."
    )
    assert sentence.params == {"name": "Bob", "when": START + timedelta(minutes=70)}
    await challenge(service, CAROL)  # anyone else at once
    await challenge(service, BOB, guild_id=GUILD + 1)  # and Bob in another server
    back = await challenge(service, ALICE, challenger=BOB)  # Bob may challenge back at once
    await service.challenges.cancel(back.id, BOB.user_id)
    clock.advance(minutes=40)  # an hour after the decline
    await challenge(service, BOB)


async def test_a_rematch_declined_waits_as_a_challenge_does(db: Database, clock: FakeClock) -> None:
    service = budgeted(db, clock)
    game = await start_game(service)
    await service.endings.resign(game.id, BOB.user_id)
    rematch = await service.rematches.ask(game.id, ALICE.user_id)
    await service.challenges.decline(rematch.challenge.id, BOB.user_id)
    with pytest.raises(ServiceError, match="Bob declined your challenge"):
        await service.rematches.ask(game.id, ALICE.user_id)


async def test_no_wait_after_a_cancel_or_with_a_wait_of_zero(
    db: Database, clock: FakeClock
) -> None:
    service = budgeted(db, clock, Budgets(rechallenge_after=timedelta(0)))
    first = await challenge(service, BOB)
    await service.challenges.decline(first.id, BOB.user_id)
    for _ in range(5):  # no wait, however often
        again = await challenge(service, BOB)
        await service.challenges.cancel(again.id, ALICE.user_id)


async def test_withdrawing_and_sending_again_pings_a_member_only_so_often(
    db: Database, clock: FakeClock
) -> None:
    """Withdrawing a challenge and sending it again pings its member each time: a few
    fix-ups are fine, then the author waits; a challenge that became a game is no ping in
    vain and does not count."""
    service = budgeted(db, clock)
    game = await start_game(service, opponent=BOB)  # accepted: not counted
    await service.endings.resign(game.id, ALICE.user_id)
    sent = clock.now
    for _ in range(3):
        again = await challenge(service, BOB)
        await service.challenges.cancel(again.id, ALICE.user_id)
        clock.advance(minutes=5)
    with pytest.raises(ServiceError) as refused:
        await challenge(service, BOB)
    assert refused.value.sentence.template == (
        "You have already challenged {name} as often lately as one member may without a "
        "game ({count}); you can challenge them again {when}."
    )
    assert refused.value.sentence.params == {
        "name": "Bob",
        "count": 3,
        "when": sent + timedelta(hours=1),
    }
    await challenge(service, CAROL)  # another member at once
    clock.now = sent + timedelta(hours=1)  # the first of the three is an hour old
    await challenge(service, BOB)


# Games against the computer.


async def computer_game(service: GameService, guild_id: int = GUILD) -> int:
    # Alice moves first: the engine is never asked here.
    return (await versus_computer(service, color="sente", guild_id=guild_id)).id


async def test_games_against_the_computer_are_limited_until_one_ends(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = budgeted(db, clock, engine=engines[0])
    games = [await computer_game(service), await computer_game(service, GUILD + 1)]
    with pytest.raises(ServiceError) as refused:
        await computer_game(service)
    assert str(refused.value) == (
        "You already have as many games against the computer in progress as one member "
        "may (2); finish or resign one to start another."
    )
    # Games between members and challenges to members are not counted.
    await start_game(service, challenger=ALICE, opponent=CAROL)
    await service.endings.resign(games[0], ALICE.user_id)
    await computer_game(service)
    with pytest.raises(ServiceError, match=TWO_COMPUTER_GAMES):
        await computer_game(service)
    # Another member has their own budget.
    await service.computer.start(
        guild_id=GUILD, channel_id=CHANNEL, member=BOB, computer=BOT, level=1, color="sente"
    )


async def test_computer_games_started_at_once_stop_exactly_at_the_limit(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = budgeted(db, clock, engine=engines[0])
    results = await asyncio.gather(
        *(computer_game(service, GUILD + i) for i in range(8)), return_exceptions=True
    )
    started = [r for r in results if isinstance(r, int)]
    assert len(started) == SMALL.computer_games, results
    assert all(
        isinstance(r, ServiceError) and "games against the computer" in str(r)
        for r in results
        if not isinstance(r, int)
    ), results


# Analyses running or waiting.


async def finished_game(service: GameService, opponent: PlayerRef = BOB) -> int:
    game = await start_game(service, opponent=opponent)
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    await service.endings.resign(game.id, opponent.user_id)
    return game.id


async def test_one_analysis_at_a_time_per_member_and_a_few_per_server(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = budgeted(db, clock, engine=engines[0])
    games = [await finished_game(service, member) for member in MEMBERS[:5]]
    release = asyncio.Event()
    held = asyncio.Event()

    async def hold(done: int, total: int) -> None:
        held.set()
        await release.wait()

    first = asyncio.create_task(service.analyses.analyse(games[0], progress=hold, user_id=1))
    await held.wait()  # Alice's analysis is under way, its claim stored
    with pytest.raises(ServiceError) as early:  # before the Discord layer defers
        await service.analyses.prepare(games[1], user_id=1)
    with pytest.raises(ServiceError) as refused:
        await service.analyses.analyse(games[1], user_id=1)
    assert (
        str(early.value)
        == str(refused.value)
        == (
            "You already have an analysis running or waiting for the engine (one member may "
            "have 1 at a time); ask again when it is done."
        )
    )
    held.clear()
    second = asyncio.create_task(service.analyses.analyse(games[1], progress=hold, user_id=2))
    await held.wait()
    with pytest.raises(ServiceError) as full:
        await service.analyses.analyse(games[2], user_id=3)
    assert str(full.value) == (
        "This server already has as many analyses running or waiting for the engine as it "
        "may (2); ask again in a few minutes."
    )
    release.set()
    await asyncio.gather(first, second)
    await service.analyses.analyse(games[2], user_id=1)  # both places free again
    await service.analyses.analyse(games[0], user_id=1)  # stored already: no engine, no place
    held.clear()
    release = asyncio.Event()
    third = asyncio.create_task(service.analyses.analyse(games[3], progress=hold, user_id=1))
    await held.wait()
    with pytest.raises(ServiceError, match="You already have an analysis running"):
        await service.analyses.prepare(games[4], user_id=1)
    assert (await service.analyses.prepare(games[0], user_id=1))[1] == 0  # stored: room enough
    release.set()
    await third


async def test_an_analysis_that_fails_frees_its_place(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = budgeted(db, clock, engine=engines[0])
    games = [await finished_game(service, member) for member in MEMBERS[:2]]

    async def fail(done: int, total: int) -> None:
        raise RuntimeError("the member's message could not be edited")

    with pytest.raises(RuntimeError):
        await service.analyses.analyse(games[0], progress=fail, user_id=1)
    await service.analyses.analyse(games[1], user_id=1)


async def test_a_claim_left_by_a_dead_process_runs_out_with_its_lease(db: Database) -> None:
    """A process that died mid-analysis cannot release its claim: the lease frees it."""
    game = (await start_game(GameService(db, clock=FakeClock()))).id
    room = {"per_member": 1, "per_server": 5}
    async with db.transaction() as tx:
        first = await tx.analyses.claim(
            GUILD, 1, game, now=START, until=START + timedelta(minutes=10), **room
        )
        assert isinstance(first, int)
    async with db.transaction() as tx:
        again = await tx.analyses.claim(
            GUILD, 1, game, now=START + timedelta(minutes=9), until=START, **room
        )
        later = await tx.analyses.claim(
            GUILD, 1, game, now=START + timedelta(minutes=10), until=START, **room
        )
    assert (again, isinstance(later, int)) == ("member", True)


# Vacation starts.


async def test_vacation_starts_are_limited_within_the_period(
    db: Database, clock: FakeClock
) -> None:
    service = budgeted(db, clock)
    await start_game(service)
    first = clock.now
    for _ in range(SMALL.vacation_starts):
        await service.vacations.start(ALICE.user_id)
        clock.advance(minutes=5)
        await service.vacations.end(ALICE.user_id)
        clock.advance(days=1)
    with pytest.raises(ServiceError) as refused:
        await service.vacations.start(ALICE.user_id)
    assert refused.value.sentence.template == (
        "You have started as many vacations in the last {period} as one member may "
        "({count}); you can start another {when}."
    )
    assert refused.value.sentence.params == {
        "count": 2,
        "period": timedelta(days=30),
        "when": first + timedelta(days=30),
    }
    await service.vacations.start(BOB.user_id)  # his own budget
    clock.now = first + timedelta(days=30) - timedelta(microseconds=1)
    with pytest.raises(ServiceError, match="you can start another"):
        await service.vacations.start(ALICE.user_id)
    clock.now = first + timedelta(days=30)
    await service.vacations.start(ALICE.user_id)


# Notes over every game.


async def test_notes_over_all_games_are_limited_and_free_when_deleted(
    db: Database, clock: FakeClock
) -> None:
    service = budgeted(db, clock)
    games = [(await start_game(service, opponent=member)).id for member in MEMBERS[:3]]
    for i in range(SMALL.notes):
        await service.notes.add(games[i % 2], ALICE.user_id, f"note {i}")
    with pytest.raises(ServiceError) as refused:
        await service.notes.add(games[2], ALICE.user_id, "one more")
    assert str(refused.value) == (
        "You already keep as many notes over all your games as one member may (4); "
        "delete some with /notes first."
    )
    await service.notes.add(games[2], BOB.user_id, "Bob's own")
    await service.notes.delete(games[0], ALICE.user_id, None)
    await service.notes.add(games[2], ALICE.user_id, "room again")


async def test_notes_sent_at_once_to_many_games_stop_exactly_at_the_limit(
    db: Database, clock: FakeClock
) -> None:
    service = budgeted(db, clock)
    games = [(await start_game(service, opponent=member)).id for member in MEMBERS[:8]]
    results = await asyncio.gather(
        *(service.notes.add(game, ALICE.user_id, "at once") for game in games * 2),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Note) for r in results) == SMALL.notes, results
    assert all(isinstance(r, Note | ServiceError) for r in results), results


# The settings.


def test_the_budgets_are_read_from_the_settings() -> None:
    budgets = from_settings(
        {
            "LIMIT_COMPUTER_GAMES": "7",
            "LIMIT_RECHALLENGE_MINUTES": "0",
            "LIMIT_VACATION_DAYS": "60",
            "LIMIT_NOTES": " ",
            "OTHER": "x",
        }
    )
    assert budgets == Budgets(
        computer_games=7, rechallenge_after=timedelta(0), vacation_period=timedelta(days=60)
    )
    for bad in ({"LIMIT_NOTES": "0"}, {"LIMIT_NOTES": "-3"}, {"LIMIT_NOTES": "１２"}):
        with pytest.raises(ValueError, match="LIMIT_NOTES must be a whole number from 1"):
            from_settings(bad)
    with pytest.raises(ValueError, match="LIMIT_NOTE is no setting"):
        from_settings({"LIMIT_NOTE": "5"})


#: A count agreeing with a plural noun, as "1 games" would: what no refusal may say.
ONE_AND_A_PLURAL = re.compile(r"\b1 (?:\w+ )?(?:games|challenges|analyses|times|vacations|notes)\b")


async def test_every_refusal_reads_right_at_a_limit_of_one(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    """An operator may set any budget to 1: its refusal must not read "1 games"."""
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    ones = Budgets(
        computer_games=1,
        analyses_per_member=1,
        analyses_per_server=1,
        named_challenges=1,
        challenges_to_one_member=1,
        vacation_starts=1,
        vacation_period=timedelta(days=1),
        notes=1,
    )
    service = budgeted(db, clock, ones, engine=engines[0])
    said: list[str] = []

    async def refusal(attempt: Awaitable[object]) -> None:
        with pytest.raises(ServiceError) as refused:
            await attempt
        said.append(str(refused.value))

    await challenge(service, MEMBERS[0])
    await refusal(challenge(service, MEMBERS[1]))  # open challenges naming a member
    withdrawn = await challenge(service, BOB, guild_id=GUILD + 1)
    await service.challenges.cancel(withdrawn.id, ALICE.user_id)
    await refusal(challenge(service, BOB, guild_id=GUILD + 1))  # sent to one member again
    await computer_game(service)
    await refusal(computer_game(service))
    games = []
    for member in MEMBERS[2:4]:  # played by Carol: Alice has no room for a challenge
        game = await start_game(service, challenger=CAROL, opponent=member)
        await play_all(service, game.id, ["7g7f", "3c3d"])
        await service.endings.resign(game.id, member.user_id)
        games.append(game.id)
    release, held = asyncio.Event(), asyncio.Event()

    async def hold(done: int, total: int) -> None:
        held.set()
        await release.wait()

    first = asyncio.create_task(service.analyses.analyse(games[0], progress=hold, user_id=1))
    await held.wait()
    await refusal(service.analyses.analyse(games[1], user_id=2))  # the server's analyses
    release.set()
    await first
    await service.vacations.start(ALICE.user_id)
    await service.vacations.end(ALICE.user_id)
    await refusal(service.vacations.start(ALICE.user_id))
    await service.notes.add(games[0], ALICE.user_id, "one")
    await refusal(service.notes.add(games[1], ALICE.user_id, "two"))
    assert len(said) == 6
    assert [text for text in said if ONE_AND_A_PLURAL.search(text)] == []
