"""Daily digests through the service: due at the player's local hour (in their zone, else
their server's, else their language's), across changes of the clocks, once per day across
restarts, missed days and processes sharing the database; never before the player chose
them, never empty."""

from __future__ import annotations

import asyncio
import zoneinfo
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path

import pytest

from bot.db import open_database
from bot.services import Digest, GameService, Notifications
from bot.services.clock.digests import hours_around

from .conftest import ALICE, BOB, CAROL, GUILD, FakeClock, play_all, start_game

TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")
PARIS = zoneinfo.ZoneInfo("Europe/Paris")
#: A Friday evening in Tokyo (21:00), the Friday before Europe's clocks go forward.
FRIDAY = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)


def utc(day: int, hour: int, minute: int = 0, month: int = 3) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("now", "hour", "zone", "last", "following"),
    [
        (utc(27, 12), 8, TOKYO, utc(26, 23), utc(27, 23)),
        (utc(27, 23), 8, TOKYO, utc(27, 23), utc(28, 23)),  # at the hour: it is due
        (utc(28, 7), 8, PARIS, utc(28, 7), utc(29, 6)),  # 8:00 CET, then 8:00 CEST
        (utc(29, 6, 30), 8, PARIS, utc(29, 6), utc(30, 6)),
        (utc(28, 12), 2, PARIS, utc(28, 1), utc(29, 1)),  # 2:00 is skipped: 3:00 CEST
        (utc(25, 0, 30, month=10), 2, PARIS, utc(25, 0, month=10), utc(26, 1, month=10)),
        (utc(26, 7, month=10), 8, PARIS, utc(26, 7, month=10), utc(27, 7, month=10)),
    ],
)
def test_the_hour_in_a_zone_across_changes_of_the_clocks(
    now: datetime, hour: int, zone: tzinfo, last: datetime, following: datetime
) -> None:
    assert hours_around(now, hour, zone) == (last, following)


class Recorder:
    """Digests as the Discord layer would send them."""

    def __init__(self) -> None:
        self.sent: list[Digest] = []
        self.zones_asked: list[int] = []

    async def send(self, digest: Digest) -> None:
        await asyncio.sleep(0)  # a message takes a moment: others may run meanwhile
        self.sent.append(digest)

    async def server_zone(self, guild_id: int) -> tzinfo:
        self.zones_asked.append(guild_id)
        return PARIS


def delivering(service: GameService, recorder: Recorder) -> GameService:
    service.digests.deliver_with(recorder.send, recorder.server_zone)
    return service


@pytest.fixture
def friday(clock: FakeClock) -> FakeClock:
    clock.now = FRIDAY
    return clock


async def test_the_digest_comes_at_the_local_hour_once_a_day_with_every_game_to_move(
    service: GameService, friday: FakeClock
) -> None:
    recorder = Recorder()
    delivering(service, recorder)
    later = await start_game(service, time_control="7d")
    sooner = await start_game(service, time_control="1d", guild_id=GUILD + 1)
    theirs = await start_game(service, time_control="1d")
    await play_all(service, theirs.id, ["7g7f"])  # Bob's move there
    await service.preferences.change(
        ALICE.user_id,
        notifications=Notifications.DIGEST,
        digest_hour=8,
        time_zone="Asia/Tokyo",
        language="ja",
    )
    # Chosen at 21:00 in Tokyo: the first one is tomorrow at 8, not at once.
    assert await service.digests.check() == utc(27, 23)
    friday.now = utc(27, 22, 59)
    assert await service.digests.check() == utc(27, 23)
    assert recorder.sent == []

    friday.now = utc(27, 23)
    assert await service.digests.check() == utc(28, 23)
    [digest] = recorder.sent
    assert (digest.user_id, digest.language, digest.due_at) == (ALICE.user_id, "ja", utc(27, 23))
    assert [game.id for game in digest.games.games] == [sooner.id, later.id]
    assert digest.games.more == 0
    friday.now = utc(28, 22)
    await service.digests.check()
    assert len(recorder.sent) == 1, "one digest a day"
    friday.now = utc(28, 23, 5)
    await service.digests.check()
    assert [d.due_at for d in recorder.sent] == [utc(27, 23), utc(28, 23)]

    # Down for three days: one digest when it comes back, not three.
    friday.now = utc(31, 23, 30)
    await service.digests.check()
    assert [d.due_at for d in recorder.sent][2:] == [utc(31, 23)]


async def test_no_games_no_message_and_none_after_turning_it_off(
    service: GameService, friday: FakeClock
) -> None:
    recorder = Recorder()
    delivering(service, recorder)
    await service.preferences.change(
        BOB.user_id, notifications=Notifications.DIGEST, time_zone="UTC", digest_hour=13
    )
    game = await start_game(service, challenger=BOB, opponent=CAROL, time_control="3d")
    friday.now = utc(27, 13)
    assert await service.digests.check() == utc(28, 13)
    assert [d.user_id for d in recorder.sent] == [BOB.user_id]
    await play_all(service, game.id, ["7g7f"])  # Carol's move now: nothing waits for Bob
    friday.now = utc(28, 13)
    await service.digests.check()
    assert len(recorder.sent) == 1
    await play_all(service, game.id, ["3c3d"])
    await service.preferences.change(BOB.user_id, notifications=Notifications.NONE)
    friday.now = utc(29, 13)
    assert await service.digests.check() is None
    assert len(recorder.sent) == 1


async def test_without_a_zone_the_server_of_the_oldest_game_else_the_language(
    service: GameService, friday: FakeClock
) -> None:
    recorder = Recorder()
    delivering(service, recorder)
    await service.preferences.change(
        CAROL.user_id, notifications=Notifications.DIGEST, digest_hour=8, language="ja"
    )
    assert await service.digests.check() == utc(27, 23)  # no game: her language's, Tokyo
    await start_game(service, challenger=CAROL, opponent=BOB, guild_id=GUILD + 7)
    await start_game(service, challenger=CAROL, opponent=ALICE, guild_id=GUILD + 8)
    assert await service.digests.check() == utc(28, 7)  # that server is in Paris
    assert recorder.zones_asked[-1] == GUILD + 7
    friday.now = utc(28, 7)
    await service.digests.check()
    assert [(d.user_id, len(d.games.games)) for d in recorder.sent] == [(CAROL.user_id, 2)]


async def test_two_processes_send_one_digest(
    shared_location: str | Path, friday: FakeClock
) -> None:
    """Several bot processes on one database each look at the hour: the claim in the
    database lets one of them send it."""
    databases = [await open_database(shared_location) for _ in range(3)]
    try:
        recorder = Recorder()
        services = [
            delivering(GameService(db, clock=friday, shared_database=True), recorder)
            for db in databases
        ]
        await start_game(services[0])
        await services[0].preferences.change(
            ALICE.user_id, notifications=Notifications.DIGEST, time_zone="Asia/Tokyo"
        )
        friday.now = utc(27, 23)
        for _ in range(3):
            await asyncio.gather(*(service.digests.check() for service in services))
        assert [d.user_id for d in recorder.sent] == [ALICE.user_id]
        # A process started afresh (a restart) finds it sent.
        restarted = delivering(GameService(databases[0], clock=friday), recorder)
        assert await restarted.digests.check() == utc(28, 23)
        assert len(recorder.sent) == 1
    finally:
        for db in databases:
            await db.close()


async def test_nobody_to_send_them_claims_nothing(service: GameService, friday: FakeClock) -> None:
    """Before the Discord layer is there to send digests, none is claimed (and so lost)."""
    await start_game(service)
    await service.preferences.change(
        ALICE.user_id, notifications=Notifications.DIGEST, time_zone="UTC", digest_hour=13
    )
    friday.now = utc(27, 13) + timedelta(minutes=1)
    assert await service.digests.check() is None
    recorder = Recorder()
    delivering(service, recorder)
    await service.digests.check()
    assert [d.due_at for d in recorder.sent] == [utc(27, 13)]


async def test_a_change_of_preferences_wakes_the_digests_task(
    service: GameService, friday: FakeClock
) -> None:
    """With the next digest's moment when the player's zone tells it, so that the task
    looks again only if it comes sooner than planned; not for a player without digests."""
    woken: list[datetime | None] = []
    service.digests.add_deadline_listener(woken.append)
    await service.preferences.change(BOB.user_id, digest_hour=6)
    assert woken == []
    await service.preferences.change(BOB.user_id, notifications=Notifications.DIGEST)
    await service.preferences.change(BOB.user_id, time_zone="Asia/Tokyo")
    assert woken == [None, utc(27, 21)]  # 06:00 in Tokyo on Saturday
