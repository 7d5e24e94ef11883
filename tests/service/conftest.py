"""Fixtures of the service tests: a database on a real file and in memory, a clock the
test moves by hand, events recorded in lists, and helpers that start and play games."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import pytest

from bot.db import Database, NewChallenge, Session, Terms, open_database
from bot.engine import EnginePool
from bot.services import (
    Budgets,
    Challenge,
    GameService,
    GameSnapshot,
    PlayedMove,
    PlayerRef,
    VacationChange,
)
from rules import Color, Game
from tests.support.postgres import fresh_schema

ALICE = PlayerRef(1001, "Alice")
BOB = PlayerRef(2002, "Bob")
CAROL = PlayerRef(3003, "Carol")
GUILD = 42
CHANNEL = 4242
START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
#: The bot's own member, which the computer plays as.
BOT = PlayerRef(9009, "ShogiBot", True)


class FakeClock:
    """A clock that only moves when the test says so."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@dataclass
class RecordingEvents:
    """A `GameEvents` that remembers what it was told."""

    timed_out: list[GameSnapshot] = field(default_factory=list)
    unannounced: list[GameSnapshot] = field(default_factory=list)
    reminders: list[GameSnapshot] = field(default_factory=list)
    expired: list[Challenge] = field(default_factory=list)
    vacations_ended: list[VacationChange] = field(default_factory=list)
    messages: list[tuple[int, str, bool]] = field(default_factory=list)

    async def game_timed_out(self, game: GameSnapshot) -> None:
        self.timed_out.append(game)

    async def deadline_reminder(self, game: GameSnapshot) -> None:
        self.reminders.append(game)

    async def challenge_expired(self, challenge: Challenge) -> None:
        self.expired.append(challenge)

    async def ending_unannounced(self, game: GameSnapshot) -> None:
        self.unannounced.append(game)

    async def vacation_ended(self, change: VacationChange) -> None:
        self.vacations_ended.append(change)

    async def direct_message(self, user_id: int, content: str, *, silent: bool) -> None:
        self.messages.append((user_id, content, silent))


async def checked(service: GameService) -> datetime | None:
    """A deadline check, then what it queued in the outbox delivered (as the bot's sender
    would, unpaced); when the next check is due, as `Deadlines.check` says."""
    upcoming = await service.deadlines.check()
    await service.outbox.deliver_all()
    return upcoming


@pytest.fixture(params=["file", "memory", "postgres"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """The same tests on a real SQLite file (WAL), on `:memory:`, and on PostgreSQL (a
    fresh database of the test's own)."""
    if request.param == "postgres":
        async with fresh_schema(request.getfixturevalue("postgres_database")) as url:
            database = await open_database(url)
            yield database
            await database.close()
        return
    path = tmp_path / "data" / "shogi.db" if request.param == "file" else ":memory:"
    database = await open_database(path)
    yield database
    await database.close()


@pytest.fixture(params=["file", "postgres"])
async def shared_location(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[str | Path]:
    """Where several `open_database` can meet, as several bot processes would: a SQLite
    file, or a fresh PostgreSQL schema."""
    if request.param == "postgres":
        async with fresh_schema(request.getfixturevalue("postgres_database")) as url:
            yield url
        return
    yield tmp_path / "shared.db"


@pytest.fixture
async def file_db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "shogi.db")
    yield database
    await database.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def events() -> RecordingEvents:
    return RecordingEvents()


@pytest.fixture
def service(db: Database, clock: FakeClock, events: RecordingEvents) -> GameService:
    return GameService(db, clock=clock, events=events, rng=random.Random(7))


async def start_game(
    service: GameService,
    *,
    challenger: PlayerRef = ALICE,
    opponent: PlayerRef = BOB,
    color: str = "sente",
    time_control: str = "3d",
    handicap: str = "even",
    impasse_rule: str = "27",
    start_sfen: str | None = None,
    guild_id: int = GUILD,
    takebacks: str = "allowed",
    rated: bool = True,
) -> GameSnapshot:
    """A game between two players, accepted at once (Alice is sente by default)."""
    challenge = await service.challenges.offer(
        guild_id=guild_id,
        channel_id=CHANNEL,
        challenger=challenger,
        opponent=opponent,
        color=color,
        time_control=time_control,
        handicap=handicap,
        impasse_rule=impasse_rule,
        start_sfen=start_sfen,
        takebacks=takebacks,
        rated=rated,
    )
    return await service.challenges.accept(challenge.id, opponent.user_id)


async def first_posts(service: GameService, *game_ids: int) -> None:
    """What the Discord layer does as each game's first post is made: its thread recorded
    (a made-up one here), which starts the clock of an event's game that waited for it."""
    for game_id in game_ids:
        await service.games.set_thread(game_id, 900_000 + game_id)


async def play_all(service: GameService, game_id: int, moves: Iterable[str]) -> PlayedMove:
    """Play `moves`, each by whoever is to move; returns the last result."""
    result = None
    for text in moves:
        view = await service.games.get(game_id)
        assert view.to_move is not None, f"game over before {text!r}"
        result = await service.moves.play(game_id, view.to_move.user_id, text)
    assert result is not None
    return result


async def assert_consistent(db: Database) -> int:
    """Every stored game replays legally from its move list and its row agrees with the
    replay (ply, position, result); returns how many moves were checked."""
    checked = 0
    async with db.read() as tx:
        ids = await tx.games.ids("active") + await tx.games.ids("finished")
    for game_id in ids:
        async with db.read() as tx:
            record = await tx.games.get(game_id)
            moves = await tx.moves.for_game(game_id)
        assert record is not None
        assert [move.ply for move in moves] == list(range(1, len(moves) + 1))
        game = Game(record.start_sfen, [move.usi for move in moves])  # raises if illegal
        assert record.ply == len(moves), game_id
        assert record.sfen == game.position.sfen(), game_id
        if game.outcome is not None:
            assert (
                record.status == "finished" and record.termination == game.outcome.termination.value
            )
        if record.status == "active":
            mover = record.sente if game.position.turn is Color.SENTE else record.gote
            assert record.deadline is None or record.deadline.player_id == mover.user_id
        for move in moves:
            expected = (
                record.sente
                if (move.ply % 2 == 1) == (record.start_sfen.split()[1] == "b")
                else record.gote
            )
            assert move.player_id == expected.user_id, (game_id, move.ply)
        checked += len(moves)
    return checked


T = TypeVar("T")


def before_next_write(
    db: Database, monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], Awaitable[object]]
) -> None:
    """Run `meanwhile` just before the next write transaction starts: what another task
    or process would do between an action's checks and its write."""
    original = db.run
    pending = [meanwhile]

    async def run(work: Callable[[Session], Awaitable[T]], *, write: bool = True) -> T:
        if write and pending:
            await pending.pop()()
        return await original(work, write=write)

    monkeypatch.setattr(db, "run", run)


def with_engine(
    db: Database, clock: FakeClock, pool: EnginePool | None, *, budgets: Budgets | None = None
) -> GameService:
    """A service whose computer plays with `pool` (None: the bot has no engine)."""
    return GameService(db, clock=clock, rng=random.Random(7), engine=pool, budgets=budgets)


async def versus_computer(
    service: GameService,
    *,
    level: int = 1,
    color: str = "gote",
    guild_id: int = GUILD,
    time_control: str = "unlimited",
) -> GameSnapshot:
    """Alice starts a game against the computer; with her default `color` the computer is
    sente and moves first."""
    return await service.computer.start(
        guild_id=guild_id,
        channel_id=CHANNEL,
        member=ALICE,
        computer=BOT,
        level=level,
        color=color,
        time_control=time_control,
    )


def new_challenge(opponent_id: int | None = None) -> NewChallenge:
    """Alice's challenge in `GUILD` at `START`, to `opponent_id` or to anyone, as the
    storage's own tests write it without the service."""
    return NewChallenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE.user_id,
        opponent_id=opponent_id,
        color="random",
        terms=Terms(bank=timedelta(), period=timedelta(days=3), handicap="even", impasse_rule="27"),
        start_sfen=None,
        created_at=START,
        expires_at=START + timedelta(days=7),
    )


async def second_during_first(
    db: Database,
    first: Callable[[Session], Awaitable[T]],
    second: Callable[[Session], Awaitable[T]],
) -> tuple[T, T]:
    """`first` in a transaction kept open a while after it wrote, and `second` in another
    started meanwhile: their results. A storage guard that works makes the second wait
    for the first's commit and count its row; without one, PostgreSQL's second misses it
    and both go in."""
    stored, started = asyncio.Event(), asyncio.Event()

    async def held() -> T:
        async with db.transaction() as tx:
            result = await first(tx)
            stored.set()
            await started.wait()
            await asyncio.sleep(0.2)  # the second's count runs meanwhile, unless it waits
            return result

    async def meanwhile() -> T:
        await stored.wait()
        started.set()
        async with db.transaction() as tx:
            return await second(tx)

    return await asyncio.gather(held(), meanwhile())


@pytest.fixture
async def engines() -> AsyncIterator[list[EnginePool]]:
    """Engine pools a test made, closed after it."""
    pools: list[EnginePool] = []
    yield pools
    for pool in pools:
        await pool.close()
