"""Time zones and quiet hours: names read forgivingly and refused with one sentence, a
server's default zone from its language, a player's choices stored and kept, and the
hour of a moment read in the player's zone (across midnight and a change of summer time)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.db import open_database
from bot.services import BadTimeZone, GameService, Notifications, Preferences, QuietHours
from bot.services.club.zones import default_zone, matching_zones, zone_named


def test_a_zone_name_is_read_whatever_its_case_and_blanks() -> None:
    assert zone_named("asia/tokyo") == ZoneInfo("Asia/Tokyo")
    assert zone_named("  Europe/Paris ").key == "Europe/Paris"
    assert zone_named("UTC").key == "UTC"


@pytest.mark.parametrize("typed", ["Mars/Olympus", "Tokyo", "", "Asia/" + "x" * 6_000, "../etc"])
def test_an_unknown_zone_is_refused_with_one_short_sentence(typed: str) -> None:
    with pytest.raises(BadTimeZone) as refused:
        zone_named(typed)
    assert "Asia/Tokyo" in refused.value.message and len(refused.value.message) < 200


def test_a_server_without_a_zone_is_dated_by_its_language() -> None:
    assert default_zone("ja").key == "Asia/Tokyo"
    assert default_zone("en").key == "UTC"


def test_suggestions_put_the_names_that_start_with_the_typed_text_first() -> None:
    assert matching_zones("tokyo") == ["Asia/Tokyo"]
    found = matching_zones("america/", limit=5)
    assert len(found) == 5 and all(name.startswith("America/") for name in found)
    assert len(matching_zones("x" * 6_000)) == 0


@pytest.mark.parametrize(
    ("quiet", "inside", "outside"),
    [(QuietHours(22, 7), [22, 23, 0, 6], [7, 12, 21]), (QuietHours(1, 5), [1, 4], [0, 5, 23])],
)
def test_quiet_hours_run_across_midnight_when_they_end_earlier(
    quiet: QuietHours, inside: list[int], outside: list[int]
) -> None:
    assert all(hour in quiet for hour in inside)
    assert not any(hour in quiet for hour in outside)


def test_a_moment_is_quiet_by_the_hour_in_the_players_zone() -> None:
    night = Preferences(quiet_hours=QuietHours(22, 7))
    paris = ZoneInfo("Europe/Paris")
    # 21:30 UTC is 22:30 in Paris in winter (quiet) but 23:30 in summer (quiet too);
    # 20:30 UTC is 21:30 in winter (not quiet) and 22:30 in summer (quiet).
    assert night.quiet_at(datetime(2026, 1, 10, 21, 30, tzinfo=UTC), paris)
    assert not night.quiet_at(datetime(2026, 1, 10, 20, 30, tzinfo=UTC), paris)
    assert night.quiet_at(datetime(2026, 7, 10, 20, 30, tzinfo=UTC), paris)
    assert not Preferences().quiet_at(datetime(2026, 1, 10, 23, 0, tzinfo=UTC), paris)


async def test_a_players_zone_digest_hour_and_quiet_hours_are_kept(
    shared_location: str | Path,
) -> None:
    path = shared_location  # SQLite or PostgreSQL, opened twice as a restart would
    db = await open_database(path)
    service = GameService(db)
    chosen = await service.preferences.change(
        1,
        notifications=Notifications.DIGEST,
        digest_hour=0,
        time_zone="asia/tokyo",
        quiet_hours=QuietHours(23, 6),
    )
    assert chosen.time_zone == "Asia/Tokyo" and chosen.digest_hour == 0
    assert not chosen.turn_messages and chosen.direct_messages
    with pytest.raises(BadTimeZone):
        await service.preferences.change(1, time_zone="Atlantis/Capital")
    await db.close()

    db = await open_database(path)
    fresh = GameService(db)
    kept = await fresh.preferences.of(1)
    assert kept == chosen  # the refused zone changed nothing
    loud = await fresh.preferences.change(1, loud=True)
    assert loud.quiet_hours is None and loud.digest_hour == 0
    with pytest.raises(ValueError, match="24"):
        await fresh.preferences.change(1, digest_hour=24)
    await db.close()


async def test_a_servers_zone_is_chosen_kept_and_given_back(shared_location: str | Path) -> None:
    path = shared_location  # SQLite or PostgreSQL, opened twice as a restart would
    db = await open_database(path)
    service = GameService(db)
    assert (await service.servers.zone(5, "ja")).key == "Asia/Tokyo"
    assert (await service.servers.zone(5, "en")).key == "UTC"
    await service.servers.set_zone(5, "europe/london")
    with pytest.raises(BadTimeZone):
        await service.servers.set_zone(5, "Nowhere")
    await db.close()

    db = await open_database(path)
    fresh = GameService(db)
    assert (await fresh.servers.zone(5, "ja")).key == "Europe/London"
    assert await fresh.servers.chosen_zone(5) == "Europe/London"
    await fresh.servers.set_language(5, "en")  # another setting keeps the zone
    assert await fresh.servers.chosen_zone(5) == "Europe/London"
    await fresh.servers.set_zone(5, None)
    assert (await fresh.servers.zone(5, "ja")).key == "Asia/Tokyo"
    await db.close()
