"""`python -m bot.db backup PATH`: an online copy of the SQLite database, checked.

The copy is made while a game is being played on the same file (the bot does not stop
for a backup), holds every committed move, passes SQLite's integrity check, opens as a
database the bot can use, and never replaces an existing file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.db import open_database
from bot.db.__main__ import main
from bot.db.backup import BackupError, backup, check
from bot.services import GameService

from .conftest import FakeClock, play_all, start_game

OPENING = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b"]


async def test_a_backup_taken_while_moves_are_played_holds_every_commit(
    tmp_path: Path, clock: FakeClock
) -> None:
    live = tmp_path / "live.db"
    db = await open_database(live)
    service = GameService(db, clock=clock)
    game = await start_game(service)
    await play_all(service, game.id, OPENING[:2])
    playing = asyncio.create_task(play_all(service, game.id, OPENING[2:]))
    copies = []
    for n in range(3):  # while the moves go on
        copies.append(await asyncio.to_thread(backup, live, tmp_path / f"copy{n}.db"))
    await playing
    last = await asyncio.to_thread(backup, live, tmp_path / "last.db")
    await db.close()
    assert all(2 <= report.moves <= len(OPENING) for report in copies)
    assert (last.games, last.moves) == (1, len(OPENING))
    restored = await open_database(last.path)  # the bot can run on the copy
    try:
        assert (await GameService(restored, clock=clock).games.get(game.id)).ply == len(OPENING)
    finally:
        await restored.close()


async def test_a_backup_never_overwrites_and_a_damaged_copy_is_reported(
    tmp_path: Path, clock: FakeClock
) -> None:
    live = tmp_path / "live.db"
    db = await open_database(live)
    await start_game(GameService(db, clock=clock))
    await db.close()
    earlier = tmp_path / "earlier.db"
    earlier.write_bytes(b"an earlier backup")
    with pytest.raises(BackupError, match="never overwrites"):
        backup(live, earlier)
    assert earlier.read_bytes() == b"an earlier backup"
    with pytest.raises(BackupError, match=f"no database at {tmp_path / 'missing.db'}"):
        backup(tmp_path / "missing.db", tmp_path / "new.db")
    assert not (tmp_path / "missing.db").exists() and not (tmp_path / "new.db").exists()
    # A missing folder is made (backups/ on a fresh checkout); one that cannot be is said.
    assert backup(live, tmp_path / "new" / "folder" / "first.db").games == 1
    with pytest.raises(BackupError, match="could not make the folder"):
        backup(live, earlier / "under-a-file.db")
    copy = backup(live, tmp_path / "good.db").path
    data = copy.read_bytes()
    page = int.from_bytes(data[16:18], "big")  # the page size, from the file's header
    # The schema's page kept, every table's and index's page after it overwritten.
    copy.write_bytes(data[:page] + b"\xab" * (len(data) - page))
    with pytest.raises(BackupError, match=r"damaged|cannot be read"):
        check(copy)


def test_the_command_says_what_it_did_or_why_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def make() -> None:
        await (await open_database(tmp_path / "live.db")).close()

    asyncio.run(make())
    env = tmp_path / "env"
    env.write_text(f"DATABASE_PATH={tmp_path / 'live.db'}\n")
    target = tmp_path / "backup.db"
    assert main(["--env-file", str(env), "backup", str(target)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Backed up {tmp_path / 'live.db'} to {target}:")
    assert "0 games, 0 moves, integrity ok" in out
    assert main(["--env-file", str(env), "backup", str(target)]) == 1
    assert "never overwrites" in capsys.readouterr().err
