"""The record of published slash commands: one row per application and scope, the global
scope given back as `guild_id=None`, rows of another application invisible, and a second
publication to a scope replacing the first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.db import Database, PublicationRow

APP = 111
OTHER_APP = 222
GUILD = 42
WHEN = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)


def row(
    guild_id: int | None, digest: str = "a" * 64, count: int = 5, *, application_id: int = APP
) -> PublicationRow:
    return PublicationRow(application_id, guild_id, digest, count, WHEN)


async def test_a_fresh_database_has_no_publications(db: Database) -> None:
    async with db.query() as q:
        assert await q.publications.for_application(APP) == []
        assert await q.publications.get(APP, None) is None


async def test_global_and_guild_scopes_round_trip(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.publications.save(row(GUILD, "b" * 64, 7))
        await tx.publications.save(row(None))
    async with db.read() as tx:
        everything = await tx.publications.for_application(APP)
        assert everything == [row(None), row(GUILD, "b" * 64, 7)]  # global first
        assert await tx.publications.get(APP, None) == row(None)
        assert await tx.publications.get(APP, GUILD) == row(GUILD, "b" * 64, 7)
        assert await tx.publications.get(APP, 43) is None


async def test_saving_a_scope_again_replaces_it(db: Database) -> None:
    later = WHEN + timedelta(days=1)
    async with db.transaction() as tx:
        await tx.publications.save(row(None))
        await tx.publications.save(PublicationRow(APP, None, "c" * 64, 0, later))
    async with db.query() as q:
        assert await q.publications.for_application(APP) == [
            PublicationRow(APP, None, "c" * 64, 0, later)
        ]


async def test_applications_do_not_see_each_other(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.publications.save(row(None))
        await tx.publications.save(row(None, "d" * 64, application_id=OTHER_APP))
        assert await tx.publications.forget(OTHER_APP, GUILD) is False
    async with db.query() as q:
        assert await q.publications.for_application(APP) == [row(None)]
    async with db.query() as q:
        assert await q.publications.for_application(OTHER_APP) == [
            row(None, "d" * 64, application_id=OTHER_APP)
        ]


async def test_forget_removes_one_scope(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.publications.save(row(None))
        await tx.publications.save(row(GUILD))
        assert await tx.publications.forget(APP, GUILD) is True
        assert await tx.publications.forget(APP, GUILD) is False
    async with db.query() as q:
        assert await q.publications.for_application(APP) == [row(None)]
