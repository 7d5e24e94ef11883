"""Server settings: the language of a server's posts and its zone, stored and read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.db import Database, open_database
from bot.services import GameService


async def test_a_server_language_is_stored_and_survives_a_new_service(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    db = await open_database(path)
    service = GameService(db)
    assert await service.servers.language(1) is None
    await service.servers.set_language(1, "ja")
    await service.servers.set_language(2, "en")
    assert await service.servers.language(1) == "ja"
    await db.close()

    db = await open_database(path)
    fresh = GameService(db)
    assert await fresh.servers.language(1) == "ja"
    assert await fresh.servers.language(2) == "en"
    assert await fresh.servers.language(3) is None
    await fresh.servers.set_language(1, None)  # back to the server's language in Discord
    assert await fresh.servers.language(1) is None
    await db.close()


async def test_only_languages_with_catalogs_can_be_chosen(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "shogi.db")
    with pytest.raises(ValueError, match="fr"):
        await GameService(db).servers.set_language(1, "fr")
    await db.close()


async def test_each_setting_of_a_server_is_its_own_and_keeps_the_others(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.servers.set_time_zone(7, "Asia/Tokyo")
        await tx.servers.set_language(7, "en")
        await tx.servers.set_language(8, "ja")
    async with db.read() as r:
        assert (await r.servers.language(7), await r.servers.time_zone(7)) == ("en", "Asia/Tokyo")
        assert (await r.servers.language(8), await r.servers.time_zone(8)) == ("ja", None)
    async with db.transaction() as tx:
        await tx.servers.set_time_zone(7, None)
        await tx.servers.set_time_zone(8, "Asia/Seoul")
    async with db.read() as r:
        assert (await r.servers.language(7), await r.servers.time_zone(7)) == ("en", None)
        assert (await r.servers.language(8), await r.servers.time_zone(8)) == ("ja", "Asia/Seoul")
