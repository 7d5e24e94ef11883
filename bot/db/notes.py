"""Private notes on games: each member's own, written at a ply of the game.

Every query names the author as well as the game: a note is only ever read or deleted
by the member who wrote it, and that rule is in the SQL, not only in the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .rows import from_us, to_us


@dataclass(frozen=True, slots=True)
class NoteRow:
    """One note: whose, on which game, at which ply, what it says and when."""

    id: int
    game_id: int
    author_id: int
    ply: int
    body: str
    written_at: datetime


def _note(row: Row) -> NoteRow:
    return NoteRow(row[0], row[1], row[2], row[3], row[4], from_us(row[5]))


_COLUMNS = "id, game_id, author_id, ply, body, written_at FROM notes"


class NoteRepository(Repository):
    async def add(self, game_id: int, author_id: int, ply: int, body: str, at: datetime) -> int:
        """Store a note; its id."""
        row = await self._one(
            "INSERT INTO notes (game_id, author_id, ply, body, written_at)"
            " VALUES (?, ?, ?, ?, ?) RETURNING id",
            (game_id, author_id, ply, body, to_us(at)),
        )
        assert row is not None
        return int(row[0])

    async def lock(self, game_id: int, author_id: int) -> None:
        """Keep the author's other writes of notes out until this transaction ends, on
        this game and on every other, so that a count taken now (on the game, or over all
        of the author's notes) still holds when the note is written: two notes sent at
        once must not both find room for one more."""
        await self._statements.lock([f"notes:{author_id}"])

    async def count_all(self, author_id: int) -> int:
        """How many notes the author keeps over every game."""
        row = await self._one("SELECT COUNT(*) FROM notes WHERE author_id = ?", (author_id,))
        return 0 if row is None else int(row[0])

    async def count(self, game_id: int, author_id: int) -> int:
        """How many notes the author keeps on the game."""
        row = await self._one(
            "SELECT COUNT(*) FROM notes WHERE game_id = ? AND author_id = ?",
            (game_id, author_id),
        )
        return 0 if row is None else int(row[0])

    async def of(self, game_id: int, author_id: int) -> list[NoteRow]:
        """The author's notes on the game, in the order they were written."""
        rows = await self._all(
            f"SELECT {_COLUMNS} WHERE game_id = ? AND author_id = ? ORDER BY id",
            (game_id, author_id),
        )
        return [_note(row) for row in rows]

    async def delete(self, game_id: int, author_id: int, note_id: int | None) -> int:
        """Delete one of the author's notes on the game (all of them with None); how many
        went (0: no such note of theirs)."""
        if note_id is None:
            sql = "DELETE FROM notes WHERE game_id = ? AND author_id = ?"
            return await self._write(sql, (game_id, author_id))
        return await self._write(
            "DELETE FROM notes WHERE game_id = ? AND author_id = ? AND id = ?",
            (game_id, author_id, note_id),
        )
